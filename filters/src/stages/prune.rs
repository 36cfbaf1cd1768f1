//! Sentence-level extractive pruning (aggressive): keeps whole informative sentences and drops
//! the ones that add nothing: repeats of a sentence said before, and pleasantries. A sentence
//! holding any guard item (negation, number, identifier, quoted string, placeholder, ...) is
//! always kept, so pruning never removes a constraint.
//!
//! A repeat is a sentence whose content words one earlier sentence holds, all of them and in the
//! same order. At 70% of them a sentence that differed in one word of four went (`use short
//! sentences in the intro section` after `... in the summary section`), and with it an
//! instruction; in another order the same words say something else (`Bob reviews code from
//! Alice` after `Alice reviews code from Bob`).

use super::chunks::{self, Chunk};
use super::lines::{self, Kind};
use crate::fnv::BuildFnv;
use crate::lang::sentence_is_english;
use std::collections::HashMap;

/// The sentences said so far, as sets of content words, indexed by word. A sentence is compared
/// with each earlier sentence on its own, not with everything said before: in a long prompt most
/// words have been said somewhere, and a new instruction made of known words is still new.
#[derive(Default)]
struct Said {
    /// Each content word's number.
    ids: HashMap<String, u32, BuildFnv>,
    /// For each word, the sentences holding it.
    holders: Vec<Vec<u32>>,
    /// For each sentence, its distinct words, sorted.
    sentences: Vec<Vec<u32>>,
    /// For each sentence, its words in the order they were said.
    orders: Vec<Vec<u32>>,
}

impl Said {
    /// The number of a content word, given on first sight.
    fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(word.to_string(), id);
        self.holders.push(Vec::new());
        id
    }

    fn add(&mut self, words: Words) {
        let id = self.sentences.len() as u32;
        for &word in &words.distinct {
            self.holders[word as usize].push(id);
        }
        self.sentences.push(words.distinct);
        self.orders.push(words.order);
    }

    /// True when one earlier sentence holds all of `words`, in the same order. `seen` is
    /// scratch space, one flag per earlier sentence, left cleared.
    fn repeats(&self, words: &Words, seen: &mut Vec<bool>) -> bool {
        let Some(&rarest) = words
            .distinct
            .iter()
            .min_by_key(|&&word| (self.holders[word as usize].len(), word))
        else {
            return true;
        };
        // Only a holder of the rarest word can hold them all.
        seen.resize(self.sentences.len(), false);
        let mut candidates: Vec<u32> = Vec::new();
        for &id in &self.holders[rarest as usize] {
            if !std::mem::replace(&mut seen[id as usize], true) {
                candidates.push(id);
            }
        }
        let found = candidates
            .iter()
            .any(|&id| is_subsequence(&words.order, &self.orders[id as usize]));
        for id in candidates {
            seen[id as usize] = false;
        }
        found
    }
}

/// A sentence's content words, lower-cased and crudely stemmed, as [`Said`] numbers them.
struct Words {
    /// How many there are, repeats included.
    count: usize,
    /// Without repeats, sorted.
    distinct: Vec<u32>,
    /// In the order they stand.
    order: Vec<u32>,
    /// Every one is a word of greetings, thanks and sign-offs.
    pleasantries: bool,
}

impl Words {
    fn of(sentence: &[Chunk], said: &mut Said) -> Words {
        let mut distinct = Vec::with_capacity(sentence.len());
        let mut pleasantries = true;
        for chunk in sentence.iter().filter(|c| !c.fixed) {
            let Some(lower) = chunk.lower_any() else {
                continue;
            };
            if lower.len() < 3 || is_stopword(&lower) {
                continue;
            }
            let word = stem(&lower);
            pleasantries &= is_pleasantry(word);
            distinct.push(said.intern(word));
        }
        let count = distinct.len();
        let order = distinct.clone();
        distinct.sort_unstable();
        distinct.dedup();
        Words {
            count,
            distinct,
            order,
            pleasantries,
        }
    }
}

/// Whether `short` is `long` with some words left out, the rest in the same order.
fn is_subsequence(short: &[u32], long: &[u32]) -> bool {
    let mut rest = long.iter();
    short.iter().all(|word| rest.any(|w| w == word))
}

pub fn run(text: &str) -> String {
    let parsed = lines::parse(text);
    let mut said = Said::default();
    let mut scratch: Vec<bool> = Vec::new();
    let mut out = Lines::with_capacity(text.len());
    let mut rendered = String::new();
    for line in &parsed {
        if !(matches!(line.kind, Kind::Text | Kind::ListItem) && sentence_is_english(line.content))
        {
            if line.is_prose() {
                let words = Words::of(&chunks::split(line.content), &mut said);
                said.add(words);
            }
            out.push(line.prefix, line.content);
            continue;
        }
        let chunks = chunks::split(line.content);
        // A line opening with a label (`Alice:`, `Subject:`, `Q:`) is what that speaker said or
        // that message's header: said again by another speaker or in another message, it is not
        // a repeat (`Dana: Agreed.` after `Bob: Agreed.`).
        if is_label(line.prefix, &chunks) || chunks::opens_with_label(&chunks) {
            let words = Words::of(&chunks, &mut said);
            said.add(words);
            out.push(line.prefix, line.content);
            continue;
        }
        let mut kept: Vec<Chunk> = Vec::with_capacity(chunks.len());
        for sentence in sentences(&chunks) {
            let words = Words::of(sentence, &mut said);
            if keep(sentence, &words, &said, &mut scratch) {
                kept.extend(sentence.iter().cloned());
            }
            said.add(words);
        }
        if kept.is_empty() {
            continue;
        }
        // Most lines keep every sentence: they are copied as they are.
        if kept.len() == chunks.len() {
            out.push(line.prefix, line.content);
            continue;
        }
        rendered.clear();
        chunks::render_into(&kept, &mut rendered);
        out.push(line.prefix, &rendered);
    }
    out.text
}

/// Lines joined with `\n`, written into one string.
struct Lines {
    text: String,
    any: bool,
}

impl Lines {
    fn with_capacity(bytes: usize) -> Self {
        Lines {
            text: String::with_capacity(bytes),
            any: false,
        }
    }

    fn push(&mut self, prefix: &str, content: &str) {
        if std::mem::replace(&mut self.any, true) {
            self.text.push('\n');
        }
        self.text.push_str(prefix);
        self.text.push_str(content);
    }
}

/// A numbered item or a short label line (`7) Completeness`) is structure, not a sentence.
fn is_label(prefix: &str, chunks: &[Chunk]) -> bool {
    prefix.bytes().any(|b| b.is_ascii_digit())
        || (chunks.len() <= 6 && !chunks.last().is_some_and(Chunk::ends_sentence))
}

fn keep(sentence: &[Chunk], words: &Words, said: &Said, scratch: &mut Vec<bool>) -> bool {
    if sentence
        .iter()
        .any(|c| c.span || (c.fixed && crate::guard::is_required_word(c.core())))
    {
        return true;
    }
    // A lead-in (`When the user asks you to commit:`) is what the lines after it depend on.
    if sentence
        .last()
        .is_some_and(|c| c.text.trim_end().ends_with(':'))
    {
        return true;
    }
    // A short sentence goes only when it is a pleasantry (`Thanks!`, `Good luck.`, `Let's
    // begin.`): a short instruction (`Be concise.`, `You are a writing expert.`) is no less
    // an instruction for being short.
    // A sentence of no content word at all (`Yes.`, `Here it is.`) is an answer or a pointer,
    // not a pleasantry.
    if words.count <= 2 {
        return words.count == 0 || !words.pleasantries;
    }
    !said.repeats(words, scratch)
}

/// Content words (stemmed as [`Words::of`] does) of greetings, thanks and sign-offs. Not `sure`
/// or `okay`, which answer a question (`Bob: Sure.`).
fn is_pleasantry(w: &str) -> bool {
    matches!(
        w,
        "thank"
            | "thanks"
            | "luck"
            | "good"
            | "great"
            | "hello"
            | "cheer"
            | "begin"
            | "start"
            | "let's"
            | "ready"
            | "awesome"
            | "appreciate"
            | "welcome"
            | "enjoy"
            | "fun"
            | "advance"
    )
}

fn sentences<'c, 'a>(chunks: &'c [Chunk<'a>]) -> Vec<&'c [Chunk<'a>]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in chunks.iter().enumerate() {
        if c.ends_sentence() {
            out.push(&chunks[start..=i]);
            start = i + 1;
        }
    }
    if start < chunks.len() {
        out.push(&chunks[start..]);
    }
    out
}

fn stem(w: &str) -> &str {
    for suffix in ["ing", "ed", "es", "s"] {
        if w.len() > suffix.len() + 3 && w.ends_with(suffix) {
            return &w[..w.len() - suffix.len()];
        }
    }
    w
}

fn is_stopword(w: &str) -> bool {
    matches!(
        w,
        "the"
            | "and"
            | "for"
            | "are"
            | "you"
            | "your"
            | "with"
            | "that"
            | "this"
            | "from"
            | "will"
            | "have"
            | "has"
            | "was"
            | "were"
            | "been"
            | "their"
            | "they"
            | "them"
            | "what"
            | "which"
            | "who"
            | "how"
            | "when"
            | "where"
            | "why"
            | "about"
            | "into"
            | "then"
            | "than"
            | "also"
            | "can"
            | "could"
            | "would"
            | "should"
            | "use"
            | "using"
            | "make"
            | "like"
            | "these"
            | "those"
            | "there"
            | "here"
            | "such"
            | "its"
            | "our"
            | "out"
            | "any"
            | "all"
            | "one"
            | "get"
            | "may"
            | "each"
            | "more"
            | "most"
            | "some"
            | "very"
            | "just"
            | "over"
            | "own"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_instruction_of_known_words_stays() {
        let text = "Read the code before changes.\nKeep the conventions of the file.\nFirst read the file conventions before code changes.";
        assert_eq!(run(text), text);
    }

    #[test]
    fn a_labelled_line_is_never_a_repeat() {
        // What a speaker says again, or another message's header, is no repeat.
        for text in [
            "Alice: We ship the billing migration in October.\nAlice: Right. We ship the billing migration first.",
            "Bob: Agreed, ship it.\nDana: Agreed, ship it.",
            "Subject: Re: Vendor renewal\nHi Tom.\nSubject: Vendor renewal\nHi Sofia.",
        ] {
            assert_eq!(run(text), text);
        }
    }

    #[test]
    fn short_instructions_stay_and_pleasantries_go() {
        assert_eq!(
            run("You are a writing expert. Be concise. Thanks in advance! Good luck."),
            "You are a writing expert. Be concise."
        );
        // An answer is not a pleasantry: without it the next answer seems to answer both.
        let text = "Alice: Should we ship on Monday?\nBob: Yes.\nAlice: Should we skip the QA pass?\nBob: Sure.";
        assert_eq!(run(text), text);
        assert_eq!(
            run("Should I delete it?\nYes."),
            "Should I delete it?\nYes."
        );
    }

    #[test]
    fn the_same_words_in_another_order_or_a_lead_in_are_no_repeat() {
        for text in [
            "Alice reviews code from Bob. Bob reviews code from Alice.",
            "Back up the database, then migrate it. Migrate the database, then back it up.",
            "When the user asks you to commit changes, run the tests. When the user asks you to commit:",
        ] {
            assert_eq!(run(text), text);
        }
    }

    #[test]
    fn drops_repeats_and_keeps_constraints() {
        let text = "Write a short poem about the sea. Write a poem about the sea.\nNever rhyme about the sea poem.";
        assert_eq!(
            run(text),
            "Write a short poem about the sea.\nNever rhyme about the sea poem."
        );
        // One new word is a new instruction: it stays.
        let text =
            "Use short sentences in the summary section. Use short sentences in the intro section.";
        assert_eq!(run(text), text);
    }

    #[test]
    fn a_repeat_is_found_behind_many_sentences_sharing_its_common_words() {
        // Every sentence holds `review` and `code`; the repeat shares its rarer words with the
        // first sentence only, which is the one it must be matched against.
        let mut text = String::from("Review the code for security flaws in authentication.");
        for topic in [
            "naming consistency conventions",
            "missing unit tests",
            "verbose debug logging",
            "outdated public docs",
            "formatting style drift",
            "query speed regressions",
        ] {
            text.push_str(&format!(" Review the code for {topic}."));
        }
        text.push_str(" Review code for security flaws.");
        let out = run(&text);
        assert_eq!(out.matches("security flaws").count(), 1, "{out}");
        assert!(out.contains("speed regressions."), "{out}");
        // Four of its seven words were said before, but not in one sentence: it stays.
        let new = "Review authentication logging naming.";
        assert!(run(&format!("{text} {new}")).contains(new));
    }
}
