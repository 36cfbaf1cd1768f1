//! The stages, one concern per file. Each takes sealed text (vault placeholders in place of
//! protected spans) and returns sealed text; none may drop or change a placeholder.
//!
//! - [`cleanup`]: formatting, any language, every mode.
//! - [`phrases`]: preamble and politeness (conservative), verbose phrases (balanced), English only.
//! - [`words`]: filler and function words (balanced), telegraphic style (aggressive), English only.
//! - [`prune`]: redundant and low-information sentences (aggressive), English only.

mod chunks;
mod cleanup;
mod lines;
mod phrases;
mod prune;
mod words;

use crate::lang::sentence_is_english;
use crate::options::{Mode, Tokenizer};
use lines::Kind;

/// What every stage needs to know about the compression at hand.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub mode: Mode,
    pub tokenizer: Tokenizer,
    /// The text as a whole reads as English: the English rules may run on its English sentences.
    pub english: bool,
}

/// Rule-based rewriting: cleanup, preamble pruning and (balanced and up) phrase rewriting.
pub fn deterministic(text: &str, ctx: &Context) -> String {
    let cleaned = cleanup::run(text, ctx.mode);
    if !ctx.english {
        return cleaned;
    }
    map_prose(&cleaned, |chunks| {
        phrases::rewrite(chunks, ctx.mode, ctx.tokenizer)
    })
}

/// Density pruning: articles and filler (every mode), function words (balanced and up), sentences and telegraphic style (aggressive).
pub fn density(text: &str, ctx: &Context) -> String {
    if !ctx.english {
        return text.to_string();
    }
    let pruned;
    let text = if ctx.mode == Mode::Aggressive {
        pruned = prune::run(text);
        pruned.as_str()
    } else {
        text
    };
    map_prose(text, |chunks| words::drop_words(chunks, ctx.mode))
}

/// Applies `edit` to the chunks of every English prose line and reassembles the document.
fn map_prose(text: &str, mut edit: impl FnMut(&mut Vec<chunks::Chunk>)) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, line) in lines::parse(text).iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(line.prefix);
        if line.is_prose() && line.kind != Kind::FrontMatter && sentence_is_english(line.content) {
            let mut chunks = chunks::split(line.content);
            edit(&mut chunks);
            out.push_str(&chunks::render(&chunks));
        } else {
            out.push_str(line.content);
        }
    }
    out
}

pub(crate) fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
