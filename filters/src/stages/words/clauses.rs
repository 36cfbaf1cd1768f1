//! Context rules that hold a clause together, found by a meaning audit of texts outside the
//! tuning corpus (system prompts, a contract, a transcript, an email thread):
//! - the verb of a pronoun or relative subject: `they have been flagged` is not `they have
//!   flagged`, `items that were bought` is not `items that bought`;
//! - the reach of a negation: `not that it arrived broken`, `not very good`;
//! - `you` inside a sentence (`when the user asks you to`), in what somebody said, and before
//!   an auxiliary, a past tense or its copula (`You have access`, `You proposed`);
//! - `and` between clauses (`unless asked, and never force-push`);
//! - the main verb after a subject holding a relative clause (`users who invited guests are
//!   notified`), and the copula before `that`, `to`, `of` or an article;
//! - `the` before a number standing for things named before (`links the two.`).

use super::lexicon::{self, is_be, is_have, is_modal, is_negation};
use super::sense::Context;
use crate::stages::chunks::Chunk;

/// A subject pronoun, or a relative pronoun standing for its noun: the verb after one is all
/// that says what the subject is or undergoes (`they are banned`, `dinners that were approved`).
fn is_subject(w: &str) -> bool {
    lexicon::is_subject_pronoun(w) || matches!(w, "that" | "which" | "who")
}

/// Degree adverbs that a negation before them makes part of what is said: `not very good` is
/// not `not good`, `not really a bug` not `not a bug`, `does not specifically require` not
/// `does not require`.
fn is_degree(w: &str) -> bool {
    matches!(
        w,
        "very"
            | "really"
            | "quite"
            | "fairly"
            | "somewhat"
            | "absolutely"
            | "utterly"
            | "extremely"
            | "highly"
            | "incredibly"
            | "truly"
            | "specifically"
            | "certainly"
            | "definitely"
            | "necessarily"
    )
}

/// Whether `w` (this word, one the lists drop) stays for the clause around it.
pub(super) fn keeps(ctx: &Context<'_, '_>, w: &str) -> bool {
    let prev = ctx.prev.and_then(Chunk::lower_any);
    let prev = prev.as_deref();
    let next = ctx.rest.get(1).and_then(Chunk::lower_any);
    let next = next.as_deref();
    let joined_to_prev = ctx.prev.is_some_and(|p| p.trail().is_empty());
    // The verb right after a pronoun or relative subject: without it `they have been flagged`
    // reads as `they have flagged`, `items that were bought` as `items that bought`.
    if (is_be(w) || is_have(w)) && joined_to_prev && prev.is_some_and(is_subject) {
        return true;
    }
    // `been` after a `have` makes the perfect (`has been with us`, `have not been reviewed`,
    // `has rarely been tested`); `have` after a modal (`would have been 10%`) is what makes it
    // past.
    // In a question the `have` may stand before the subject: `Have all edge cases been
    // considered?`.
    if w == "been"
        && (prev.is_some_and(is_have_form)
            || ctx.in_question()
            || (prev.is_some_and(|p| is_negation(p) || is_adverb(p))
                && ctx.shortly_before(is_have_form)))
    {
        return true;
    }
    // Before a verb that takes two objects, the copula is what makes the passive: `a patient
    // is prescribed clarithromycin` is not `a patient prescribed clarithromycin`.
    if is_be(w) && next.is_some_and(takes_two_objects) {
        return true;
    }
    // Before a verb of saying, warning or advising the copula is what makes the passive: `The
    // council was warned that` is not the council's own warning, `was said to be` not its own
    // claim.
    if is_be(w) && next.is_some_and(reports) {
        return true;
    }
    // Where that keeps `been`, its `has` stays too: `has been prescribed for you` is not `been
    // prescribed for you`.
    if is_have(w)
        && next == Some("been")
        && ctx
            .rest
            .get(2)
            .and_then(Chunk::lower_any)
            .is_some_and(|n| takes_two_objects(&n))
    {
        return true;
    }
    // In what somebody said (`Chen: It does.`, `Alice: Dana, you wanted to move it.`) `you`
    // and `it` are people and things of the exchange, not the reader and the task.
    if ctx.speech && is_addressed(w) {
        return true;
    }
    // Before an article the copula says what a thing is: `the buyer is the company that issues
    // the order` is not `buyer company that issues order`, a noun phrase.
    if is_be(w)
        && ctx.prev.is_some_and(|p| !p.ends_sentence())
        && next.is_some_and(|n| matches!(n, "the" | "a" | "an"))
    {
        return true;
    }
    // Before `to` or `of` the copula says what a thing is: `The plan is to migrate` is not the
    // command `Plan to migrate`, `Time is of the essence` not `Time of essence`.
    // Before a question word it introduces what follows: `Here is why it failed`.
    if is_be(w)
        && next.is_some_and(|n| {
            matches!(
                n,
                "to" | "of" | "why" | "what" | "who" | "how" | "where" | "when"
            )
        })
    {
        return true;
    }
    // After a subject holding a relative clause the copula is the main verb: without it `users
    // who invited guests are notified` reads as `users who invited guests notified` (who is
    // notified?). Before `that` it introduces what is said: `the difference is that ...`.
    if is_be(w) && (ctx.after_relative || next == Some("that")) {
        return true;
    }
    // Before an adjective that takes a clause of its own: `The customer is right that I
    // offered it` is not `Customer right I offered it`.
    if is_be(w)
        && ctx.rest.get(2).and_then(Chunk::lower_any).as_deref() == Some("that")
        && next.is_some_and(|n| {
            matches!(
                n,
                "right"
                    | "wrong"
                    | "correct"
                    | "sure"
                    | "certain"
                    | "aware"
                    | "clear"
                    | "true"
                    | "likely"
            )
        })
    {
        return true;
    }
    // A copula after `and`, `or`, `but` starts a predicate of its own: without it `not
    // helpful to the user and are expensive` puts `expensive` under the `not`.
    if is_be(w) && prev.is_some_and(|p| matches!(p, "and" | "or" | "but")) {
        return true;
    }
    // A question word's copula is the question: `What is the limit?` is not `What limit?`.
    if is_be(w)
        && prev.is_some_and(|p| {
            matches!(
                p,
                "what" | "who" | "where" | "when" | "how" | "why" | "which"
            )
        })
    {
        return true;
    }
    // `You are allowed to`, `you were asked to`: the one the permission or duty is for.
    if w == "you"
        && next.is_some_and(is_be)
        && ctx
            .rest
            .get(2)
            .and_then(Chunk::lower_any)
            .is_some_and(|n| n.ends_with("ed"))
    {
        return true;
    }
    // Before an auxiliary, a negation or a past tense, `you` is who has, will, may, must, cannot
    // or did do something (`You have access to four tools`, `You will receive a CSV file`, `You
    // cannot read files`, `You proposed that ...`), and before a frequency or focus adverb who
    // usually or only does it (`You usually work on one task at a time`): without it the
    // sentence is a fragment, a command it never was, or, after a sentence about someone else,
    // theirs (`Ask Tom to lock the door. You must never leave it open.`).
    if w == "you"
        && next.is_some_and(|n| {
            is_have(n)
                || is_negation(n)
                || lexicon::is_frequency_or_focus_adverb(n)
                || lexicon::is_past_tense(n)
                || matches!(
                    n,
                    "will"
                        | "can"
                        | "could"
                        | "may"
                        | "might"
                        | "would"
                        | "shall"
                        | "do"
                        | "did"
                        | "were"
                        | "was"
                        | "must"
                        | "should"
                )
        })
    {
        return true;
    }
    // `You are the approver`, `You are not allowed to push`: unless it opens a role, which
    // goes whole (see `role::role_subject`), `you` before its copula is who is meant; without
    // it `Are not allowed` would read as a question, `Approver for this request` as a label.
    if w == "you"
        && next.is_some_and(|n| n == "are" || n == "were")
        && super::role::role_subject(ctx, w).is_none()
    {
        return true;
    }
    // `you` inside a sentence is an object, someone acted on (`when the user asks you to do
    // something`), or the subject after a clause with another (`if the student is stuck, you
    // may show the next step`); only a sentence's first `you` is the reader addressed.
    if w == "you"
        && ctx
            .prev
            .is_some_and(|p| !p.ends_sentence() && !p.text.ends_with(':'))
    {
        return true;
    }
    // `and` joins two things; only after a comma as the last joint of a list (`read, check, and
    // run`) do the commas join them instead. Before a clause of its own (`, and if nothing
    // works`, `, and you will give feedback`) or a negation, and after a clause (`unless asked,
    // and never force-push`), it keeps the next clause out of the one before.
    if w == "and"
        && (!ctx.prev.is_some_and(|p| p.text.ends_with(','))
            || next.is_some_and(|n| is_negation(n) || opens_clause(n))
            || !comma_before_the_last(ctx))
    {
        return true;
    }
    // `have` after a modal makes the perfect, with a kept adverb between too (`will probably
    // have solved` is not `will probably solved`).
    if is_have(w) && (joined_to_prev && prev.is_some_and(is_modal) || ctx.shortly_before(is_modal))
    {
        return true;
    }
    // After a negation `that` opens what is denied: `not that it arrived broken`.
    if w == "that" && joined_to_prev && prev.is_some_and(is_negation) {
        return true;
    }
    if is_degree(w) && negated_before(ctx) {
        return true;
    }
    // `the one who owns it` is not `one who owns it` (a numeral), and a number standing for
    // things named before is not a count: `links the two.`, `compare the two and keep one`.
    if w == "the"
        && next.is_some_and(|n| {
            matches!(n, "one" | "ones" | "former" | "latter")
                || (is_number_word(n) && numeral_stands_alone(ctx))
        })
    {
        return true;
    }
    false
}

/// Whether `chunk` opens a relative clause about the noun before it: `who`, `which`, `whose`
/// after a word, or `that` after a word that is not a verb taking a clause, a preposition, a
/// copula or a conjunction (`orders that were shipped`, not `ensure that`, `in that case`,
/// `is that`).
pub(super) fn opens_relative(before: Option<&Chunk<'_>>, chunk: &Chunk<'_>) -> bool {
    let (Some(before), Some(w)) = (before, chunk.lower_any()) else {
        return false;
    };
    if before.ends_sentence() || before.text.ends_with(':') {
        return false;
    }
    match &*w {
        "who" | "which" | "whose" => true,
        "that" => {
            before.trail().is_empty()
                && before.lower_any().is_some_and(|b| {
                    !lexicon::takes_that_clause(&b)
                        && !is_be(&b)
                        && !is_have(&b)
                        && !is_modal(&b)
                        && !lexicon::is_determiner(&b)
                        && !lexicon::is_preposition(&b)
                        && !matches!(
                            &*b,
                            "such"
                                | "now"
                                | "except"
                                | "and"
                                | "but"
                                | "or"
                                | "do"
                                | "does"
                                | "did"
                                | "not"
                                | "only"
                                | "after"
                                | "before"
                                | "because"
                                | "since"
                                | "if"
                                | "unless"
                                | "until"
                                | "while"
                        )
                })
        }
        _ => false,
    }
}

/// Whether the numeral after this word stands for things rather than counting a noun: it
/// closes its clause, or a function word follows it (`the two and`, `the three are`).
fn numeral_stands_alone(ctx: &Context<'_, '_>) -> bool {
    let Some(numeral) = ctx.rest.get(1) else {
        return false;
    };
    !numeral.trail().is_empty()
        || ctx
            .rest
            .get(2)
            .and_then(Chunk::lower_any)
            .is_some_and(|after| {
                is_be(&after)
                    || is_modal(&after)
                    || matches!(&*after, "and" | "or" | "but" | "of" | "in" | "to" | "with")
            })
}

/// Small numbers written as words.
fn is_number_word(w: &str) -> bool {
    matches!(
        w,
        "two" | "three" | "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten" | "both"
    )
}

/// The forms of `you` and `it's` that aggressive drops.
fn is_addressed(w: &str) -> bool {
    matches!(w, "you" | "you're" | "it's" | "you'll" | "you've" | "you'd")
}

/// Past participles of verbs that take two objects (`was offered a job`, `were sent a refund`).
fn takes_two_objects(w: &str) -> bool {
    matches!(
        w,
        "given"
            | "offered"
            | "prescribed"
            | "sent"
            | "told"
            | "shown"
            | "asked"
            | "paid"
            | "granted"
            | "assigned"
            | "awarded"
            | "issued"
            | "taught"
            | "promised"
            | "charged"
            | "denied"
            | "handed"
            | "emailed"
            | "owed"
            | "allowed"
            | "refused"
    )
}

/// Past participles of verbs of saying, warning and advising, which read as the subject's own
/// words without their copula.
fn reports(w: &str) -> bool {
    matches!(
        w,
        "said"
            | "warned"
            | "reported"
            | "advised"
            | "informed"
            | "notified"
            | "instructed"
            | "ordered"
            | "urged"
            | "reminded"
            | "alleged"
            | "believed"
            | "thought"
            | "expected"
            | "rumored"
            | "rumoured"
    )
}

/// `have` as written before `been`, contracted or negated included (`they've`, `it's been`,
/// `haven't`).
fn is_have_form(w: &str) -> bool {
    is_have(w)
        || is_have(w.strip_suffix("n't").unwrap_or(w))
        || w.ends_with("'ve")
        || w.ends_with("'d")
        || w.ends_with("'s")
        || w == "having"
}

/// Adverbs that stand between `have` and `been`: `has rarely been tested`, `has already been`.
fn is_adverb(w: &str) -> bool {
    (w.len() > 3 && w.ends_with("ly"))
        || matches!(
            w,
            "already" | "never" | "ever" | "just" | "still" | "always" | "often"
        )
}

/// Whether the word after `and` opens a clause of its own: a subordinator or a subject.
fn opens_clause(n: &str) -> bool {
    matches!(
        n,
        "if" | "when"
            | "whenever"
            | "while"
            | "because"
            | "since"
            | "although"
            | "though"
            | "unless"
            | "that"
            | "then"
            | "so"
            | "you"
            | "i"
            | "we"
            | "they"
            | "he"
            | "she"
            | "it"
            | "there"
    )
}

/// Whether the words before this one, in its sentence and among [`Context::earlier`], hold a comma
/// before the one that ends the word right before it: `A, B, and`.
fn comma_before_the_last(ctx: &Context<'_, '_>) -> bool {
    let Some((_, before_last)) = ctx.earlier().split_last() else {
        return false;
    };
    for chunk in before_last.iter().rev() {
        if chunk.ends_sentence() {
            return false;
        }
        if chunk.trail().contains(',') {
            return true;
        }
    }
    false
}

/// Whether a negation stands before this word in its clause (among [`Context::earlier`], not
/// across a comma or the end of a sentence).
fn negated_before(ctx: &Context<'_, '_>) -> bool {
    for chunk in ctx.earlier().iter().rev() {
        if chunk.trail().contains([',', ';', ':', '.', '!', '?']) {
            return false;
        }
        if chunk.lower_any().is_some_and(|w| is_negation(&w)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
pub(super) mod tests;
