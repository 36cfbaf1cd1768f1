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

/// Parser bytes that failed candidates may cost, per byte of input, plus a fixed allowance.
const BUDGET_PER_BYTE: usize = 4;
const BUDGET_BASE: usize = 64 * 1024;

/// The parser work still allowed for one text.
pub struct Budget(usize);

impl Budget {
    pub fn for_text(text: &str) -> Self {
        Budget(text.len().saturating_mul(BUDGET_PER_BYTE) + BUDGET_BASE)
    }

    fn charge(&mut self, bytes: usize) {
        self.0 = self.0.saturating_sub(bytes.max(1));
    }

    fn spent(&self) -> bool {
        self.0 == 0
    }
}

/// Appends the JSON items of `text[start..end]`, in order. `code` holds the inline code spans
/// (sorted): no candidate starts inside one and no item ends inside one; the caller drops the
/// code spans an item contains.
pub fn find(
    text: &str,
    start: usize,
    end: usize,
    code: &[Span],
    budget: &mut Budget,
    out: &mut Vec<Span>,
) {
    let bytes = text.as_bytes();
    let mut code_at = code.partition_point(|span| span.end <= start);
    let mut at = start;
    while !budget.spent() {
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
        at = match parse(text, candidate, end, budget) {
            Some(item_end)
                if worth_protecting(text, candidate, item_end)
                    && !ends_inside_code(code, code_at, item_end, budget) =>
            {
                out.push(Span::new(candidate, item_end, Kind::Json));
                item_end
            }
            Some(item_end) => {
                budget.charge(item_end - candidate);
                candidate + 1
            }
            None => candidate + 1,
        };
    }
}

/// The end of the JSON value starting at `candidate`, if one does; failures are charged.
fn parse(text: &str, candidate: usize, end: usize, budget: &mut Budget) -> Option<usize> {
    let slice = &text[candidate..end];
    let mut values = serde_json::Deserializer::from_str(slice).into_iter::<IgnoredAny>();
    match values.next()? {
        Ok(_) => Some(candidate + values.byte_offset()),
        Err(error) => {
            budget.charge(error_offset(slice, error.line(), error.column()));
            None
        }
    }
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

/// Objects need a key; arrays need a string or a nested value, so citations (`[1]`, `[2, 3]`)
/// and empty brackets stay prose. A whole-prompt document only needs to be non-empty.
fn worth_protecting(text: &str, start: usize, end: usize) -> bool {
    let item = &text.as_bytes()[start..end];
    let inner = &item[1..item.len() - 1];
    if item[0] == b'{' {
        return inner.contains(&b'"');
    }
    if inner.iter().any(|b| matches!(b, b'"' | b'[' | b'{')) {
        return true;
    }
    let whole = text[..start].trim().is_empty() && text[end..].trim().is_empty();
    whole && !inner.trim_ascii().is_empty()
}

/// Whether an inline code span starting inside the item runs past its end (then the item is not
/// taken: code spans win).
fn ends_inside_code(code: &[Span], from: usize, item_end: usize, budget: &mut Budget) -> bool {
    let mut checked = 0;
    let crossing = code[from..]
        .iter()
        .take_while(|span| span.start < item_end)
        .inspect(|_| checked += 1)
        .any(|span| span.end > item_end);
    budget.charge(checked);
    crossing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::span::found_in;

    fn items(text: &str) -> Vec<&str> {
        found_in(text, |text, start, end, out| {
            find(text, start, end, &[], &mut Budget::for_text(text), out)
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
        assert!(items("See [1] and [2, 3], {} [] {a: 1} {'a': 1} [x](y) {\"a\": }").is_empty());
    }

    #[test]
    fn whole_prompt_documents() {
        assert_eq!(items(" [1, 2, 3]\n"), vec!["[1, 2, 3]"]);
        let doc = r#"{"messages": [{"role": "user", "content": "hi {{x}}"}]}"#;
        assert_eq!(items(doc), vec![doc]);
    }

    fn found_around_code(text: &str, code: Span) -> Vec<Span> {
        let mut spans = Vec::new();
        let mut budget = Budget::for_text(text);
        find(text, 0, text.len(), &[code], &mut budget, &mut spans);
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
    fn error_offsets_follow_lines() {
        assert_eq!(error_offset("abc", 1, 2), 2);
        assert_eq!(error_offset("a\nbc\nd", 3, 1), 6);
    }
}
