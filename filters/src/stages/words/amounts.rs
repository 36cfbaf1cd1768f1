//! Words that belong to an amount: `8 am` is a time of day, not the verb `am`, and the `a` of
//! `500 mg a day` is `per`: without it the rate reads as `500 mg day`.

use super::sense::Context;
use crate::stages::chunks::Chunk;

/// Whether `w` (a word the lists drop) is part of an amount here.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str) -> bool {
    match w {
        "am" => ctx.before.is_some_and(|b| {
            b.trail().is_empty() && b.core().ends_with(|c: char| c.is_ascii_digit())
        }),
        "a" | "an" => {
            ctx.rest
                .get(1)
                .and_then(Chunk::lower_any)
                .is_some_and(|n| is_period(&n))
                && counted_before(ctx)
        }
        _ => false,
    }
}

/// The spans of time a rate is given per (`a day`, `an hour`).
fn is_period(w: &str) -> bool {
    matches!(
        w,
        "second" | "minute" | "hour" | "day" | "night" | "week" | "month" | "quarter" | "year"
    )
}

/// Whether a number stands earlier in this sentence, within a few words: `Take 5 mg of vitamin
/// D a day`, `costs ten euros a month`.
fn counted_before(ctx: &Context<'_, '_>) -> bool {
    for chunk in ctx.earlier().iter().rev() {
        if chunk.ends_sentence() {
            return false;
        }
        if chunk.core().bytes().any(|b| b.is_ascii_digit())
            || chunk.lower_any().is_some_and(|w| is_number_word(&w))
        {
            return true;
        }
    }
    false
}

fn is_number_word(w: &str) -> bool {
    matches!(
        w,
        "one"
            | "two"
            | "three"
            | "four"
            | "five"
            | "six"
            | "seven"
            | "eight"
            | "nine"
            | "ten"
            | "eleven"
            | "twelve"
            | "fifteen"
            | "twenty"
            | "thirty"
            | "fifty"
            | "hundred"
            | "thousand"
            | "million"
            | "billion"
            | "dozen"
            | "several"
            | "few"
    )
}
