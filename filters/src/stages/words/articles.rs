//! When an article carries sense: `a` as an option, a letter or a variable (`from A to D`,
//! `a = -g`), `The` in a name (`The Hague`, `The Lord of the Rings`), `the only`, and `the more ..., the harder ...`.

use super::sense::Context;
use crate::stages::chunks::Chunk;

/// Whether `w` (`a` or `the`) stays here; `at_start`: it opens its sentence.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str, at_start: bool) -> bool {
    let next = ctx.rest.get(1).and_then(Chunk::lower_any);
    match w {
        // An article comes before a noun. A capital `A` inside a sentence, or an `a` before a
        // connective or punctuation, names an option or a letter: `from A to D`, `plan A`.
        // A variable: `a = -g`, `a + b = 7`, `Let a be the acceleration`.
        "a" if ctx.rest.get(1).is_some_and(|n| {
            n.text.starts_with([
                '=', '+', '-', '*', '/', '<', '>', '^', '\u{00D7}', '\u{2264}', '\u{2265}',
                '\u{2248}',
            ]) || n.lower_any().as_deref() == Some("be")
        }) =>
        {
            true
        }
        "a" => {
            let this = ctx.rest.first();
            (!at_start && this.is_some_and(Chunk::is_capitalized))
                || this.is_some_and(|c| !c.trail().is_empty())
                || ctx.rest.get(1).is_none_or(|c| {
                    c.lower_any().is_some_and(|n| {
                        matches!(
                            &*n,
                            "to" | "or" | "and" | "through" | "vs" | "versus" | "is" | "are"
                        )
                    })
                })
                // The bare word would be another word: `not a right` is not `not right`, `a
                // must` not `must`, `a means to an end` not `means to end`.
                || next
                    .as_deref()
                    .is_some_and(|n| matches!(n, "must" | "right" | "means"))
        }
        // `The` inside a sentence before a capitalised word is part of a name: `according to
        // The Times`, `in The Hague`.
        "the"
            if !at_start
                && ctx.rest.first().is_some_and(Chunk::is_capitalized)
                && ctx.rest.get(1).is_some_and(Chunk::is_capitalized) =>
        {
            true
        }
        // `The Lord of the Rings`, `the Bank of the West`: between the capitalised words of a
        // name, `the` is the name's.
        "the"
            if ctx.rest.get(1).is_some_and(Chunk::is_capitalized)
                && matches!(ctx.earlier(), [.., name, link]
                if name.is_capitalized()
                    && link.trail().is_empty()
                    && link.lower_any().is_some_and(|w| matches!(
                        &*w,
                        "of" | "in" | "on" | "at" | "for" | "and" | "from" | "under" | "over"
                    ))) =>
        {
            true
        }
        // `the only person who can merge` is the one; `only person who can merge` reads as
        // `merely a person`.
        "the" if next.as_deref() == Some("only") => true,
        // `The more files you change, the harder the review is`: each `the` makes its
        // comparative one half of the correlation.
        "the" if next.as_deref().is_some_and(is_comparative) => {
            let pairs_later = ctx.rest.windows(3).any(|words| {
                words[0].trail().contains(',')
                    && words[1].lower_any().as_deref() == Some("the")
                    && words[2].lower_any().is_some_and(|w| is_comparative(&w))
            });
            pairs_later || ctx.before.is_some_and(|b| b.trail().contains(','))
        }
        _ => false,
    }
}

/// Comparatives that open one half of `the more ..., the harder ...`.
fn is_comparative(w: &str) -> bool {
    matches!(
        w,
        "more"
            | "less"
            | "fewer"
            | "better"
            | "worse"
            | "sooner"
            | "later"
            | "higher"
            | "lower"
            | "harder"
            | "easier"
            | "faster"
            | "slower"
            | "bigger"
            | "smaller"
            | "longer"
            | "shorter"
            | "greater"
    )
}
