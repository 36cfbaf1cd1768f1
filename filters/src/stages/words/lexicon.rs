//! Closed word classes the context rules share: determiners, forms of `be` and `have`, modals,
//! negations and restrictors, and the low-information adjectives with their opposites.
//! Standard English only, none fitted to a corpus.

/// Words that open a noun phrase: after `to` they show it is a preposition governing a thing
/// (`continue to the next task`), not the mark of an infinitive (`want to write`).
pub(in crate::stages) fn is_determiner(word: &str) -> bool {
    matches!(
        word,
        "the"
            | "a"
            | "an"
            | "this"
            | "that"
            | "these"
            | "those"
            | "each"
            | "every"
            | "all"
            | "any"
            | "some"
            | "my"
            | "your"
            | "his"
            | "her"
            | "its"
            | "our"
            | "their"
            | "another"
    )
}

/// Adjectives that add nothing before their noun (`the respective files`, `various options`),
/// which balanced drops there (see `sense`). Not the ones that narrow it, which meaning audits
/// found carrying the sense: `supported by relevant evidence` (a grading rubric's top level),
/// `an appropriate label`, `a specific drug`, `the actual date`, `comprehensive tests`, `the
/// given value`.
pub(super) fn is_low_information_adjective(w: &str) -> bool {
    matches!(w, "various" | "respective" | "corresponding")
}

/// Prepositions, and `as`, `like`, `than` where they govern a word.
pub(super) fn is_preposition(w: &str) -> bool {
    matches!(
        w,
        "of" | "to"
            | "for"
            | "with"
            | "from"
            | "by"
            | "about"
            | "in"
            | "on"
            | "at"
            | "into"
            | "as"
            | "toward"
            | "towards"
            | "against"
            | "without"
            | "through"
            | "across"
            | "over"
            | "under"
            | "behind"
            | "around"
            | "near"
            | "like"
            | "than"
            | "onto"
            | "upon"
            | "beyond"
            | "via"
    )
}

/// Prepositions that [`is_preposition`] leaves out, most of them conjunctions too (`after that`
/// / `after it renews`): after one, `that` is the thing itself.
pub(super) fn is_other_preposition(w: &str) -> bool {
    matches!(
        w,
        "after" | "before" | "since" | "until" | "till" | "besides" | "despite" | "during"
    )
}

/// Verbs and adjectives after which `that` opens a clause of what is said, known or required
/// (`ensure that the file exists`, `make sure that`), not a relative clause about a noun.
pub(super) fn takes_that_clause(w: &str) -> bool {
    matches!(
        w,
        "ensure"
            | "ensures"
            | "ensuring"
            | "sure"
            | "note"
            | "notes"
            | "noted"
            | "noting"
            | "verify"
            | "verifies"
            | "check"
            | "checks"
            | "confirm"
            | "confirms"
            | "say"
            | "says"
            | "said"
            | "know"
            | "knows"
            | "knew"
            | "think"
            | "thinks"
            | "thought"
            | "mean"
            | "means"
            | "meant"
            | "assume"
            | "assumes"
            | "assuming"
            | "remember"
            | "believe"
            | "believes"
            | "show"
            | "shows"
            | "showed"
            | "indicate"
            | "indicates"
            | "state"
            | "states"
            | "stated"
            | "require"
            | "requires"
            | "required"
            | "suggest"
            | "suggests"
            | "see"
            | "understand"
            | "understands"
            | "realize"
            | "realise"
            | "explain"
            | "explains"
            | "mention"
            | "mentions"
            | "find"
            | "finds"
            | "found"
            | "expect"
            | "expects"
            | "guarantee"
            | "guarantees"
            | "imply"
            | "implies"
            | "demonstrate"
            | "demonstrates"
            | "prove"
            | "proves"
            | "report"
            | "reports"
            | "agree"
            | "agrees"
            | "decide"
            | "decides"
            | "hope"
            | "aware"
            | "clear"
            | "true"
            | "so"
            | "given"
            | "provided"
            | "assured"
            | "stating"
            | "saying"
            | "showing"
            | "confirming"
            | "indicating"
            | "claims"
            | "claim"
    )
}

/// A verb in the past tense: regular (`proposed`) or one of the common irregular ones.
pub(super) fn is_past_tense(w: &str) -> bool {
    w.ends_with("ed")
        || matches!(
            w,
            "said"
                | "made"
                | "told"
                | "sent"
                | "gave"
                | "took"
                | "knew"
                | "saw"
                | "found"
                | "got"
                | "wrote"
                | "paid"
                | "left"
                | "put"
                | "thought"
                | "bought"
                | "brought"
                | "meant"
                | "kept"
                | "ran"
                | "came"
                | "went"
                | "chose"
                | "spoke"
                | "forgot"
                | "began"
        )
}

/// The pronouns that can be a clause's subject.
pub(super) fn is_subject_pronoun(w: &str) -> bool {
    matches!(w, "i" | "you" | "he" | "she" | "it" | "we" | "they")
}

/// The forms of `be`.
pub(super) fn is_be(w: &str) -> bool {
    matches!(
        w,
        "is" | "are" | "was" | "were" | "am" | "be" | "been" | "being"
    )
}

/// The forms of `have`.
pub(super) fn is_have(w: &str) -> bool {
    matches!(w, "has" | "have" | "had")
}

/// The modal verbs.
pub(in crate::stages) fn is_modal(w: &str) -> bool {
    matches!(
        w,
        "would" | "could" | "should" | "must" | "might" | "may" | "will" | "shall" | "can"
    )
}

/// Adverbs of frequency and focus, which say how often or how exclusively someone acts
/// (`You usually work alone`, `You only edit files in src`).
pub(super) fn is_frequency_or_focus_adverb(w: &str) -> bool {
    matches!(
        w,
        "usually"
            | "often"
            | "always"
            | "sometimes"
            | "rarely"
            | "seldom"
            | "typically"
            | "generally"
            | "normally"
            | "only"
            | "also"
            | "still"
            | "already"
            | "just"
            | "mostly"
    )
}

/// The words that negate.
pub(in crate::stages) fn is_negation(w: &str) -> bool {
    matches!(w, "not" | "never" | "no" | "nor" | "cannot") || w.ends_with("n't")
}

/// Words that restrict or negate what follows them: the phrase after one is what is said.
pub(super) fn is_restrictor(w: &str) -> bool {
    matches!(
        w,
        "not"
            | "never"
            | "only"
            | "except"
            | "even"
            | "especially"
            | "both"
            | "either"
            | "neither"
            | "nor"
            | "solely"
            | "exclusively"
    ) || w.ends_with("n't")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn determiners_are_not_pronouns() {
        assert!(is_determiner("their") && !is_determiner("them"));
    }
}
