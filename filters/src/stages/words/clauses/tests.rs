//! The clause rules' tests, and the cases the meaning audits found.

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
        "I want to write poem."
    );
}

#[test]
fn what_somebody_said_keeps_its_pronouns() {
    assert_eq!(run("Chen: It does.", Mode::Aggressive), "Chen: It does.");
    assert_eq!(
        run("Alice: Dana, you wanted to move it.", Mode::Aggressive),
        "Alice: Dana, you wanted to move it."
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
        "Files there are deleted. It works, but there is slip."
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
        "I want to go to Paris. Continue to Phase 2."
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

/// Every mode: the cases of one rule hold in all three.
/// The word stage gives `expected` for `text` in every mode.
pub(in crate::stages::words) fn in_every_mode(text: &str, expected: &str) {
    for mode in [Mode::Conservative, Mode::Balanced, Mode::Aggressive] {
        assert_eq!(run(text, mode), expected, "{mode:?}");
    }
}

#[test]
fn a_predicate_keeps_its_adjective_and_a_subject_with_a_clause_its_verb() {
    // The adjective is what is said of the subject, not a word before a noun.
    in_every_mode(
        "Your support team was really helpful yesterday.",
        "Your support team helpful yesterday.",
    );
    in_every_mode(
        "The tool is useful for debugging.",
        "Tool useful for debugging.",
    );
    // Before a preposition the adjective is not before its noun either.
    in_every_mode(
        "Use the tools available to you.",
        "Use tools available to you.",
    );
    assert_eq!(
        run("Check the various files.", Mode::Balanced),
        "Check files."
    );
    // `actual` tells the date from the planned one.
    in_every_mode(
        "Count from the actual delivery date.",
        "Count from actual delivery date.",
    );
    // The main verb after a relative clause, and before `that`.
    in_every_mode(
        "Users who invited guests are notified by email.",
        "Users who invited guests are notified by email.",
    );
    in_every_mode(
        "Orders that were shipped by a partner are tracked by the partner.",
        "Orders that were shipped by partner are tracked by partner.",
    );
    in_every_mode(
        "The difference is that only the Aster can be upgraded.",
        "Difference is that only Aster can be upgraded.",
    );
    // Without the relative clause the copula still goes.
    in_every_mode("The file is large.", "File large.");
}

#[test]
fn that_keeps_two_nouns_apart_and_be_stays_after_a_modal() {
    in_every_mode(
        "Inform the team that the build failed.",
        "Inform team that build failed.",
    );
    in_every_mode("Ensure that the file exists.", "Ensure file exists.");
    in_every_mode("Tell the user that it is down.", "Tell user it is down.");
    in_every_mode(
        "A sent invoice can only be voided. The key must always be rotated.",
        "Sent invoice can only be voided. Key must always be rotated.",
    );
}

#[test]
fn answers_questions_and_sequences_keep_their_words() {
    // An adverb that is the whole answer.
    in_every_mode("Yes, very.", "Yes, very.");
    in_every_mode("Assistant: Very much.", "Assistant: Very much.");
    in_every_mode("User: Really?", "User: Really?");
    in_every_mode("It is really good.", "It is good.");
    // A question's auxiliary, after a speaker's label and before its subject.
    in_every_mode("User: Is my order late?", "User: Is my order late?");
    in_every_mode("How sure are you?", "How sure are you?");
    // `then` orders steps or answers a condition.
    in_every_mode(
        "Squeeze the dough. Then sprinkle the salt.",
        "Squeeze dough. Then sprinkle salt.",
    );
    in_every_mode(
        "Classify the following message.",
        "Classify following message.",
    );
}

#[test]
fn aggressive_keeps_you_before_an_auxiliary_and_every_infinitive() {
    assert_eq!(
        run(
            "You have access to four tools. You will receive a file. You write the code.",
            Mode::Aggressive
        ),
        "You have access to four tools. You will receive file. Write code."
    );
    assert_eq!(
        run("Don't forget to check the discount.", Mode::Aggressive),
        "Don't forget to check discount."
    );
}

#[test]
fn a_question_keeps_there_with_its_copula() {
    in_every_mode("Are there any bugs?", "Are there any bugs?");
    in_every_mode(
        "Correctness: Are there bugs or race conditions?",
        "Correctness: Are there bugs or race conditions?",
    );
    in_every_mode(
        "Have all relevant edge cases been considered?",
        "Have all relevant edge cases been considered?",
    );
}

#[test]
fn found_by_the_sixth_audit() {
    // `also` adds a remedy rather than replacing one; `specific` names a criterion.
    in_every_mode(
        "If availability falls below 97%, the customer may also terminate.",
        "If availability falls below 97%, customer may also terminate.",
    );
    in_every_mode(
        "Mark the span only if a specific drug is named.",
        "Mark span only if specific drug named.",
    );
    // The copula before `to` or `of` says what a thing is.
    in_every_mode(
        "The plan is to migrate the database. Time is of the essence.",
        "Plan is to migrate database. Time is of essence.",
    );
    // A number that stands for things named before keeps its article; a count does not.
    in_every_mode(
        "Compare the two and keep the better one. Pick two of the five options.",
        "Compare the two and keep better one. Pick two of five options.",
    );
    in_every_mode("There are very few errors.", "Very few errors.");
    // Aggressive keeps `you` before a past tense: what the reader did is not a command.
    assert_eq!(
        run(
            "You said the cap was fine. You proposed a 30-day term. You own the incident.",
            Mode::Aggressive
        ),
        "You said cap fine. You proposed 30-day term. Own incident."
    );
}

#[test]
fn found_by_the_seventh_audit() {
    // Without its article the word is another word.
    in_every_mode(
        "Unpaid leave is not a right. It is a must. Cut it by a third. A number of tests failed.",
        "Unpaid leave is not a right. It is a must. Cut it by a third. A number of tests failed.",
    );
    // `You are` opens a role only at the start of its line or before `a`/`an`.
    in_every_mode(
        "Ask the commander to take over. You are responsible for the investigation.",
        "Ask commander to take over. You are responsible for investigation.",
    );
    in_every_mode(
        "You are an operations agent. You are not allowed to push to main.",
        "Operations agent. You are not allowed to push to main.",
    );
    // A proposal, and adjectives that narrow their noun.
    in_every_mode("Tom: Let's ask Ravi first.", "Tom: Let's ask Ravi first.");
    in_every_mode(
        "Cite relevant sources. Enter the given value.",
        "Cite relevant sources. Enter given value.",
    );
}

#[test]
fn found_by_the_eighth_audit() {
    in_every_mode(
        "The car is being repaired, so you cannot drive it.",
        "Car being repaired, so you cannot drive it.",
    );
    in_every_mode(
        "Translate it literally and add a note.",
        "Translate it literally and add note.",
    );
    in_every_mode("Here is why it failed.", "Here is why it failed.");
    assert_eq!(
        run(
            "Ask Tom to lock the door. You must never leave it open.",
            Mode::Aggressive
        ),
        "Ask Tom to lock door. You must never leave it open."
    );
}
