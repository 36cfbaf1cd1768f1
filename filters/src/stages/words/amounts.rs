//! Words that belong to an amount: `8 am` is a time of day, not the verb `am`; the `a` of `a
//! few`, `a third` or `a number of tests` is the amount itself (`few` alone is hardly any); and
//! the `a` of `500 mg a day`, `once a day` or `at a time` is `per` or `one`: without it the rate
//! reads as `500 mg day`.

use super::sense::Context;
use crate::stages::chunks::Chunk;

/// Whether `w` (a word the lists drop) is part of an amount here.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str) -> bool {
    let next = ctx.rest.get(1).and_then(Chunk::lower_any);
    match w {
        "am" => ctx.before.is_some_and(|b| {
            b.trail().is_empty() && b.core().ends_with(|c: char| c.is_ascii_digit())
        }),
        "a" if next.as_deref().is_some_and(is_amount) || follows_a_count(ctx) => true,
        "a" | "an" => next.as_deref().is_some_and(is_period) && counted_before(ctx),
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

/// Words after `a` that make it part of an amount: `a few`, `a third`, `a number of`.
fn is_amount(w: &str) -> bool {
    matches!(
        w,
        "few"
            | "little"
            | "bit"
            | "couple"
            | "lot"
            | "dozen"
            | "second"
            | "third"
            | "quarter"
            | "half"
            | "fifth"
            | "tenth"
            | "number"
            | "while"
    )
}

/// Whether the word right before (no punctuation between) counts what the `a` after it is per:
/// `once a day`, `3 times a week`, `at a time`.
fn follows_a_count(ctx: &Context<'_, '_>) -> bool {
    ctx.before
        .filter(|b| b.trail().is_empty())
        .and_then(Chunk::lower_any)
        .is_some_and(|b| {
            matches!(&*b, "once" | "twice" | "thrice" | "times" | "at")
                || b.as_bytes().first().is_some_and(u8::is_ascii_digit)
        })
}

/// Whether a number stands earlier in this sentence, within a few words: `Take 5 mg of vitamin
/// D a day`, `costs ten euros a month`.
fn counted_before(ctx: &Context<'_, '_>) -> bool {
    ctx.earlier_in_sentence(|chunk| {
        chunk.core().bytes().any(|b| b.is_ascii_digit())
            || chunk.lower_any().is_some_and(|w| is_number_word(&w))
    })
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
