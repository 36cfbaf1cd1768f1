//! Words of doubt and degree that carry the sentence's sense where they stand. A hedge on a
//! claim is the claim's strength (`will probably raise prices` is not `will raise prices`,
//! `three days, maybe four` not `three days, four`); only as a softener of a request (`Perhaps
//! you could`, `Maybe try`) or beside a modal that already doubts (`may possibly`) does it add
//! nothing. An intensifier inside a condition raises its bar (`only when it is absolutely
//! necessary` is not `only when it is necessary`).

use super::lexicon;
use super::sense::Context;
use crate::stages::chunks::Chunk;

/// Whether `w` (a hedge or intensifier the lists drop) stays here.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str) -> bool {
    if is_hedge(w) {
        return !softens(ctx);
    }
    // `basically`, `essentially` approximate what follows (`essentially the same`, `basically
    // safe, but`); only opening a sentence as a filler (`Basically, you need to`) do they go.
    if matches!(w, "basically" | "essentially") {
        return !opens_as_filler(ctx);
    }
    // `overall` before its noun scopes it (`only if their overall rating is 3.5`); only as
    // `Overall, ...` does it merely sum up.
    if w == "overall" {
        return !ctx.rest.first().is_some_and(|c| c.trail().starts_with(','));
    }
    // `really`, `actually` before a verb, a determiner or a pronoun, or in a question, say what
    // is true (`tell them what really happened`, `it was really the innkeeper`, `Is that really
    // true?`); before an adjective they only intensify.
    if matches!(w, "really" | "actually") && asserts_truth(ctx) {
        return true;
    }
    is_intensifier(w) && in_condition(ctx)
}

/// A sentence's first word with a comma after it (`Basically, ...`).
fn opens_as_filler(ctx: &Context<'_, '_>) -> bool {
    ctx.prev
        .is_none_or(|p| p.ends_sentence() || p.text.ends_with(':'))
        || ctx.rest.first().is_some_and(|c| c.trail().starts_with(','))
}

fn asserts_truth(ctx: &Context<'_, '_>) -> bool {
    ctx.in_question()
        || ctx.rest.get(1).and_then(Chunk::lower_any).is_some_and(|n| {
            lexicon::is_past_tense(&n)
                || lexicon::is_determiner(&n)
                || lexicon::is_subject_pronoun(&n)
                || lexicon::is_be(&n)
                || matches!(
                    &*n,
                    "true"
                        | "happen"
                        | "happens"
                        | "mean"
                        | "means"
                        | "want"
                        | "wants"
                        | "need"
                        | "needs"
                )
        })
}

fn is_hedge(w: &str) -> bool {
    matches!(w, "perhaps" | "maybe" | "probably" | "possibly")
}

fn is_intensifier(w: &str) -> bool {
    matches!(
        w,
        "very"
            | "really"
            | "absolutely"
            | "truly"
            | "extremely"
            | "highly"
            | "incredibly"
            | "utterly"
            | "definitely"
            | "certainly"
    )
}

/// A hedge that softens a request or doubles a modal's doubt.
fn softens(ctx: &Context<'_, '_>) -> bool {
    let after_doubting_modal = ctx
        .prev
        .filter(|p| p.trail().is_empty())
        .and_then(Chunk::lower_any)
        .is_some_and(|p| matches!(&*p, "may" | "might" | "could"));
    let before_request = ctx.rest.first().is_some_and(|c| c.trail().is_empty())
        && ctx
            .rest
            .get(1)
            .and_then(Chunk::lower_any)
            .is_some_and(|n| matches!(&*n, "you" | "try" | "consider"));
    after_doubting_modal || before_request
}

/// Whether a condition opened earlier in this sentence, within a few words (`if`, `when`,
/// `where`, `unless`), or a negation (`not very likely`).
fn in_condition(ctx: &Context<'_, '_>) -> bool {
    ctx.earlier_in_sentence(|chunk| {
        chunk.lower_any().is_some_and(|w| {
            matches!(
                &*w,
                "if" | "when" | "whenever" | "where" | "wherever" | "unless" | "until"
            ) || lexicon::is_negation(&w)
        })
    })
}
