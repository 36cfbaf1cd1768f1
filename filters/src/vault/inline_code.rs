//! Inline code spans (CommonMark): a run of N backticks closed by the next run of exactly N
//! backticks, never across a blank line. An unmatched run is plain text.

use super::scan::BlankLines;
use super::span::{Kind, Span};
use memchr::memchr;
use std::collections::BTreeMap;

/// Appends the code spans of `text[start..end]`, in order.
pub fn find(text: &str, start: usize, end: usize, out: &mut Vec<Span>) {
    let bytes = &text.as_bytes()[..end];
    let runs = backtick_runs(bytes, start);
    if runs.len() < 2 {
        return;
    }
    // For each run length, the indices of the runs that long, and a cursor into them: every
    // opener looks up "the next run of my length" in amortised constant time.
    let mut by_length: BTreeMap<usize, (Vec<usize>, usize)> = BTreeMap::new();
    for (index, &(_, length)) in runs.iter().enumerate() {
        by_length.entry(length).or_default().0.push(index);
    }
    let mut blanks = BlankLines::new(bytes);
    let mut i = 0;
    while i < runs.len() {
        let (open, length) = runs[i];
        let closer = by_length.get_mut(&length).and_then(|(indices, cursor)| {
            while indices.get(*cursor).is_some_and(|&j| j <= i) {
                *cursor += 1;
            }
            indices.get(*cursor).copied()
        });
        if let Some(j) = closer {
            let (close, _) = runs[j];
            if close < blanks.at_or_after(open + length) {
                out.push(Span::new(open, close + length, Kind::Code));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
}

/// Every maximal run of backticks in `bytes[start..]`, as (position, length).
fn backtick_runs(bytes: &[u8], start: usize) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut at = start;
    while let Some(i) = memchr(b'`', &bytes[at..]) {
        let open = at + i;
        let length = bytes[open..].iter().take_while(|&&b| b == b'`').count();
        runs.push((open, length));
        at = open + length;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::span::found_in;

    fn items(text: &str) -> Vec<&str> {
        found_in(text, find)
    }

    #[test]
    fn single_and_multiple_backticks() {
        assert_eq!(
            items("run `ls -la` or ``a ` b`` now"),
            vec!["`ls -la`", "``a ` b``"]
        );
    }

    #[test]
    fn closer_needs_exact_length() {
        assert_eq!(items("``x` y``"), vec!["``x` y``"]);
        assert_eq!(items("`x`` y"), Vec::<&str>::new());
    }

    #[test]
    fn unmatched_runs_are_text_and_later_pairs_still_match() {
        assert_eq!(items("a `` b `c` d"), vec!["`c`"]);
    }

    #[test]
    fn spans_do_not_cross_blank_lines() {
        assert_eq!(items("`a\nb`"), vec!["`a\nb`"]);
        assert!(items("`a\n\nb`").is_empty());
        assert_eq!(items("`a\n  \nb` `c`"), vec!["` `"]);
    }

    #[test]
    fn respects_the_gap_bounds() {
        let text = "`a` `b`";
        let mut spans = Vec::new();
        find(text, 2, 6, &mut spans);
        assert_eq!(spans, vec![Span::new(2, 5, Kind::Code)]);
    }
}
