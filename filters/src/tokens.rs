//! Exact token counts, identical to OpenAI's tiktoken (special tokens count as plain text).
//!
//! toktok was chosen by measurement on this machine: on a 50,000-character prompt it counts
//! in about 0.1 ms, against 0.2 ms for the `tiktoken` crate and 1.4-2.1 ms for tiktoken-rs,
//! with identical counts on the whole corpus.

use crate::options::Tokenizer;
use std::sync::OnceLock;

fn encoder(tokenizer: Tokenizer) -> &'static toktok::Tokenizer {
    static O200K: OnceLock<toktok::Tokenizer> = OnceLock::new();
    static CL100K: OnceLock<toktok::Tokenizer> = OnceLock::new();
    let (cell, name) = match tokenizer {
        Tokenizer::O200kBase => (&O200K, "o200k_base"),
        Tokenizer::Cl100kBase => (&CL100K, "cl100k_base"),
    };
    cell.get_or_init(|| {
        toktok::Tokenizer::builtin(name).expect("the built-in vocabulary is compiled into toktok")
    })
}

/// The number of tokens of `text`; `<|endoftext|>` and its kin count as ordinary text.
pub fn count(text: &str, tokenizer: Tokenizer) -> usize {
    encoder(tokenizer).count(text.as_bytes())
}

/// Loads a vocabulary ahead of the first request, so that no request pays for it.
pub fn warm_up(tokenizer: Tokenizer) {
    let _ = encoder(tokenizer);
}
