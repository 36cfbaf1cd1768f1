//! JSON objects and arrays inside prose, and whole-prompt JSON documents, validated by serde_json.
//!
//! Every `{` or `[` outside an inline code span is a candidate. The parser's work on candidates
//! that fail (or are too trivial to protect) is charged to a budget proportional to the input, so
//! adversarial input (`[[[[`..., long unterminated arrays) costs linear time; once the budget is
//! spent the rest of the text is left as prose. Successful parses are free: the scan jumps past
//! them.

use super::span::{Kind, Span};
use memchr::{memchr_iter, memchr2};
use serde::de::IgnoredAny;

/// Parser bytes that failed candidates may cost, per byte of input, plus a fixed allowance. Real
/// prompts spend at most about one byte per byte (long invalid JSON-like examples, retried at
/// each nested bracket); hostile input is cut off at twice that.
const BUDGET_PER_BYTE: usize = 2;
const BUDGET_BASE: usize = 16 * 1024;

/// Finds JSON items gap by gap, with one parser budget for the whole text.
pub struct Finder<'a> {
    text: &'a str,
    /// The text without its leading and trailing whitespace: a value spanning it is the whole
    /// prompt.
    content: (usize, usize),
    /// The parser work still allowed, in bytes.
    budget: usize,
}

impl<'a> Finder<'a> {
    pub fn new(text: &'a str) -> Self {
        let content_start = text.len() - text.trim_start().len();
        Finder {
            text,
            content: (content_start, text.trim_end().len().max(content_start)),
            budget: text.len().saturating_mul(BUDGET_PER_BYTE) + BUDGET_BASE,
        }
    }

    fn charge(&mut self, bytes: usize) {
        self.budget = self.budget.saturating_sub(bytes.max(1));
    }

    /// Appends the JSON items of `text[start..end]`, in order. `code` holds the inline code
    /// spans (sorted): no candidate starts inside one and no item ends inside one; the caller
    /// drops the code spans an item contains.
    pub fn find(&mut self, start: usize, end: usize, code: &[Span], out: &mut Vec<Span>) {
        let bytes = self.text.as_bytes();
        let mut code_at = code.partition_point(|span| span.end <= start);
        let mut at = start;
        while self.budget > 0 {
            let Some(i) = memchr2(b'{', b'[', &bytes[at..end]) else {
                return;
            };
            let candidate = at + i;
            while code.get(code_at).is_some_and(|span| span.end <= candidate) {
                code_at += 1;
            }
            if let Some(span) = code.get(code_at).filter(|span| span.start <= candidate) {
                at = span.end.min(end);
                continue;
            }
            if !may_open_value(&bytes[candidate..end]) {
                at = candidate + 1;
                continue;
            }
            at = match self.parse(candidate, end) {
                Some(item_end)
                    if self.worth_protecting(candidate, item_end)
                        && !self.ends_inside_code(&code[code_at..], item_end) =>
                {
                    out.push(Span::new(candidate, item_end, Kind::Json));
                    item_end
                }
                Some(item_end) => {
                    self.charge(item_end - candidate);
                    candidate + 1
                }
                None => candidate + 1,
            };
        }
    }

    /// The end of the JSON value starting at `candidate`, if one does; failures are charged.
    fn parse(&mut self, candidate: usize, end: usize) -> Option<usize> {
        let slice = &self.text[candidate..end];
        let mut values = serde_json::Deserializer::from_str(slice).into_iter::<IgnoredAny>();
        match values.next()? {
            Ok(_) => Some(candidate + values.byte_offset()),
            Err(error) => {
                self.charge(error_offset(slice, error.line(), error.column()));
                None
            }
        }
    }

    /// Objects need a key; arrays need a string or an object somewhere inside, so citations
    /// (`[1]`, `[2, 3]`), empty brackets and `[[ ]]` stay prose. A whole-prompt document only
    /// needs to be non-empty.
    fn worth_protecting(&self, start: usize, end: usize) -> bool {
        let item = &self.text.as_bytes()[start..end];
        let inner = &item[1..item.len() - 1];
        if item[0] == b'{' {
            return inner.contains(&b'"');
        }
        if inner.iter().any(|b| matches!(b, b'"' | b'{')) {
            return true;
        }
        (start, end) == self.content && !inner.trim_ascii().is_empty()
    }

    /// Whether one of `code` (the spans from the candidate on) starts inside the item and runs
    /// past its end: then the item is not taken, since code spans win.
    fn ends_inside_code(&mut self, code: &[Span], item_end: usize) -> bool {
        let inside = code.iter().take_while(|span| span.start < item_end);
        let (checked, crossing) = inside.fold((0, false), |(n, crossing), span| {
            (n + 1, crossing || span.end > item_end)
        });
        self.charge(checked);
        crossing
    }
}

/// Whether the bracket opening `rest` is followed by what a worthwhile object (a key) or array
/// (a value) starts with. Cheap, and spares the parser most brackets of prose (`{{`, `[link]`).
/// It looks only at blanks up to the next other byte, so candidates never rescan each other.
fn may_open_value(rest: &[u8]) -> bool {
    let next = rest[1..].iter().find(|b| !b.is_ascii_whitespace());
    matches!(
        (rest[0], next),
        (b'{', Some(b'"'))
            | (
                b'[',
                Some(b'"' | b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
            )
    )
}

/// The byte offset in `slice` of serde_json's (1-based line, byte column) error position.
fn error_offset(slice: &str, line: usize, column: usize) -> usize {
    let line_start = match line {
        0 | 1 => 0,
        _ => memchr_iter(b'\n', slice.as_bytes())
            .nth(line - 2)
            .map_or(slice.len(), |newline| newline + 1),
    };
    line_start + column
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::span::found_in;

    fn items(text: &str) -> Vec<&str> {
        found_in(text, |text, start, end, out| {
            Finder::new(text).find(start, end, &[], out)
        })
    }

    #[test]
    fn objects_and_arrays_in_prose() {
        assert_eq!(
            items(r#"Reply as {"name": "x", "tags": [1, 2]} or ["a", "b"] only."#),
            vec![r#"{"name": "x", "tags": [1, 2]}"#, r#"["a", "b"]"#]
        );
    }

    #[test]
    fn multi_line_object() {
        let text = "Format:\n{\n  \"title\": \"...\",\n  \"score\": 0.5\n}\nThanks";
        assert_eq!(
            items(text),
            vec!["{\n  \"title\": \"...\",\n  \"score\": 0.5\n}"]
        );
    }

    #[test]
    fn citations_empty_and_invalid_braces_stay_prose() {
        assert!(
            items("See [1] and [2, 3], {} [] [[ ]] [[1], [2]] {a: 1} {'a': 1} [x](y) {\"a\": }")
                .is_empty()
        );
    }

    #[test]
    fn whole_prompt_documents() {
        assert_eq!(items(" [1, 2, 3]\n"), vec!["[1, 2, 3]"]);
        assert_eq!(items("[[1, 2], [3]]"), vec!["[[1, 2], [3]]"]);
        let doc = r#"{"messages": [{"role": "user", "content": "hi {{x}}"}]}"#;
        assert_eq!(items(doc), vec![doc]);
    }

    fn found_around_code(text: &str, code: Span) -> Vec<Span> {
        let mut spans = Vec::new();
        Finder::new(text).find(0, text.len(), &[code], &mut spans);
        spans
    }

    #[test]
    fn candidates_inside_code_are_skipped() {
        let text = r#"`{"a": 1}` {"b": 2}"#;
        let spans = found_around_code(text, Span::new(0, 10, Kind::Code));
        assert_eq!(spans, vec![Span::new(11, text.len(), Kind::Json)]);
    }

    #[test]
    fn item_ending_inside_code_is_refused() {
        let text = r#"{"a": "`x"} y`"#;
        assert!(found_around_code(text, Span::new(7, text.len(), Kind::Code)).is_empty());
    }

    #[test]
    fn invalid_examples_do_not_starve_later_json() {
        let junk = r#"{"items": [{"id": 1, "tags": ["a", ...]}, ...], "next": ...}"#.repeat(100);
        let text = format!("{junk}\nThen reply {{\"ok\": true}}.");
        assert_eq!(items(&text), vec![r#"{"ok": true}"#]);
    }

    #[test]
    fn hostile_nesting_spends_the_budget_and_stops() {
        let text = format!("{}{}", "[".repeat(50_000), r#" {"late": 1}"#);
        let mut finder = Finder::new(&text);
        let mut spans = Vec::new();
        finder.find(0, text.len(), &[], &mut spans);
        assert!(spans.is_empty());
        assert_eq!(finder.budget, 0);
    }

    #[test]
    fn error_offsets_follow_lines() {
        assert_eq!(error_offset("abc", 1, 2), 2);
        assert_eq!(error_offset("a\nbc\nd", 3, 1), 6);
    }
}
