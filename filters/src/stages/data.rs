//! The text a task works on. A prompt that asks to correct, translate or count something, or
//! that shows an example's input and output, quotes text the model must see word for word: the
//! sentence with the grammar mistake, the source to translate, the answer to imitate. Without
//! quotation marks nothing else tells it from the instructions around it, so these lines are
//! found by what introduces them and kept as written.

use super::lines::{Kind, Line};

/// For each line of a document: whether it is text the task works on (see the module).
pub fn worked_on(lines: &[Line<'_>]) -> Vec<bool> {
    let mut data = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if !line.is_prose() {
            i += 1;
            continue;
        }
        if quotes_an_example(line.content) {
            data[i] = true;
        }
        // A lead-in is a line of text of its own, and short.
        let lead_in = line.kind == Kind::Text && line.content.len() <= 200;
        if let Some(extent) = lead_in.then(|| introduces_text(line.content)).flatten() {
            // The next paragraph, after the blank lines between; a poem's or a song's every
            // stanza, up to the next heading.
            let mut j = i + 1;
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
                    break;
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    data
}

/// Whether a line gives an example's input or output after a label (`Output: The mouse was
/// chased by the cat.`, `**Expected output:** ...`, `A: Paris.`). The model reads it as the
/// thing to transform or the answer to imitate, word for word, not as an instruction.
fn quotes_an_example(content: &str) -> bool {
    // The label is a few words: look for its colon in the first bytes only.
    let head = &content.as_bytes()[..content.len().min(30)];
    let Some(colon) = memchr::memchr(b':', head) else {
        return false;
    };
    let label = content[..colon].trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
    let mut buf = [0u8; 24];
    let Some(label) = lower(label, &mut buf) else {
        return false;
    };
    matches!(
        label,
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
            | b"source"
            | b"translation"
            | b"sentence"
    )
}

/// `word` in ASCII lower case in `buf`, when it fits.
fn lower<'b>(word: &str, buf: &'b mut [u8; 24]) -> Option<&'b [u8]> {
    let bytes = word.as_bytes();
    let out = buf.get_mut(..bytes.len())?;
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = b.to_ascii_lowercase();
    }
    Some(out)
}

/// Where the text a line hands over after its colon starts: `Fix the spelling in this sentence:
/// The the cat is on teh mat.`, `Correct the grammar of: He go to school.` The lead-in names a
/// text, or ends on a word that points at what follows (`of`, `this`, `following`, `below`).
pub fn data_tail(content: &str) -> Option<usize> {
    let (lead, tail) = content.split_once(':')?;
    if tail.trim().is_empty() || !tail.starts_with(' ') {
        return None;
    }
    let last = lead.rsplit(|c: char| !c.is_ascii_alphabetic()).next()?;
    let mut buf = [0u8; 24];
    let last = lower(last, &mut buf)?;
    (is_text_noun(last) || matches!(last, b"of" | b"this" | b"following" | b"below"))
        .then(|| lead.len() + 1)
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
    let (mut on_wording, mut verse, mut points_on, mut names_text) = (false, false, false, false);
    let mut buf = [0u8; 24];
    for word in content
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| (1..=12).contains(&w.len()))
    {
        let Some(word) = lower(word, &mut buf) else {
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
        );
        verse |= matches!(word, b"poem" | b"lyrics" | b"song" | b"verse");
        points_on |= matches!(word, b"following" | b"below" | b"this" | b"these");
        names_text |= is_text_noun(word);
    }
    points_on |= content.trim_end().ends_with(':');
    let extent = if verse {
        Extent::Stanzas
    } else {
        Extent::Paragraph
    };
    ((on_wording || verse) && points_on && names_text).then_some(extent)
}

/// A noun that names a piece of text.
fn is_text_noun(word: &[u8]) -> bool {
    matches!(
        word,
        b"text"
            | b"sentence"
            | b"sentences"
            | b"passage"
            | b"paragraph"
            | b"paragraphs"
            | b"phrase"
            | b"words"
            | b"email"
            | b"message"
            | b"essay"
            | b"letter"
            | b"poem"
            | b"lyrics"
            | b"song"
            | b"verse"
            | b"quote"
            | b"excerpt"
            | b"tweet"
            | b"draft"
    )
}
