//! Byte-exact JSON rewriting: replace or insert at spans of the original body, copy the rest.
//!
//! Re-serializing a parsed `Value` would change number spellings, string escapes, key order and
//! whitespace of fields the proxy never meant to touch. Instead the adapters deserialize into
//! borrowed [`RawValue`]s, whose text is a sub-slice of the body, and edit only those spans:
//! every byte outside an edit is forwarded exactly as the client sent it.

use serde_json::value::RawValue;
use std::ops::Range;

/// Where `raw` (borrowed from `body` by `serde_json::from_str`) sits inside `body`.
pub fn span_of(body: &str, raw: &RawValue) -> Range<usize> {
    let text = raw.get();
    let start = text.as_ptr() as usize - body.as_ptr() as usize;
    debug_assert!(
        start + text.len() <= body.len(),
        "raw value not borrowed from body"
    );
    start..start + text.len()
}

/// A JSON string literal for `text`, as serde_json writes it.
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

/// A set of non-overlapping edits of one body.
#[derive(Debug, Default)]
pub struct Edits {
    edits: Vec<(Range<usize>, String)>,
}

impl Edits {
    /// Replaces the bytes of `span` with `replacement`.
    pub fn replace(&mut self, span: Range<usize>, replacement: String) {
        self.edits.push((span, replacement));
    }

    /// Inserts `text` at byte offset `at`.
    pub fn insert(&mut self, at: usize, text: String) {
        self.edits.push((at..at, text));
    }

    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    /// The body with every edit applied. Edits at the same offset keep the order they were added.
    pub fn apply(mut self, body: &str) -> String {
        self.edits.sort_by_key(|(span, _)| span.start);
        let extra: usize = self.edits.iter().map(|(_, text)| text.len()).sum();
        let mut out = String::with_capacity(body.len() + extra);
        let mut copied = 0;
        for (span, text) in &self.edits {
            // Overlapping edits cannot come from the adapters; skipping keeps the output valid.
            if span.start < copied {
                continue;
            }
            out.push_str(&body[copied..span.start]);
            out.push_str(text);
            copied = span.end;
        }
        out.push_str(&body[copied..]);
        out
    }
}

/// The span just before the closing `]` of the array at `span`, and whether the array is empty.
pub fn array_end(body: &str, span: &Range<usize>) -> (usize, bool) {
    let inner = &body[span.start + 1..span.end - 1];
    (span.end - 1, inner.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_into_the_body_and_edits_keep_everything_else() {
        let body = "{ \"a\" :  1.50e3, \"b\":\"x\\u00e9\" ,\"c\":[ ] }";
        #[derive(serde::Deserialize)]
        struct Doc<'a> {
            #[serde(borrow)]
            b: &'a RawValue,
            #[serde(borrow)]
            c: &'a RawValue,
        }
        let doc: Doc = serde_json::from_str(body).unwrap();
        let b = span_of(body, doc.b);
        assert_eq!(&body[b.clone()], "\"x\\u00e9\"");
        let c = span_of(body, doc.c);
        let (at, empty) = array_end(body, &c);
        assert!(empty);
        let mut edits = Edits::default();
        edits.replace(b, json_string("y\"z"));
        edits.insert(at, "1".into());
        assert_eq!(
            edits.apply(body),
            "{ \"a\" :  1.50e3, \"b\":\"y\\\"z\" ,\"c\":[ 1] }"
        );
    }
}
