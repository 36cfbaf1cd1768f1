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
    let mut out = Document::with_capacity(text.len());
    let mut first_doc = then.as_ref().map(|_| Document::with_capacity(text.len()));
    let mut rendered = String::new();
    for line in lines::parse(text).iter() {
        if line.is_prose() && line.kind != Kind::FrontMatter && sentence_is_english(line.content) {
            let mut chunks = chunks::split(line.content);
            edit(&mut chunks);
            if let (Some((_, second)), Some(first)) = (then.as_mut(), first_doc.as_mut()) {
                rendered.clear();
                chunks::render_into(&chunks, &mut rendered);
                first.line(line, &rendered);
                second(&mut chunks);
            }
            rendered.clear();
            chunks::render_into(&chunks, &mut rendered);
            out.line(line, &rendered);
        } else {
            out.line(line, line.content);
            if let Some(first) = first_doc.as_mut() {
                first.line(line, line.content);
            }
        }
    }
    if let (Some((first, _)), Some(doc)) = (then, first_doc) {
        first.push_str(&doc.text);
    }
    out.text
}

/// A document written line by line. A prose line the rules emptied (`You will:` before a list)
/// is left out rather than kept as an empty line, and so is a blank line that would then follow
/// another blank line or open the document (cleanup has already collapsed every other run).
struct Document {
    text: String,
    lines: usize,
    last_blank: bool,
}

impl Document {
    fn with_capacity(bytes: usize) -> Self {
        Document {
            text: String::with_capacity(bytes),
            lines: 0,
            last_blank: false,
        }
    }

    fn line(&mut self, line: &lines::Line<'_>, content: &str) {
        if line.kind == Kind::Text && content.is_empty() && !line.content.is_empty() {
            // Emptied: a blank line after it would now open the document.
            if self.lines == 0 {
                self.last_blank = true;
            }
            return;
        }
        let blank = line.kind == Kind::Blank;
        if blank && self.last_blank {
            return;
        }
        if self.lines > 0 {
            self.text.push('\n');
        }
        self.lines += 1;
        self.text.push_str(line.prefix);
        self.text.push_str(content);
        self.last_blank = blank;
    }
}

pub(crate) fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staged(text: &str, mode: Mode) -> String {
        let ctx = Context {
            mode,
            tokenizer: Tokenizer::O200kBase,
            english: true,
        };
        run(text, &ctx).dense
    }

    #[test]
    fn a_line_the_rules_empty_leaves_no_blank_line() {
        assert_eq!(
            staged(
                "Act as a writer.\n\nYou will:\n\n- Write a poem.",
                Mode::Conservative
            ),
            "Act as writer.\n\nYou will:\n\n- Write poem."
        );
        assert_eq!(
            staged("Your task is to:\n\n- Write a poem.\n", Mode::Conservative),
            "- Write poem.\n"
        );
        assert_eq!(
            staged(
                "Act as a writer.\nYou will:\n- Write a poem.",
                Mode::Balanced
            ),
            "Act as writer.\n- Write poem."
        );
    }
}
