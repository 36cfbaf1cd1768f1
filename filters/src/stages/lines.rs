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
    /// A line of an indented code block: indented four spaces or a tab, after a blank line (or
    /// at the start), and not under a list item, whose content such indentation continues.
    /// Kept as written: its indentation may be the code's syntax (Python, YAML, a Makefile).
    IndentedCode,
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

/// Splits a document into lines (without their `\n`) and classifies each.
pub fn parse(text: &str) -> Vec<Line<'_>> {
    let mut lines: Vec<Line<'_>> = text.split('\n').map(classify).collect();
    mark_front_matter(&mut lines);
    mark_indented_code(&mut lines);
    lines
}

/// Marks the lines of indented code blocks (CommonMark's rule, simplified): a block opens with a
/// line indented four columns after a blank line or at the start, outside a list, and runs on
/// through blank lines and indented lines. A block whose every line reads as a sentence is left
/// as text: prompts indent prose too (a section set in under its title), and it keeps its
/// indentation there as well (see `cleanup`).
fn mark_indented_code(lines: &mut [Line<'_>]) {
    let mut after_blank = true;
    let mut in_list = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.kind == Kind::Blank {
            after_blank = true;
            i += 1;
            continue;
        }
        let indented = indent_columns(line.prefix) >= 4 && line.kind != Kind::FrontMatter;
        if indented && after_blank && !in_list {
            let mut end = i + 1;
            for (j, next) in lines.iter().enumerate().skip(i + 1) {
                if next.kind == Kind::Blank {
                    continue;
                }
                if indent_columns(next.prefix) < 4 {
                    break;
                }
                end = j + 1;
            }
            let block = &mut lines[i..end];
            if !reads_as_prose(block) {
                for l in block.iter_mut().filter(|l| l.kind != Kind::Blank) {
                    l.kind = Kind::IndentedCode;
                }
            }
            after_blank = false;
            i = end;
            continue;
        }
        if line.kind == Kind::ListItem {
            in_list = true;
        } else if !indented && line.kind != Kind::FrontMatter {
            // A line at the margin ends the list (a lazy continuation line too, which
            // CommonMark would keep in it; code under it is rarer than a new paragraph).
            in_list = false;
        }
        after_blank = false;
        i += 1;
    }
}

/// Whether an indented block is prose rather than code, a command or a schema: no line holds
/// a character of code syntax, and at least three lines in four read as a sentence (four plain
/// words or more, most of what the line says; two for a list item). XML-style tags are the
/// structure of many long prompts, not code: they are read past, and a line of tags alone or a
/// heading does not count either way.
fn reads_as_prose(block: &[Line<'_>]) -> bool {
    let (mut lines, mut sentences) = (0, 0);
    for line in block.iter().filter(|l| l.kind != Kind::Blank) {
        let text = without_tags(line.content);
        if text.contains(['{', '}', ';', '=', '<', '>', '|', '\\', '$']) {
            return false;
        }
        if text.trim().is_empty() || matches!(line.kind, Kind::Heading(_)) {
            continue;
        }
        let (mut words, mut plain) = (0, 0);
        for word in text.split_whitespace() {
            words += 1;
            let core = word.trim_matches(|c: char| !c.is_alphanumeric());
            if !core.is_empty()
                && core
                    .bytes()
                    .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-')
            {
                plain += 1;
            }
        }
        let least = if line.kind == Kind::ListItem { 2 } else { 4 };
        lines += 1;
        if plain >= least && plain * 10 >= words * 7 {
            sentences += 1;
        }
    }
    sentences * 4 >= lines * 3
}

/// `content` with its XML-style tags (`<rules>`, `</rules>`, `<br/>`) cut out.
fn without_tags(content: &str) -> std::borrow::Cow<'_, str> {
    if !content.contains('<') {
        return content.into();
    }
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at..];
        let name = tag[1..].strip_prefix('/').unwrap_or(&tag[1..]);
        match tag.find('>') {
            Some(end) if name.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                out.push(' ');
                rest = &tag[end + 1..];
            }
            _ => {
                out.push('<');
                rest = &tag[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// The columns of leading white space before a line's first non-blank character, a tab
/// counting four.
fn indent_columns(prefix: &str) -> usize {
    prefix
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .map(|b| if b == b'\t' { 4 } else { 1 })
        .sum()
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
        return Line {
            kind: Kind::Blank,
            prefix: "",
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
    fn indented_code_is_told_from_indented_prose() {
        let kinds = |doc: &str| -> Vec<Kind> { parse(doc).iter().map(|l| l.kind).collect() };
        use Kind::{Blank, IndentedCode as Code, ListItem, Text};
        // After a blank line, outside a list: code, through its blank lines.
        assert_eq!(
            kinds("Run:\n\n    make all\n\n    make test\nDone."),
            vec![Text, Blank, Code, Blank, Code, Text]
        );
        // Indentation that continues a paragraph or a list item is not a code block.
        assert_eq!(kinds("server:\n    port: 80"), vec![Text, Text]);
        assert_eq!(
            kinds("- item\n\n    - nested item"),
            vec![ListItem, Blank, ListItem]
        );
        // Sentences set in under a tag are prose; a line of code syntax makes the block code.
        assert_eq!(
            kinds("<role>\n\n    You are the reviewer of every pull request.\n</role>"),
            vec![Text, Blank, Text, Text]
        );
        assert_eq!(
            kinds("Schema:\n\n    Every field of the record is required.\n    name: string;"),
            vec![Text, Blank, Code, Code]
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
