//! Sentence-level extractive pruning (aggressive): keeps whole informative sentences and drops
//! the ones that add nothing: repeats of a sentence said before, and pleasantries. A sentence
//! holding any guard item (negation, number, identifier, quoted string, placeholder, ...) is
//! always kept, so pruning never removes a constraint.
//!
//! A repeat is a sentence whose content words the sentence right before it holds, all of them and
//! in the same order (`Be concise. Be concise.`). A sentence said again further on stays: a
//! step done again (`Restart the worker` after checking the queue), a rule restated for another
//! section (`Exceptions require written approval` under Refunds and under Travel). At 70% of the
//! words a sentence that differed in one word of four went (`use short sentences in the intro
//! section` after `... in the summary section`), and in another order the same words say
//! something else (`Bob reviews code from Alice` after `Alice reviews code from Bob`).

use super::chunks::{self, Chunk};
use super::lines::{self, Kind};
use crate::fnv::BuildFnv;
use crate::lang::sentence_is_english;
use std::collections::HashMap;

/// The content words said so far, numbered, and the last sentence's words in order.
#[derive(Default)]
struct Said {
    /// Each content word's number.
    ids: HashMap<String, u32, BuildFnv>,
    /// The words of the sentence said last, in the order they were said.
    last: Vec<u32>,
}

impl Said {
    /// The number of a content word, given on first sight.
    fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(word.to_string(), id);
        id
    }

    fn add(&mut self, words: Words) {
        self.last = words.order;
    }

    /// True when the sentence said last holds all of `words`, in the same order.
    fn repeats(&self, words: &Words) -> bool {
        is_subsequence(&words.order, &self.last)
    }
}

/// A sentence's content words, lower-cased and crudely stemmed, as [`Said`] numbers them.
struct Words {
    /// In the order they stand, repeats included.
    order: Vec<u32>,
    /// Every one is a word of greetings, thanks and sign-offs.
    pleasantries: bool,
}

impl Words {
    fn of(sentence: &[Chunk], said: &mut Said) -> Words {
        let mut order = Vec::with_capacity(sentence.len());
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
            order.push(said.intern(word));
        }
        Words {
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
            if keep(sentence, &words, &said) {
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

fn keep(sentence: &[Chunk], words: &Words, said: &Said) -> bool {
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
    if words.order.len() <= 2 {
        return words.order.is_empty() || !words.pleasantries;
    }
    !said.repeats(words)
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
    fn only_a_repeat_of_the_sentence_right_before_goes() {
        // Said again further on, a sentence is a step done again or a rule restated for another
        // section: it stays.
        let steps = "Restart the worker and check the queue.\nIf the queue still grows, add workers.\nRestart the worker and check the queue.";
        assert_eq!(run(steps), steps);
        let sections = "Refunds over $100 need a manager. Exceptions require written approval.\n\nFlights must be economy class. Exceptions require written approval.";
        assert_eq!(run(sections), sections);
        // Said twice in a row, it is said once.
        assert_eq!(
            run("Keep answers short and plain. Keep answers short and plain."),
            "Keep answers short and plain."
        );
    }
}
