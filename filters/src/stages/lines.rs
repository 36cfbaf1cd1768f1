//! The markdown line model the stages share: each line splits into a structural prefix
//! (indentation, blockquote and list markers, heading hashes) and its content.

use crate::vault::{CLOSE, OPEN};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Blank,
    /// `#`..`######` heading; the number is its level.
    Heading(u8),
    /// A bullet or numbered list item (also inside a blockquote).
    ListItem,
    /// A table row: starts and (usually) ends with a pipe.
    TableRow,
    /// A table's `|---|:--:|` separator row.
    TableSeparator,
    /// `---`, `***`, `___` thematic break.
    Rule,
    /// A line that is nothing but one or more vault placeholders (a fenced code block).
    Sealed,
    /// YAML front matter at the top of the document, delimiters included.
    FrontMatter,
    /// Code outside a fence, kept as written (see [`super::code`]): a line of an indented code
    /// block, of a patch, or one that reads as code, a command or a formula.
    Code,
    /// Ordinary prose (also inside a blockquote).
    Text,
}

#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub kind: Kind,
    /// Indentation and markers, kept as written (whitespace runs inside it included).
    pub prefix: &'a str,
    pub content: &'a str,
}

impl<'a> Line<'a> {
    /// True for lines whose content is prose that the English stages may work on.
    pub fn is_prose(&self) -> bool {
        matches!(self.kind, Kind::Text | Kind::ListItem | Kind::Heading(_))
    }

    /// A bullet item's prefix without its bullet: what stands before it (indentation, quote
    /// markers) and after it (a task box), `("  ", "[ ] ")` for `  - [ ] task`. `None` for a
    /// numbered item, whose number orders and names it, and for every other kind of line.
    pub fn around_bullet(&self) -> Option<(&'a str, &'a str)> {
        if self.kind != Kind::ListItem {
            return None;
        }
        let at = self.prefix.find(|c: char| !matches!(c, ' ' | '\t' | '>'))?;
        if !matches!(self.prefix.as_bytes()[at], b'-' | b'*' | b'+') {
            return None;
        }
        let after = self.prefix[at + 1..].trim_start_matches([' ', '\t']);
        Some((&self.prefix[..at], after))
    }
}

/// True when `content` on a line of its own reads as plain text, not as the start of another
/// markdown construct (a heading, a list item, a table row, a rule, a quote).
pub fn reads_as_text(content: &str) -> bool {
    !content.is_empty() && classify(content).kind == Kind::Text && !content.starts_with('>')
}

/// Whether a line opens with a YAML key (`kind: config`, `- name: build` after its dash): a
/// lower-case name, a colon, then a space or nothing.
pub fn opens_with_yaml_key(content: &str) -> bool {
    content.split_once(':').is_some_and(|(key, rest)| {
        !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-'))
            && (rest.is_empty() || rest.starts_with(' '))
    })
}

/// Splits a document into lines (without their `\n`) and classifies each.
pub fn parse(text: &str) -> Vec<Line<'_>> {
    let mut lines: Vec<Line<'_>> = text.split('\n').map(classify).collect();
    mark_front_matter(&mut lines);
    super::code::mark(&mut lines);
    lines
}

fn mark_front_matter(lines: &mut [Line<'_>]) {
    if lines.first().map(|l| l.content.trim_end()) != Some("---") || lines.len() < 2 {
        return;
    }
    let Some(close) = lines[1..].iter().take(200).position(|l| {
        let t = (l.prefix.to_string() + l.content).trim_end().to_string();
        t == "---" || t == "..."
    }) else {
        return;
    };
    for line in &mut lines[..=close + 1] {
        line.kind = Kind::FrontMatter;
    }
}

fn classify(raw: &str) -> Line<'_> {
    let line = raw.strip_suffix('\r').unwrap_or(raw);
    let trimmed = line.trim_start();
    if trimmed.is_empty() {
        // The white space stays with the line: in a patch it is a context line's (see `code`).
        return Line {
            kind: Kind::Blank,
            prefix: line,
            content: "",
        };
    }
    let indent = line.len() - trimmed.len();
    // Blockquote markers belong to the prefix.
    let mut rest = trimmed;
    while let Some(r) = rest.strip_prefix('>') {
        rest = r.trim_start_matches(' ');
    }
    let quote_len = trimmed.len() - rest.len();
    let head_len = indent + quote_len;

    if is_only_placeholders(rest) {
        return Line {
            kind: Kind::Sealed,
            prefix: &line[..head_len],
            content: rest,
        };
    }
    if is_rule(rest) {
        return Line {
            kind: Kind::Rule,
            prefix: &line[..head_len],
            content: rest,
        };
    }
    if let Some(level) = heading_level(rest) {
        let after = &rest[level as usize..];
        let content = after.trim_start();
        let p = head_len + level as usize + (after.len() - content.len());
        return Line {
            kind: Kind::Heading(level),
            prefix: &line[..p],
            content,
        };
    }
    if rest.starts_with('|') {
        let kind = if is_table_separator(rest) {
            Kind::TableSeparator
        } else {
            Kind::TableRow
        };
        return Line {
            kind,
            prefix: &line[..head_len],
            content: rest,
        };
    }
    if let Some(marker) = list_marker_len(rest) {
        let after = &rest[marker..];
        let content = after.trim_start();
        let p = head_len + marker + (after.len() - content.len());
        return Line {
            kind: Kind::ListItem,
            prefix: &line[..p],
            content,
        };
    }
    Line {
        kind: Kind::Text,
        prefix: &line[..head_len],
        content: rest,
    }
}

fn is_only_placeholders(s: &str) -> bool {
    let t = s.trim_end();
    if !t.starts_with(OPEN) {
        return false;
    }
    let mut in_ph = false;
    for c in t.chars() {
        match c {
            OPEN => in_ph = true,
            CLOSE => in_ph = false,
            c if in_ph && c.is_ascii_digit() => {}
            c if !in_ph && c.is_whitespace() => {}
            _ => return false,
        }
    }
    !in_ph
}

fn is_rule(s: &str) -> bool {
    let t = s.trim_end();
    let Some(first) = t.chars().next() else {
        return false;
    };
    matches!(first, '-' | '*' | '_' | '=')
        && t.chars().filter(|c| !c.is_whitespace()).all(|c| c == first)
        && t.chars().filter(|c| *c == first).count() >= 3
}

fn heading_level(s: &str) -> Option<u8> {
    let hashes = s.bytes().take_while(|b| *b == b'#').count();
    if (1..=6).contains(&hashes)
        && s.as_bytes()
            .get(hashes)
            .is_none_or(|b| *b == b' ' || *b == b'\t')
    {
        Some(hashes as u8)
    } else {
        None
    }
}

fn is_table_separator(s: &str) -> bool {
    let t = s.trim_end();
    t.contains('-')
        && t.bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// Length of a list marker (`- `, `* `, `+ `, `1. `, `2) `, with an optional `[ ] ` task box).
fn list_marker_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut n = match b.first()? {
        b'-' | b'*' | b'+' => 1,
        c if c.is_ascii_digit() => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 9 || !matches!(b.get(digits), Some(b'.') | Some(b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    if !matches!(b.get(n), Some(b' ') | Some(b'\t')) {
        return None;
    }
    n += 1;
    let rest = &s[n..];
    for task in ["[ ] ", "[x] ", "[X] "] {
        if rest.starts_with(task) {
            n += task.len();
        }
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_markdown_lines() {
        let doc = "---\nname: x\n---\n# Title\n- item one\n  2. nested\n> quoted text\n| a | b |\n|---|:-:|\n***\n\u{E000}0\u{E001}\nplain";
        let kinds: Vec<Kind> = parse(doc).iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            vec![
                Kind::FrontMatter,
                Kind::FrontMatter,
                Kind::FrontMatter,
                Kind::Heading(1),
                Kind::ListItem,
                Kind::ListItem,
                Kind::Text,
                Kind::TableRow,
                Kind::TableSeparator,
                Kind::Rule,
                Kind::Sealed,
                Kind::Text,
            ]
        );
        let l = classify("  2. nested");
        assert_eq!((l.prefix, l.content), ("  2. ", "nested"));
        let l = classify("> - [ ] task");
        assert_eq!(
            (l.prefix, l.content, l.kind),
            ("> - [ ] ", "task", Kind::ListItem)
        );
    }

    #[test]
    fn a_bullet_is_found_between_indentation_and_task_box() {
        fn around(line: &str) -> Option<(&str, &str)> {
            classify(line).around_bullet()
        }
        assert_eq!(around("- item"), Some(("", "")));
        assert_eq!(around("  * item"), Some(("  ", "")));
        assert_eq!(around("> - [x] done"), Some(("> ", "[x] ")));
        assert_eq!(around("\t+ item"), Some(("\t", "")));
        assert_eq!(around("1. first"), None);
        assert_eq!(around("  2) second"), None);
        assert_eq!(around("plain text"), None);
        assert_eq!(around("## heading"), None);
    }

    #[test]
    fn only_plain_text_reads_as_text() {
        assert!(reads_as_text("Use tabs."));
        assert!(reads_as_text("[ ] open task"));
        for other in [
            "",
            "# title",
            "- nested",
            "1. step",
            "| a | b |",
            "---",
            "> quote",
        ] {
            assert!(!reads_as_text(other), "{other:?}");
        }
    }
}
