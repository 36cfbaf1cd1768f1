//! The stages, one concern per file. Each takes sealed text (vault placeholders in place of
//! protected spans) and returns sealed text; none may drop or change a placeholder.
//!
//! - [`cleanup`]: formatting, any language, every mode.
//! - [`pleasantries`]: sentences of greetings and thanks alone, every mode, English only.
//! - [`phrases`]: preamble and politeness (conservative), verbose phrases (balanced; those holding
//!   an article from conservative on), English only.
//! - [`words`]: articles, fillers and low-information function words (conservative, balanced),
//!   telegraphic style (aggressive), English only.
//! - [`prune`]: repeated sentences and pleasantries (aggressive), English only.

mod chunks;
mod cleanup;
mod code;
mod data;
mod document;
mod lines;
mod phrases;
mod pleasantries;
mod prune;
mod words;

use crate::lang::sentence_is_english;
use crate::options::{Mode, Tokenizer};
use document::{Bullets, Document};
use lines::Kind;

/// What every stage needs to know about the compression at hand.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub mode: Mode,
    pub tokenizer: Tokenizer,
    /// The text as a whole reads as English: the English rules may run on its English sentences.
    pub english: bool,
    /// The caller counts what the rule-based stages saved on their own (the per-stage
    /// breakdown), so the text after them is wanted as well as the final one.
    pub rule_stage_text: bool,
}

/// The text after the rule-based stages (cleanup, preamble pruning, phrase rewriting), and after
/// the density stages too (word dropping and, in aggressive, sentence pruning). The first is
/// returned, when [`Context::rule_stage_text`] asks for it, so that each stage's savings can be
/// counted in real tokens.
pub struct Staged {
    pub deterministic: Option<String>,
    pub dense: String,
}

/// Runs every stage `ctx.mode` asks for on sealed text.
pub fn run(text: &str, ctx: &Context) -> Staged {
    let cleaned = cleanup::run(text, ctx.mode);
    if !ctx.english {
        return Staged {
            deterministic: ctx.rule_stage_text.then(|| cleaned.clone()),
            dense: cleaned,
        };
    }
    let Context {
        mode, tokenizer, ..
    } = *ctx;
    let rewrite = move |chunks: &mut Vec<chunks::Chunk>, place: Place| {
        // A text line may go whole; a heading or list item keeps its place in the structure.
        pleasantries::drop(chunks, place.kind == Kind::Text);
        phrases::rewrite(chunks, mode, tokenizer);
    };
    // A heading keeps its words: the text refers to it by them (`see "What you can do"`).
    let thin = move |chunks: &mut Vec<chunks::Chunk>, place: Place| {
        if !matches!(place.kind, Kind::Heading(_)) {
            words::drop_words(chunks, mode, place.after_prose);
        }
    };
    // One pass: each line is split once, rewritten, rendered for the rule-based count, then
    // thinned. Aggressive then prunes repeated sentences: it compares their content words, which
    // thinning leaves as they were.
    let bullets = if mode == Mode::Aggressive {
        Bullets::Drop
    } else {
        Bullets::Keep
    };
    let (thinned, deterministic) = if ctx.rule_stage_text {
        map_prose(&cleaned, rewrite, Some(thin), bullets)
    } else {
        // Without the breakdown both edits run back to back, and the text between them is
        // never rendered.
        let both = move |chunks: &mut Vec<chunks::Chunk>, place: Place| {
            rewrite(chunks, place);
            thin(chunks, place);
        };
        map_prose(&cleaned, both, None::<Edit>, bullets)
    };
    let dense = if mode == Mode::Aggressive {
        prune::run(&thinned)
    } else {
        thinned
    };
    Staged {
        deterministic,
        dense,
    }
}

/// What an edit of a line knows of where the line stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    kind: Kind,
    /// The line before it, blank lines aside, is prose ending a sentence and giving no role:
    /// this line goes on with what was said there (`Ask Maria to review the patch.` / `You are
    /// a required reviewer.`) rather than opening the text or a section.
    after_prose: bool,
}

/// An edit of one line's chunks, told the line's place. It owns what it needs (`Copy + Send +
/// 'static`), so that on a long text the helper thread can apply it to some of the lines.
trait LineEdit: Fn(&mut Vec<chunks::Chunk<'_>>, Place) + Copy + Send + 'static {}
impl<F: Fn(&mut Vec<chunks::Chunk<'_>>, Place) + Copy + Send + 'static> LineEdit for F {}

type Edit = fn(&mut Vec<chunks::Chunk<'_>>, Place);

/// Applies `edit` to the chunks of every English prose line and reassembles the document. With
/// `then`, the document after `edit` is returned too, and `then` is applied on top of it.
fn map_prose(
    text: &str,
    edit: impl LineEdit,
    then: Option<impl LineEdit>,
    bullets: Bullets,
) -> (String, Option<String>) {
    let pieces = if crate::helper::worth_splitting(text.len()) {
        PIECES
    } else {
        1
    };
    map_prose_in(text, edit, then, pieces, bullets)
}

/// How many pieces a long text's lines are cut into. The helper thread edits them from the first
/// on while the caller edits them from the last back, so the two meet wherever the helper has
/// got to: late or busy with other callers' work, it simply does less.
const PIECES: usize = 8;

/// [`map_prose`] with the lines cut into `pieces`: the result is the same for any number.
fn map_prose_in(
    text: &str,
    edit: impl LineEdit,
    then: Option<impl LineEdit>,
    pieces: usize,
    bullets: Bullets,
) -> (String, Option<String>) {
    let lines = lines::parse(text);
    let data = data::worked_on(&lines);
    // The text a task works on (an example's output, a sentence to correct) stays as written.
    let editable = |i: usize, line: &lines::Line<'_>| {
        line.is_prose() && line.kind != Kind::FrontMatter && !data[i]
    };
    let places = places(&lines);
    let edited = in_pieces(
        &lines,
        &places,
        text.len(),
        pieces,
        editable,
        move |contents| edit_lines(contents, edit, then),
    );
    let mut edited = edited.iter().flat_map(EditedLines::iter);

    let mut out = Document::with_capacity(text.len(), bullets);
    let mut first = then.map(|_| Document::with_capacity(text.len(), Bullets::Keep));
    for (i, line) in lines.iter().enumerate() {
        let (text, first_text) = match editable(i, line).then(|| edited.next()).flatten() {
            Some(Some((first_text, text))) => (text, first_text),
            _ => (line.content, line.content),
        };
        out.line(line, text);
        if let Some(first) = first.as_mut() {
            first.line(line, first_text);
        }
    }
    (out.text, first.map(|doc| doc.text))
}

/// The contents (with their places) of the `wanted` lines of a document, cut into `pieces` runs
/// of lines of about equal bytes, each handed to `work`. With more than one piece the helper
/// thread takes them from the first on while the caller takes them from the last back, so the two
/// meet wherever the helper has got to. The results come back in document order.
fn in_pieces<O: Send + 'static>(
    lines: &[lines::Line<'_>],
    places: &[Place],
    bytes: usize,
    pieces: usize,
    wanted: impl Fn(usize, &lines::Line<'_>) -> bool,
    work: impl Fn(&mut dyn Iterator<Item = (&str, Place)>) -> O + Copy + Send + 'static,
) -> Vec<O> {
    // Piece `i` is the lines from `starts[i]` to `starts[i + 1]`.
    let mut starts = vec![0];
    let mut so_far = 0;
    for (i, line) in lines.iter().enumerate() {
        so_far += line.prefix.len() + line.content.len() + 1;
        if so_far * pieces >= bytes * starts.len() && starts.len() < pieces {
            starts.push(i + 1);
        }
    }
    starts.push(lines.len());
    let wanted = &wanted;
    let contents = |piece: usize| {
        let range = starts[piece]..starts[piece + 1];
        let first = range.start;
        lines[range.clone()]
            .iter()
            .zip(&places[range])
            .enumerate()
            .filter(move |(k, (line, _))| wanted(first + k, line))
            .map(|(_, (line, place))| (line.content, *place))
    };
    let last = starts.len() - 2;
    let jobs: Vec<_> = (0..last)
        .map(|piece| {
            let mut owned = String::new();
            let mut places = Vec::new();
            for (content, place) in contents(piece) {
                owned.push_str(content);
                owned.push('\n');
                places.push(place);
            }
            crate::helper::start(move || work(&mut owned.split_terminator('\n').zip(places)))
        })
        .collect();
    let mut results = Vec::with_capacity(last + 1);
    results.push(work(&mut contents(last)));
    // From the last piece back: the ones the helper has not begun are done here.
    results.extend(jobs.into_iter().rev().map(crate::helper::Pending::wait));
    results.reverse();
    results
}

/// Some lines after [`edit_lines`], in order: `None` for a line left as it is (not English).
#[derive(Default)]
struct EditedLines {
    text: String,
    /// With a second edit: the lines after the first one.
    first: Option<String>,
    ends: Vec<Option<(usize, usize)>>,
}

impl EditedLines {
    /// Each line's text after the first edit and after both.
    fn iter(&self) -> impl Iterator<Item = Option<(&str, &str)>> {
        let (mut text_at, mut first_at) = (0, 0);
        self.ends.iter().map(move |ends| {
            ends.map(|(first_end, text_end)| {
                let text = &self.text[text_at..text_end];
                let first = self
                    .first
                    .as_ref()
                    .map_or(text, |f| &f[first_at..first_end]);
                (first_at, text_at) = (first_end, text_end);
                (first, text)
            })
        })
    }
}

/// Each line's [`Place`].
fn places(lines: &[lines::Line<'_>]) -> Vec<Place> {
    let mut after_prose = false;
    lines
        .iter()
        .map(|line| {
            let place = Place {
                kind: line.kind,
                after_prose,
            };
            if line.kind != Kind::Blank {
                after_prose = matches!(line.kind, Kind::Text | Kind::ListItem)
                    && line.content.trim_end().ends_with(['.', '!', '?'])
                    && !words::opens_role(
                        line.content
                            .split_whitespace()
                            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')),
                    );
            }
            place
        })
        .collect()
}

fn edit_lines(
    contents: &mut dyn Iterator<Item = (&str, Place)>,
    edit: impl LineEdit,
    then: Option<impl LineEdit>,
) -> EditedLines {
    let mut edited = EditedLines {
        first: then.map(|_| String::new()),
        ..EditedLines::default()
    };
    for (content, place) in contents {
        if !sentence_is_english(content) {
            edited.ends.push(None);
            continue;
        }
        // What a lead-in hands over after its colon stays as written (see `data`).
        let (content, tail) = match data::data_tail(content) {
            Some(at) => content.split_at(at),
            None => (content, ""),
        };
        let mut chunks = chunks::split(content);
        edit(&mut chunks, place);
        if let (Some(second), Some(first)) = (then, edited.first.as_mut()) {
            chunks::render_into(&chunks, first);
            first.push_str(tail);
            second(&mut chunks, place);
        }
        chunks::render_into(&chunks, &mut edited.text);
        edited.text.push_str(tail);
        let first_end = edited.first.as_ref().map_or(0, String::len);
        edited.ends.push(Some((first_end, edited.text.len())));
    }
    edited
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
            rule_stage_text: false,
        };
        run(text, &ctx).dense
    }

    #[test]
    fn cutting_the_lines_into_pieces_changes_nothing() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
        let mut texts: Vec<String> = std::fs::read_dir(&dir)
            .expect("the golden prompts")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.to_string_lossy().ends_with(".input.txt"))
            .map(|path| std::fs::read_to_string(path).expect("a golden prompt"))
            .collect();
        texts.push(texts.join("\n\n"));
        texts.push("Say no.\n".repeat(3) + "You will:\n\n- Write a poem.");
        for text in &texts {
            for mode in [Mode::Conservative, Mode::Balanced, Mode::Aggressive] {
                let edit = move |chunks: &mut Vec<chunks::Chunk>, place: Place| {
                    pleasantries::drop(chunks, place.kind == Kind::Text);
                    phrases::rewrite(chunks, mode, Tokenizer::O200kBase)
                };
                let then = move |chunks: &mut Vec<chunks::Chunk>, place: Place| {
                    words::drop_words(chunks, mode, place.after_prose)
                };
                let whole = map_prose_in(text, edit, Some(then), 1, Bullets::Keep);
                let thinned = map_prose_in(text, then, None::<Edit>, 1, Bullets::Drop);
                for pieces in [2, 3, PIECES, 64] {
                    let cut = map_prose_in(text, edit, Some(then), pieces, Bullets::Keep);
                    assert_eq!(cut, whole);
                    let cut = map_prose_in(text, then, None::<Edit>, pieces, Bullets::Drop);
                    assert_eq!(cut, thinned);
                }
            }
        }
    }

    #[test]
    fn a_role_opens_the_text_or_a_section_or_follows_one() {
        for (text, expected) in [
            (
                "You are an expert translator.\nTranslate the text.",
                "Expert translator.\nTranslate text.",
            ),
            (
                "# Role\n\nYou are an expert translator.",
                "# Role\n\nExpert translator.",
            ),
            (
                "Act as a guide. You are an expert in maps.",
                "Act as guide. Expert in maps.",
            ),
            // After a sentence about someone else, `You are` says who.
            (
                "Ask Maria to review the patch.\nYou are a required reviewer.",
                "Ask Maria to review patch.\nYou are required reviewer.",
            ),
            (
                "Ask Maria to review the patch. You are a required reviewer.",
                "Ask Maria to review patch. You are required reviewer.",
            ),
            (
                "Ask Maria to review the patch.\n\nYou are a required reviewer.",
                "Ask Maria to review patch.\n\nYou are required reviewer.",
            ),
        ] {
            assert_eq!(staged(text, Mode::Balanced), expected, "{text}");
        }
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

    #[test]
    fn aggressive_drops_bullets_and_keeps_numbers_indentation_and_task_lists() {
        let text =
            "Rules:\n- Write tests.\n  * Name each case.\n- [ ] Open task\n1. Build.\n2. Ship.";
        assert_eq!(
            staged(text, Mode::Aggressive),
            "Rules:\nWrite tests.\n  Name each case.\n- [ ] Open task\n1. Build.\n2. Ship."
        );
        assert_eq!(staged(text, Mode::Balanced).matches("- ").count(), 2);
        // Indented four or more, the item would read as a code block without its bullet.
        assert_eq!(
            staged("Rules:\n- Top.\n    - Deep item.", Mode::Aggressive),
            "Rules:\nTop.\n    - Deep item."
        );
        // An item that would read as another construct without its bullet keeps it.
        assert_eq!(
            staged("- # not a heading\n- 3. not a step", Mode::Aggressive),
            "- # not heading\n- 3. not step"
        );
        // Under a lead-in that negates, the bullets tie the items to it: without them `share
        // the password` would read as a command of its own.
        assert_eq!(
            staged(
                "Do not:\n- share the password\n- delete the logs\n\nAlways:\n- answer in English",
                Mode::Aggressive
            ),
            "Do not:\n- share password\n- delete logs\n\nAlways:\nanswer in English"
        );
        // A condition's list keeps them too: they show where the condition ends.
        assert_eq!(
            staged(
                "If the build fails:\n- revert the commit\n- notify the team\nDeploy on Friday.",
                Mode::Aggressive
            ),
            "If build fails:\n- revert commit\n- notify team\nDeploy on Friday."
        );
        assert_eq!(
            staged("On failure:\n- roll back\n- page on-call", Mode::Aggressive),
            "On failure:\n- roll back\n- page on-call"
        );
    }
}
