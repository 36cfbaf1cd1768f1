//! The role line: `You are an expert in X` opening a prompt or a section becomes `Expert in X`.

use super::lexicon;
use super::sense::Context;
use crate::options::Mode;
use crate::stages::chunks::Chunk;

/// Whether a sentence whose first words are `words` gives the reader a role: `Act as ...`,
/// `As a ...`, `I want you to act as ...`. Not `You are ...`: after one role line, a second
/// `You are responsible for the budget` says what the reader is as well, and a paragraph of
/// them would otherwise name no one. Any case; no allocation (it runs for every sentence).
pub(in crate::stages) fn opens_role<S: AsRef<str>>(mut words: impl Iterator<Item = S>) -> bool {
    let Some(first) = words.next() else {
        return false;
    };
    let first = first.as_ref();
    // Most sentences are ruled out by their first word.
    if !["act", "as", "i", "imagine", "pretend"]
        .iter()
        .any(|o| first.eq_ignore_ascii_case(o))
    {
        return false;
    }
    let rest: [Option<S>; 4] = std::array::from_fn(|_| words.next());
    let word = |i: usize| match i {
        0 => first,
        _ => rest[i - 1].as_ref().map_or("", AsRef::as_ref),
    };
    let is = |i: usize, options: &[&str]| options.iter().any(|o| word(i).eq_ignore_ascii_case(o));
    (is(0, &["act"]) && is(1, &["as"]))
        || (is(0, &["as"]) && is(1, &["a", "an"]))
        || (is(0, &["i"])
            && is(1, &["want"])
            && is(2, &["you"])
            && is(3, &["to"])
            && is(4, &["act", "be"]))
        || (is(0, &["imagine", "pretend"]) && is(1, &["you"]) && is(2, &["are", "were"]))
}

/// `You` opening a role or duty (`You are an expert in ...`, `You are responsible for ...`)
/// goes with the copula that follows it, which every mode drops: what remains reads as the
/// role itself (`Expert in ...`) rather than `You expert in ...`. Not before a negation
/// (`You are not ...`), which keeps its copula and so its subject, nor before a name.
/// A role opens the text or a section, or goes on from a sentence giving one (`Act as a
/// guide. You are an expert in ...`): after another sentence `You are a required reviewer`
/// says who, in contrast to someone just named (`Ask Maria to review the patch.`).
pub(super) fn role_subject(ctx: &Context<'_, '_>, w: &str) -> Option<Mode> {
    if w != "you" {
        return None;
    }
    let word = |n: usize| ctx.rest.get(n).and_then(Chunk::lower_any);
    // What the reader is said to be, past its article.
    let complement = match word(2).as_deref() {
        Some("a" | "an" | "the") => word(3),
        _ => word(2),
    };
    let opens_role = ctx.prev.is_none_or(Chunk::ends_sentence)
        && ctx.rest.first().is_some_and(|c| c.trail().is_empty())
        && word(1).as_deref() == Some("are")
        && ctx.rest.get(1).is_some_and(|c| c.trail().is_empty())
        // Nor before a restriction, after an article too: `You are the only person who can
        // merge` says who, uniquely.
        && word(2).is_some()
        && complement.is_none_or(|w| {
            !crate::guard::is_restrictive(w.as_bytes()) && !lexicon::is_restrictor(&w)
        })
        // A name is who the reader is, not a role: `You are Forge, a coding assistant` stays.
        && !ctx.rest.get(2).is_some_and(Chunk::is_capitalized)
        // What the reader is doing is no role: `You are working on a Pomodoro app` is not the
        // label `Working on Pomodoro app`.
        && !word(2).is_some_and(|n| n.ends_with("ing"))
        && if ctx.prev.is_none() {
            !ctx.after_prose
        } else {
            ctx.after_role
        }
        && !ctx.in_question();
    opens_role.then_some(Mode::Conservative)
}
