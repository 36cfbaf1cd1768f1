//! The context rules of the word stage: when a word the lists name still carries the
//! sentence's sense where it stands (`from A to D`, `as it is.`, `Do not be verbose`, `the
//! relevant files` but `when relevant`). The rules on relations and clauses are in `relations`
//! and `clauses`, on articles in `articles`, on amounts and degree in `amounts` and `degree`,
//! on roles in `role`.

use super::drop_tier;
use super::{amounts, articles, clauses, degree, lexicon, relations};
use crate::stages::chunks::{self, Chunk};

/// How far apart the two ends of a range may be: `from the old folder to the new one`.
pub(super) const RANGE_WORDS: usize = 6;

/// What the decision about one word may look at: the last word kept, the word before
/// this one as written, this word and the rest of the line as written, and the words within
/// [`RANGE_WORDS`] of it as written.
pub(super) struct Context<'c, 'a> {
    pub prev: Option<&'c Chunk<'a>>,
    pub before: Option<&'c Chunk<'a>>,
    pub rest: &'c [Chunk<'a>],
    pub window: &'c [Chunk<'a>],
    /// The line opens with a speaker's or a field's label (`Alice:`, `User:`): it is what
    /// somebody said, where `you` and `it` are people and things of that exchange.
    pub speech: bool,
    /// A relative clause opened earlier in this sentence, with a word of it before this one
    /// (`Orders that were shipped by a carrier | are tracked`).
    pub after_relative: bool,
    /// The line goes on from a sentence on the line before it that gives no role.
    pub after_prose: bool,
    /// The sentence before this one on the line gives the reader a role (see [`super::role::opens_role`]).
    pub after_role: bool,
}

impl<'c, 'a> Context<'c, 'a> {
    /// The words before this one within [`RANGE_WORDS`], as written.
    pub fn earlier(&self) -> &'c [Chunk<'a>] {
        &self.window[..self.window.len() - self.rest.len().min(RANGE_WORDS + 1)]
    }

    /// Whether this word's sentence ends in a question mark.
    pub fn in_question(&self) -> bool {
        chunks::is_question(self.rest)
    }

    /// Whether one of the words before this one within [`RANGE_WORDS`], in its sentence, passes
    /// `test`: `Take 5 mg of vitamin D a day`, `only when it is absolutely necessary`.
    pub fn earlier_in_sentence(&self, test: impl Fn(&Chunk<'a>) -> bool) -> bool {
        for chunk in self.earlier().iter().rev() {
            if chunk.ends_sentence() {
                return false;
            }
            if test(chunk) {
                return true;
            }
        }
        false
    }

    /// Whether one of the three words before this one, in its clause (no punctuation between),
    /// passes `test`: `have not been`, `only to specific users`.
    pub fn shortly_before(&self, test: impl Fn(&str) -> bool) -> bool {
        for chunk in self.earlier().iter().rev().take(3) {
            if !chunk.trail().is_empty() {
                return false;
            }
            if chunk.lower_any().is_some_and(|w| test(&w)) {
                return true;
            }
        }
        false
    }
}

/// The droppable adverbs that can answer a question on their own.
fn is_adverb_of_degree_or_doubt(w: &str) -> bool {
    matches!(
        w,
        "very"
            | "really"
            | "quite"
            | "extremely"
            | "absolutely"
            | "definitely"
            | "certainly"
            | "indeed"
            | "truly"
            | "surely"
            | "highly"
            | "incredibly"
            | "honestly"
            | "actually"
            | "basically"
            | "obviously"
            | "probably"
            | "maybe"
            | "perhaps"
            | "possibly"
            | "fairly"
            | "somewhat"
    )
}

/// Object pronouns and question words: a preposition before one of them is what ties it to the
/// sentence (`suggestions of it`, `think about what`).
pub(super) fn is_object_pronoun(w: &str) -> bool {
    matches!(
        w,
        "it" | "them"
            | "him"
            | "her"
            | "me"
            | "us"
            | "you"
            | "yourself"
            | "itself"
            | "themselves"
            | "this"
            | "that"
            | "these"
            | "those"
            | "which"
            | "whom"
            | "what"
            | "whether"
    )
}

/// Words whose removal would change what a sentence says in context.
pub(super) fn keeps_sense(ctx: &Context<'_, '_>, w: &str) -> bool {
    if relations::keeps(ctx, w)
        || clauses::keeps(ctx, w)
        || amounts::keeps(ctx, w)
        || degree::keeps(ctx, w)
    {
        return true;
    }
    // A word standing alone between commas, or after a colon, is an item of a list: a mention
    // rather than a use (`Avoid these words: very, really, actually, basically.`).
    // The last item needs an item before it (`by then, please.` is no list).
    let earlier = ctx.earlier();
    let item_before = earlier.len() >= 2 && earlier[earlier.len() - 2].trail().ends_with(',');
    // So is the one before the `or` of a last item closing the list (`(a, an or the)`).
    let before_last_item = matches!(ctx.rest, [this, link, last, ..]
        if this.trail().is_empty()
            && matches!(link.lower_any().as_deref(), Some("or" | "and"))
            && !last.trail().is_empty());
    let listed = ctx.before.is_some_and(|b| b.trail().ends_with([',', ':']))
        && ctx.rest.first().is_some_and(|c| {
            c.trail().starts_with(',')
                || (item_before && ctx.rest.len() == 1 && !c.trail().is_empty())
        })
        || ctx.before.is_some_and(|b| b.trail().ends_with(',')) && before_last_item;
    if listed {
        return true;
    }
    let next = ctx.rest.get(1).and_then(Chunk::lower_any);
    let at_start = ctx.prev.is_none_or(Chunk::ends_sentence);
    let after_label = ctx.prev.is_some_and(|p| p.text.ends_with(':'));
    let punctuated = ctx
        .rest
        .first()
        .is_some_and(|c| c.trail().contains(['.', ',', ';', ':', '!', '?']));
    // An adverb that ends its sentence is the answer itself (`Yes, very.`, `Really?`,
    // `Absolutely!`, `Maybe.`), and `very much`, `very few` are an amount, not `much`, `few`.
    if is_adverb_of_degree_or_doubt(w)
        && (ctx
            .rest
            .first()
            .is_some_and(|c| c.trail().contains(['.', '!', '?']))
            || (w == "very"
                && next
                    .as_deref()
                    .is_some_and(|n| matches!(n, "much" | "many" | "well" | "few" | "little"))))
    {
        return true;
    }
    // A copula closing its clause right after its subject has no complement to stand for it:
    // `keep the formatting as it is.` is not `as it.` (where the subject went, it goes too).
    if punctuated
        && matches!(w, "is" | "are" | "was" | "were" | "am" | "be" | "been")
        && ctx.before.is_some_and(|b| b.trail().is_empty())
        && ctx.prev.and_then(Chunk::lower_any) == ctx.before.and_then(Chunk::lower_any)
        && ctx.prev.is_some()
    {
        return true;
    }
    // A word closing its clause right after a conjunction or preposition is what that word
    // joins or governs: without it the sentence dangles (`clearly and efficiently.` is not
    // `clearly and.`, `a decade or so.`, `by then,`).
    // The end of a line closes a clause unless the word is a determiner, which never does (a
    // hard-wrapped paragraph goes on in the next line). What counts is the word kept before
    // it: a preposition that goes takes its object with it.
    let closes_clause =
        punctuated || (ctx.rest.len() == 1 && !matches!(w, "a" | "an" | "the" | "that"));
    if closes_clause
        && ctx.prev.and_then(Chunk::lower_any).is_some_and(|b| {
            matches!(
                &*b,
                "and"
                    | "or"
                    | "nor"
                    | "but"
                    | "by"
                    | "until"
                    | "till"
                    | "since"
                    | "from"
                    | "before"
                    | "after"
            )
        })
    {
        return true;
    }
    // `be` after a modal or `to` carries the passive or the state: `must be made`, `has to be
    // finished`, with adverbs between too (`can only be voided`, `must always be rotated`);
    // after a negation it is what the negation forbids (`Do not be verbose`, `must not be
    // longer`).
    // `Be` opening a sentence is the command itself: `Be done with the review by Friday` is not
    // the report `Done with review by Friday`, `Always be polite` not `Always polite`.
    if w == "be"
        && (at_start
            || ctx
                .before
                .and_then(Chunk::lower_any)
                .is_some_and(|b| matches!(&*b, "always" | "please" | "just")))
    {
        return true;
    }
    if w == "be"
        && (ctx
            .prev
            .and_then(Chunk::lower_any)
            .is_some_and(|b| lexicon::is_modal(&b) || lexicon::is_negation(&b) || &*b == "to")
            || ctx.shortly_before(|b| lexicon::is_modal(b) || b == "to"))
    {
        return true;
    }
    match w {
        "a" | "the" => articles::keeps(ctx, w, at_start),
        // `there` and `here` go where they only introduce (`there are three`, `here is the
        // list`); after a preposition or a verb they are a place (`take it from there`).
        // `Are there any bugs?`: the question's `there` only introduces too (but after a
        // subject, `I was there last time`, it is a place). Where the question keeps its copula
        // (`Correctness: Are there bugs?`), `there` stays with it.
        "there" | "here"
            if !closes_clause
                && ctx
                    .before
                    .and_then(Chunk::lower_any)
                    .is_some_and(|b| matches!(&*b, "is" | "are" | "was" | "were"))
                && copula_opens_sentence(ctx) =>
        {
            ctx.prev.and_then(Chunk::lower_any) == ctx.before.and_then(Chunk::lower_any)
        }
        // Only opening its sentence does `there` merely introduce: after a noun it is a place
        // (`files there are deleted`), after `but` the subject of its clause (`but there is a
        // slip`). Before a past copula it keeps the tense (`There was no response`), and before
        // a negation the statement (`There is no backup`; `no backup` is a fragment), as before
        // any guard word in lower case, which could not open the sentence (`Here are some
        // rules`, not `some rules`).
        "there" | "here" => {
            closes_clause
                || next
                    .as_deref()
                    .is_some_and(|n| matches!(n, "was" | "were"))
                || ctx.rest.get(2).is_some_and(|n| {
                    n.stays_lowercase() || n.lower_any().is_some_and(|n| lexicon::is_negation(&n))
                })
                // `Here is why it failed`: without it the rest reads as a heading or a question.
                || ctx.rest.get(2).and_then(Chunk::lower_any).is_some_and(|w| {
                    matches!(&*w, "why" | "what" | "who" | "how" | "where" | "when" | "which")
                })
                || !(at_start || ctx.prev.is_some_and(|p| p.text.ends_with(':')))
                // Before a modal or `have` the verb left would open the sentence as a question
                // or a fragment (`There will be no extension` is not `Will be no extension`).
                || !next
                    .as_deref()
                    .is_some_and(|n| matches!(n, "is" | "are" | "seems" | "seem"))
        }
        // `that` ending a clause (`help you with that.`) is the thing itself. Before an article
        // or pronoun it introduces a clause (`ensure that the ...`) and can go; before anything
        // else it points at something specific, or is a relative subject (`blocks that each
        // change a file`).
        "that" if ctx.rest.first().is_some_and(|c| !c.trail().is_empty()) => true,
        // After a preposition `that` is the thing itself: `After that it renews` is not the
        // clause `After it renews`.
        "that"
            if ctx
                .before
                .filter(|b| b.trail().is_empty())
                .and_then(Chunk::lower_any)
                .is_some_and(|b| {
                    lexicon::is_preposition(&b) || lexicon::is_other_preposition(&b)
                }) =>
        {
            true
        }
        // Before an article it goes only after a verb that takes a clause (`ensure that the
        // file`): after a noun the two nouns would read as one (`tell the customer that the
        // system is down` is not `tell customer system down`).
        "that"
            if next
                .as_deref()
                .is_some_and(|n| matches!(n, "the" | "a" | "an")) =>
        {
            !ctx.before
                .and_then(Chunk::lower_any)
                .is_some_and(|b| lexicon::takes_that_clause(&b))
        }
        "that" => !next.as_deref().is_some_and(|n| {
            matches!(
                n,
                "you" | "it" | "they" | "we" | "i" | "your" | "this" | "there" | "he" | "she"
            )
        }),
        // The copula of a `there` that stays: `during an outage, there is no protection` is
        // not `there no protection`.
        "is" | "are" | "was" | "were"
            if ctx.prev.is_some_and(|p| p.trail().is_empty())
                && ctx
                    .prev
                    .and_then(Chunk::lower_any)
                    .is_some_and(|p| matches!(&*p, "there" | "here")) =>
        {
            true
        }
        // A copula or `have` before a negation carries it: `is not`, `has never`.
        "is" | "are" | "was" | "were" | "be" | "has" | "have" | "had"
            if next
                .as_deref()
                .is_some_and(|n| n == "not" || n == "never" || n.ends_with("n't")) =>
        {
            true
        }
        // After a preposition or a verb of knowing, asking or choosing, `who`/`which` opens the
        // thing itself (`like who proposed it`, `decide which option`), not a relative clause.
        // Before a copula, which goes, it is all that ties what follows to the sentence
        // (`controls which are allowed` is not `controls allowed`).
        // After an object or a negation it opens what is asked (`Tell me who you are`, `not
        // who they are`).
        "which" | "who" | "whom"
            if ctx.before.and_then(Chunk::lower_any).is_some_and(|b| {
                opens_wh_clause(&b) || is_object_pronoun(&b) || lexicon::is_negation(&b)
            }) || next
                .as_deref()
                .is_some_and(|n| matches!(n, "is" | "are" | "was" | "were")) =>
        {
            true
        }
        // A question keeps its question word and auxiliary: `Who is ...?`, `Which one ...?`, `Is
        // it ...?`, after a speaker's label too (`User: Is my order late?`), and a copula
        // before its subject (`How sure are you?`).
        // `Were the agent unavailable, offer a call back`: opening a sentence, the inverted
        // copula is the condition (or the question).
        "was" | "were" if at_start => true,
        "which" | "who" | "whom" | "is" | "are" | "was" | "were" => {
            (at_start || after_label) && ctx.in_question()
                || (lexicon::is_be(w)
                    && next.as_deref().is_some_and(lexicon::is_subject_pronoun)
                    && ctx.in_question())
        }
        // `has`/`have`/`had` are auxiliaries before a participle (`has finished`); otherwise they
        // are the sentence's verb (`has two modes`).
        "has" | "have" | "had" => {
            ((at_start || after_label) && ctx.in_question())
                || !next
                    .as_deref()
                    .is_some_and(|n| n.len() > 3 && (n.ends_with("ed") || n.ends_with("en")))
        }
        // A low-information adjective goes only where it qualifies the noun after it (`the
        // relevant files`); as a predicate or condition (`when relevant to`, `if necessary`,
        // `provided that`, `the following:`) it carries the sentence's sense.
        _ if lexicon::is_low_information_adjective(w) => !qualifies_next_noun(ctx),
        _ => false,
    }
}

/// True when the word at `ctx.rest[0]` stands right before a noun: no punctuation between, no
/// condition or degree word before it, and a next word that is not a function word of the word
/// lists.
fn qualifies_next_noun(ctx: &Context<'_, '_>) -> bool {
    let (Some(this), Some(next)) = (ctx.rest.first(), ctx.rest.get(1)) else {
        return false;
    };
    if !this.trail().is_empty() || !next.lead().is_empty() {
        return false;
    }
    // After a condition (`when relevant`) or a degree word (`most relevant`) the adjective is
    // what is said.
    let after_condition_or_degree = ctx.prev.and_then(Chunk::lower_any).is_some_and(|p| {
        matches!(
            &*p,
            "when"
                | "whenever"
                | "where"
                | "wherever"
                | "if"
                | "unless"
                | "than"
                | "most"
                | "more"
                | "less"
                | "least"
                | "very"
                | "too"
                | "highly"
        )
    });
    if after_condition_or_degree || is_predicate(ctx) {
        return false;
    }
    match next.lower_any() {
        // A protected span, number or identifier names a thing.
        None => true,
        Some(n) => {
            drop_tier(&n).is_none()
                && !lexicon::is_preposition(&n)
                && !crate::guard::is_restrictive(n.as_bytes())
                && !crate::guard::is_steering(n.as_bytes())
                && !matches!(&*n, "when" | "where" | "whenever" | "wherever" | "than")
        }
    }
}

/// Whether the word at `ctx.rest[0]` follows a copula or a linking verb, degree adverbs aside:
/// then it is what is said of the subject (`Sunscreen is helpful for children`, `was really
/// useful yesterday`), not a word qualifying the noun after it.
fn is_predicate(ctx: &Context<'_, '_>) -> bool {
    for chunk in ctx.earlier().iter().rev() {
        if !chunk.trail().is_empty() {
            return false;
        }
        let Some(w) = chunk.lower_any() else {
            return false;
        };
        if is_adverb_of_degree_or_doubt(&w) {
            continue;
        }
        return lexicon::is_be(&w)
            || matches!(
                &*w,
                "become"
                    | "becomes"
                    | "became"
                    | "seem"
                    | "seems"
                    | "seemed"
                    | "remain"
                    | "remains"
                    | "remained"
                    | "stay"
                    | "stays"
                    | "prove"
                    | "proves"
                    | "look"
                    | "looks"
                    | "sound"
                    | "sounds"
                    | "feel"
                    | "feels"
            );
    }
    false
}

/// Words after which `who` or `which` names what is asked or chosen rather than relating a
/// clause to the noun before it.
fn opens_wh_clause(before: &str) -> bool {
    matches!(
        before,
        "as" | "like"
            | "about"
            | "of"
            | "on"
            | "in"
            | "at"
            | "by"
            | "with"
            | "from"
            | "through"
            | "under"
            | "within"
            | "during"
            | "and"
            | "or"
            | "to"
            | "for"
            | "know"
            | "knows"
            | "ask"
            | "asks"
            | "decide"
            | "decides"
            | "determine"
            | "determines"
            | "identify"
            | "identifies"
            | "explain"
            | "explains"
            | "describe"
            | "describes"
            | "tell"
            | "tells"
            | "show"
            | "shows"
            | "see"
            | "understand"
            | "consider"
            | "specify"
            | "clarify"
            | "indicate"
            | "note"
            | "list"
            | "mention"
            | "choose"
            | "chooses"
            | "select"
            | "pick"
            | "matter"
            | "regardless"
            | "including"
            | "out"
            | "whether"
    )
}

/// Whether the word before this one opens its sentence or a label's text (`Are there ...`,
/// `Security: are there ...`), as written.
fn copula_opens_sentence(ctx: &Context<'_, '_>) -> bool {
    let earlier = ctx.earlier();
    match earlier.len().checked_sub(2) {
        None => true,
        Some(i) => earlier[i].ends_sentence() || earlier[i].trail().contains(':'),
    }
}
