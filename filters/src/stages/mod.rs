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

/// The text after the rule-based stages (cleanup, preamble pruning, phrase rewriting), and after
/// the density stages too (word dropping and, in aggressive, sentence pruning). The first is
/// returned so that each stage's savings can be counted in real tokens.
pub struct Staged {
    pub deterministic: String,
    pub dense: String,
}

/// Runs every stage `ctx.mode` asks for on sealed text.
pub fn run(text: &str, ctx: &Context) -> Staged {
    let cleaned = cleanup::run(text, ctx.mode);
    if !ctx.english {
        return Staged {
            deterministic: cleaned.clone(),
            dense: cleaned,
        };
    }
    if ctx.mode == Mode::Aggressive {
        // Pruning compares whole sentences, so it runs between the two word-level passes.
        let deterministic = map_prose(
            &cleaned,
            |chunks| phrases::rewrite(chunks, ctx.mode, ctx.tokenizer),
            None,
        );
        let pruned = prune::run(&deterministic);
        let dense = map_prose(&pruned, |chunks| words::drop_words(chunks, ctx.mode), None);
        return Staged {
            deterministic,
            dense,
        };
    }
    // One pass: each line is split once, rewritten, rendered for the rule-based count, then thinned.
    let mut deterministic = String::with_capacity(cleaned.len());
    let dense = map_prose(
        &cleaned,
        |chunks| {
            phrases::rewrite(chunks, ctx.mode, ctx.tokenizer);
        },
        Some((&mut deterministic, &|chunks: &mut Vec<chunks::Chunk>| {
            words::drop_words(chunks, ctx.mode)
        })),
    );
    Staged {
        deterministic,
        dense,
    }
}

/// A second edit whose input is also rendered into its own document.
type Then<'a> = Option<(&'a mut String, &'a dyn Fn(&mut Vec<chunks::Chunk>))>;

/// Applies `edit` to the chunks of every English prose line and reassembles the document. With
/// `then`, the document after `edit` is written to `then.0` and `then.1` is applied on top.
fn map_prose(
    text: &str,
    mut edit: impl FnMut(&mut Vec<chunks::Chunk>),
    mut then: Then<'_>,
) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, line) in lines::parse(text).iter().enumerate() {
        if n > 0 {
            out.push('\n');
            if let Some((first, _)) = then.as_mut() {
                first.push('\n');
            }
        }
        out.push_str(line.prefix);
        if let Some((first, _)) = then.as_mut() {
            first.push_str(line.prefix);
        }
        if line.is_prose() && line.kind != Kind::FrontMatter && sentence_is_english(line.content) {
            let mut chunks = chunks::split(line.content);
            edit(&mut chunks);
            if let Some((first, second)) = then.as_mut() {
                chunks::render_into(&chunks, first);
                second(&mut chunks);
            }
            chunks::render_into(&chunks, &mut out);
        } else {
            out.push_str(line.content);
            if let Some((first, _)) = then.as_mut() {
                first.push_str(line.content);
            }
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
