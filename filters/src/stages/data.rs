//! The text a task works on. A prompt that asks to correct, translate or count something, or
//! that shows an example's input and output, quotes text the model must see word for word: the
//! sentence with the grammar mistake, the source to translate, the answer to imitate. Without
//! quotation marks nothing else tells it from the instructions around it, so these lines are
//! found by what introduces them and kept as written.

use super::lines::{Kind, Line};
use crate::guard::ascii_lower;
use std::collections::HashMap;

/// For each line of a document: whether it is text the task works on (see the module).
pub fn worked_on(lines: &[Line<'_>]) -> Vec<bool> {
    let mut data = vec![false; lines.len()];
    // A weak label counts where another label stands next to it (`Premise:` / `Hypothesis:`)
    // or it comes again (`Human:` ... `Human:`).
    let labels: Vec<Option<Label>> = lines
        .iter()
        .map(|l| l.is_prose().then(|| example_label(l.content)).flatten())
        .collect();
    let mut times: HashMap<&[u8], usize> = HashMap::new();
    for label in labels.iter().flatten() {
        *times.entry(label.name()).or_default() += 1;
    }
    let example = |i: usize| {
        let Some(label) = &labels[i] else {
            return false;
        };
        let neighbour =
            |j: Option<usize>| j.and_then(|j| labels.get(j)).is_some_and(Option::is_some);
        label.strong
            || neighbour(i.checked_sub(1))
            || neighbour(Some(i + 1))
            || times.get(label.name()).is_some_and(|&n| n >= 2)
    };
    // The options of a multiple-choice question (`A. Mars`, `B) Jupiter`): the answers to pick
    // from, word for word; and an email's headers (`Subject: The invoice is attached`), which a
    // task quotes or answers. Each needs another of its kind next to it.
    let option = |i: usize| {
        lines
            .get(i)
            .is_some_and(|l| l.is_prose() && opens_with_option(l.content))
    };
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if !line.is_prose() {
            i += 1;
            continue;
        }
        let header = |i: usize| {
            lines
                .get(i)
                .is_some_and(|l| l.is_prose() && is_mail_header(l.content))
        };
        if (option(i) && (option(i + 1) || i.checked_sub(1).is_some_and(option)))
            || (header(i) && (header(i + 1) || i.checked_sub(1).is_some_and(header)))
        {
            data[i] = true;
            i += 1;
            continue;
        }
        if example(i) {
            data[i] = true;
            // A label alone on its line (`### Input:`, `Output:`) heads the example under it.
            if line.content.trim_end().ends_with(':') {
                let end = next_paragraph(lines, i + 1, Extent::Paragraph, &mut data);
                i = end;
                continue;
            }
        }
        // A lead-in is a line of text of its own, and short.
        let lead_in = line.kind == Kind::Text && line.content.len() <= 200;
        if let Some(extent) = lead_in.then(|| introduces_text(line.content)).flatten() {
            i = next_paragraph(lines, i + 1, extent, &mut data);
            continue;
        }
        i += 1;
    }
    data
}

/// Whether a line is an email header (`From:`, `Subject:`, ...).
fn is_mail_header(content: &str) -> bool {
    content.split_once(':').is_some_and(|(name, _)| {
        [
            "From", "To", "Cc", "Bcc", "Subject", "Date", "Sent", "Reply-To",
        ]
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name))
    })
}

/// Whether a line opens with an option's letter: `A. `, `B) `, `(C) `.
fn opens_with_option(content: &str) -> bool {
    let b = content.as_bytes();
    let letter = usize::from(b.first() == Some(&b'('));
    b.get(letter).is_some_and(u8::is_ascii_uppercase)
        && match b.get(letter + 1) {
            Some(b'.') => letter == 0,
            Some(b')') => true,
            _ => false,
        }
        && b.get(letter + 2) == Some(&b' ')
}

/// Marks the paragraph from line `from` on, after the blank lines before it (every stanza up to
/// the next heading, for [`Extent::Stanzas`]); returns the line after it.
fn next_paragraph(lines: &[Line<'_>], from: usize, extent: Extent, data: &mut [bool]) -> usize {
    let mut j = from;
    loop {
        while lines.get(j).is_some_and(|l| l.kind == Kind::Blank) {
            j += 1;
        }
        let start = j;
        while lines.get(j).is_some_and(|l| {
            (l.is_prose() || l.kind == Kind::Code) && !matches!(l.kind, Kind::Heading(_))
        }) {
            data[j] = true;
            j += 1;
        }
        if extent == Extent::Paragraph || j == start {
            return j;
        }
    }
}

/// An example's label opening a line, lower-cased.
struct Label {
    name: [u8; 24],
    len: usize,
    /// Names an example's part wherever it stands (`Input:`, `Output:`); a weak one (`Good:`,
    /// `Before:`, `Human:`) also heads fields of instructions, and counts only in a pair or a
    /// series (see [`worked_on`]).
    strong: bool,
}

impl Label {
    fn name(&self) -> &[u8] {
        &self.name[..self.len]
    }
}

/// The example label a line opens with, if any: after it the line gives an example's input or
/// output (`Output: The mouse was chased by the cat.`, `**Expected output:** ...`, `A: Paris.`),
/// which the model reads as the thing to transform or the answer to imitate, word for word.
fn example_label(content: &str) -> Option<Label> {
    // The label is a few words: look for its colon in the first bytes only.
    let head = &content.as_bytes()[..content.len().min(30)];
    let colon = memchr::memchr(b':', head)?;
    let label =
        content[..colon].trim_matches(|c: char| matches!(c, '*' | '_' | '#') || c.is_whitespace());
    let mut name = [0u8; 24];
    let len = ascii_lower(label, &mut name)?.len();
    let strong = matches!(
        &name[..len],
        b"input"
            | b"output"
            | b"example input"
            | b"example output"
            | b"sample input"
            | b"sample output"
            | b"expected"
            | b"expected output"
            | b"expected answer"
            | b"expected result"
            | b"q"
            | b"a"
            | b"answer"
            | b"correct answer"
            | b"corrected"
            | b"original"
            | b"translation"
            | b"sentence"
            | b"sample line"
            | b"example sentence"
            | b"pattern"
            | b"regex"
    );
    let weak = matches!(
        &name[..len],
        b"response"
            | b"human"
            | b"ai"
            | b"assistant"
            | b"user"
            | b"review"
            | b"premise"
            | b"hypothesis"
            | b"claim"
            | b"before"
            | b"after"
            | b"correct"
            | b"incorrect"
            | b"bad"
            | b"good"
            | b"example"
            | b"sample"
            | b"source"
            | b"english"
            | b"french"
            | b"spanish"
            | b"german"
    );
    (strong || weak).then_some(Label { name, len, strong })
}

/// Where the text a line hands over after its colon starts: `Fix the spelling in this sentence:
/// The the cat is on teh mat.`, `Correct the grammar of: He go to school.` The lead-in names a
/// text, or ends on a word that points at what follows (`of`, `this`, `following`, `below`).
pub fn data_tail(content: &str) -> Option<usize> {
    let colon = memchr::memchr(b':', content.as_bytes())?;
    let (lead, tail) = (&content[..colon], &content[colon + 1..]);
    if !tail.starts_with(' ') || tail.trim_start().is_empty() {
        return None;
    }
    let lead_bytes = lead.as_bytes();
    let start = lead_bytes
        .iter()
        .rposition(|b| !b.is_ascii_alphabetic())
        .map_or(0, |at| at + 1);
    let mut buf = [0u8; 24];
    let last = ascii_lower(&lead[start..], &mut buf)?;
    let points = matches!(
        last,
        b"of" | b"this" | b"following" | b"below" | b"exactly" | b"verbatim" | b"phrase"
    );
    // `Translate into French: ...`
    let into_language = lead[..start]
        .trim_end()
        .as_bytes()
        .rsplit(|b| *b == b' ')
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case(b"into"));
    (names_a_passage(last) || points || into_language).then_some(colon + 1)
}

/// How much of what follows a lead-in is the text it introduces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extent {
    Paragraph,
    /// A poem or a song: every stanza.
    Stanzas,
}

/// Whether a line asks for work on the wording of the text under it (to translate, correct,
/// rewrite or count it, or to read a poem or song): `Translate the following text into French.`
fn introduces_text(content: &str) -> Option<Extent> {
    // Most lines point at nothing: a lead-in ends with a colon or says `this`, `these`,
    // `following` or `below`, which one search per first letter finds (case aside).
    let bytes = content.as_bytes();
    let says = |first: u8, rests: &[&[u8]]| {
        memchr::memchr2(first, first.to_ascii_uppercase(), bytes).is_some()
            && memchr::memchr2_iter(first, first.to_ascii_uppercase(), bytes).any(|at| {
                rests.iter().any(|rest| {
                    bytes
                        .get(at + 1..at + 1 + rest.len())
                        .is_some_and(|b| b.eq_ignore_ascii_case(rest))
                })
            })
    };
    if !content.trim_end().ends_with(':')
        && !says(b't', &[b"his", b"hese"])
        && !says(b'f', &[b"ollowing"])
        && !says(b'b', &[b"elow"])
    {
        return None;
    }
    let (mut on_wording, mut verse, mut points_on, mut names_text) = (false, false, false, false);
    let mut buf = [0u8; 24];
    for word in content
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| (1..=12).contains(&w.len()))
    {
        let Some(word) = ascii_lower(word, &mut buf) else {
            continue;
        };
        on_wording |= matches!(
            word,
            b"translate"
                | b"correct"
                | b"proofread"
                | b"rewrite"
                | b"rephrase"
                | b"paraphrase"
                | b"polish"
                | b"count"
                | b"spell"
                | b"grammar"
                | b"spelling"
                | b"edit"
                | b"check"
                | b"many"
                | b"improve"
                | b"formal"
                | b"informal"
                | b"simplify"
                | b"shorten"
        );
        verse |= matches!(word, b"poem" | b"lyrics" | b"song" | b"verse");
        points_on |= matches!(word, b"following" | b"below" | b"this" | b"these");
        names_text |= is_text_noun(word);
    }
    let lead_in = content.trim_end().ends_with(':');
    points_on |= lead_in;
    // `Make this more formal:` names its text by `this`.
    names_text |= lead_in
        && content
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case("this"));
    let extent = if verse {
        Extent::Stanzas
    } else {
        Extent::Paragraph
    };
    ((on_wording || verse) && points_on && names_text).then_some(extent)
}

/// A noun that names a passage quoted whole: `in this sentence: ...`. Narrower than
/// [`is_text_noun`], whose nouns (`review`, `description`) also head fields of instructions.
fn names_a_passage(word: &[u8]) -> bool {
    matches!(
        word,
        b"text"
            | b"sentence"
            | b"sentences"
            | b"passage"
            | b"paragraph"
            | b"phrase"
            | b"word"
            | b"words"
            | b"quote"
            | b"excerpt"
            | b"string"
    )
}

/// A noun that names a piece of text: a passage, or a kind of writing (`email`, `poem`, `log`).
fn is_text_noun(word: &[u8]) -> bool {
    names_a_passage(word)
        || matches!(
            word,
            b"paragraphs"
                | b"email"
                | b"message"
                | b"essay"
                | b"letter"
                | b"poem"
                | b"lyrics"
                | b"song"
                | b"verse"
                | b"tweet"
                | b"draft"
                | b"post"
                | b"article"
                | b"review"
                | b"description"
                | b"chat"
                | b"log"
                | b"transcript"
                | b"conversation"
        )
}
