//! `filters::count_tokens` against tiktoken-rs, a faithful port of OpenAI's tiktoken, for both
//! encodings: known counts, every corpus prompt (when the corpus is present) and arbitrary strings.
//! `encode_ordinary` is the reference because the engine counts special tokens as plain text.

mod support;

use filters::Tokenizer;
use filters::tokens::SharedLines;
use proptest::prelude::*;
use std::sync::OnceLock;
use support::corpus;
use tiktoken_rs::CoreBPE;

fn reference(tokenizer: Tokenizer) -> &'static CoreBPE {
    static O200K: OnceLock<CoreBPE> = OnceLock::new();
    static CL100K: OnceLock<CoreBPE> = OnceLock::new();
    match tokenizer {
        Tokenizer::O200kBase => {
            O200K.get_or_init(|| tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base"))
        }
        Tokenizer::Cl100kBase => CL100K
            .get_or_init(|| tiktoken_rs::cl100k_base().expect("tiktoken-rs ships cl100k_base")),
    }
}

fn reference_count(text: &str, tokenizer: Tokenizer) -> usize {
    reference(tokenizer).encode_ordinary(text).len()
}

/// (text, o200k_base count, cl100k_base count), as tiktoken's `encode_ordinary` counts them.
const KNOWN: &[(&str, usize, usize)] = &[
    ("", 0, 0),
    ("hello world", 2, 2),
    ("你好，世界！今天天气很好。", 9, 16),
    ("こんにちは世界", 2, 4),
    ("안녕하세요", 2, 5),
    ("👍🏽👨\u{200d}👩\u{200d}👧\u{200d}👦🚀", 16, 27),
    ("line one\r\nline two\r\n", 6, 6),
    ("a    b        c", 5, 5),
    ("                                ", 1, 1),
    ("\t\t\n\n\n", 2, 2),
    ("<|endoftext|>", 7, 7),
    ("say <|endoftext|> then <|fim_prefix|>", 15, 14),
    ("naïve café — “quotes”", 8, 8),
];

#[test]
fn known_counts_match_tiktoken() {
    for &(text, o200k, cl100k) in KNOWN {
        for (tokenizer, expected) in [
            (Tokenizer::O200kBase, o200k),
            (Tokenizer::Cl100kBase, cl100k),
        ] {
            assert_eq!(
                reference_count(text, tokenizer),
                expected,
                "the table is wrong for {text:?} in {tokenizer}"
            );
            assert_eq!(
                filters::count_tokens(text, tokenizer),
                expected,
                "{text:?} in {tokenizer}"
            );
        }
    }
}

#[test]
fn every_corpus_prompt_counts_as_tiktoken_counts() {
    let Some(prompts) = corpus::prompts() else {
        eprintln!("no corpus (set TERSE_CORPUS_DIR): skipping the corpus comparison");
        return;
    };
    assert!(!prompts.is_empty(), "the corpus has no prompts");
    let mut mismatches = Vec::new();
    for prompt in &prompts {
        for tokenizer in Tokenizer::ALL {
            let ours = filters::count_tokens(&prompt.text, tokenizer);
            let theirs = reference_count(&prompt.text, tokenizer);
            let shared = SharedLines::new(tokenizer).count(&prompt.text);
            if ours != theirs || shared != theirs {
                mismatches.push(format!(
                    "{}/{} {tokenizer}: {ours} != {theirs}",
                    prompt.corpus, prompt.id
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} prompts differ from tiktoken, first: {:?}",
        mismatches.len(),
        prompts.len(),
        &mismatches[..mismatches.len().min(5)]
    );
}

/// Pieces that stress the pre-tokenizer: contractions, digit runs, whitespace runs, CRLF,
/// scripts without spaces, emoji sequences, special-token text and zero-width characters.
const FRAGMENTS: &[&str] = &[
    " ",
    "  ",
    "   ",
    "\n",
    "\r\n",
    "\t",
    "\n\n",
    "'s",
    "'LL",
    "n't",
    "1",
    "2024",
    "3.14159",
    "Hello",
    "world",
    "HTTPServer",
    "snake_case",
    "über",
    "é",
    "ß",
    "你好",
    "世界",
    "こんにちは",
    "안녕",
    "Привет",
    "مرحبا",
    "👍",
    "👍🏽",
    "👨\u{200d}👩\u{200d}👧",
    "\u{200b}",
    "\u{feff}",
    "<|endoftext|>",
    "<|fim_middle|>",
    "```",
    "{{name}}",
    "${x}",
    "...",
    "—",
    "!?",
    "--",
    "//",
    "/",
    ".\n",
    "\u{a0}",
    "\u{3000}",
    "\u{85}",
];

fn fragment_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_strings_count_as_tiktoken_counts(text in any::<String>()) {
        for tokenizer in Tokenizer::ALL {
            prop_assert_eq!(filters::count_tokens(&text, tokenizer), reference_count(&text, tokenizer));
        }
    }

    #[test]
    fn tricky_mixtures_count_as_tiktoken_counts(text in fragment_text()) {
        for tokenizer in Tokenizer::ALL {
            prop_assert_eq!(filters::count_tokens(&text, tokenizer), reference_count(&text, tokenizer));
        }
    }

    /// Counting by lines is exact however the lines are cut, and a second text sharing lines
    /// with the first reuses their counts without changing its own total.
    #[test]
    fn line_by_line_counts_are_exact(first in fragment_text(), second in fragment_text()) {
        for tokenizer in Tokenizer::ALL {
            let mut shared = SharedLines::new(tokenizer);
            let joined = format!("{first}\n{second}");
            prop_assert_eq!(shared.count(&first), reference_count(&first, tokenizer));
            prop_assert_eq!(shared.count(&joined), reference_count(&joined, tokenizer));
            prop_assert_eq!(shared.count(&second), reference_count(&second, tokenizer));
        }
    }
}
