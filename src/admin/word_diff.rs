//! What the playground highlights: a word-level diff of the original against the compressed
//! text, with the vault's protected items marked on both sides.
//!
//! Each side becomes a list of segments that concatenate back to that side's text exactly.
//! A segment is `kept`, `removed` (original only), `added` (compressed only) or `protected`
//! (a vault item; protected wins over the diff, since items are restored byte-identically).

use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};
use std::ops::Range;
use std::time::Duration;

/// A long prompt's diff stops refining after this long and reports coarser changes.
const DIFF_DEADLINE: Duration = Duration::from_millis(300);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Kept,
    Removed,
    Added,
    Protected,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub text: String,
    pub kind: Kind,
}

/// Segments of the original (`kept`/`removed`/`protected`) and of the compressed text
/// (`kept`/`added`/`protected`). `items` are the protected items in text order.
pub fn highlight(original: &str, compressed: &str, items: &[&str]) -> (Vec<Segment>, Vec<Segment>) {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(DIFF_DEADLINE)
        .diff_words(original, compressed);
    let (mut old_changes, mut new_changes) = (Vec::new(), Vec::new());
    let (mut old_at, mut new_at) = (0, 0);
    for change in diff.iter_all_changes() {
        let len = change.value().len();
        match change.tag() {
            ChangeTag::Equal => {
                old_changes.push((old_at..old_at + len, false));
                new_changes.push((new_at..new_at + len, false));
                old_at += len;
                new_at += len;
            }
            ChangeTag::Delete => {
                old_changes.push((old_at..old_at + len, true));
                old_at += len;
            }
            ChangeTag::Insert => {
                new_changes.push((new_at..new_at + len, true));
                new_at += len;
            }
        }
    }
    (
        segments(
            original,
            &old_changes,
            &item_ranges(original, items),
            Kind::Removed,
        ),
        segments(
            compressed,
            &new_changes,
            &item_ranges(compressed, items),
            Kind::Added,
        ),
    )
}

/// Where each item sits in `text`: the first occurrence after the previous item, the same
/// reading as the vault's own verification. Items not found (a failed compression) are skipped.
pub fn item_ranges(text: &str, items: &[&str]) -> Vec<Range<usize>> {
    let mut ranges = Vec::with_capacity(items.len());
    let mut at = 0;
    for item in items.iter().filter(|item| !item.is_empty()) {
        if let Some(found) = text[at..].find(item) {
            let start = at + found;
            ranges.push(start..start + item.len());
            at = start + item.len();
        }
    }
    ranges
}

/// Cuts `text` at every change and protected boundary and labels each piece.
fn segments(
    text: &str,
    changes: &[(Range<usize>, bool)],
    protected: &[Range<usize>],
    changed_kind: Kind,
) -> Vec<Segment> {
    let mut cuts: Vec<usize> = vec![0, text.len()];
    cuts.extend(changes.iter().flat_map(|(r, _)| [r.start, r.end]));
    cuts.extend(protected.iter().flat_map(|r| [r.start, r.end]));
    cuts.retain(|&at| at <= text.len() && text.is_char_boundary(at));
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<Segment> = Vec::new();
    for pair in cuts.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        let kind = if protected.iter().any(|r| r.start <= start && end <= r.end) {
            Kind::Protected
        } else if changes
            .iter()
            .any(|(r, changed)| *changed && r.start <= start && end <= r.end)
        {
            changed_kind
        } else {
            Kind::Kept
        };
        match out.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(&text[start..end]),
            _ => out.push(Segment {
                text: text[start..end].to_string(),
                kind,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(segments: &[Segment]) -> String {
        segments.iter().map(|s| s.text.as_str()).collect()
    }

    fn of_kind(segments: &[Segment], kind: Kind) -> Vec<&str> {
        segments
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.text.trim())
            .collect()
    }

    #[test]
    fn removed_and_added_words_are_marked_and_sides_round_trip() {
        let original = "Please kindly run the `make test` command now.";
        let compressed = "Run `make test` command.";
        let (old, new) = highlight(original, compressed, &["`make test`"]);
        assert_eq!(joined(&old), original);
        assert_eq!(joined(&new), compressed);
        let removed = of_kind(&old, Kind::Removed).join(" ");
        assert!(
            removed.contains("Please") && removed.contains("kindly"),
            "{old:?}"
        );
        assert_eq!(of_kind(&old, Kind::Protected), ["`make test`"]);
        assert_eq!(of_kind(&new, Kind::Protected), ["`make test`"]);
        assert!(of_kind(&new, Kind::Added).contains(&"Run"), "{new:?}");
        assert!(!old.iter().any(|s| s.kind == Kind::Added));
        assert!(!new.iter().any(|s| s.kind == Kind::Removed));
    }

    #[test]
    fn identical_texts_are_all_kept() {
        let text = "nothing changes here é";
        let (old, new) = highlight(text, text, &[]);
        assert_eq!(
            old,
            [Segment {
                text: text.into(),
                kind: Kind::Kept
            }]
        );
        assert_eq!(new, old);
    }

    #[test]
    fn items_are_found_in_order_after_each_other() {
        let text = "a {x} b {x} c";
        assert_eq!(item_ranges(text, &["{x}", "{x}"]), [2..5, 8..11]);
        assert_eq!(item_ranges(text, &["{y}", "{x}"]), vec![2..5; 1]);
    }
}
