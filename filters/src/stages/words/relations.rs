//! Context rules for words that relate the others: a preposition its head word governs (`stored
//! in the vault`, `think about it`, `not in the directory`), an adjective a quantifier or its
//! opposite makes restrictive (`without proper handling`, `specific types over generic ones`),
//! and the connectives that order or join clauses (`read the file, then write`, `, and if
//! nothing works`, `do so`, `stop being`).

use super::idioms;
use super::sense::{Context, RANGE_WORDS, is_object_pronoun};
use crate::stages::chunks::Chunk;

/// Prepositions of place and topic that the word stage may drop.
fn is_place_or_topic(w: &str) -> bool {
    matches!(w, "in" | "on" | "at" | "about" | "within" | "inside")
}

/// Words that restrict or negate what follows them: the phrase after one is what is said.
fn is_restrictor(w: &str) -> bool {
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

/// Forms of `be` and the verbs of being somewhere, after which a place is the predicate.
fn is_state_verb(w: &str) -> bool {
    matches!(
        w,
        "be" | "is"
            | "are"
            | "was"
            | "were"
            | "been"
            | "being"
            | "remain"
            | "remains"
            | "stay"
            | "stays"
            | "exist"
            | "exists"
            | "live"
            | "lives"
            | "located"
            | "reside"
            | "resides"
    )
}

/// A past participle, which takes no object: after one, a dropped preposition would turn the
/// place into its object (`stored in the vault` is not `stored vault`).
fn is_past_participle(w: &str) -> bool {
    (w.len() > 3 && w.ends_with("ed"))
        || matches!(
            w,
            "written"
                | "built"
                | "found"
                | "set"
                | "made"
                | "kept"
                | "held"
                | "shown"
                | "given"
                | "known"
                | "hidden"
                | "seen"
                | "done"
                | "run"
                | "put"
                | "left"
                | "sent"
                | "taken"
        )
}

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
    // A fixed expression keeps its function words: `at once`, `in charge of`, `instead of`,
    // `as soon as`; so do `to`, `for` and `as` before a determiner, which say where a thing
    // goes, what it is for or what it acts as (`add it to the list`, `wait for the build`).
    let joined_to_next = ctx.rest.first().is_some_and(|c| c.trail().is_empty());
    if joined_to_next
        && next.is_some_and(|n| {
            idioms::opens_fixed_phrase(w, n)
                || (matches!(w, "to" | "for" | "as") && idioms::is_determiner(n))
        })
    {
        return true;
    }
    if (w == "as" && before.is_some_and(idioms::closes_as_phrase))
        || (w == "of" && before.is_some_and(idioms::takes_of))
    {
        return true;
    }
    if is_place_or_topic(w) && w != "about" && next.is_some_and(idioms::is_setting) {
        return true;
    }
    // The head word that governs a preposition stands right before it or before an adverb:
    // `think about`, `think deeply about`, `focus primarily on`.
    let adverb_head = match before {
        Some(b) if b.len() > 3 && b.ends_with("ly") => word_before_before(ctx),
        _ => None,
    };
    let governed = |head: &str| idioms::governs_preposition(head, w);
    if (is_place_or_topic(w) || matches!(w, "for" | "to" | "as"))
        && (before.is_some_and(governed) || adverb_head.as_deref().is_some_and(governed))
    {
        return true;
    }
    // After a negation or restriction, a copula or a participle the place is what is said:
    // `not in the directory`, `is in the cache`, `stored in the vault`.
    if is_place_or_topic(w)
        && before.is_some_and(|b| is_restrictor(b) || is_state_verb(b) || is_past_participle(b))
    {
        return true;
    }
    // A verb that puts something somewhere takes the place after its object: `store the keys
    // in environment variables` is not `store keys environment variables`.
    if is_place_or_topic(w) && w != "about" && earlier_in_window(ctx, is_placing_verb) {
        return true;
    }
    // `at the earliest`, `at the same time`, `at the end of`.
    if w == "at"
        && next == Some("the")
        && ctx.rest.get(2).and_then(Chunk::lower_any).is_some_and(|n| {
            matches!(
                &*n,
                "earliest"
                    | "latest"
                    | "least"
                    | "most"
                    | "same"
                    | "moment"
                    | "end"
                    | "start"
                    | "beginning"
                    | "top"
                    | "bottom"
            )
        })
    {
        return true;
    }
    // `and so on`, `and so forth`.
    if matches!(w, "on" | "forth") && before == Some("so") {
        return true;
    }
    // A pronoun right after a preposition that stays is its object: `a review of it.` is not `a
    // review of.`
    if is_object_pronoun(w)
        && ctx.prev.and_then(Chunk::lower_any).is_some_and(|p| {
            matches!(
                &*p,
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
        })
    {
        return true;
    }
    // Aggressive drops subject pronouns, but not where two parties act in one sentence (`if I
    // ask you a question, you answer and I rate it`): without them the roles swap.
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
        // `a few`, `a bit`, `a little`: some, where `few` alone is hardly any; `once a day`,
        // `at a time`: per.
        "a" => {
            next.is_some_and(|n| matches!(n, "few" | "little" | "bit" | "couple" | "lot" | "dozen"))
                || before.is_some_and(|b| {
                    matches!(b, "once" | "twice" | "thrice" | "times" | "at")
                        || b.as_bytes().first().is_some_and(u8::is_ascii_digit)
                })
        }
        // A relative pronoun before its own verb is the verb's subject (`users who own the
        // repository` is not `users own repository`); only before a subject of its own (`the
        // file which you edited`) can it go. `which` before a noun asks which one, and a
        // question word opening a heading or list item is the question (`- Who this page is
        // for`).
        "who" | "which" | "whom" => {
            ctx.prev.is_none()
                || !next.is_some_and(|n| {
                    idioms::is_determiner(n) || person_of(n).is_some() || n == "it"
                })
        }
        // `as needed`, `as written`, `as appropriate`: a condition; `as short as`: a comparison.
        "as" => {
            next.is_some_and(|n| {
                is_past_participle(n)
                    || matches!(
                        n,
                        "appropriate" | "necessary" | "required" | "applicable" | "possible"
                    )
            }) || ctx.rest.get(2).and_then(Chunk::lower_any).as_deref() == Some("as")
        }
        // `as short as possible`, `if possible`, `thus far`.
        "possible"
            if ctx
                .prev
                .and_then(Chunk::lower_any)
                .is_some_and(|p| matches!(&*p, "as" | "if" | "where" | "when" | "whenever")) =>
        {
            true
        }
        "thus" => next == Some("far"),
        // `be about to`: about to happen; `about five pages`: roughly.
        "about" => next.is_some_and(|n| n == "to" || is_number_word(n)),
        // `then` in a sequence (`read the file, then write`) orders the steps; only the `then`
        // answering a condition (`if it fails, then retry`) can go.
        "then" => {
            let joined = ctx.prev.is_some_and(|p| {
                p.text.ends_with([',', ';'])
                    || p.lower_any().is_some_and(|p| matches!(&*p, "and" | "or"))
            });
            joined
                && !earlier_in_window(ctx, |b| {
                    matches!(b, "if" | "when" | "whenever" | "once" | "unless" | "after")
                })
        }
        // After a comma `and` is a list's last joint (`A, B, and C`), but before a clause of its
        // own (`, and if nothing works, they leave`; `, and you will give feedback`) it joins
        // the clauses.
        "and" => next.is_some_and(opens_clause),
        // `so` stands for what was said (`do so`, `if so`), makes a fixed phrase (`so far`, `and
        // so on`, `so long as`) or says what for before a subject or noun phrase (`so you can
        // write`, `so a developer can act`); only before an adjective is it `very`.
        "so" => {
            before.is_some_and(|b| {
                matches!(
                    b,
                    "do" | "does"
                        | "did"
                        | "doing"
                        | "done"
                        | "say"
                        | "says"
                        | "said"
                        | "think"
                        | "if"
                        | "not"
                        | "or"
                )
            }) || next.is_some_and(|n| {
                matches!(
                    n,
                    "far"
                        | "on"
                        | "forth"
                        | "long"
                        | "that"
                        | "you"
                        | "we"
                        | "they"
                        | "it"
                        | "i"
                        | "he"
                        | "she"
                        | "users"
                ) || idioms::is_determiner(n)
            })
        }
        // `being` after a verb or preposition taking an -ing form is the verb itself: `stopped
        // being the leader`, `avoid being accused`, `by being informed`.
        "being" => before.is_some_and(takes_gerund),
        // A low-information adjective restricts its noun after a quantifier or negation (`without
        // proper handling`, `any relevant files`) and where its opposite is in view (`specific
        // types over generic ones`).
        _ if idioms::restricts_with_opposite(w) => {
            ctx.prev
                .and_then(Chunk::lower_any)
                .is_some_and(|p| is_quantifier(&p) || is_restrictor(&p))
                // `only to specific users`, `except in the specific circumstances`.
                || restrictor_shortly_before(ctx)
                || ctx
                    .window
                    .iter()
                    .any(|c| c.lower_any().is_some_and(|o| idioms::are_opposites(w, &o)))
        }
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

/// Numbers written as words.
fn is_number_word(w: &str) -> bool {
    matches!(
        w,
        "one"
            | "two"
            | "three"
            | "four"
            | "five"
            | "six"
            | "seven"
            | "eight"
            | "nine"
            | "ten"
            | "eleven"
            | "twelve"
            | "fifteen"
            | "twenty"
            | "thirty"
            | "fifty"
            | "hundred"
            | "thousand"
            | "million"
            | "half"
            | "a"
            | "dozen"
    )
}

/// Quantifiers whose set an adjective narrows: `all relevant files` is not `all files`.
fn is_quantifier(w: &str) -> bool {
    matches!(
        w,
        "all" | "any" | "every" | "each" | "no" | "without" | "some" | "most" | "few" | "many"
    )
}

/// Whether the word after a comma-preceded `and` opens a clause: a subordinator or a subject.
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

/// Verbs that put a thing in a place, whose place phrase follows the object.
fn is_placing_verb(w: &str) -> bool {
    matches!(
        w,
        "keep"
            | "keeps"
            | "store"
            | "stores"
            | "put"
            | "puts"
            | "place"
            | "places"
            | "save"
            | "saves"
            | "log"
            | "logs"
            | "record"
            | "records"
            | "include"
            | "includes"
            | "define"
            | "defines"
            | "declare"
            | "declares"
            | "list"
            | "show"
            | "shows"
            | "display"
            | "displays"
            | "mention"
            | "document"
            | "insert"
            | "inserts"
            | "write"
            | "writes"
            | "use"
            | "uses"
            | "set"
            | "sets"
    )
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

/// The word two before this one as written, when nothing but spaces parts the three.
fn word_before_before<'a>(ctx: &Context<'_, 'a>) -> Option<crate::stages::chunks::Lower<'a>> {
    let after = ctx.rest.len().min(RANGE_WORDS + 1);
    let here = ctx.window.len() - after;
    let chunk = ctx.window.get(here.checked_sub(2)?)?;
    chunk
        .trail()
        .is_empty()
        .then(|| chunk.lower_any())
        .flatten()
}

/// Whether a restricting word stands at most three words before this one in its clause.
fn restrictor_shortly_before(ctx: &Context<'_, '_>) -> bool {
    let after = ctx.rest.len().min(RANGE_WORDS + 1);
    let earlier = &ctx.window[..ctx.window.len() - after];
    for chunk in earlier.iter().rev().take(3) {
        if !chunk.trail().is_empty() {
            return false;
        }
        if chunk.lower_any().is_some_and(|w| is_restrictor(&w)) {
            return true;
        }
    }
    false
}

/// Whether a word within [`RANGE_WORDS`] before this one, as written, passes `test`.
fn earlier_in_window(ctx: &Context<'_, '_>, test: impl Fn(&str) -> bool) -> bool {
    let after = ctx.rest.len().min(RANGE_WORDS + 1);
    let earlier = &ctx.window[..ctx.window.len() - after];
    earlier
        .iter()
        .any(|c| c.lower_any().is_some_and(|w| test(&w)))
}
