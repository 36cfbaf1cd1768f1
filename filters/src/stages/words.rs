//! Word dropping: articles, fillers and low-information function words (conservative and
//! balanced), and the telegraphic style of aggressive. Only plain English words are ever named
//! here; guard words (negations, restrictive words, numbers, identifiers) and protected spans
//! are never dropped, and the context rules (`sense`, `relations`, `clauses`) keep a listed word
//! wherever the sentence needs it.

mod amounts;
mod articles;
mod clauses;
mod degree;
pub(super) mod lexicon;
mod relations;
mod role;
mod sense;

use super::chunks::{self, Chunk};
use crate::options::Mode;
use role::role_subject;
use sense::{Context, RANGE_WORDS, keeps_sense};

pub(super) use role::opens_role;

/// The lowest mode that drops a word, or None for a word every mode keeps.
///
/// Conservative drops what no reader needs: articles, politeness, intensifiers, disfluencies,
/// copulas and relative pronouns where the context rules allow, introductory `there`/`here`, and
/// manner adverbs that only praise. Balanced adds hedges, auxiliary `has/have`,
/// `and` after a comma, and adjectives that add nothing before their noun. Aggressive writes
/// telegraphically: it drops a sentence's first `you` and `it's` too.
fn drop_tier(w: &str) -> Option<Mode> {
    match w {
        "a" | "an" | "the" | "please" | "very" | "really" | "basically" | "actually"
        | "simply" | "essentially" | "certainly" | "definitely" | "truly"
        | "extremely" | "absolutely" | "obviously" | "surely" | "indeed" | "honestly"
        | "incredibly" | "highly" | "utterly" | "overall" | "additionally" | "easily"
        | "appropriately" | "successfully" | "effectively" | "efficiently" | "specifically"
        // Spoken disfluencies, as transcripts carry them.
        | "um" | "umm" | "uh" | "uhm" | "erm" | "hmm"
        // Copulas, relative pronouns and introductory `there`/`here`.
        | "is" | "are" | "was" | "were" | "be" | "been" | "being" | "am" | "that" | "which"
        | "who" | "whom" | "there" | "here" => Some(Mode::Conservative),
        // Hedges: as softeners of a request, or beside a modal that doubts already (see
        // `degree`); and `quite`, a matter of emphasis.
        "quite" | "perhaps" | "maybe" | "probably" | "possibly" => Some(Mode::Balanced),
        // Auxiliaries, `and` after a comma (see `clauses`), and adjectives that add nothing
        // before their noun (`the respective files`).
        "has" | "have" | "and" => Some(Mode::Balanced),
        _ if lexicon::is_low_information_adjective(w) => Some(Mode::Balanced),
        "you" | "you're" | "it's" | "you'll" | "you've" | "you'd" => Some(Mode::Aggressive),
        // Never dropped, because they change what a sentence says:
        // - `still`, `already`, `even` (`even if`), `strictly`, the downtoners `somewhat` and
        //   `fairly` (`somewhat higher` is not `higher`), and `had`, whose past perfect orders
        //   events (`the roof had collapsed` when they arrived, not after), `directly`, `explicitly`,
        //   `immediately`, `quickly`, `carefully`, `accurately`, `thoroughly`, `currently`,
        //   `properly`, `completely`, `entirely`, `totally`, and `usually`, `typically`,
        //   `generally`, which turn a rule of thumb into a rule;
        // - `especially` and `particularly`, which scope a rule (`especially if it changes the
        //   system` is not `if it changes the system`);
        // - the possessives, which say whose (`caused by its negligence`, `on their behalf`,
        //   `caused by your failure`, `what my finance team needs`), and the demonstratives,
        //   which limit what is meant (`do not reveal these instructions`);
        // - `let's`, a proposal (`Let's start` is not the order `Start`), and `literally`, a
        //   manner (`translate it literally`);
        // - `also`, which adds to what was said (`may also terminate for cause` is not `may
        //   terminate`); adjectives that narrow their noun (`a specific drug is named`, `enter
        //   the given value`, `the provided template`, `relevant evidence`);
        // - the causal links `so`, `thus`, `therefore`, `hence`; `then`, which orders steps or
        //   answers a condition (`Then shape it`, `User: No. Assistant: Then a light model`);
        //   `following`, which points ahead (`if any of the following applies:`); and `will`,
        //   whose verb would read as a command (`the dough will turn sour`);
        // - `it`, `I`, `we`, `they`, `her` and the like, which say who acts among several
        //   people or what is acted on (`tell me rather than Dana`, `check that nothing uses
        //   it`);
        // - every preposition, and an infinitive's `to` (`don't forget check` is not English):
        //   each preposition relates two things, and without
        //   it the words around it read as another relation (`a photo of the damage` is not `a
        //   photo damage`, `the alert on checkout errors fires` not `alert checkout errors
        //   fires`, `for patients who are bleeding, give` not `patients who are bleeding,
        //   give`, `replace tabs with spaces` not `replace tabs spaces`).
        _ => None,
    }
}

/// Drops the droppable words of one line of English prose. `after_prose`: the line goes on from
/// a sentence on the line before it (see `role::role_subject`).
pub fn drop_words(chunks: &mut Vec<Chunk>, mode: Mode, after_prose: bool) {
    // `value: the`, `A: an`: a label's one-word value is the value, whatever the word.
    if let [label, _] = chunks.as_slice()
        && label.text.ends_with(':')
    {
        return;
    }
    // One pass into a new vector: removing from the middle of a long line one word at a time
    // would shift the rest of the line for every word.
    let input = std::mem::take(chunks);
    let total = input.len();
    let mut out: Vec<Chunk> = Vec::with_capacity(total);
    let mut lead = String::new();
    let mut capitalize_next = false;
    let speech = chunks::opens_with_label(&input);
    // Where the sentence's relative clause opened, if it has one.
    let mut relative_at: Option<usize> = None;
    // Whether the sentence before this word's, and this word's, give the reader a role.
    let (mut after_role, mut in_role) = (false, false);
    let mut starts_sentence = true;
    for (i, mut chunk) in input.iter().cloned().enumerate() {
        if starts_sentence {
            after_role = in_role;
            in_role = opens_role(input[i..].iter().map_while(Chunk::lower_any));
        }
        if !lead.is_empty() {
            chunk.text.to_mut().insert_str(0, &lead);
            chunk.core = (chunk.core.0 + lead.len(), chunk.core.1 + lead.len());
            lead.clear();
        }
        if capitalize_next {
            chunks::capitalize(&mut chunk);
            capitalize_next = false;
        }
        let context = Context {
            prev: out.last(),
            before: i.checked_sub(1).map(|b| &input[b]),
            rest: &input[i..],
            window: &input[i.saturating_sub(RANGE_WORDS)..(i + RANGE_WORDS + 1).min(total)],
            speech,
            after_relative: relative_at.is_some_and(|at| i > at + 1),
            after_prose,
            after_role,
        };
        starts_sentence = chunk.ends_sentence();
        if starts_sentence || chunk.trail().contains([';', ':']) {
            relative_at = None;
        } else if relative_at.is_none() && clauses::opens_relative(context.before, &chunk) {
            relative_at = Some(i);
        }
        let droppable = !chunk.fixed
            && chunk.lower_any().is_some_and(|w| {
                let tier = drop_tier(&w)
                    .into_iter()
                    .chain(role_subject(&context, &w))
                    .min();
                tier.is_some_and(|tier| tier <= mode) && !keeps_sense(&context, &w)
            });
        // `a` and `I` are single letters that also stand for list labels and options: `a)`, `(a)`.
        let labelled = chunk.trail().starts_with(')')
            || chunk.lead().starts_with('(')
            || chunk.trail().starts_with(':');
        let remaining = out.len() + (total - i);
        // A sentence's end on a word that opens the line has no word before it to move to.
        let strands_its_end = out.is_empty() && chunk.trail().contains(['.', '?', '!']);
        if droppable && !labelled && remaining > 1 && !strands_its_end {
            let was_start = out.last().is_none_or(Chunk::ends_sentence);
            // The next word would open the sentence, and a lower-case guard word cannot
            // (`Please stop using the stove` is not `stop using stove`). A copula and an
            // introductory `there` are left to their own rule, which keeps the two together
            // (`Here are some rules`, not `Are some rules`).
            let leaves_lowercase_start = was_start
                && chunk.is_capitalized()
                && !chunk
                    .lower_any()
                    .is_some_and(|w| lexicon::is_be(&w) || matches!(&*w, "there" | "here"))
                && input.get(i + 1).is_some_and(Chunk::stays_lowercase);
            if !leaves_lowercase_start {
                capitalize_next = was_start && chunk.is_capitalized();
                if let Some(prev) = out.last_mut() {
                    chunks::carry_trail(prev, chunk.trail());
                }
                lead = chunk.lead().to_string();
                continue;
            }
        }
        out.push(chunk);
    }
    *chunks = out;
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod audit_tests;
