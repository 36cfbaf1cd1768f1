//! Cases found by the meaning audits of texts the corpus lacks (the ninth to the thirteenth:
//! reports, transcripts, RFCs, contracts, runbooks, papers, agents' system prompts) and by the
//! reviews of the fixes' corpus diffs. Earlier audits' cases are in `clauses/tests.rs`.

use super::clauses::tests::in_every_mode;
use super::tests::run;
use crate::options::Mode;

#[test]
fn found_by_the_ninth_audit() {
    // Amounts: a time of day, a rate.
    in_every_mode(
        "Take the first dose at 8 am and the second at 8 pm.",
        "Take first dose at 8 am and second at 8 pm.",
    );
    in_every_mode("Take 500 mg a day.", "Take 500 mg a day.");
    in_every_mode("Take a day off.", "Take day off.");
    // A hedge on a claim, a downtoner, an intensifier in a condition.
    assert_eq!(
        run("The vendor will probably raise prices.", Mode::Balanced),
        "Vendor will probably raise prices."
    );
    assert_eq!(
        run("Three days, maybe four.", Mode::Balanced),
        "Three days, maybe four."
    );
    assert_eq!(
        run("The contract may possibly be renewed.", Mode::Balanced),
        "Contract may be renewed."
    );
    assert_eq!(
        run("Sales were somewhat higher.", Mode::Balanced),
        "Sales somewhat higher."
    );
    in_every_mode(
        "Only call the API when it is absolutely necessary.",
        "Only call API when it is absolutely necessary.",
    );
    in_every_mode("It is really useful.", "It is useful.");
    // The imperative `Be`, a `has` its `been` needs, `there` with its copula, the correlative.
    in_every_mode("Always be polite.", "Always be polite.");
    in_every_mode(
        "Be done with the review by Friday.",
        "Be done with review by Friday.",
    );
    assert_eq!(
        run("The invoice has been paid, so wait.", Mode::Balanced),
        "Invoice has been paid, so wait."
    );
    in_every_mode("There was no response.", "There was no response.");
    in_every_mode(
        "During an outage, there is no protection.",
        "During outage, there is no protection.",
    );
    in_every_mode(
        "The more files you change, the harder the review is.",
        "The more files you change, the harder review is.",
    );
    in_every_mode("Pick the more robust option.", "Pick more robust option.");
    // Aggressive keeps `You` before a negation or a frequency adverb.
    assert_eq!(
        run(
            "Ask Tom to check the logs. You shouldn't guess. You usually work alone.",
            Mode::Aggressive
        ),
        "Ask Tom to check logs. You shouldn't guess. You usually work alone."
    );
}

#[test]
fn found_by_the_review_of_the_ninth_audits_fixes() {
    // A kept hedge between the modal and its `have`.
    assert_eq!(
        run("It will probably have solved it.", Mode::Balanced),
        "It will probably have solved it."
    );
    // Words mentioned in a list are not used.
    in_every_mode(
        "Avoid these words: very, really, actually, basically.",
        "Avoid these words: very, really, actually, basically.",
    );
    in_every_mode("Stop by then, please.", "Stop by then.");
    // Both halves of the correlative, wherever the sentence starts.
    in_every_mode(
        "But the more history you read, the less likely you are to err.",
        "But the more history you read, the less likely you are to err.",
    );
    // `only` alone sets no condition for an intensifier.
    in_every_mode(
        "Use it only for very large files.",
        "Use it only for large files.",
    );
}

#[test]
fn found_by_the_eleventh_audit() {
    // `that` after a preposition is the thing itself.
    in_every_mode(
        "After that it renews automatically for one year.",
        "After that it renews automatically for one year.",
    );
    in_every_mode("Make sure that the tests pass.", "Make sure tests pass.");
    // `the only` is the one; a lower-case guard word cannot open a sentence.
    in_every_mode(
        "You are the only person who can merge.",
        "You are the only person who can merge.",
    );
    // A role whose head is not a plain word is still a role.
    in_every_mode("You are a CI/CD specialist.", "CI/CD specialist.");
    in_every_mode("Please stop using the stove.", "Please stop using stove.");
    in_every_mode("Here are some rules.", "Here are some rules.");
    in_every_mode("Here is the list.", "List.");
    // `kindly` after its verb is a manner.
    in_every_mode("Treat every user kindly.", "Treat every user kindly.");
}

#[test]
fn found_by_the_twelfth_audit() {
    // A variable is no article.
    in_every_mode(
        "The acceleration is then a = -g, so a + b = 7.",
        "Acceleration then a = -g, so a + b = 7.",
    );
    in_every_mode("Let a be the acceleration.", "Let a be acceleration.");
    // The copula of a passive report; the past perfect's `had`.
    in_every_mode(
        "The council was warned that the wall could fail.",
        "Council was warned that wall could fail.",
    );
    assert_eq!(
        run("When they arrived, the roof had collapsed.", Mode::Balanced),
        "When they arrived, roof had collapsed."
    );
    // `really` saying what is true, approximators, a name with `The`.
    in_every_mode(
        "Tell them what really happened.",
        "Tell them what really happened.",
    );
    in_every_mode("It is really important.", "It is important.");
    in_every_mode(
        "The two results are essentially the same.",
        "Two results essentially same.",
    );
    in_every_mode("Basically, run the tests.", "Run tests.");
    in_every_mode(
        "The talks were held in The Hague.",
        "Talks held in The Hague.",
    );
}

#[test]
fn found_by_the_thirteenth_audit() {
    in_every_mode(
        "Describe what they did, not who they are. Tell me who you are.",
        "Describe what they did, not who they are. Tell me who you are.",
    );
    in_every_mode(
        "A bonus is paid only if the overall rating is 3.5.",
        "Bonus is paid only if overall rating 3.5.",
    );
    in_every_mode("Overall, the results are good.", "Results good.");
    in_every_mode("There will be no extension.", "There will be no extension.");
    in_every_mode("There are two options.", "Two options.");
    in_every_mode(
        "The customer is right that I offered it.",
        "Customer is right I offered it.",
    );
}

#[test]
fn found_by_the_fourteenth_audit() {
    in_every_mode(
        "Were the agent unavailable, offer a call back.",
        "Were agent unavailable, offer call back.",
    );
    in_every_mode(
        "Being an admin does not mean you may approve.",
        "Being admin does not mean you may approve.",
    );
    in_every_mode("The user is being polite.", "User being polite.");
}
