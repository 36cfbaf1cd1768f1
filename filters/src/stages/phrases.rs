//! Phrase rules: preamble and politeness pruning (conservative and up) and verbose-phrase
//! rewriting (balanced and up; conservative too for a phrase holding an article, which the
//! word stage would otherwise take out of it), matched word by word, case-insensitively, on
//! English prose.
//!
//! Every rule is token-aware: it is applied only when its replacement is shorter than its
//! pattern in tokens of the selected tokenizer (checked once per tokenizer per process).

use super::chunks::{self, Chunk};
use super::words::lexicon::{is_determiner, is_modal, is_negation};
use crate::fnv::BuildFnv;
use crate::options::{Mode, Tokenizer};
use crate::tokens;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

mod rules;

use rules::{At, RULES};

/// Rules indexed by their first words, keeping only those that save tokens under `tokenizer`.
struct Table {
    /// Rules of one word, or whose second word is the wildcard, by their first word.
    by_first: HashMap<&'static str, Vec<usize>, BuildFnv>,
    /// Every other rule by its first two words: common first words (`in`, `a`, `it`) start
    /// dozens of rules, and the second word rules out all but a few at once.
    by_pair: HashMap<&'static str, HashMap<&'static str, Vec<usize>, BuildFnv>, BuildFnv>,
    /// For each word length, a bit per first letter (`a` to `z`) that some rule's first word of
    /// that length starts with: most words are ruled out by one look, before any hashing.
    first_letters: [u32; 25],
    /// Each rule's pattern split into words, split once.
    words: Vec<Vec<&'static str>>,
}

/// The order rules are tried in: longest pattern first, so `i want you to act as` wins over
/// `i want you to`.
fn precedence(idx: usize) -> (std::cmp::Reverse<usize>, usize) {
    (std::cmp::Reverse(RULES[idx].pattern.len()), idx)
}

fn table(tokenizer: Tokenizer) -> &'static Table {
    static O200K: OnceLock<Table> = OnceLock::new();
    static CL100K: OnceLock<Table> = OnceLock::new();
    let cell = match tokenizer {
        Tokenizer::O200kBase => &O200K,
        Tokenizer::Cl100kBase => &CL100K,
    };
    cell.get_or_init(|| build(tokenizer))
}

fn build(tokenizer: Tokenizer) -> Table {
    let mut by_first: HashMap<&'static str, Vec<usize>, BuildFnv> = HashMap::default();
    let mut by_pair: HashMap<&'static str, HashMap<&'static str, Vec<usize>, BuildFnv>, BuildFnv> =
        HashMap::default();
    let mut first_letters = [0u32; 25];
    for (idx, rule) in RULES.iter().enumerate() {
        let from = format!(" {}", rule.pattern.replace('*', "example"));
        let to = if rule.replacement.is_empty() {
            String::new()
        } else {
            format!(" {}", rule.replacement.replace('*', "example"))
        };
        if tokens::count(&to, tokenizer) >= tokens::count(&from, tokenizer) {
            continue;
        }
        let mut words = rule.pattern.split(' ');
        let first = words.next().unwrap_or_default();
        match words.next() {
            Some(second) if second != "*" => by_pair
                .entry(first)
                .or_default()
                .entry(second)
                .or_default()
                .push(idx),
            _ => by_first.entry(first).or_default().push(idx),
        }
        if let Some(bit) = letter_bit(first) {
            first_letters[first.len()] |= bit;
        }
    }
    for list in by_first
        .values_mut()
        .chain(by_pair.values_mut().flat_map(HashMap::values_mut))
    {
        list.sort_by_key(|&i| precedence(i));
    }
    let words = RULES
        .iter()
        .map(|r| r.pattern.split(' ').collect())
        .collect();
    Table {
        by_first,
        by_pair,
        first_letters,
        words,
    }
}

/// The bit of `word`'s first letter, for a word of at most 24 bytes starting with `a` to `z`.
fn letter_bit(word: &str) -> Option<u32> {
    match word.as_bytes().first() {
        Some(b @ b'a'..=b'z') if word.len() < 25 => Some(1 << (b - b'a')),
        _ => None,
    }
}

impl Table {
    /// False when no rule can start with `word` (lower case).
    fn may_start(&self, word: &str) -> bool {
        letter_bit(word).is_some_and(|bit| self.first_letters[word.len()] & bit != 0)
    }

    /// The rules that may match at a word `first` followed by `second`, in precedence order.
    fn candidates(&self, first: &str, second: Option<&str>) -> Cow<'_, [usize]> {
        let singles = self.by_first.get(first).map_or(&[][..], Vec::as_slice);
        let pairs = second
            .and_then(|second| self.by_pair.get(first)?.get(second))
            .map_or(&[][..], Vec::as_slice);
        if pairs.is_empty() {
            return Cow::Borrowed(singles);
        }
        if singles.is_empty() {
            return Cow::Borrowed(pairs);
        }
        let mut merged = Vec::with_capacity(singles.len() + pairs.len());
        let (mut a, mut b) = (0, 0);
        while a < singles.len() || b < pairs.len() {
            let take_single = b == pairs.len()
                || (a < singles.len() && precedence(singles[a]) < precedence(pairs[b]));
            if take_single {
                merged.push(singles[a]);
                a += 1;
            } else {
                merged.push(pairs[b]);
                b += 1;
            }
        }
        Cow::Owned(merged)
    }
}

/// Applies the phrase rules of `mode` to one line of English prose.
pub fn rewrite(chunks: &mut Vec<Chunk>, mode: Mode, tokenizer: Tokenizer) {
    let table = table(tokenizer);
    let mut i = 0;
    while i < chunks.len() {
        let Some(first) = chunks[i].lower_any() else {
            i += 1;
            continue;
        };
        if !table.may_start(&first) {
            i += 1;
            continue;
        }
        let second = chunks.get(i + 1).and_then(Chunk::lower_any);
        let candidates = table.candidates(&first, second.as_deref());
        let Some(&any) = candidates.first() else {
            i += 1;
            continue;
        };
        // The table's own word outlives the borrow of `chunks` the rewrite needs.
        let first: &'static str = table.words[any][0];
        let at_start = i == 0 || chunks[i - 1].ends_sentence() || chunks[i - 1].text.ends_with(':');
        let mut applied = false;
        // A modal replacement cannot follow a modal, `to` or `do`: `may need to be doubled` is
        // not `may must be doubled`, `does not need to be` not `does not must be`.
        // Nor in a comparison, where `needs to be` is what something is measured against
        // (`harder than it needs to be`).
        // Adverbs between do not count (`may also need to be`, `doesn't necessarily need to`).
        let word_back = |n: usize| i.checked_sub(n).and_then(|j| chunks[j].lower_any());
        let is_adverb = |w: &str| {
            (w.len() > 3 && w.ends_with("ly")) || matches!(w, "also" | "still" | "just" | "even")
        };
        let auxiliary = (1..=3)
            .map(word_back)
            .take_while(Option::is_some)
            .flatten()
            .find(|w| !is_adverb(w));
        let after_auxiliary = auxiliary.is_some_and(|p| takes_a_verb(&p) || &*p == "than")
            || word_back(2).is_some_and(|p| &*p == "than");
        for &idx in candidates.iter() {
            let rule = &RULES[idx];
            if rule.mode > mode
                || (rule.at == At::Start && !at_start)
                || (after_auxiliary && rule.replacement.starts_with("must"))
            {
                continue;
            }
            if let Some((len, wildcard)) = matches(chunks, i, &table.words[idx]) {
                // `You will see a warning`, `you will be given a puzzle` tell what happens to
                // the reader; without `you will` they would read as commands.
                // `You will not have internet access` says what the reader cannot do; `Not have
                // internet access` says nothing, and after a sentence about someone else
                // would read as theirs.
                if rule.replacement.is_empty()
                    && rule.pattern.starts_with("you")
                    && chunks
                        .get(i + len)
                        .and_then(Chunk::lower_any)
                        .is_some_and(|w| is_experienced(&w) || is_negation(&w))
                {
                    continue;
                }
                // `Can you read PDF files?` may ask what the reader is able to do; only with
                // `please`, or outside a question, is it surely a request.
                if matches!(rule.pattern, "can you" | "could you")
                    && chunks::is_question(&chunks[i..])
                {
                    continue;
                }
                // `is going to` is the future only before a verb: `it is going to your address`
                // is a movement, not `it will your address`.
                if rule.pattern.ends_with("going to") && !may_be_a_verb(chunks.get(i + len)) {
                    continue;
                }
                // `in a * way` becomes an adverb only where English forms one regularly.
                let wildcard = match wildcard {
                    Some(word) if rule.replacement.ends_with("*ly") => match adverb_stem(&word) {
                        Some(stem) => Some(stem),
                        None => continue,
                    },
                    other => other,
                };
                // A phrase that goes whole from a sentence's start leaves the next word to
                // open it, which a lower-case guard word cannot (`Please stop` is not `stop`).
                // No shorter rule is tried either: `I want you to only reply` would become
                // `To only reply`.
                if rule.replacement.is_empty()
                    && at_start
                    && chunks[i].is_capitalized()
                    && chunks.get(i + len).is_some_and(Chunk::stays_lowercase)
                {
                    break;
                }
                apply(chunks, i, len, rule.replacement, wildcard, at_start);
                applied = true;
                break;
            }
        }
        // After a rewrite `i` points at the replacement (or what followed the phrase) and is
        // scanned again; a replacement that starts with its own trigger word is stepped over.
        // Every rule shortens the text in tokens, so the rescanning ends.
        if !applied || (i < chunks.len() && chunks[i].lower_any().is_some_and(|w| *w == *first)) {
            i += 1;
        }
    }
}

/// Whether `next` may be a bare verb (`going to send`) rather than what one goes to: a name, a
/// determiner or a pronoun (`going to Paris`, `going to your office`, `going to someone`).
fn may_be_a_verb(next: Option<&Chunk<'_>>) -> bool {
    next.is_some_and(|next| {
        !next.is_capitalized()
            && next.lower_any().is_some_and(|w| {
                !is_determiner(&w)
                    && !matches!(
                        &*w,
                        "me" | "us"
                            | "him"
                            | "them"
                            | "someone"
                            | "somebody"
                            | "everyone"
                            | "everybody"
                            | "anyone"
                            | "anybody"
                            | "nobody"
                            | "no"
                    )
            })
    })
}

/// Verbs of what happens to the reader rather than what the reader does.
fn is_experienced(w: &str) -> bool {
    matches!(
        w,
        "be" | "see" | "receive" | "get" | "find" | "notice" | "hear" | "have" | "encounter"
    )
}

/// Words after which a bare verb follows: modals, `to`, `do` and negations.
fn takes_a_verb(w: &str) -> bool {
    is_modal(w)
        || is_negation(w)
        || matches!(w, "to" | "do" | "does" | "did")
        || w.ends_with("'ll")
        || w.ends_with("'d")
}

/// What `-ly` attaches to for the adverb of `adjective`: `clear` -> `clear`, `happy` ->
/// `happi`, `simple` -> `simp`, `full` -> `ful`. `None` where the adverb is irregular or there
/// is none (`friendly`, `basic`, `true`, `non-douchey`).
fn adverb_stem(adjective: &str) -> Option<String> {
    let w = adjective;
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let before_last = w.as_bytes()[w.len() - 2];
    let vowel = |b: u8| matches!(b, b'a' | b'e' | b'i' | b'o' | b'u');
    if w.ends_with("ly") || w.ends_with("ic") || w.ends_with("ue") {
        None
    } else if w.ends_with('y') {
        (!vowel(before_last)).then(|| format!("{}i", &w[..w.len() - 1]))
    } else if w.ends_with("le") && !vowel(w.as_bytes()[w.len() - 3]) {
        Some(w[..w.len() - 2].to_string())
    } else if w.ends_with("ll") {
        Some(w[..w.len() - 1].to_string())
    } else {
        Some(w.to_string())
    }
}

/// Matches `pattern` at chunk `i`; returns the number of chunks and the wildcard's word.
fn matches(chunks: &[Chunk], i: usize, words: &[&str]) -> Option<(usize, Option<String>)> {
    if i + words.len() > chunks.len() {
        return None;
    }
    let mut wildcard = None;
    for (k, word) in words.iter().enumerate() {
        let chunk = &chunks[i + k];
        // Punctuation may open the first word and close the last, nowhere in between.
        if (k > 0 && !chunk.lead().is_empty()) || (k + 1 < words.len() && !chunk.trail().is_empty())
        {
            return None;
        }
        if *word == "*" {
            wildcard = Some(chunk.lower()?);
            continue;
        }
        if &*chunk.lower_any()? != *word {
            return None;
        }
        // A word written as an identifier or in capitals (`LOTS OF`, `WILL`) is kept as written.
        if chunk.fixed && !crate::guard::is_guard_word(word) {
            return None;
        }
    }
    Some((words.len(), wildcard))
}

fn apply(
    chunks: &mut Vec<Chunk>,
    i: usize,
    len: usize,
    replacement: &str,
    wildcard: Option<String>,
    at_start: bool,
) {
    let lead = chunks[i].lead().to_string();
    let trail = chunks[i + len - 1].trail().to_string();
    let capital = chunks[i].is_capitalized();
    let replacement = match &wildcard {
        Some(w) => replacement.replace('*', w),
        None => replacement.to_string(),
    };
    // A word the replacement shares with the phrase keeps its original spelling (`ANY of the` -> `ANY`).
    let originals: Vec<String> = chunks[i..i + len]
        .iter()
        .map(|c| c.core().to_string())
        .collect();
    let mut new: Vec<Chunk> = replacement
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(
            |w| match originals.iter().find(|o| o.eq_ignore_ascii_case(w)) {
                Some(o) => plain(o),
                None => plain(w),
            },
        )
        .collect();
    if let Some(first) = new.first_mut() {
        first.text.to_mut().insert_str(0, &lead);
        first.core = (first.core.0 + lead.len(), first.core.1 + lead.len());
    }
    if let Some(last) = new.last_mut() {
        last.text.to_mut().push_str(&trail);
    }
    let produced = new.len();
    chunks.splice(i..i + len, new);
    if produced == 0 {
        // The phrase vanished: its punctuation goes to a neighbour, and the next word starts the sentence.
        let mut carrier = plain("");
        carrier.text = format!("{lead}{trail}").into();
        carrier.core = (lead.len(), lead.len());
        chunks.insert(i, carrier);
        chunks::remove(chunks, i);
        if at_start && i < chunks.len() && chunks[i].text.trim_start_matches([':', ',']).is_empty()
        {
            chunks.remove(i);
        }
        if at_start && capital && i < chunks.len() {
            chunks::capitalize(&mut chunks[i]);
        }
    } else if at_start && capital {
        // A word the rule wrote starts the sentence in capitals even when it is a guard word
        // (`Because`, `Note:`); a word kept from the phrase keeps its spelling.
        let written = !originals
            .iter()
            .any(|o| o.eq_ignore_ascii_case(chunks[i].core()));
        if written {
            chunks::capitalize_any(&mut chunks[i]);
        } else {
            chunks::capitalize(&mut chunks[i]);
        }
    }
}

/// A chunk for a word the rules write, owning its text.
fn plain(word: &str) -> Chunk<'static> {
    Chunk::owned(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adverbs_are_formed_only_where_regular() {
        let adverb = |w: &str| adverb_stem(w).map(|stem| stem + "ly");
        assert_eq!(adverb("clear").as_deref(), Some("clearly"));
        assert_eq!(adverb("happy").as_deref(), Some("happily"));
        assert_eq!(adverb("simple").as_deref(), Some("simply"));
        assert_eq!(adverb("full").as_deref(), Some("fully"));
        for none in ["friendly", "basic", "true", "non-douchey", "Clear", "coy"] {
            assert_eq!(adverb(none), None, "{none}");
        }
    }

    fn run(text: &str, mode: Mode) -> String {
        let mut chunks = chunks::split(text);
        rewrite(&mut chunks, mode, Tokenizer::O200kBase);
        chunks::render(&chunks)
    }

    #[test]
    fn preamble_is_pruned() {
        assert_eq!(
            run("I want you to act as a food critic.", Mode::Conservative),
            "Act as a food critic."
        );
        assert_eq!(
            run("Please, I want you to translate this.", Mode::Conservative),
            "Translate this."
        );
        assert_eq!(
            run(r#"My first request is "hello there""#, Mode::Conservative),
            r#"first request: "hello there""#
        );
        assert_eq!(
            run("Could you please summarise it?", Mode::Conservative),
            "Summarise it?"
        );
    }

    #[test]
    fn verbose_phrases_are_rewritten_in_balanced_and_whole_ones_in_conservative() {
        let text = "Do this in order to win, due to the fact that it works.";
        assert_eq!(
            run(text, Mode::Conservative),
            "Do this in order to win, because it works."
        );
        assert_eq!(
            run(text, Mode::Balanced),
            "Do this to win, because it works."
        );
    }

    #[test]
    fn what_happens_to_the_reader_keeps_its_subject() {
        assert_eq!(
            run(
                "You will be given a puzzle. You will write a summary.",
                Mode::Balanced
            ),
            "You will be given a puzzle. Write a summary."
        );
    }

    #[test]
    fn a_modal_replacement_never_follows_a_modal() {
        assert_eq!(
            run("The dose may need to be doubled.", Mode::Balanced),
            "The dose may need to be doubled."
        );
        assert_eq!(
            run(
                "It does not need to be fast; it has to be right.",
                Mode::Balanced
            ),
            "It does not need to be fast; it must be right."
        );
        assert_eq!(
            run("It needs to be fast.", Mode::Balanced),
            "It must be fast."
        );
        assert_eq!(
            run("It is harder than it needs to be.", Mode::Balanced),
            "It is harder than it needs to be."
        );
        for kept in [
            "We'll have to be careful.",
            "The dose may also need to be doubled.",
            "It doesn't necessarily need to be fast.",
        ] {
            assert_eq!(run(kept, Mode::Balanced), kept);
        }
    }

    #[test]
    fn a_question_about_what_the_reader_can_do_stays_a_question() {
        assert_eq!(
            run("Can you read PDF files?", Mode::Balanced),
            "Can you read PDF files?"
        );
        assert_eq!(
            run("Can you summarize this article.", Mode::Balanced),
            "Summarize this article."
        );
        assert_eq!(
            run("Could you please summarize this article?", Mode::Balanced),
            "Summarize this article?"
        );
    }

    #[test]
    fn going_to_is_the_future_only_before_a_verb() {
        assert_eq!(
            run(
                "We are going to send it. It is going to your office.",
                Mode::Balanced
            ),
            "We will send it. It is going to your office."
        );
        assert_eq!(
            run("The refund is going to someone else.", Mode::Balanced),
            "The refund is going to someone else."
        );
    }

    #[test]
    fn you_will_stays_before_a_negation() {
        assert_eq!(
            run(
                "You will write a poem. You will not have internet access.",
                Mode::Balanced
            ),
            "Write a poem. You will not have internet access."
        );
    }

    #[test]
    fn found_by_the_eleventh_audit() {
        // Politeness opens a request; after its verb `kindly` is a manner, and `from time to
        // time` in a contract is `at any time`, not `occasionally`.
        assert_eq!(
            run(
                "Kindly send the file. Tell them kindly that it failed.",
                Mode::Balanced
            ),
            "Send the file. Tell them kindly that it failed."
        );
        assert_eq!(
            run(
                "Comply with the policies in force from time to time.",
                Mode::Balanced
            ),
            "Comply with the policies in force from time to time."
        );
        // A phrase opening a sentence stays when the word after it could not open it, and
        // so does any shorter phrase it begins with.
        assert_eq!(
            run("Please stop the build.", Mode::Balanced),
            "Please stop the build."
        );
        assert_eq!(
            run("I want you to only reply with code.", Mode::Balanced),
            "I want you to only reply with code."
        );
    }

    #[test]
    fn a_partitive_keeps_its_of() {
        // `any of the files` is one of these files, not any files at all.
        assert_eq!(
            run(
                "You may edit any of the files. Read all of the files.",
                Mode::Balanced
            ),
            "You may edit any of the files. Read all files."
        );
    }

    #[test]
    fn rules_never_match_inside_protected_spans() {
        let text = r#"Reply "in order to" only."#;
        assert_eq!(run(text, Mode::Balanced), text);
    }
}
