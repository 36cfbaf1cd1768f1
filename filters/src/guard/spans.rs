//! Spans: stretches of a line every stage emits verbatim (quoted strings, tags, URLs, e-mail
//! addresses, paths, slots, vault placeholders).

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
