//! Fixed expressions whose function words carry the sense: without them the phrase says
//! something else (`stop at once` is not `stop once`, `in charge of the team` is not `charge
//! team`) or nothing at all (`do it on purpose`, `instead of spaces`). Standard English
//! idioms only, none fitted to a corpus.

/// Whether the preposition `prep` stays because it opens a fixed expression with `next`, the
/// word after it: `at once`, `in full`, `on demand`, `by default`, `for example`, `as well`.
pub(super) fn opens_fixed_phrase(prep: &str, next: &str) -> bool {
    match prep {
        "at" => matches!(
            next,
            "first"
                | "last"
                | "once"
                | "all"
                | "most"
                | "least"
                | "random"
                | "times"
                | "hand"
                | "heart"
                | "large"
                | "best"
                | "worst"
                | "risk"
                | "ease"
                | "length"
                | "rest"
                | "stake"
                | "scale"
                | "runtime"
                | "startup"
                | "will"
                | "fault"
        ),
        "in" => matches!(
            next,
            "full"
                | "part"
                | "parallel"
                | "advance"
                | "general"
                | "most"
                | "least"
                | "particular"
                | "short"
                | "brief"
                | "detail"
                | "depth"
                | "place"
                | "charge"
                | "case"
                | "order"
                | "time"
                | "turn"
                | "total"
                | "fact"
                | "addition"
                | "practice"
                | "theory"
                | "effect"
                | "common"
                | "sequence"
                | "series"
                | "bulk"
                | "isolation"
                | "person"
                | "private"
                | "public"
                | "return"
                | "sync"
                | "progress"
                | "doubt"
                | "favor"
                | "favour"
                | "front"
                | "spite"
                | "terms"
                | "mind"
                | "view"
                | "light"
                | "lieu"
                | "line"
                | "contrast"
                | "essence"
                | "summary"
                | "conclusion"
                | "memory"
                | "use"
        ),
        "on" => matches!(
            next,
            "purpose"
                | "time"
                | "demand"
                | "behalf"
                | "average"
                | "schedule"
                | "board"
                | "track"
                | "call"
                | "site"
                | "premises"
                | "hold"
                | "record"
                | "top"
                | "hand"
                | "error"
                | "errors"
                | "failure"
                | "success"
                | "exit"
                | "save"
                | "change"
                | "click"
                | "load"
                | "submit"
                | "startup"
                | "close"
        ),
        "by" => matches!(
            next,
            "default"
                | "hand"
                | "design"
                | "far"
                | "chance"
                | "heart"
                | "mistake"
                | "accident"
                | "value"
                | "reference"
                | "name"
        ),
        "for" => matches!(
            next,
            "example" | "instance" | "now" | "good" | "free" | "sure" | "ever" | "granted" | "once"
        ),
        "as" => matches!(
            next,
            "well"
                | "is"
                | "such"
                | "usual"
                | "expected"
                | "follows"
                | "soon"
                | "long"
                | "far"
                | "much"
                | "many"
                | "if"
                | "though"
                | "of"
                | "per"
                | "opposed"
                | "part"
        ),
        "to" => matches!(next, "date"),
        _ => false,
    }
}

/// Whether `as` closes a comparison or condition opened before it: `as soon as`, `as long as`
/// (a condition: `works as long as the key is set`), `as well as`, `the same as`.
pub(super) fn closes_as_phrase(before: &str) -> bool {
    matches!(
        before,
        "soon" | "long" | "far" | "much" | "many" | "well" | "same"
    )
}

/// Words that open a noun phrase: after `to`, `for` or `as` they show the word is a
/// preposition governing a thing (`add it to the list`, `wait for the build`, `act as a
/// teacher`), not the mark of an infinitive (`to write`).
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

/// Whether `of` stays after `head`, which needs it to say what it is about: a compound
/// preposition (`instead of`, `because of`, `out of memory`, `in charge of`), an adjective or
/// verb that takes it (`aware of`, `consists of`), or a quantity that picks from a set (`one
/// of the files` is not `one files`).
pub(super) fn takes_of(head: &str) -> bool {
    matches!(
        head,
        "instead"
            | "because"
            | "out"
            | "ahead"
            | "regardless"
            | "irrespective"
            | "independent"
            | "independently"
            | "behalf"
            | "front"
            | "favor"
            | "favour"
            | "spite"
            | "terms"
            | "charge"
            | "case"
            | "sake"
            | "lieu"
            | "view"
            | "light"
            | "consist"
            | "consists"
            | "consisting"
            | "aware"
            | "capable"
            | "afraid"
            | "full"
            | "free"
            | "short"
            | "one"
            | "each"
            | "some"
            | "none"
            | "any"
            | "most"
            | "many"
            | "few"
            | "either"
            | "neither"
            | "several"
            | "half"
            | "rest"
            | "majority"
            | "minority"
            | "much"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_phrases_are_recognised_by_both_words() {
        assert!(opens_fixed_phrase("at", "once"));
        assert!(opens_fixed_phrase("on", "purpose"));
        assert!(opens_fixed_phrase("by", "default"));
        assert!(!opens_fixed_phrase("at", "night"));
        assert!(!opens_fixed_phrase("of", "course"));
        assert!(takes_of("instead") && takes_of("one") && !takes_of("list"));
    }
}
