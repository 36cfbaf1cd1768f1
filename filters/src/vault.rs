//! The vault: protected spans are sealed away before the stages run and restored after.
//!
//! CONTRACT (the stages rely on it):
//! - `seal` replaces each protected span with a placeholder `OPEN digits CLOSE`, where OPEN is
//!   U+E000 and CLOSE is U+E001 and digits is the item's index in decimal. Any U+E000/U+E001 already
//!   in the input is itself sealed as an internal literal item (not counted), so in the sealed text
//!   these two characters only ever delimit placeholders.
//! - A fenced code block's placeholder stands alone on its line (after the `> ` or list marker the
//!   fence line had, if any; indentation belongs to the item); inline items stay inline.
//! - `restore` returns `None` when a placeholder is missing, repeated, out of order or malformed.
//! - `verify` checks the restored text holds every item byte-identically and in order, and no
//!   more U+E000/U+E001 than the input had.
//!
//! Precedence, when spans compete: fenced code blocks, then inline code spans, then JSON, then
//! template variables, then literal U+E000/U+E001. Items never overlap. A JSON item may contain
//! whole inline code spans (they become part of it) but never cuts one in two.

mod fence;
mod inline_code;
mod json;
mod scan;
mod span;
mod variables;

use crate::options::Options;
use crate::stats::ProtectedItems;
use memchr::{memchr, memchr_iter, memmem};
use span::{Kind, Span};

pub const OPEN: char = '\u{E000}';
pub const CLOSE: char = '\u{E001}';

/// The UTF-8 of OPEN and CLOSE share this lead byte and the next; the third tells them apart.
const LEAD: u8 = 0xEE;
const SECOND: u8 = 0x80;
const OPEN_LAST: u8 = 0x80;
const CLOSE_LAST: u8 = 0x81;

/// A text with its protected spans replaced by placeholders.
#[derive(Clone, Debug)]
pub struct Sealed {
    text: String,
    /// The input; items are ranges of it.
    source: String,
    spans: Vec<Span>,
    counts: ProtectedItems,
    /// How many OPEN and CLOSE characters the input held.
    source_delimiters: (usize, usize),
}

impl Sealed {
    /// The text with placeholders, for the stages.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many items of each counted kind were sealed (literal U+E000/U+E001 are not counted).
    pub fn counts(&self) -> ProtectedItems {
        self.counts
    }

    /// Number of sealed items, literals included (placeholder indices run `0..len()`).
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The sealed items in text order; item `i` is what placeholder `i` stands for.
    pub fn items(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .map(|span| &self.source[span.start..span.end])
    }

    /// Replaces every placeholder in `sealed_text` by its item. `None` when a placeholder is
    /// missing, repeated, out of order or malformed, or a stray OPEN/CLOSE remains.
    pub fn restore(&self, sealed_text: &str) -> Option<String> {
        let bytes = sealed_text.as_bytes();
        let mut out = String::with_capacity(sealed_text.len() + self.source.len());
        let mut next_index = 0;
        let mut copied = 0;
        let mut at = 0;
        while let Some(i) = memchr(LEAD, &bytes[at..]) {
            let lead = at + i;
            match delimiter_at(bytes, lead) {
                None => at = lead + 1,
                Some(CLOSE_LAST) => return None,
                Some(_) => {
                    let (index, after) = placeholder_at(bytes, lead)?;
                    if index != next_index {
                        return None;
                    }
                    let span = self.spans.get(index)?;
                    out.push_str(&sealed_text[copied..lead]);
                    out.push_str(&self.source[span.start..span.end]);
                    next_index += 1;
                    copied = after;
                    at = after;
                }
            }
        }
        if next_index != self.spans.len() {
            return None;
        }
        out.push_str(&sealed_text[copied..]);
        Some(out)
    }

    /// Checks, independently of `restore`, that `restored` holds every item byte-identically and
    /// in order, and no more OPEN/CLOSE characters than the input had.
    pub fn verify(&self, restored: &str) -> bool {
        let hay = restored.as_bytes();
        let mut at = 0;
        for item in self.items() {
            match first_occurrence(&hay[at..], item.as_bytes()) {
                Some(i) => at += i + item.len(),
                None => return false,
            }
        }
        delimiter_counts(restored) == self.source_delimiters
    }
}

/// Seals every span that `options` protects.
pub fn seal(text: &str, options: &Options) -> Sealed {
    let spans = protected_spans(text, options);
    let mut counts = ProtectedItems::default();
    let mut sealed = String::with_capacity(text.len() + spans.len() * 8);
    let mut at = 0;
    for (index, span) in spans.iter().enumerate() {
        match span.kind {
            Kind::Code => counts.code_blocks += 1,
            Kind::Json => counts.json_blocks += 1,
            Kind::Variable => counts.variables += 1,
            Kind::Literal => {}
        }
        sealed.push_str(&text[at..span.start]);
        push_placeholder(&mut sealed, index);
        at = span.end;
    }
    sealed.push_str(&text[at..]);
    Sealed {
        text: sealed,
        source: text.to_string(),
        spans,
        counts,
        source_delimiters: delimiter_counts(text),
    }
}

/// All protected spans of `text`, sorted and non-overlapping, in precedence order of discovery.
fn protected_spans(text: &str, options: &Options) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut code = Vec::new();
    if options.protect_code_blocks {
        fence::find(text, &mut spans);
        for (start, end) in span::gaps(&spans, text.len()) {
            inline_code::find(text, start, end, &mut code);
        }
    }
    let mut json = Vec::new();
    if options.protect_json {
        let mut finder = json::Finder::new(text);
        for (start, end) in span::gaps(&spans, text.len()) {
            finder.find(start, end, &code, &mut json);
        }
        code = without_contained(code, &json);
    }
    spans = span::merge(span::merge(spans, code), json);
    if options.protect_variables {
        let mut finder = variables::Finder::new(text);
        spans = span::search_gaps(text, spans, |_, start, end, out| {
            finder.find(start, end, out)
        });
    }
    span::search_gaps(text, spans, find_literals)
}

/// `spans` minus those lying inside one of `outer` (both sorted; `outer` never cuts a span).
fn without_contained(spans: Vec<Span>, outer: &[Span]) -> Vec<Span> {
    if outer.is_empty() {
        return spans;
    }
    let mut outer_at = 0;
    spans
        .into_iter()
        .filter(|span| {
            while outer.get(outer_at).is_some_and(|o| o.end <= span.start) {
                outer_at += 1;
            }
            !outer
                .get(outer_at)
                .is_some_and(|o| o.start <= span.start && span.end <= o.end)
        })
        .collect()
}

/// Where `needle` first occurs in `hay`. Long needles (whole code blocks) are located by a short
/// prefix and compared in place, which is far cheaper than preparing a search for the whole
/// needle; after a few false hits it falls back to the full search, so the worst case stays linear.
fn first_occurrence(hay: &[u8], needle: &[u8]) -> Option<usize> {
    const PREFIX: usize = 32;
    const PREFIX_TRIES: usize = 4;
    if needle.len() <= PREFIX {
        return memmem::find(hay, needle);
    }
    let prefix = memmem::Finder::new(&needle[..PREFIX]);
    let mut from = 0;
    for _ in 0..PREFIX_TRIES {
        let hit = from + prefix.find(&hay[from..])?;
        if hay[hit..].starts_with(needle) {
            return Some(hit);
        }
        from = hit + 1;
    }
    memmem::find(&hay[from..], needle).map(|i| from + i)
}

/// Every U+E000/U+E001 of `text[start..end]` as a literal item.
fn find_literals(text: &str, start: usize, end: usize, out: &mut Vec<Span>) {
    let bytes = &text.as_bytes()[..end];
    for i in memchr_iter(LEAD, &bytes[start..]) {
        let lead = start + i;
        if delimiter_at(bytes, lead).is_some() {
            out.push(Span::new(lead, lead + 3, Kind::Literal));
        }
    }
}

/// The last byte of the OPEN or CLOSE whose lead byte is at `lead`, if one is there.
fn delimiter_at(bytes: &[u8], lead: usize) -> Option<u8> {
    match bytes.get(lead..lead + 3) {
        Some(&[LEAD, SECOND, last @ (OPEN_LAST | CLOSE_LAST)]) => Some(last),
        _ => None,
    }
}

/// Parses `OPEN digits CLOSE` at `lead` (digits canonical: no sign, no leading zero).
fn placeholder_at(bytes: &[u8], lead: usize) -> Option<(usize, usize)> {
    let digits_start = lead + 3;
    let digits = bytes[digits_start..]
        .iter()
        .take(20)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 19 || (digits > 1 && bytes[digits_start] == b'0') {
        return None;
    }
    let close = digits_start + digits;
    if delimiter_at(bytes, close) != Some(CLOSE_LAST) {
        return None;
    }
    let index = bytes[digits_start..close]
        .iter()
        .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
    Some((index, close + 3))
}

fn push_placeholder(out: &mut String, index: usize) {
    use std::fmt::Write;
    out.push(OPEN);
    // Writing into a String cannot fail.
    let _ = write!(out, "{index}");
    out.push(CLOSE);
}

/// How many OPEN and how many CLOSE characters `text` holds.
fn delimiter_counts(text: &str) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut counts = (0, 0);
    for lead in memchr_iter(LEAD, bytes) {
        match delimiter_at(bytes, lead) {
            Some(OPEN_LAST) => counts.0 += 1,
            Some(_) => counts.1 += 1,
            None => {}
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_occurrence_survives_false_prefix_hits() {
        let needle = format!("{}END", "p".repeat(40));
        let decoys = format!("{}x", "p".repeat(40)).repeat(6);
        let hay = format!("{decoys}{needle} {needle}");
        assert_eq!(
            first_occurrence(hay.as_bytes(), needle.as_bytes()),
            Some(decoys.len())
        );
        assert_eq!(first_occurrence(decoys.as_bytes(), needle.as_bytes()), None);
        assert_eq!(first_occurrence(b"abc", b"c"), Some(2));
    }
}
