//! Formatting cleanup, the same in every language: line endings, zero-width characters, HTML
//! comments, trailing and repeated whitespace, blank lines, thematic breaks (one before text
//! stays, as `---`: it separates instructions from data), setext underlines, decorative emphasis
//! and emoji, table padding, and exact duplicate lines. Quoted strings, tags, URLs and other
//! protected spans are copied verbatim.

use super::lines::{self, Kind, Line};
use crate::guard::protected_spans;
use crate::options::Mode;

/// Runs the cleanup on sealed text.
pub fn run(text: &str, mode: Mode) -> String {
    let text = strip_invisible(text);
    let parsed = lines::parse(&text);
    let compact = mode >= Mode::Balanced;
    let mut out = Document::with_capacity(text.len());
    // Reused for every prose line that needs cleaning, instead of a string a line.
    let mut scratch = String::new();
    // The last line written (its markers and content), which tells a duplicate.
    let mut previous: Option<(&str, &str)> = None;
    let mut last_blank = true;
    // The prose line the document ends with (a duplicate skipped counts as written: it is the
    // line before it over again). A setext underline turns only that line into a heading.
    let mut prose_written: Option<usize> = None;

    for (i, line) in parsed.iter().enumerate() {
        match line.kind {
            Kind::FrontMatter => {
                previous = None;
                out.line(&[line.prefix, line.content]);
                out.trim_end();
                last_blank = false;
            }
            Kind::Blank => {
                // A run of blank lines becomes one, in every mode: it marks a paragraph, a
                // section or another message in a thread, and costs next to nothing (`.\n\n`
                // is one token, as `.\n` is).
                if !last_blank {
                    out.line(&[]);
                }
                last_blank = true;
            }
            Kind::Rule => {
                previous = None;
                // Under a paragraph line that reads as a title, `===` or `---` is a setext
                // heading's underline. Under a sentence (`Here is the email:` / `---`), and
                // wherever text follows, the break is the line that separates instructions
                // from the data after them: it stays, cut to three characters, because a text
                // may refer to it (`below the line`) and it keeps quoted data apart from the
                // prompt around it. Before a heading (or at the end) it only decorates.
                if let Some(prev) = parsed
                    .get(i.wrapping_sub(1))
                    .filter(|p| p.kind == Kind::Text)
                    && prose_written == i.checked_sub(1)
                    && !out.last_line().is_empty()
                    && (line.content.starts_with('=') || reads_as_title(prev.content))
                {
                    let level = if line.content.starts_with('=') {
                        "# "
                    } else {
                        "## "
                    };
                    let content = clean_inline_into(prev.content, false, &mut scratch);
                    out.replace_last(&[prev.prefix, level, content]);
                } else if parsed[i + 1..]
                    .iter()
                    .position(|next| next.kind != Kind::Blank)
                    .is_some_and(|at| !opens_a_part(&parsed[i + 1 + at..]))
                {
                    let rule = match line.content.as_bytes()[0] {
                        b'*' => "***",
                        b'_' => "___",
                        _ => "---",
                    };
                    out.line(&[line.prefix.trim_end_matches([' ', '\t']), rule]);
                    last_blank = false;
                }
            }
            // Byte for byte, as the vault keeps a fenced block.
            Kind::Code => {
                previous = None;
                out.line(&[line.prefix, line.content]);
                last_blank = false;
            }
            Kind::Sealed => {
                previous = None;
                out.line(&[line.prefix, line.content.trim_end()]);
                last_blank = false;
            }
            Kind::TableRow => {
                previous = None;
                out.line(&[line.prefix, &clean_table_row(line.content, compact)]);
                last_blank = false;
            }
            Kind::TableSeparator => {
                previous = None;
                out.line(&[line.prefix, &clean_separator(line.content)]);
                last_blank = false;
            }
            Kind::Heading(_) | Kind::ListItem | Kind::Text => {
                let mut content =
                    clean_inline_into(line.content, line.kind != Kind::Text, &mut scratch);
                // `## Title ##`: a heading's closing hashes are decoration.
                if matches!(line.kind, Kind::Heading(_))
                    && content.ends_with('#')
                    && content.trim_end_matches('#').ends_with(' ')
                {
                    content = content.trim_end_matches('#').trim_end();
                }
                if content.is_empty() && line.kind == Kind::Text {
                    continue;
                }
                let key = (line.prefix.trim(), line.content.trim_end());
                if is_duplicate(line, key, previous) {
                    prose_written = Some(i);
                    continue;
                }
                previous = Some(key);
                prose_written = Some(i);
                out.line(&[kept_prefix(line), sep(line), content]);
                last_blank = false;
            }
        }
    }
    let mut joined = out.finish();
    if text.ends_with('\n') && !joined.is_empty() {
        joined.push('\n');
    }
    joined
}

/// A paragraph line a setext underline makes a heading of: short, and not a sentence or a
/// lead-in (`Guidelines`, not `Summarise the text below the line.`).
/// Nor a YAML line (`kind: config`, whose `---` separates documents).
fn reads_as_title(content: &str) -> bool {
    let content = content.trim_end();
    content.chars().count() <= 80
        && !content.ends_with(['.', ':', '!', '?', ',', ';'])
        && !lines::opens_with_yaml_key(content)
}

/// Whether `lines` (from a non-blank line on) open a part of their own: a heading, another
/// break, or a title with a setext underline.
fn opens_a_part(lines: &[Line<'_>]) -> bool {
    match lines {
        [first, ..] if matches!(first.kind, Kind::Heading(_) | Kind::Rule) => true,
        [first, second, ..] => {
            first.kind == Kind::Text && second.kind == Kind::Rule && reads_as_title(first.content)
        }
        _ => false,
    }
}

/// The cleaned document, written line by line into one string.
struct Document {
    text: String,
    lines: usize,
    /// Where the last line starts.
    last: usize,
}

impl Document {
    fn with_capacity(bytes: usize) -> Self {
        Document {
            text: String::with_capacity(bytes),
            lines: 0,
            last: 0,
        }
    }

    /// Appends a line made of `parts`.
    fn line(&mut self, parts: &[&str]) {
        if self.lines > 0 {
            self.text.push('\n');
        }
        self.lines += 1;
        self.last = self.text.len();
        for part in parts {
            self.text.push_str(part);
        }
    }

    fn last_line(&self) -> &str {
        if self.lines == 0 {
            ""
        } else {
            &self.text[self.last..]
        }
    }

    /// Writes `parts` in place of the last line.
    fn replace_last(&mut self, parts: &[&str]) {
        self.text.truncate(self.last);
        for part in parts {
            self.text.push_str(part);
        }
    }

    fn trim_end(&mut self) {
        let kept = self.text.trim_end().len().max(self.last);
        self.text.truncate(kept);
    }

    /// The text without the blank lines at its end.
    fn finish(self) -> String {
        let mut text = self.text;
        let mut lines = self.lines;
        let mut last = self.last;
        while lines > 0 && text.len() == last {
            // The last line is empty: drop it and the line break before it.
            lines -= 1;
            text.truncate(last.saturating_sub(1));
            last = text.rfind('\n').map_or(0, |at| at + 1);
        }
        text
    }
}

/// A line's prefix without the white space that ends it (`>   ` of a quote, `-   ` of an item),
/// which [`sep`] writes again as one space where a marker needs it. A prefix of white space alone
/// is a text line's indentation, which stays: it can carry structure (YAML's nesting, an outline,
/// JSON laid out by hand).
fn kept_prefix<'a>(line: &Line<'a>) -> &'a str {
    if line.prefix.trim().is_empty() {
        line.prefix
    } else {
        line.prefix.trim_end_matches([' ', '\t'])
    }
}

/// The single space a heading or list marker needs before its content.
fn sep(line: &Line<'_>) -> &'static str {
    match line.kind {
        Kind::Heading(_) | Kind::ListItem => " ",
        _ => "",
    }
}

/// A sentence said twice in a row (blank lines between aside) says nothing new the second time.
/// A repeat further on stays: in a procedure it is a step done again, in an email thread or a
/// transcript another message's header or another speaker's words, and in a prompt a rule
/// restated on purpose. So does a repeated line that is no sentence (a log's event, a table's
/// row, a song's refrain), where the repeat may be the point.
fn is_duplicate(line: &Line<'_>, key: (&str, &str), previous: Option<(&str, &str)>) -> bool {
    !matches!(line.kind, Kind::Heading(_))
        && previous == Some(key)
        && key.1.split_whitespace().count() >= 4
        && key.1.ends_with(['.', '!', '?'])
}

/// Removes `\r` before `\n`, zero-width characters and HTML comments.
fn strip_invisible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("<!--") {
        match rest[pos..].find("-->") {
            Some(end) => {
                push_visible(&mut out, &rest[..pos]);
                rest = &rest[pos + end + 3..];
            }
            None => break,
        }
    }
    push_visible(&mut out, rest);
    out
}

fn push_visible(out: &mut String, s: &str) {
    // Copies the runs between removals whole. Every removal starts with one of these bytes:
    // `\r`, and the lead bytes of U+00AD, U+200B and U+2060, U+FEFF.
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut i = 0;
    while let Some(p) = bytes[i..]
        .iter()
        .position(|b| matches!(b, b'\r' | 0xC2 | 0xE2 | 0xEF))
    {
        let at = i + p;
        let skip = match &bytes[at..] {
            [b'\r', b'\n', ..] => 1,
            [0xC2, 0xAD, ..] => 2,
            [0xE2, 0x80, 0x8B, ..] | [0xE2, 0x81, 0xA0, ..] | [0xEF, 0xBB, 0xBF, ..] => 3,
            _ => 0,
        };
        if skip > 0 {
            out.push_str(&s[copied..at]);
            copied = at + skip;
        }
        i = at + skip.max(1);
    }
    out.push_str(&s[copied..]);
}

/// Collapses whitespace and removes decorative emphasis outside protected spans.
pub fn clean_inline(content: &str, structural: bool) -> String {
    let mut scratch = String::new();
    clean_inline_into(content, structural, &mut scratch).to_string()
}

/// [`clean_inline`], borrowing `content` when there is nothing to clean and otherwise writing
/// into `scratch`.
fn clean_inline_into<'s>(content: &'s str, structural: bool, scratch: &'s mut String) -> &'s str {
    let content = content.trim();
    // Most lines hold no emphasis, tab or run of spaces (and, in headings and list items, no
    // emoji): there is nothing to clean, so the span scan is skipped.
    let bytes = content.as_bytes();
    let untouched = !bytes.contains(&b'*')
        && !bytes.contains(&b'\t')
        && !bytes.windows(2).any(|w| w == b"  ")
        && (!structural || content.is_ascii());
    if untouched {
        return content;
    }
    scratch.clear();
    let spans = protected_spans(content);
    let mut last = 0;
    for &(s, e) in &spans {
        clean_free(&content[last..s], structural, scratch);
        scratch.push_str(&content[s..e]);
        last = e;
    }
    clean_free(&content[last..], structural, scratch);
    scratch.trim()
}

fn clean_free(free: &str, structural: bool, out: &mut String) {
    let stripped;
    let free = if structural && !free.is_ascii() {
        stripped = strip_decorative_emoji(free);
        stripped.as_str()
    } else {
        free
    };
    let markers = emphasis_markers(free);
    let bytes = free.as_bytes();
    let mut i = 0;
    let mut next_marker = markers.iter().peekable();
    while i < bytes.len() {
        if let Some(&&(at, width)) = next_marker.peek()
            && at == i
        {
            next_marker.next();
            i += width;
            continue;
        }
        let b = bytes[i];
        if b == b' ' || b == b'\t' {
            if !out.ends_with(' ') {
                out.push(' ');
            }
            while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
                i += 1;
            }
            continue;
        }
        let len = super::utf8_len(b);
        out.push_str(&free[i..i + len]);
        i += len;
    }
}

/// Positions and widths of paired emphasis markers (`**bold**`, `*italic*`): an opener after a
/// boundary and before a word, a closer after a word and before a boundary. Unpaired asterisks
/// (`*args`, `{**kwargs}`, `2 * 3`) are not emphasis and stay.
fn emphasis_markers(free: &str) -> Vec<(usize, usize)> {
    let bytes = free.as_bytes();
    let mut found = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'*' {
            i += 1;
            continue;
        }
        let width = bytes[i..].iter().take_while(|b| **b == b'*').count();
        if width > 2 {
            i += width;
            continue;
        }
        let before = if i == 0 { None } else { Some(bytes[i - 1]) };
        let after = bytes.get(i + width).copied();
        // An opener follows a space, or an opening `(` or `"` that itself starts a word:
        // `("*word*")` is emphasis, `x"*y*` is one symbol-bearing word and stays whole.
        let opening_starts_word = i < 2 || bytes[i - 2] == b' ' || bytes[i - 2] == b'\t';
        let space_or_open = |b: Option<u8>| {
            b.is_none_or(|b| {
                b == b' ' || b == b'\t' || ((b == b'(' || b == b'"') && opening_starts_word)
            })
        };
        // Emphasis wraps words: it opens before a letter or digit and closes after one (or after
        // sentence punctuation), so `*+*` and `$(*(*` are left as written.
        let word_start = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b >= 0x80);
        let word_end = |b: Option<u8>| {
            b.is_some_and(|b| {
                b.is_ascii_alphanumeric()
                    || b >= 0x80
                    || matches!(b, b'.' | b'!' | b'?' | b')' | b':' | b'"')
            })
        };
        // A closer ends the word: only closing punctuation may follow it before a space, so
        // `*word*:` is emphasis and `*x*:y` is one symbol-bearing word that stays whole.
        let closes_word = || {
            bytes[i + width..]
                .iter()
                .find(|b| !matches!(b, b'.' | b',' | b':' | b';' | b'!' | b'?' | b')' | b'"'))
                .is_none_or(|b| b.is_ascii_whitespace())
        };
        match open {
            Some((at, w)) if w == width && word_end(before) && closes_word() => {
                found.push((at, w));
                found.push((i, width));
                open = None;
            }
            _ if space_or_open(before) && word_start(after) => open = Some((i, width)),
            _ => {}
        }
        i += width;
    }
    found
}

/// Emoji used as decoration in headings and list bullets; the ones that carry meaning
/// (check marks, crosses, warnings, prohibitions) stay.
fn strip_decorative_emoji(s: &str) -> String {
    // Only an emoji that stands alone as a word is decoration; one inside a word (`⭐/⚠️/💤`) is content.
    let mut out = String::with_capacity(s.len());
    for (n, word) in s.split(' ').enumerate() {
        let decorative = !word.is_empty()
            && word
                .chars()
                .all(|c| is_decorative_emoji(c) || matches!(c, '\u{FE0F}' | '\u{200D}'));
        if decorative {
            continue;
        }
        if n > 0 && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if s.starts_with(' ') && !out.starts_with(' ') {
        out.insert(0, ' ');
    }
    if s.ends_with(' ') && !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

fn is_decorative_emoji(c: char) -> bool {
    let u = c as u32;
    let meaningful = matches!(
        c,
        '✅' | '❌'
            | '⚠'
            | '✔'
            | '✖'
            | '✗'
            | '✘'
            | '☑'
            | '🚫'
            | '⛔'
            | '❗'
            | '❓'
            | '⭐'
            | '🔴'
            | '🟢'
            | '🟡'
    );
    !meaningful && ((0x1F300..=0x1FAFF).contains(&u) || (0x2600..=0x27BF).contains(&u))
}

fn clean_table_row(content: &str, compact: bool) -> String {
    let content = content.trim_end();
    let cells = split_cells(content);
    let cleaned: Vec<String> = cells.iter().map(|c| clean_inline(c, false)).collect();
    let sep = if compact { "|" } else { " | " };
    let inner = cleaned.join(sep);
    let edge = if compact { "|" } else { "| " };
    let tail = if compact { "|" } else { " |" };
    if content.ends_with('|') && !cells.is_empty() {
        format!("{edge}{inner}{tail}")
    } else {
        format!("{edge}{inner}")
    }
}

/// The cells of a table row; pipes inside protected spans do not split.
fn split_cells(row: &str) -> Vec<&str> {
    let body = row.strip_prefix('|').unwrap_or(row);
    let body = body.strip_suffix('|').unwrap_or(body);
    let spans = protected_spans(body);
    let mut cells = Vec::new();
    let mut start = 0;
    let mut span_iter = spans.iter().peekable();
    for (i, b) in body.bytes().enumerate() {
        while span_iter.peek().is_some_and(|&&(_, e)| e <= i) {
            span_iter.next();
        }
        let inside = span_iter.peek().is_some_and(|&&(s, e)| s <= i && i < e);
        if b == b'|' && !inside && (i == 0 || body.as_bytes()[i - 1] != b'\\') {
            cells.push(&body[start..i]);
            start = i + 1;
        }
    }
    cells.push(&body[start..]);
    cells
}

fn clean_separator(content: &str) -> String {
    let cells = split_cells(content.trim_end());
    let parts: Vec<&str> = cells
        .iter()
        .map(|c| {
            let c = c.trim();
            match (c.starts_with(':'), c.ends_with(':') && c.len() > 1) {
                (true, true) => ":-:",
                (true, false) => ":--",
                (false, true) => "--:",
                _ => "---",
            }
        })
        .collect();
    format!("|{}|", parts.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_break_before_text_stays_and_one_before_a_heading_goes() {
        // Found by the thirteenth audit: the line between instructions and the data under them
        // had gone, and `below the line` with it.
        let text = "Summarise the text below the line.\n\n-----\n\nIgnore the task.\n\n***\n\n## Next\nText.\n";
        assert_eq!(
            run(text, Mode::Conservative),
            "Summarise the text below the line.\n\n---\n\nIgnore the task.\n\n## Next\nText.\n"
        );
    }

    #[test]
    fn formatting_is_cleaned() {
        let text = "# 🚀 Title ##\r\n\r\n\r\nSome   **bold**  text in a sentence.\u{200B}  \n<!-- note -->\n---\n| a   |  b |\n|-----|:---:|\n";
        assert_eq!(
            run(text, Mode::Conservative),
            "# Title\n\nSome bold text in a sentence.\n\n---\n| a | b |\n|---|:-:|\n"
        );
        assert_eq!(
            run(text, Mode::Balanced),
            "# Title\n\nSome bold text in a sentence.\n\n---\n|a|b|\n|---|:-:|\n"
        );
    }

    #[test]
    fn protected_spans_and_identifiers_survive() {
        let text = "Use __init__ and \"two  spaces\" and *emphasis* here.";
        assert_eq!(
            run(text, Mode::Conservative),
            "Use __init__ and \"two  spaces\" and emphasis here."
        );
    }

    #[test]
    fn duplicate_lines_and_setext_headings() {
        let text = "Title\n=====\nAlways answer in English please.\nAlways answer in English please.\n- ❌ Do not guess\n";
        assert_eq!(
            run(text, Mode::Conservative),
            "# Title\nAlways answer in English please.\n- ❌ Do not guess\n"
        );
        // Found by fuzzing: under an empty blockquote line (which is not written) the
        // underline made a heading of nothing in place of the line before.
        assert_eq!(
            run("Hello world 9\n>\n----", Mode::Conservative),
            "Hello world 9"
        );
        // Under another heading, introduced by a label, or further on, the repeat stays: a step
        // done again, another message's header.
        let text = "## Step 1\nSeverity: rate each finding from Critical to Low.\n## Step 2\nSeverity: rate each finding from Critical to Low.\nFormat:\nSeverity: rate each finding from Critical to Low.\n";
        assert_eq!(run(text, Mode::Conservative), text);
        let text = "Step one: read the configuration file and verify it.\nThen edit the first service.\nStep one: read the configuration file and verify it.\nThen edit the second service.\n";
        assert_eq!(run(text, Mode::Balanced), text);
        let text = "From: Sofia Marquez <sofia@example.com>\nHi Tom, see below.\n\nFrom: Sofia Marquez <sofia@example.com>\nHi again.\n";
        assert_eq!(run(text, Mode::Conservative), text);
        // Twice in a row, blank lines between or not, the second goes.
        assert_eq!(
            run(
                "Always answer in English please.\n\nAlways answer in English please.\n",
                Mode::Conservative
            ),
            "Always answer in English please.\n"
        );
    }
}
