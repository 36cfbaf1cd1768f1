//! The meaning guard: what no stage may drop or change.
//!
//! Two levels. Spans ([`protected_spans`]) are stretches of a line that are emitted verbatim by
//! every stage: quoted strings, XML/HTML-style tags, URLs, e-mail addresses, paths, `{slots}` and
//! `[SLOTS]`, and vault placeholders. Words ([`is_guard_word`]) are single words that may never be
//! dropped or rewritten: negations and restrictive words, numbers, identifiers and the like.
//!
//! The spans live in `spans.rs`, the words in `words.rs`, and [`items`] lists both for the
//! evaluation and the property tests, which check that every one survives.

mod items;
mod spans;
mod words;

pub use items::{items, items_with, visible};
pub use spans::protected_spans;
pub use words::{
    ascii_lower, is_guard_word, is_required_word, is_restrictive, is_steering, trim_punct,
};

#[cfg(test)]
mod tests;
