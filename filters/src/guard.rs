//! The meaning guard: what no stage may drop or change.
//!
//! Two levels. Spans ([`protected_spans`]) are stretches of a line that are emitted verbatim by
//! every stage: quoted strings, XML/HTML-style tags, URLs, e-mail addresses, paths, `{slots}` and
//! `[SLOTS]`, and vault placeholders. Words ([`is_guard_word`]) are single words that may never be
//! dropped or rewritten: negations and restrictive words, numbers, identifiers and the like.

use crate::vault::{CLOSE, OPEN};

/// Byte ranges `(start, end)` of `line` that must come out byte-identical, sorted and disjoint.
pub fn protected_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Most bytes can start nothing: step over them without the dispatch below.
        if BYTE_CLASS[bytes[i] as usize] & STARTS == 0 {
            i += 1;
            continue;
        }
        let b = bytes[i];
        let end = match b {
            b'"' => closing(line, i + 1, '"', 400),
            b'\'' if opens_single_quote(line, i) => closing_single_quote(line, i + 1),
            b'<' => tag_end(bytes, i),
            b'{' => slot_end(bytes, i, b'{', b'}'),
            b'[' => bracket_slot_end(bytes, i),
            0xE2 if line[i..].starts_with('\u{201C}') => closing(line, i + 3, '\u{201D}', 400),
            0xE2 if line[i..].starts_with('\u{2018}') => closing(line, i + 3, '\u{2019}', 200),
            0xEE if line[i..].starts_with(OPEN) => {
                line[i..].find(CLOSE).map(|p| i + p + CLOSE.len_utf8())
            }
            _ if b.is_ascii_alphanumeric() && (i == 0 || !is_word_byte(bytes[i - 1])) => {
                match special_word_end(line, i) {
                    Word::Special(end) => Some(end),
                    Word::Plain { resume } => {
                        // Nothing inside the rest of a plain word can start a span except the
                        // bytes `resume` stops at.
                        i = resume;
                        continue;
                    }
                }
            }
            _ => None,
        };
        match end {
            Some(e) if e > i => {
                spans.push((i, e));
                i = e;
            }
            _ => i += utf8_len(b),
        }
    }
    spans
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
    .max(1)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The end (exclusive) of a quoted string opened before `from`, if it closes within `limit` bytes.
fn closing(line: &str, from: usize, close: char, limit: usize) -> Option<usize> {
    let rest = line.get(from..)?;
    let p = rest.find(close)?;
    (p > 0 && p <= limit).then_some(from + p + close.len_utf8())
}

fn opens_single_quote(line: &str, i: usize) -> bool {
    let bytes = line.as_bytes();
    let before_ok = i == 0 || matches!(bytes[i - 1], b' ' | b'(' | b'[' | b'\t' | b':' | b'=');
    let after_ok = bytes
        .get(i + 1)
        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'\'');
    before_ok && after_ok
}

fn closing_single_quote(line: &str, from: usize) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut j = from;
    while j < bytes.len() && j - from <= 120 {
        if bytes[j] == b'\'' {
            let next = bytes.get(j + 1).copied();
            let prev = bytes[j - 1];
            let closes =
                !prev.is_ascii_whitespace() && next.is_none_or(|n| !n.is_ascii_alphanumeric());
            if closes {
                return Some(j + 1);
            }
        }
        j += 1;
    }
    None
}

/// `<tag>`, `</tag>`, `<tag attr="x">`, `<br/>`, `<PLACEHOLDER>`, `<user input>`: structure and slots.
fn tag_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    if bytes.get(j) == Some(&b'/') {
        j += 1;
    }
    if !bytes.get(j).is_some_and(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    while j < bytes.len() && j - i <= 300 {
        match bytes[j] {
            b'>' => return Some(j + 1),
            b'<' | b'\n' => return None,
            _ => j += 1,
        }
    }
    None
}

/// `{input provided subject}`: a template slot in single braces, on one line.
fn slot_end(bytes: &[u8], i: usize, open: u8, close: u8) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() && j - i <= 120 {
        let b = bytes[j];
        if b == close {
            return (j > i + 1).then_some(j + 1);
        }
        if b == open {
            return None;
        }
        j += 1;
    }
    None
}

/// `[PLACEHOLDER]`, `[Your Name]` (slots) and markdown links `[text](url)` (the whole link).
fn bracket_slot_end(bytes: &[u8], i: usize) -> Option<usize> {
    let end = slot_end(bytes, i, b'[', b']')?;
    if bytes.get(end) == Some(&b'(') {
        return slot_end(bytes, end, b'(', b')').or(Some(end));
    }
    let inner = &bytes[i + 1..end - 1];
    // A slot is written in capitals or title case; `[x]` task boxes and `[1]` citations are kept too.
    let title_case = inner
        .split(|b| *b == b' ')
        .filter(|w| !w.is_empty())
        .all(|w| !w[0].is_ascii_lowercase());
    (title_case || inner.len() <= 3).then_some(end)
}

/// What [`special_word_end`] found at a word start.
enum Word {
    /// A URL, address or path ending (exclusive) here.
    Special(usize),
    /// A plain word: the scan may resume at `resume`, the first byte after the word start that
    /// could open a span of another kind (a quote, brace, bracket, placeholder) or the word's end.
    Plain { resume: usize },
}

/// What a byte may be to the span scan, as bit flags (see [`BYTE_CLASS`]).
const STARTS: u8 = 1; // may open a span: quotes, tag, braces, brackets, placeholder, alphanumeric
const ENDS_RUN: u8 = 2; // ends an address run: ASCII whitespace, `"`, `<`, `>`, `|`, VT
const ADDRESS: u8 = 4; // a character an address needs: `/`, `\`, `@`, `.`
const OPENS_INSIDE: u8 = 8; // may open another span inside a word: `'`, `{`, `[`
const LEAD: u8 = 16; // the lead byte of a multi-byte character (maybe non-ASCII whitespace)

/// The class of every byte value, built once at compile time.
static BYTE_CLASS: [u8; 256] = byte_classes();

const fn byte_classes() -> [u8; 256] {
    let mut classes = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let mut class = 0;
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'"' | b'\'' | b'<' | b'{' | b'[' | 0xE2 | 0xEE)
        {
            class |= STARTS;
        }
        if byte.is_ascii_whitespace() || matches!(byte, b'"' | b'<' | b'>' | b'|' | b'\x0b') {
            class |= ENDS_RUN;
        }
        if matches!(byte, b'/' | b'\\' | b'@' | b'.') {
            class |= ADDRESS;
        }
        if matches!(byte, b'\'' | b'{' | b'[') {
            class |= OPENS_INSIDE;
        }
        if byte >= 0xC0 {
            class |= LEAD;
        }
        classes[b] = class;
        b += 1;
    }
    classes
}

/// URLs, e-mail addresses and paths, as one run of non-space characters from `i`.
fn special_word_end(line: &str, i: usize) -> Word {
    let bytes = line.as_bytes();
    let mut j = i;
    let mut resume = None;
    let mut address_chars = false;
    while j < bytes.len() {
        let class = BYTE_CLASS[bytes[j] as usize];
        if class & (ENDS_RUN | ADDRESS | OPENS_INSIDE | LEAD) != 0 {
            if class & ENDS_RUN != 0 {
                break;
            }
            address_chars |= class & ADDRESS != 0;
            if class & LEAD != 0 {
                // Non-ASCII whitespace (no-break space, ideographic space) ends the run too.
                if line[j..].chars().next().is_some_and(char::is_whitespace) {
                    break;
                }
                if j > i && matches!(bytes[j], 0xE2 | 0xEE) {
                    resume.get_or_insert(j);
                }
            } else if class & OPENS_INSIDE != 0 && j > i {
                resume.get_or_insert(j);
            }
        }
        j += 1;
    }
    // Most words hold none of the characters an address needs; neither does any word that
    // starts inside them, since it ends at the same place.
    if !address_chars {
        return Word::Plain {
            resume: resume.unwrap_or(j).max(i + 1),
        };
    }
    let mut run = &line[i..j];
    // Trailing sentence punctuation is not part of the address.
    while let Some(last) = run.as_bytes().last() {
        if matches!(last, b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' | b'\'') {
            run = &run[..run.len() - 1];
        } else {
            break;
        }
    }
    let special = run.contains("://")
        || run.starts_with("www.")
        || is_email(run)
        || (run.contains('/') && run.len() > 2 && !run.contains("//") && looks_like_path(run))
        || run.contains('\\');
    if special && !run.is_empty() {
        Word::Special(i + run.len())
    } else {
        Word::Plain { resume: i + 1 }
    }
}

fn is_email(run: &str) -> bool {
    match run.split_once('@') {
        Some((user, host)) => !user.is_empty() && host.contains('.') && !host.ends_with('.'),
        None => false,
    }
}

fn looks_like_path(run: &str) -> bool {
    // `and/or`, `he/she`: a slash between two short words is prose, not a path.
    let parts: Vec<&str> = run.split('/').collect();
    if parts.len() == 2
        && parts
            .iter()
            .all(|p| p.len() <= 8 && p.bytes().all(|b| b.is_ascii_lowercase()))
    {
        return false;
    }
    true
}

/// Negations and restrictive words: never dropped or changed, and a sentence holding one is
/// never pruned. These are the meaning guard's words; [`items`] lists them.
pub fn is_restrictive(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"not"
            | b"no"
            | b"never"
            | b"nor"
            | b"neither"
            | b"none"
            | b"nothing"
            | b"nobody"
            | b"nowhere"
            | b"without"
            | b"except"
            | b"excluding"
            | b"exclude"
            | b"unless"
            | b"until"
            | b"only"
            | b"solely"
            | b"exclusively"
            | b"cannot"
            | b"must"
            | b"mustn't"
            | b"shall"
            | b"should"
            | b"avoid"
            | b"refrain"
            | b"forbidden"
            | b"prohibited"
            | b"disallowed"
            | b"don't"
            | b"required"
            | b"mandatory"
            | b"always"
            | b"exactly"
            | b"instead"
            | b"but"
            | b"however"
            | b"unlike"
            | b"stop"
            | b"false"
            | b"true"
            | b"null"
            | b"won't"
            | b"can't"
            | b"ever"
    ) || lower.ends_with(b"n't")
}

/// Words that steer a sentence's sense (quantity, condition, order, comparison, modality):
/// no word-level rule drops them, though aggressive sentence pruning may drop a whole redundant
/// sentence that holds one.
pub fn is_steering(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"may"
            | b"might"
            | b"require"
            | b"requires"
            | b"all"
            | b"every"
            | b"each"
            | b"any"
            | b"some"
            | b"both"
            | b"either"
            | b"or"
            | b"if"
            | b"else"
            | b"otherwise"
            | b"whether"
            | b"before"
            | b"after"
            | b"than"
            | b"least"
            | b"most"
            | b"more"
            | b"between"
            | b"over"
            | b"under"
            | b"above"
            | b"below"
            | b"within"
            | b"less"
            | b"fewer"
            | b"max"
            | b"min"
            | b"maximum"
            | b"minimum"
            | b"just"
            | b"although"
            | b"though"
            | b"rather"
            | b"because"
            | b"since"
            | b"against"
            | b"first"
            | b"last"
            | b"once"
            | b"twice"
            | b"per"
            | b"same"
            | b"different"
            | b"other"
            | b"prefer"
            | b"preferred"
            | b"important"
            | b"critical"
            | b"warning"
            | b"note"
            | b"yes"
    )
}

/// True for a word (without surrounding punctuation) that no stage may drop or change.
pub fn is_guard_word(word: &str) -> bool {
    // One pass over the bytes decides every shape test; this runs once per word of every line.
    let bytes = word.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut buf = [0u8; 24];
    let (mut upper, mut camel, mut ascii) = (0usize, false, true);
    let mut prev_lower = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'a'..=b'z' => prev_lower = true,
            b'A'..=b'Z' => {
                upper += 1;
                camel |= prev_lower;
                prev_lower = false;
            }
            b'\'' | b'-' => prev_lower = false,
            // A vault placeholder (OPEN starts with this byte) or any other non-ASCII letter.
            0xEE if word[i..].starts_with(OPEN) => return true,
            0x80.. => {
                ascii = false;
                prev_lower = false;
            }
            // Digits, underscores, dots, slashes, @, #, $ ... : numbers, identifiers, versions.
            _ => return true,
        }
        if let Some(d) = buf.get_mut(i) {
            *d = b.to_ascii_lowercase();
        }
    }
    // camelCase, iPhone, macOS; CONSTANTS and kebab-case with capitals (2+ capitals).
    if upper >= 2 || camel {
        return true;
    }
    if !ascii || bytes.len() > buf.len() {
        // Long or non-ASCII words are content, and content is never in a drop list.
        return false;
    }
    let lower = &buf[..bytes.len()];
    is_restrictive(lower) || is_steering(lower)
}

/// A guard word that must survive even sentence pruning: a negation or restrictive word, or a
/// datum (number, identifier, version, symbol-bearing word).
pub fn is_required_word(word: &str) -> bool {
    if !is_guard_word(word) {
        return false;
    }
    let mut buf = [0u8; 24];
    match ascii_lower(word, &mut buf) {
        Some(lower)
            if word
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-') =>
        {
            is_restrictive(lower.as_bytes()) || is_identifier_shaped(word)
        }
        _ => true,
    }
}

/// camelCase, PascalCase inside a word, kebab-case with capitals, and CONSTANTS (2+ capitals).
fn is_identifier_shaped(word: &str) -> bool {
    let bytes = word.as_bytes();
    let upper = bytes.iter().filter(|b| b.is_ascii_uppercase()).count();
    if upper >= 2 {
        return true;
    }
    // a lower-case letter followed by a capital: camelCase, iPhone, macOS.
    bytes
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// Lower-cases an ASCII word into `buf`; None when it does not fit or is not ASCII.
pub fn ascii_lower<'b>(word: &str, buf: &'b mut [u8; 24]) -> Option<&'b str> {
    let bytes = word.as_bytes();
    if bytes.len() > buf.len() || !word.is_ascii() {
        return None;
    }
    for (d, s) in buf.iter_mut().zip(bytes) {
        *d = s.to_ascii_lowercase();
    }
    std::str::from_utf8(&buf[..bytes.len()]).ok()
}

/// The substrings of `text` that must survive compression in every mode, with the default
/// protections: see [`items_with`].
pub fn items(text: &str) -> Vec<String> {
    items_with(text, &crate::Options::default())
}

/// The substrings of `text` that must survive compression under `options`: quoted strings, tags,
/// URLs, addresses, paths and slots, negations and restrictive words, numbers and identifiers.
/// Vault items are left out (the vault checks them byte for byte), and so are HTML comments and
/// zero-width characters, which formatting cleanup removes by design. Used by the evaluation and
/// the property tests to check retention.
pub fn items_with(text: &str, options: &crate::Options) -> Vec<String> {
    let sealed = crate::vault::seal(text, options);
    let visible = strip_unseen(sealed.text());
    let mut out: Vec<String> = Vec::new();
    for line in visible.lines() {
        let line = strip_list_marker(line);
        let spans = protected_spans(line);
        let mut last = 0;
        for &(s, e) in &spans {
            words_into(&line[last..s], &mut out);
            let span = line[s..e].trim_end();
            if !span.contains([OPEN, CLOSE]) {
                out.push(span.to_string());
            }
            last = e;
        }
        words_into(&line[last..], &mut out);
    }
    out
}

/// `text` as a reader sees it once formatting cleanup has run: without the HTML comments and
/// zero-width characters outside protected spans, which [`items_with`] leaves out of the guard
/// items too. Retention is checked against this, so a text returned unchanged (nothing to save)
/// still keeps its items. Protected spans are sealed first because cleanup never sees inside them:
/// a `<!--` quoted in inline code does not open a comment that hides the prose after it.
pub fn visible(text: &str, options: &crate::Options) -> String {
    let sealed = crate::vault::seal(text, options);
    let unseen_removed = strip_unseen(sealed.text());
    // A comment may hold a whole placeholder; the sealed form still serves for finding guard
    // items, which never contain one.
    sealed.restore(&unseen_removed).unwrap_or(unseen_removed)
}

/// Removes HTML comments and zero-width characters from sealed text.
fn strip_unseen(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("<!--") {
        let Some(end) = rest[pos..].find("-->") else {
            break;
        };
        out.push_str(&rest[..pos]);
        rest = &rest[pos + end + 3..];
    }
    out.push_str(rest);
    out.retain(|c| !matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'));
    out
}

fn words_into(free: &str, out: &mut Vec<String>) {
    // Table pipes are structure that cleanup re-spaces: cells are separate words.
    for chunk in free.split(|c: char| c.is_whitespace() || c == '|') {
        let word = trim_punct(chunk);
        if is_required_word(word) && !is_markup(word) && !word.contains([OPEN, CLOSE]) {
            out.push(word.to_string());
        }
    }
}

/// Markdown and list markup that formatting cleanup may legitimately rewrite.
fn is_markup(word: &str) -> bool {
    word.bytes().all(|b| {
        matches!(
            b,
            b'*' | b'_'
                | b'#'
                | b'-'
                | b'|'
                | b'='
                | b'~'
                | b'>'
                | b'+'
                | b'`'
                | b':'
                | b'<'
                | b'!'
        )
    })
}

/// A list item's marker (`- `, `12. `, `- [x] `) is structure, not content.
fn strip_list_marker(line: &str) -> &str {
    // As the line parser reads it: any white space, then blockquote markers.
    let t = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    let rest = if digits > 0 && t[digits..].starts_with(['.', ')']) {
        &t[digits + 1..]
    } else if t.starts_with(['-', '*', '+']) {
        &t[1..]
    } else {
        // A blockquote's `>` markers are structure too.
        return t;
    };
    if !rest.starts_with(' ') {
        return t;
    }
    let rest = rest.trim_start();
    for task in ["[ ] ", "[x] ", "[X] "] {
        if let Some(r) = rest.strip_prefix(task) {
            return r;
        }
    }
    rest
}

/// A word without the punctuation around it.
pub fn trim_punct(chunk: &str) -> &str {
    // Byte by byte: this runs on every word, and only the curly quotes are not ASCII.
    let mut rest = chunk;
    loop {
        rest = match rest.as_bytes().first() {
            Some(b'(' | b'[' | b'"' | b'\'' | b'*' | b'_' | b'|') => &rest[1..],
            Some(0xE2) if rest.starts_with(['\u{201C}', '\u{2018}']) => &rest[3..],
            _ => break,
        };
    }
    loop {
        rest = match rest.as_bytes().last() {
            Some(
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' | b']' | b'"' | b'\'' | b'*' | b'_'
                | b'|',
            ) => &rest[..rest.len() - 1],
            Some(0x9D | 0x99) if rest.ends_with(['\u{201D}', '\u{2019}']) => {
                &rest[..rest.len() - 3]
            }
            _ => break,
        };
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans_of(line: &str) -> Vec<&str> {
        protected_spans(line)
            .into_iter()
            .map(|(s, e)| &line[s..e])
            .collect()
    }

    #[test]
    fn a_comment_opener_quoted_in_code_hides_nothing() {
        let text =
            "Look for `<!-- Generated` first.\nPlace at END of it:\n```html\n<!-- x\n-->\n```";
        let options = crate::Options::default();
        assert_eq!(visible(text, &options), text);
        assert_eq!(visible("a <!-- b --> c\u{200B}", &options), "a  c");
    }

    #[test]
    fn quoted_strings_tags_urls_and_slots_are_spans() {
        assert_eq!(
            spans_of(r#"My first request is "I need help.""#),
            vec![r#""I need help.""#]
        );
        assert_eq!(
            spans_of("wrap it in <rules> and </rules> now"),
            vec!["<rules>", "</rules>"]
        );
        assert_eq!(
            spans_of("see https://example.com/a?b=1."),
            vec!["https://example.com/a?b=1"]
        );
        assert_eq!(
            spans_of("mail me@example.org, or edit src/main.rs"),
            vec!["me@example.org", "src/main.rs"]
        );
        assert_eq!(
            spans_of("Subject: {input provided subject}"),
            vec!["{input provided subject}"]
        );
        assert_eq!(
            spans_of("use a 'Student Level' that fits"),
            vec!["'Student Level'"]
        );
        assert_eq!(spans_of("don't and can't are words"), Vec::<&str>::new());
        assert_eq!(spans_of("and/or he/she"), Vec::<&str>::new());
        assert_eq!(
            spans_of("[Your Name] and [link](http://x.y)"),
            vec!["[Your Name]", "[link](http://x.y)"]
        );
    }

    #[test]
    fn guard_words() {
        for w in [
            "not",
            "Never",
            "don't",
            "without",
            "only",
            "must",
            "3.5",
            "v2",
            "camelCase",
            "snake_case",
            "JSON",
            "iPhone",
            "2024-01-01",
            "50%",
        ] {
            assert!(is_guard_word(w), "{w}");
        }
        for w in [
            "the",
            "really",
            "please",
            "basically",
            "Output",
            "well-known",
            "café",
        ] {
            assert!(!is_guard_word(w), "{w}");
        }
    }

    #[test]
    fn items_lists_guard_words_and_spans() {
        let items = items(r#"Do not use "foo bar" or src/x.rs before 5 PM. <!-- not 7 -->"#);
        for expected in ["not", "\"foo bar\"", "src/x.rs", "5", "PM"] {
            assert!(items.iter().any(|i| i == expected), "{expected}");
        }
        assert!(!items.iter().any(|i| i == "7"));
    }
}
