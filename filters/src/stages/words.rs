//! Word dropping: filler, hedges and low-information function words (balanced), and the
//! telegraphic style of aggressive. Only plain English words are ever named here; guard words
//! (negations, restrictive words, numbers, identifiers) and protected spans are never dropped.

use super::chunks::{self, Chunk};
use crate::options::Mode;

/// The lowest mode that drops a word, or None for a word every mode keeps.
///
/// Conservative drops what no reader needs: articles, politeness, hedges and intensifiers.
/// Balanced adds low-information function words: copulas, possessives, relative pronouns,
/// linking adverbs. Aggressive writes telegraphically: pronouns, auxiliaries and the
/// prepositions and conjunctions whose sense the word order keeps.
fn drop_tier(w: &str) -> Option<Mode> {
    match w {
        "a" | "an" | "the" | "please" | "kindly" | "very" | "really" | "basically" | "actually"
        | "simply" | "quite" | "essentially" | "literally" | "certainly" | "definitely"
        | "truly" | "totally" | "extremely" | "absolutely" | "fairly" | "somewhat" | "perhaps"
        | "maybe" | "probably" | "possibly" | "obviously" | "surely" | "indeed" | "honestly"
        | "incredibly" | "highly" | "utterly" | "entirely" | "completely" | "overall"
        | "additionally"
        // Spoken disfluencies, as transcripts carry them.
        | "um" | "umm" | "uh" | "uhm" | "erm" | "hmm" => Some(Mode::Conservative),
        "is" | "are" | "was" | "were" | "be" | "been" | "being" | "am" | "your" | "yours"
        | "my" | "our" | "their" | "its" | "his" | "that" | "which" | "who" | "whom" | "there"
        | "also" | "so" | "then" | "thus" | "therefore" | "hence" | "still" | "already"
        | "even" | "currently" | "strictly" | "easily" | "directly" | "explicitly"
        | "immediately" | "quickly" | "carefully" | "properly" | "appropriately"
        | "successfully" | "effectively" | "efficiently" | "accurately" | "thoroughly"
        | "particularly" | "especially" | "specifically" | "generally" | "typically"
        | "usually" | "here" => Some(Mode::Conservative),
        "i" | "me" | "you" | "we" | "us" | "it" | "they" | "them" | "he" | "she" | "him"
        | "her" | "i'm" | "you're" | "it's" | "we're" | "they're" | "i'll" | "you'll" | "we'll"
        | "i've" | "you've" | "i'd" | "you'd" => Some(Mode::Aggressive),
        "of" | "in" | "on" | "at" | "about" | "upon" | "and" => Some(Mode::Balanced),
        "for" | "with" | "by" | "to" | "into" | "onto" | "as" | "this"
        | "these" | "those" | "from" => Some(Mode::Aggressive),
        "has" | "have" | "had" | "will" | "let's" | "relevant" | "various" | "certain" | "respective"
        | "corresponding" | "actual" | "specific" | "comprehensive" | "possible" | "available"
        | "appropriate" | "necessary" | "needed" | "useful" | "helpful" | "proper" | "suitable"
        | "given" | "provided" | "following" => Some(Mode::Balanced),
        _ => None,
    }
}

/// Drops the droppable words of one line of English prose.
pub fn drop_words(chunks: &mut Vec<Chunk>, mode: Mode) {
    let mut i = 0;
    while i < chunks.len() {
        let chunk = &chunks[i];
        let droppable = !chunk.fixed
            && chunk.lower_any().is_some_and(|w| {
                drop_tier(&w).is_some_and(|tier| tier <= mode) && !keeps_sense(chunks, i, &w)
            });
        // `a` and `I` are single letters that also stand for list labels and options: `a)`, `(a)`.
        let labelled = chunk.trail().starts_with(')')
            || chunk.lead().starts_with('(')
            || chunk.trail().starts_with(':');
        if droppable && !labelled && chunks.len() > 1 {
            let was_start = i == 0 || chunks[i - 1].ends_sentence();
            let capital = chunks[i].is_capitalized();
            chunks::remove(chunks, i);
            if was_start && capital && i < chunks.len() {
                chunks::capitalize(&mut chunks[i]);
            }
        } else {
            i += 1;
        }
    }
}

/// Words whose removal would change what a sentence says in context.
fn keeps_sense(chunks: &[Chunk], i: usize, w: &str) -> bool {
    let next = chunks.get(i + 1).and_then(Chunk::lower_any);
    let at_start = i == 0 || chunks[i - 1].ends_sentence();
    match w {
        // `that` before a determiner or pronoun introduces a clause (`ensure that the ...`) and can go;
        // before anything else it points at something specific.
        "that" => !next.as_deref().is_some_and(|n| {
            matches!(
                n,
                "the"
                    | "a"
                    | "an"
                    | "you"
                    | "it"
                    | "they"
                    | "we"
                    | "i"
                    | "your"
                    | "this"
                    | "each"
                    | "every"
                    | "all"
                    | "there"
                    | "he"
                    | "she"
            )
        }),
        // `do`/`does`/`did`/`will` before a negation carry it: `does not`, `will never`.
        "does" | "did" | "will" | "would" | "is" | "are" | "was" | "were" | "be" | "has"
        | "have" | "had"
            if next
                .as_deref()
                .is_some_and(|n| n == "not" || n == "never" || n.ends_with("n't")) =>
        {
            true
        }
        // A question keeps its question word and auxiliary: `Who is ...?`, `Which one ...?`, `Is it ...?`.
        "which" | "who" | "whom" | "is" | "are" | "was" | "were" | "will" => {
            at_start && sentence_is_question(chunks, i)
        }
        // `at least`, `at most`, `in case`, `on behalf`: fixed expressions.
        "at" | "in" | "on" => next
            .as_deref()
            .is_some_and(|n| matches!(n, "least" | "most" | "case" | "behalf" | "front" | "place")),
        // `and` joins two things; after a comma (`A, B, and C`) the comma already does.
        "and" => !(i > 0 && chunks[i - 1].text.ends_with(',')),
        // `has`/`have`/`had` are auxiliaries before a participle (`has finished`); otherwise they
        // are the sentence's verb (`has two modes`).
        "has" | "have" | "had" => {
            (at_start && sentence_is_question(chunks, i))
                || !next
                    .as_deref()
                    .is_some_and(|n| n.len() > 3 && (n.ends_with("ed") || n.ends_with("en")))
        }
        // `from X to Y`, `to` before `from`: a range keeps both ends.
        "to" | "from" => {
            chunks
                .iter()
                .skip(i.saturating_sub(4))
                .take(8)
                .filter(|c| c.lower_any().is_some_and(|w| matches!(&*w, "from" | "to")))
                .count()
                >= 2
        }
        _ => false,
    }
}

fn sentence_is_question(chunks: &[Chunk], from: usize) -> bool {
    chunks[from..]
        .iter()
        .find(|c| c.ends_sentence())
        .is_some_and(|c| c.text.trim_end_matches(['"', ')']).ends_with('?'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, mode: Mode) -> String {
        let mut c = chunks::split(text);
        drop_words(&mut c, mode);
        chunks::render(&c)
    }

    #[test]
    fn balanced_drops_articles_and_filler_only() {
        assert_eq!(
            run(
                "The output is really not a list of the items.",
                Mode::Conservative
            ),
            "Output not list of items."
        );
        assert_eq!(
            run(
                "The output is really not a list of the items.",
                Mode::Balanced
            ),
            "Output not list items."
        );
        assert_eq!(
            run("Choose a) red or b) blue.", Mode::Balanced),
            "Choose a) red or b) blue."
        );
    }

    #[test]
    fn aggressive_is_telegraphic_but_keeps_negations() {
        assert_eq!(
            run("You are an expert. It is not optional.", Mode::Aggressive),
            "Expert. Is not optional."
        );
    }
}
