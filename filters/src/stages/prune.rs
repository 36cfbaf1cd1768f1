//! Sentence-level extractive pruning (aggressive): keeps whole informative sentences and drops
//! the ones that add nothing: near-duplicates of a sentence said before, and pleasantries. A sentence holding any guard item (negation, number, identifier, quoted
//! string, placeholder, ...) is always kept, so pruning never removes a constraint.

use super::chunks::{self, Chunk};
use super::lines::{self, Kind};
use crate::fnv::BuildFnv;
use crate::lang::sentence_is_english;
use std::collections::HashMap;

/// Share of a sentence's distinct content words that one earlier sentence already holds, at or
/// above which it is a near-duplicate of that sentence.
const NEAR_DUPLICATE: f64 = 0.7;

/// The sentences said so far, as sets of content words, indexed by word. A sentence is compared
/// with each earlier sentence on its own, not with everything said before: in a long prompt most
/// words have been said somewhere, and a new instruction made of known words is still new.
#[derive(Default)]
struct Said {
    by_word: HashMap<String, Vec<u32>, BuildFnv>,
    sentences: u32,
}

impl Said {
    fn add(&mut self, mut words: Vec<String>) {
        let id = self.sentences;
        self.sentences += 1;
        words.sort_unstable();
        words.dedup();
        for word in words {
            match self.by_word.get_mut(&word) {
                Some(ids) => ids.push(id),
                None => {
                    self.by_word.insert(word, vec![id]);
                }
            }
        }
    }

    /// True when one earlier sentence holds at least [`NEAR_DUPLICATE`] of `words`. `shared`
    /// is scratch space, one counter per earlier sentence, left at zero.
    fn repeats(&self, words: &[String], shared: &mut Vec<u32>) -> bool {
        let distinct = distinct(words);
        shared.resize(self.sentences as usize, 0);
        let mut touched: Vec<u32> = Vec::new();
        let mut most = 0;
        for word in &distinct {
            for &id in self.by_word.get(*word).map_or(&[][..], Vec::as_slice) {
                let count = &mut shared[id as usize];
                if *count == 0 {
                    touched.push(id);
                }
                *count += 1;
                most = most.max(*count);
            }
        }
        for id in touched {
            shared[id as usize] = 0;
        }
        f64::from(most) >= NEAR_DUPLICATE * distinct.len() as f64
    }
}

/// `words` without repeats, in sorted order.
fn distinct(words: &[String]) -> Vec<&str> {
    let mut distinct: Vec<&str> = words.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct
}

pub fn run(text: &str) -> String {
    let parsed = lines::parse(text);
    let mut said = Said::default();
    let mut scratch: Vec<u32> = Vec::new();
    let mut out: Vec<String> = Vec::with_capacity(parsed.len());
    for line in &parsed {
        if !(matches!(line.kind, Kind::Text | Kind::ListItem) && sentence_is_english(line.content))
        {
            if line.is_prose() {
                said.add(content_words(&chunks::split(line.content)));
            }
            out.push(format!("{}{}", line.prefix, line.content));
            continue;
        }
        let chunks = chunks::split(line.content);
        if is_label(line.prefix, &chunks) {
            said.add(content_words(&chunks));
            out.push(format!("{}{}", line.prefix, line.content));
            continue;
        }
        let mut kept: Vec<Chunk> = Vec::with_capacity(chunks.len());
        // A speaker label (`Alice:`) opening the line stays with what is kept of the line. A
        // label that is a guard word (`CRITICAL:`) keeps its whole first sentence instead, as
        // any sentence holding a guard item is kept.
        let labelled = chunks.len() > 1
            && chunks[0].text.ends_with(':')
            && chunks[0].is_capitalized()
            && !chunks[0].fixed;
        let body = if labelled {
            kept.push(chunks[0].clone());
            &chunks[1..]
        } else {
            &chunks[..]
        };
        for sentence in sentences(body) {
            let words = content_words(sentence);
            if keep(sentence, &words, &said, &mut scratch) {
                kept.extend(sentence.iter().cloned());
            }
            said.add(words);
        }
        if kept.len() == usize::from(labelled) {
            continue;
        }
        out.push(format!("{}{}", line.prefix, chunks::render(&kept)));
    }
    out.join("\n")
}

/// A numbered item or a short label line (`7) Completeness`) is structure, not a sentence.
fn is_label(prefix: &str, chunks: &[Chunk]) -> bool {
    prefix.bytes().any(|b| b.is_ascii_digit())
        || (chunks.len() <= 6 && !chunks.last().is_some_and(Chunk::ends_sentence))
}

fn keep(sentence: &[Chunk], words: &[String], said: &Said, scratch: &mut Vec<u32>) -> bool {
    if sentence
        .iter()
        .any(|c| c.span || (c.fixed && crate::guard::is_required_word(c.core())))
    {
        return true;
    }
    // A short sentence goes only when it is a pleasantry (`Thanks!`, `Good luck.`, `Let's
    // begin.`): a short instruction (`Be concise.`, `You are a writing expert.`) is no less
    // an instruction for being short.
    if words.len() <= 2 {
        return !words.iter().all(|w| is_pleasantry(w));
    }
    !said.repeats(words, scratch)
}

/// Content words (stemmed as [`content_words`] does) of greetings, thanks and sign-offs.
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
            | "sure"
            | "okay"
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

/// The sentence's content words, lower-cased and crudely stemmed, in order.
fn content_words(sentence: &[Chunk]) -> Vec<String> {
    sentence
        .iter()
        .filter_map(Chunk::lower)
        .filter(|w| w.len() >= 3 && !is_stopword(w))
        .map(|w| stem(&w))
        .collect()
}

fn stem(w: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        if w.len() > suffix.len() + 3 && w.ends_with(suffix) {
            return w[..w.len() - suffix.len()].to_string();
        }
    }
    w.to_string()
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
    fn a_speaker_label_stays_with_its_line() {
        assert_eq!(
            run(
                "Alice: We ship the billing migration in October.\nAlice: Right. We ship the billing migration first."
            ),
            "Alice: We ship the billing migration in October.\nAlice: Right."
        );
    }

    #[test]
    fn short_instructions_stay_and_pleasantries_go() {
        assert_eq!(
            run("You are a writing expert. Be concise. Thanks in advance! Good luck."),
            "You are a writing expert. Be concise."
        );
    }

    #[test]
    fn drops_repeats_and_keeps_constraints() {
        let text = "Write a short poem about the sea. Write a short poem about the sea waves.\nNever rhyme about the sea poem.";
        assert_eq!(
            run(text),
            "Write a short poem about the sea.\nNever rhyme about the sea poem."
        );
    }
}
