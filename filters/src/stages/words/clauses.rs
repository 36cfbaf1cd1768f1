//! Context rules that hold a clause together, found by a meaning audit of texts outside the
//! tuning corpus (system prompts, a contract, a transcript, an email thread):
//! - the verb of a pronoun or relative subject: `they have been flagged` is not `they have
//!   flagged`, `items that were bought` is not `items that bought`;
//! - the reach of a negation: `not that it arrived broken`, `not very good`;
//! - `you` inside a sentence (`when the user asks you to`), and in what somebody said;
//! - `and` between clauses (`unless asked, and never force-push`);
//! - `to`, which goes only as the mark of an infinitive (`want to write`).

use super::lexicon::{self, is_be, is_have, is_modal, is_negation};
use super::sense::Context;
use crate::stages::chunks::Chunk;

/// A subject pronoun, or a relative pronoun standing for its noun: the verb after one is all
/// that says what the subject is or undergoes (`they are banned`, `dinners that were approved`).
fn is_subject(w: &str) -> bool {
    matches!(
        w,
        "i" | "you" | "he" | "she" | "it" | "we" | "they" | "that" | "which" | "who"
    )
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
    if w == "been"
        && (prev.is_some_and(is_have_form)
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
    // `let's not`: the negation is the suggestion.
    if w == "let's" && next.is_some_and(is_negation) {
        return true;
    }
    if is_have(w) && joined_to_prev && prev.is_some_and(is_modal) {
        return true;
    }
    // After a negation `that` opens what is denied: `not that it arrived broken`.
    if w == "that" && joined_to_prev && prev.is_some_and(is_negation) {
        return true;
    }
    if is_degree(w) && negated_before(ctx) {
        return true;
    }
    // `to` goes only as the mark of an infinitive after a verb that takes one (`want to write`
    // -> `want write`). Elsewhere it says where, to whom or what for: `given to questions` is
    // not `given questions`, `quick to draw a knife` not `quick draw knife`, `use X to deploy`
    // not `use X deploy`.
    // Before a determiner it is a preposition after all (`continue to the next task`, `show
    // the plan to the user`).
    if w == "to"
        && (!prev.is_some_and(takes_infinitive)
            || next.is_some_and(|n| n == "be" || lexicon::is_determiner(n))
            || ctx.rest.get(1).is_some_and(Chunk::is_capitalized))
    {
        return true;
    }
    // `the one who owns it` is not `one who owns it` (a numeral).
    if w == "the" && next.is_some_and(|n| n == "one" || n == "ones") {
        return true;
    }
    // `even then`: the exception still holds at that point.
    if w == "then" && prev == Some("even") {
        return true;
    }
    false
}

/// The forms of `you` and `it's` that aggressive drops.
fn is_addressed(w: &str) -> bool {
    matches!(w, "you" | "you're" | "it's" | "you'll" | "you've" | "you'd")
}

/// Verbs after which `to` only marks the infinitive that follows: without it the sentence still
/// reads the same (`want to write` -> `want write`). Not `need`, whose `to` tells the verb from
/// an adjective (`does not need to fast`), nor a participle (`imports that are required to run
/// the code`, `allowed to edit`), whose `to` says what for, nor a verb that also takes `to` as a
/// preposition (`going to Paris`, `continue to Phase 2`, `agree to the terms`, `learn to code`,
/// `plan to release`).
fn takes_infinitive(w: &str) -> bool {
    matches!(
        w,
        "want"
            | "wants"
            | "wanted"
            | "try"
            | "tries"
            | "tried"
            | "trying"
            | "able"
            | "like"
            | "love"
            | "hate"
            | "decide"
            | "decided"
            | "hope"
            | "expect"
            | "remember"
            | "forget"
            | "choose"
            | "refuse"
            | "fail"
            | "tend"
            | "seem"
            | "seems"
    )
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
mod tests {
    use super::super::tests::run;
    use crate::options::Mode;

    #[test]
    fn a_pronoun_or_relative_subject_keeps_its_verb() {
        for mode in [Mode::Conservative, Mode::Balanced, Mode::Aggressive] {
            let out = run(
                "Do not tell them that they have been flagged for review.",
                mode,
            );
            assert!(out.contains("have been flagged"), "{mode:?}: {out}");
            let out = run("Items that were bought on sale are refundable.", mode);
            assert!(out.contains("that were bought"), "{mode:?}: {out}");
        }
        assert_eq!(
            run("Organic growth would have been 10%.", Mode::Balanced),
            "Organic growth would have been 10%."
        );
        for (text, kept) in [
            (
                "These files have not been reviewed.",
                "have not been reviewed",
            ),
            ("The key has never been rotated.", "has never been rotated"),
            (
                "When a patient is prescribed clarithromycin, stop.",
                "is prescribed",
            ),
            ("The customers were sent a refund.", "were sent"),
        ] {
            for mode in [Mode::Conservative, Mode::Balanced, Mode::Aggressive] {
                let out = run(text, mode);
                assert!(out.contains(kept), "{mode:?}: {out}");
            }
        }
        // With its `have` gone, `been` goes too: `patch deployed`, not `patch been deployed`.
        assert_eq!(
            run("The patch has been deployed.", Mode::Balanced),
            "Patch deployed."
        );
        // After a noun the copula still goes.
        assert_eq!(
            run("The file is stored in the vault.", Mode::Balanced),
            "File stored in vault."
        );
    }

    #[test]
    fn aggressive_keeps_the_subject_of_a_clause_inside_the_sentence() {
        assert_eq!(
            run(
                "If unsure, treat it as if it were covered and ask.",
                Mode::Aggressive
            ),
            "If unsure, treat it as if it were covered and ask."
        );
        assert_eq!(
            run(
                "Secrets that you come across must not be printed.",
                Mode::Aggressive
            ),
            "Secrets you come across must not be printed."
        );
        assert_eq!(
            run("Thank you, James.", Mode::Aggressive),
            "Thank you, James."
        );
    }

    #[test]
    fn found_by_the_second_audit() {
        assert_eq!(
            run("Grant access only to specific users.", Mode::Balanced),
            "Grant access only to specific users."
        );
        assert_eq!(
            run(
                "If the player pushes toward it, fade to black.",
                Mode::Aggressive
            ),
            "If player pushes toward it, fade to black."
        );
        assert_eq!(
            run(
                "The dose may need to be doubled. It does not need to fast.",
                Mode::Aggressive
            ),
            "Dose may need to be doubled. It does not need to fast."
        );
        assert_eq!(
            run("I want to write a poem.", Mode::Aggressive),
            "I want write poem."
        );
    }

    #[test]
    fn what_somebody_said_keeps_its_pronouns() {
        assert_eq!(run("Chen: It does.", Mode::Aggressive), "Chen: It does.");
        assert_eq!(
            run("Alice: Dana, you wanted to move it.", Mode::Aggressive),
            "Alice: Dana, you wanted move it."
        );
        assert_eq!(
            run(
                "We turned it on. Read the file and summarize it.",
                Mode::Aggressive
            ),
            "We turned it on. Read file and summarize it."
        );
        assert_eq!(
            run("Fine. Let's not block the rollout.", Mode::Balanced),
            "Fine. Let's not block rollout."
        );
    }

    #[test]
    fn found_by_the_third_audit() {
        assert_eq!(
            run(
                "Do it unless the user asked for it, and never force-push.",
                Mode::Balanced
            ),
            "Do it unless user asked for it, and never force-push."
        );
        assert_eq!(
            run(
                "Read the files, check the diffs, and run the tests.",
                Mode::Balanced
            ),
            "Read files, check diffs, run tests."
        );
        assert_eq!(
            run(
                "Act only when the user asks you to do something.",
                Mode::Aggressive
            ),
            "Act only when user asks you to do something."
        );
        assert_eq!(
            run(
                "List files that haven't been added. It's been growing.",
                Mode::Balanced
            ),
            "List files that haven't been added. It's been growing."
        );
        assert_eq!(
            run(
                "These are not helpful to the user and are very expensive.",
                Mode::Balanced
            ),
            "These are not helpful to user and are expensive."
        );
        assert_eq!(
            run("What is the hotel limit?", Mode::Balanced),
            "What is hotel limit?"
        );
        assert_eq!(
            run("Work on your own.", Mode::Balanced),
            "Work on your own."
        );
        assert_eq!(
            run("Merge blocks that each change a file.", Mode::Balanced),
            "Merge blocks that each change file."
        );
        assert_eq!(
            run("You are allowed to be proactive.", Mode::Balanced),
            "You are allowed to be proactive."
        );
        assert_eq!(
            run("You are allowed to edit any file.", Mode::Aggressive),
            "You are allowed to edit any file."
        );
        assert_eq!(
            run(
                "Add all imports that are required to run the code.",
                Mode::Aggressive
            ),
            "Add all imports that are required to run code."
        );
    }

    #[test]
    fn found_by_the_fourth_audit_and_the_review() {
        assert_eq!(
            run(
                "Lucia is engaged to Andrea, whom she does not love.",
                Mode::Balanced
            ),
            "Lucia engaged to Andrea, whom she does not love."
        );
        assert_eq!(
            run(
                "Files there are deleted. It works, but there is a slip.",
                Mode::Balanced
            ),
            "Files there deleted. It works, but there is slip."
        );
        assert_eq!(
            run("There are three files.", Mode::Balanced),
            "Three files."
        );
        assert_eq!(
            run(
                "If the student is stuck, you may show the next step.",
                Mode::Aggressive
            ),
            "If student stuck, you may show next step."
        );
        assert_eq!(
            run("It is not very good. The choice is yours.", Mode::Balanced),
            "It is not very good. Choice yours."
        );
        assert_eq!(
            run(
                "I want to go to Paris. Continue to Phase 2.",
                Mode::Aggressive
            ),
            "I want go to Paris. Continue to Phase 2."
        );
    }

    #[test]
    fn a_negation_keeps_what_it_reaches() {
        assert_eq!(
            run(
                "It stopped working, not that it arrived broken.",
                Mode::Balanced
            ),
            "It stopped working, not that it arrived broken."
        );
        assert_eq!(
            run(
                "Not off completely. I don't want it completely unprotected.",
                Mode::Balanced
            ),
            "Not off completely. I don't want it completely unprotected."
        );
        assert_eq!(
            run(
                "The tank was quite full. It is not quite full.",
                Mode::Balanced
            ),
            "Tank full. It is not quite full."
        );
        assert_eq!(
            run(
                "Never more than 10%, and even then only once.",
                Mode::Balanced
            ),
            "Never more than 10%, and even then only once."
        );
    }

    #[test]
    fn a_preposition_opening_a_noun_phrase_or_a_particle_stays() {
        assert_eq!(
            run("Return all data in its possession.", Mode::Balanced),
            "Return all data in its possession."
        );
        assert_eq!(
            run(
                "Employees must be in the office on Mondays.",
                Mode::Balanced
            ),
            "Employees must be in office on Mondays."
        );
        assert_eq!(
            run(
                "Revenue came in at $48.2 million; we turned it on for 10%.",
                Mode::Balanced
            ),
            "Revenue came in at $48.2 million; we turned it on for 10%."
        );
    }
}
