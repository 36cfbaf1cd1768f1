//! Context rules for words that relate the others: a pronoun a preposition governs (`give it
//! to you`), the parties of a sentence (`You ask me a question, and I rate it`), relative pronouns, and
//! `being` after a verb that takes it (`stop being`).

use super::lexicon;
use super::sense::{Context, is_object_pronoun};
use crate::stages::chunks::Chunk;

/// Whether `w` (this word, a function word the lists drop) stays for the words around it.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str) -> bool {
    let next = ctx.rest.get(1).and_then(Chunk::lower_any);
    let next = next.as_deref();
    // The word before as written, joined to this one (no punctuation between).
    let before = ctx
        .before
        .filter(|b| b.trail().is_empty())
        .and_then(Chunk::lower_any);
    let before = before.as_deref();
    // A pronoun right after a preposition that stays is its object: `a review of it.` is not `a
    // review of.`
    if is_object_pronoun(w)
        && ctx
            .prev
            .and_then(Chunk::lower_any)
            .is_some_and(|p| lexicon::is_preposition(&p))
    {
        return true;
    }
    // Aggressive drops a sentence's first `you`, but not where two parties act in one sentence
    // (`You ask me a question, and I rate it`): without it the roles swap.
    if let Some(person) = person_of(w)
        && ctx
            .window
            .iter()
            .filter_map(Chunk::lower_any)
            .any(|other| person_of(&other).is_some_and(|p| p != person))
    {
        return true;
    }
    match w {
        // A relative pronoun before its own verb is the verb's subject (`users who own the
        // repository` is not `users own repository`); only before a subject of its own (`the
        // file which you edited`) can it go. `which` before a noun asks which one, and a
        // question word opening a heading or list item is the question (`- Who this page is
        // for`).
        // After a comma the clause is about the noun before it (`engaged to Andrea, whom she
        // does not love`): without the pronoun it reads as a clause of its own.
        "who" | "which" | "whom" => {
            ctx.prev.is_none()
                || ctx.before.is_some_and(|b| b.trail().contains(','))
                || !next.is_some_and(|n| {
                    lexicon::is_determiner(n) || person_of(n).is_some() || n == "it"
                })
        }
        // `as short as possible`, `if possible`.
        "possible"
            if ctx
                .prev
                .and_then(Chunk::lower_any)
                .is_some_and(|p| matches!(&*p, "as" | "if" | "where" | "when" | "whenever")) =>
        {
            true
        }
        // `being` after a verb or preposition taking an -ing form is the verb itself: `stopped
        // being the leader`, `avoid being accused`, `by being informed`.
        // After a copula it makes the passive progressive: `the car is being repaired` is not
        // `the car repaired`.
        // Opening a clause or after a preposition `being` is the subject or object itself:
        // `Being an admin does not mean ...` is not `Admin does not mean ...`.
        "being" => before
            .is_none_or(|b| takes_gerund(b) || lexicon::is_be(b) || lexicon::is_preposition(b)),
        _ => false,
    }
}

/// The grammatical person of a personal pronoun (1: I, we; 2: you; 3: he, she, they), telling
/// the parties of a sentence apart.
fn person_of(w: &str) -> Option<u8> {
    match w {
        "i" | "me" | "my" | "we" | "us" | "our" | "i'm" | "i'll" | "i've" | "i'd" | "we're"
        | "we'll" => Some(1),
        "you" | "your" | "you're" | "you'll" | "you've" | "you'd" => Some(2),
        "he" | "him" | "his" | "she" | "her" | "they" | "them" | "their" | "they're" => Some(3),
        _ => None,
    }
}

/// Verbs and prepositions followed by an -ing form.
fn takes_gerund(w: &str) -> bool {
    matches!(
        w,
        "stop"
            | "stops"
            | "stopped"
            | "start"
            | "starts"
            | "started"
            | "avoid"
            | "avoids"
            | "keep"
            | "keeps"
            | "risk"
            | "risks"
            | "consider"
            | "prevent"
            | "enjoy"
            | "mind"
            | "imagine"
            | "suggest"
            | "recommend"
            | "without"
            | "by"
            | "for"
            | "from"
            | "of"
            | "about"
            | "vs"
            | "like"
    )
}
