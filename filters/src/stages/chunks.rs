//! A prose line as a sequence of whitespace-separated chunks, each a word with the punctuation
//! around it, or a protected span (quoted string, tag, URL, ...) that must be emitted verbatim.
//! The English stages edit this sequence and render it back.

use crate::guard::{is_guard_word, protected_spans};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// Borrowed from the line until an edit needs its own copy.
    pub text: Cow<'a, str>,
    /// Verbatim: a protected span (with any punctuation glued to it) or a guard word.
    pub fixed: bool,
    /// A protected span: never matched by any rule.
    pub span: bool,
    /// Byte range of the bare word inside `text`.
    pub core: (usize, usize),
    /// The bare word lower-cased (see [`Chunk::lower_any`]), worked out once: the word lists look
    /// at each word several times. Edits move punctuation and change case, never the word.
    lowered: Option<Lower<'a>>,
}

impl<'a> Chunk<'a> {
    fn new(text: &'a str, protected: bool) -> Chunk<'a> {
        let core = crate::guard::trim_punct(text);
        let start = core.as_ptr() as usize - text.as_ptr() as usize;
        let core_range = if core.is_empty() {
            (0, 0)
        } else {
            (start, start + core.len())
        };
        let fixed = protected || is_guard_word(core);
        Chunk {
            text: Cow::Borrowed(text),
            fixed,
            span: protected,
            core: core_range,
            lowered: if protected { None } else { Lower::of(core) },
        }
    }

    /// A chunk for a word the rules write, owning its text; never a protected span.
    pub fn owned(word: &str) -> Chunk<'static> {
        let (text, fixed, core) = match split(word).pop() {
            Some(c) => (c.text.into_owned(), c.fixed, c.core),
            None => (String::new(), false, (0, 0)),
        };
        let lowered = Lower::copied(&text[core.0..core.1]);
        Chunk {
            text: text.into(),
            fixed,
            span: false,
            core,
            lowered,
        }
    }

    pub fn core(&self) -> &str {
        &self.text[self.core.0..self.core.1]
    }

    pub fn lead(&self) -> &str {
        &self.text[..self.core.0]
    }

    pub fn trail(&self) -> &str {
        &self.text[self.core.1..]
    }

    /// True when the chunk ends a sentence (`.`, `!`, `?`, possibly inside a closing quote).
    pub fn ends_sentence(&self) -> bool {
        let t = self
            .trail()
            .trim_end_matches(['"', '\'', ')', '\u{201D}', '*']);
        let ends = t.ends_with(['.', '!', '?'])
            || (self.fixed && self.text.ends_with(['.', '!', '?']) && !self.core().contains('.'));
        ends && !is_abbreviation(self.core())
    }

    /// The word lower-cased, when it is a plain ASCII word the word lists can name.
    pub fn lower(&self) -> Option<String> {
        let core = self.core();
        (!self.fixed
            && !core.is_empty()
            && core.len() <= 24
            && core
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-'))
        .then(|| core.to_ascii_lowercase())
    }

    /// The word lower-cased for phrase matching, guard words included (never a protected span).
    pub fn lower_any(&self) -> Option<Lower<'a>> {
        self.lowered
    }

    /// A guard word in lower case, which no edit may capitalise: it cannot open a sentence in
    /// place of a capitalised word that went (`Please stop` must not become `stop`).
    pub fn stays_lowercase(&self) -> bool {
        self.fixed
            && !self.span
            && self
                .core()
                .as_bytes()
                .first()
                .is_some_and(|b| b.is_ascii_lowercase())
    }

    pub fn is_capitalized(&self) -> bool {
        self.core()
            .as_bytes()
            .first()
            .is_some_and(|b| b.is_ascii_uppercase())
    }
}

/// A short ASCII word lower-cased without allocating: the word lists are matched once per
/// word, and most words are lower case already, so those are borrowed as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lower<'a> {
    Borrowed(&'a str),
    Copied { buf: [u8; 24], len: u8 },
}

impl<'a> Lower<'a> {
    /// Like [`Lower::of`], always copied, so it outlives `core`.
    fn copied(core: &str) -> Option<Lower<'static>> {
        match Lower::of(core)? {
            Lower::Borrowed(word) => {
                let mut buf = [0u8; 24];
                buf[..word.len()].copy_from_slice(word.as_bytes());
                Some(Lower::Copied {
                    buf,
                    len: word.len() as u8,
                })
            }
            Lower::Copied { buf, len } => Some(Lower::Copied { buf, len }),
        }
    }

    fn of(core: &'a str) -> Option<Lower<'a>> {
        let bytes = core.as_bytes();
        if bytes.is_empty() || bytes.len() > 24 {
            return None;
        }
        let mut upper = false;
        for b in bytes {
            match b {
                b'a'..=b'z' | b'\'' | b'-' => {}
                b'A'..=b'Z' => upper = true,
                _ => return None,
            }
        }
        if !upper {
            return Some(Lower::Borrowed(core));
        }
        let mut buf = [0u8; 24];
        for (d, s) in buf.iter_mut().zip(bytes) {
            *d = s.to_ascii_lowercase();
        }
        Some(Lower::Copied {
            buf,
            len: bytes.len() as u8,
        })
    }

    pub fn as_str(&self) -> &str {
        match self {
            Lower::Borrowed(s) => s,
            // Only ASCII letters, apostrophes and hyphens were copied in.
            Lower::Copied { buf, len } => {
                std::str::from_utf8(&buf[..*len as usize]).unwrap_or_default()
            }
        }
    }
}

impl std::ops::Deref for Lower<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Lower<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

fn is_abbreviation(core: &str) -> bool {
    matches!(
        core,
        "e.g" | "i.e" | "etc" | "vs" | "Mr" | "Mrs" | "Ms" | "Dr" | "St" | "approx" | "cf" | "al"
    )
}

/// Whether a line's chunks open with a label: one capitalized word and a colon (`Alice:`,
/// `Subject:`, `User:`), then more. A guard word (`CRITICAL:`) is no label.
pub fn opens_with_label(chunks: &[Chunk<'_>]) -> bool {
    chunks.len() > 1
        && chunks[0].text.ends_with(':')
        && chunks[0].is_capitalized()
        && !chunks[0].fixed
}

/// Whether the sentence that `chunks` opens ends in a question mark.
pub fn is_question(chunks: &[Chunk<'_>]) -> bool {
    chunks
        .iter()
        .find(|c| c.ends_sentence())
        .is_some_and(|c| c.text.trim_end_matches(['"', ')']).ends_with('?'))
}

/// Splits prose content into chunks; protected spans stay whole with the punctuation touching them.
pub fn split(content: &str) -> Vec<Chunk<'_>> {
    let spans = protected_spans(content);
    let bytes = content.as_bytes();
    // About one chunk per six bytes of English prose: most lines need a single allocation.
    let mut chunks = Vec::with_capacity(bytes.len() / 6 + 1);
    let mut i = 0;
    let mut span_idx = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // A chunk runs to the next whitespace that is not inside a protected span.
        let start = i;
        let mut protected = false;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            while span_idx < spans.len() && spans[span_idx].1 <= i {
                span_idx += 1;
            }
            if let Some(&(s, e)) = spans.get(span_idx)
                && s <= i
            {
                protected = true;
                i = e;
                span_idx += 1;
                continue;
            }
            i += 1;
        }
        chunks.push(Chunk::new(&content[start..i], protected));
    }
    chunks
}

/// Joins chunks back with single spaces.
#[cfg(test)]
pub fn render(chunks: &[Chunk<'_>]) -> String {
    let mut out = String::with_capacity(chunks.iter().map(|c| c.text.len() + 1).sum());
    render_into(chunks, &mut out);
    out
}

/// Appends the chunks, joined with single spaces, to `out`.
pub fn render_into(chunks: &[Chunk<'_>], out: &mut String) {
    let mut first = true;
    for c in chunks.iter().filter(|c| !c.text.is_empty()) {
        if !first {
            out.push(' ');
        }
        out.push_str(&c.text);
        first = false;
    }
}

/// Removes chunk `i`, moving its punctuation to its neighbours so sentences stay well formed.
pub fn remove(chunks: &mut Vec<Chunk<'_>>, i: usize) {
    let removed = chunks.remove(i);
    let lead = removed.lead().to_string();
    let trail = removed.trail().to_string();
    if i > 0 {
        carry_trail(&mut chunks[i - 1], &trail);
    }
    if !lead.is_empty() && i < chunks.len() {
        let next = &mut chunks[i];
        next.text.to_mut().insert_str(0, &lead);
        next.core = (next.core.0 + lead.len(), next.core.1 + lead.len());
    }
}

/// Gives a dropped word's closing punctuation to the word before it.
pub fn carry_trail(prev: &mut Chunk<'_>, trail: &str) {
    if trail.is_empty() {
        return;
    }
    let prev_closed = prev.text.ends_with(['.', ',', ';', ':', '!', '?']);
    if !prev_closed {
        if !prev.trail().ends_with(trail) {
            prev.text.to_mut().push_str(trail);
        }
    } else if trail.contains(['.', '!', '?']) && prev.text.ends_with([',', ';']) {
        // `A, the.`: the sentence's end replaces the comma.
        prev.text.to_mut().pop();
        prev.text.to_mut().push_str(trail);
    }
    // Otherwise (`Alice: Um, I think`) what came before is already closed.
}

/// Capitalises the first letter of a plain word (used when a dropped word started a sentence).
pub fn capitalize(chunk: &mut Chunk<'_>) {
    if chunk.fixed {
        return;
    }
    capitalize_any(chunk);
}

/// Capitalises the first letter of a word the rules wrote, guard words included: the guard
/// protects the prompt's own words, and this one was not in the prompt.
pub fn capitalize_any(chunk: &mut Chunk<'_>) {
    if chunk.span {
        return;
    }
    let at = chunk.core.0;
    if let Some(b) = chunk.text.as_bytes().get(at)
        && b.is_ascii_lowercase()
    {
        let upper = (b.to_ascii_uppercase() as char).to_string();
        chunk.text.to_mut().replace_range(at..at + 1, &upper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words_and_keeps_spans_whole() {
        let chunks = split(r#"My first request is "I need help, now." Thanks."#);
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_ref()).collect();
        assert_eq!(
            texts,
            vec![
                "My",
                "first",
                "request",
                "is",
                "\"I need help, now.\"",
                "Thanks."
            ]
        );
        assert!(chunks[4].fixed && chunks[4].ends_sentence());
        assert_eq!(chunks[5].core(), "Thanks");
        assert_eq!(chunks[5].trail(), ".");
    }

    #[test]
    fn removing_moves_punctuation() {
        let mut chunks = split("Write it, the end.");
        remove(&mut chunks, 3);
        assert_eq!(render(&chunks), "Write it, the.");
    }
}
