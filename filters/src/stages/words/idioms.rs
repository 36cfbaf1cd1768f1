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
            "a" | "first"
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

/// Nouns naming where or when something runs (`in production`, `on Windows`, `in CI`, `on every
/// change`): the preposition says it is the setting, not an object.
pub(super) fn is_setting(next: &str) -> bool {
    matches!(
        next,
        "production"
            | "prod"
            | "staging"
            | "development"
            | "dev"
            | "ci"
            | "main"
            | "windows"
            | "linux"
            | "macos"
            | "android"
            | "ios"
            | "server"
            | "client"
            | "browser"
            | "every"
            | "each"
            | "both"
            // Settings of a deed: `in writing`, `on file`, `on request`, `on sale`, `on
            // behalf of`, `in advance`, `in arrears`, `in person`, `on time`, `on schedule`.
            | "writing"
            | "file"
            | "request"
            | "sale"
            | "behalf"
            | "advance"
            | "arrears"
            | "person"
            | "time"
            | "schedule"
            | "budget"
            | "demand"
            | "site"
            | "premises"
            | "track"
            | "duty"
            | "call"
    )
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
            | "lots"
            | "top"
            | "part"
            | "start"
            | "middle"
            | "bottom"
            | "first"
            | "use"
            | "lack"
            | "list"
            | "name"
            | "end"
            | "source"
            | "set"
            | "order"
            | "count"
            | "mix"
            | "record"
            | "review"
            | "change"
            | "separation"
            | "chain"
            | "kind"
            | "kinds"
            | "sort"
            | "sorts"
            | "type"
            | "types"
    )
}

/// Whether the verb or adjective `head` takes the preposition `prep` after it: without it the
/// object turns into something else (`think about the references` is not `think references`,
/// `look at the screenshot`, `work on the bug`, `specializing in Rust`, `wait for the build`).
pub(super) fn governs_preposition(head: &str, prep: &str) -> bool {
    match prep {
        "about" => matches!(
            head,
            "think"
                | "thinks"
                | "thinking"
                | "thought"
                | "talk"
                | "talks"
                | "talking"
                | "ask"
                | "asks"
                | "asking"
                | "asked"
                | "learn"
                | "learning"
                | "warn"
                | "warns"
                | "care"
                | "cares"
                | "worry"
                | "worries"
                | "know"
                | "knows"
                | "knew"
                | "forget"
                | "complain"
                | "curious"
                | "concerned"
                | "passionate"
                | "excited"
                | "write"
                | "writes"
                | "writing"
                | "read"
                | "speak"
                | "speaks"
                | "hear"
                | "dream"
                | "joke"
                | "jokes"
                | "clear"
                | "honest"
                | "questions"
                | "stories"
                | "story"
                | "facts"
                | "information"
                | "details"
                | "opinion"
                | "opinions"
        ),
        "at" => matches!(
            head,
            "look"
                | "looks"
                | "looking"
                | "looked"
                | "aim"
                | "aims"
                | "aimed"
                | "excel"
                | "excels"
                | "good"
                | "bad"
                | "great"
                | "better"
                | "best"
                | "skilled"
                | "arrive"
                | "arrives"
                | "stare"
                | "glance"
                | "point"
                | "points"
                | "laugh"
                | "smile"
                | "hint"
                | "hints"
                | "work"
                | "works"
        ),
        "on" => matches!(
            head,
            "work"
                | "works"
                | "working"
                | "worked"
                | "comment"
                | "comments"
                | "commenting"
                | "advise"
                | "advice"
                | "reflect"
                | "reflects"
                | "rely"
                | "relies"
                | "focus"
                | "focuses"
                | "focusing"
                | "focused"
                | "depend"
                | "depends"
                | "depending"
                | "based"
                | "build"
                | "builds"
                | "act"
                | "acts"
                | "agree"
                | "decide"
                | "decides"
                | "insist"
                | "elaborate"
                | "expand"
                | "concentrate"
                | "feedback"
                | "run"
                | "runs"
                | "running"
                | "live"
                | "lives"
                | "tips"
                | "guidance"
        ),
        "in" => matches!(
            head,
            "result"
                | "results"
                | "resulted"
                | "engage"
                | "engaged"
                | "specialize"
                | "specializes"
                | "specializing"
                | "specialized"
                | "specialise"
                | "specialises"
                | "specialising"
                | "specialised"
                | "respond"
                | "responds"
                | "reply"
                | "answer"
                | "participate"
                | "invest"
                | "succeed"
                | "interested"
                | "involved"
                | "expert"
                | "experienced"
                | "skilled"
                | "fluent"
                | "proficient"
                | "versed"
                | "believe"
                | "believes"
                | "live"
                | "lives"
                | "write"
                | "written"
        ),
        "for" => matches!(
            head,
            "wait"
                | "waits"
                | "waiting"
                | "look"
                | "looks"
                | "looking"
                | "search"
                | "ask"
                | "asks"
                | "pay"
                | "pays"
                | "account"
                | "accounts"
                | "stand"
                | "stands"
                | "responsible"
                | "known"
                | "used"
                | "ready"
                | "suitable"
                | "eligible"
        ),
        "to" => matches!(
            head,
            "listen"
                | "listens"
                | "refer"
                | "refers"
                | "reply"
                | "replies"
                | "respond"
                | "responds"
                | "belong"
                | "belongs"
                | "due"
                | "similar"
                | "related"
                | "compared"
                | "according"
                | "next"
                | "close"
                | "prior"
                | "equal"
                | "relevant"
                | "talk"
                | "talks"
                | "speak"
                | "apply"
                | "applies"
                | "add"
                | "adds"
                | "send"
                | "sends"
                | "convert"
                | "translate"
                | "switch"
                | "migrate"
                | "upgrade"
                | "point"
                | "points"
                | "map"
                | "maps"
                | "set"
                | "sets"
                | "limit"
                | "limited"
                | "about"
                | "mention"
                | "mentions"
                | "mentioned"
                | "pass"
                | "passes"
                | "passed"
                | "explain"
                | "explains"
                | "report"
                | "reported"
                | "deliver"
                | "delivered"
                | "out"
        ),
        // `count as churn`, `treat warnings as errors`: what a thing is taken to be.
        "as" => matches!(
            head,
            "count"
                | "counts"
                | "counted"
                | "treat"
                | "treats"
                | "treated"
                | "mark"
                | "marks"
                | "marked"
                | "flag"
                | "flagged"
                | "label"
                | "labeled"
                | "labelled"
                | "classify"
                | "classified"
                | "serve"
                | "serves"
                | "regard"
                | "regarded"
                | "known"
                | "defined"
                | "listed"
                | "described"
        ),
        _ => false,
    }
}

/// The low-information adjectives the word stage may drop. They are restrictive where a
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
        assert!(takes_of("instead") && takes_of("one") && !takes_of("cup"));
    }
}
