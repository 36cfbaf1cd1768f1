//! Byte ranges of protected items, and the free gaps between them that later passes search.

/// What a protected span is; decides which counter it adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A fenced code block or an inline code span.
    Code,
    Json,
    Variable,
    /// A U+E000 or U+E001 found in the input: sealed so the sealed text has none of its own.
    Literal,
}

/// A protected byte range `start..end` of the input, on `char` boundaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

impl Span {
    pub fn new(start: usize, end: usize, kind: Kind) -> Self {
        Span { start, end, kind }
    }
}

/// The unprotected ranges of `0..len` around `spans` (sorted, non-overlapping), empty ones left out.
pub fn gaps(spans: &[Span], len: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(spans.len() + 1);
    let mut at = 0;
    for span in spans {
        if span.start > at {
            out.push((at, span.start));
        }
        at = span.end;
    }
    if at < len {
        out.push((at, len));
    }
    out
}

/// Merges two sorted, mutually non-overlapping span lists into one sorted list.
pub fn merge(a: Vec<Span>, b: Vec<Span>) -> Vec<Span> {
    if b.is_empty() {
        return a;
    }
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut a = a.into_iter().peekable();
    let mut b = b.into_iter().peekable();
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.start <= y.start,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let next = if take_a { a.next() } else { b.next() };
        out.extend(next);
    }
    out
}

/// Runs `find` on every gap between `spans` and merges what it finds into them.
pub fn search_gaps(
    text: &str,
    spans: Vec<Span>,
    mut find: impl FnMut(&str, usize, usize, &mut Vec<Span>),
) -> Vec<Span> {
    let mut found = Vec::new();
    for (start, end) in gaps(&spans, text.len()) {
        find(text, start, end, &mut found);
    }
    merge(spans, found)
}

/// The texts a gap finder picks out of the whole of `text` (test helper for the finders).
#[cfg(test)]
pub fn found_in(text: &str, find: impl FnOnce(&str, usize, usize, &mut Vec<Span>)) -> Vec<&str> {
    let mut spans = Vec::new();
    find(text, 0, text.len(), &mut spans);
    spans.iter().map(|s| &text[s.start..s.end]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_skip_spans_and_empty_ranges() {
        let spans = [Span::new(0, 2, Kind::Code), Span::new(5, 7, Kind::Json)];
        assert_eq!(gaps(&spans, 7), vec![(2, 5)]);
        assert_eq!(gaps(&spans, 9), vec![(2, 5), (7, 9)]);
        assert_eq!(gaps(&[], 3), vec![(0, 3)]);
    }

    #[test]
    fn merge_keeps_order() {
        let a = vec![Span::new(0, 1, Kind::Code), Span::new(4, 5, Kind::Code)];
        let b = vec![Span::new(2, 3, Kind::Json), Span::new(6, 7, Kind::Json)];
        let starts: Vec<usize> = merge(a, b).iter().map(|s| s.start).collect();
        assert_eq!(starts, vec![0, 2, 4, 6]);
    }
}
