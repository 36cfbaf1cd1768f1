//! Closed word classes the context rules share: determiners, forms of `be` and `have`, modals,
//! negations and restrictors, and the low-information adjectives with their opposites.
//! Standard English only, none fitted to a corpus.

/// Words that open a noun phrase: after `to` they show it is a preposition governing a thing
/// (`continue to the next task`), not the mark of an infinitive (`want to write`).
pub(super) fn is_determiner(word: &str) -> bool {
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

/// Adjectives that add little before their noun (`the relevant files`), which balanced drops
/// there (see `sense`).
pub(super) fn is_low_information_adjective(w: &str) -> bool {
    restricts_with_opposite(w)
        || matches!(
            w,
            "various" | "respective" | "corresponding" | "comprehensive" | "needed"
        )
}

/// The low-information adjectives that have an opposite: they are restrictive where a
/// quantifier, a negation or their opposite is in view (see `relations`).
pub(super) fn restricts_with_opposite(w: &str) -> bool {
    matches!(
        w,
        "relevant"
            | "specific"
            | "actual"
            | "appropriate"
            | "necessary"
            | "available"
            | "proper"
            | "useful"
            | "suitable"
            | "possible"
            | "certain"
            | "helpful"
    )
}

/// Whether `other` is the opposite of the adjective `w`: its negative (`irrelevant`,
/// `unavailable`, `improper`) or its counterpart (`specific`/`generic`, `actual`/`expected`).
pub(super) fn are_opposites(w: &str, other: &str) -> bool {
    let negative = ["un", "in", "ir", "im", "non-"]
        .iter()
        .any(|prefix| other.strip_prefix(prefix) == Some(w));
    negative
        || matches!(
            (w, other),
            ("specific", "generic" | "general" | "generally")
                | ("actual", "expected" | "target" | "ideal" | "intended")
                | ("necessary", "optional")
                | ("possible", "certain")
        )
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
    fn opposites_are_negatives_or_counterparts() {
        assert!(are_opposites("relevant", "irrelevant"));
        assert!(are_opposites("available", "unavailable"));
        assert!(are_opposites("specific", "generic"));
        assert!(!are_opposites("specific", "relevant"));
        assert!(is_determiner("their") && !is_determiner("them"));
    }
}
