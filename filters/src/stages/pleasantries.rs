//! Politeness pruning (every mode): a sentence made only of greetings, thanks, wishes and
//! sign-offs (`Hi there!`, `Thank you so much!`, `I hope you are doing well.`, `Thanks in
//! advance!`, `Best regards,`) tells the model nothing to do, and goes whole. A sentence with any
//! other word stays whole (`Thank you for reviewing the tests.`), so no instruction is touched;
//! nor is one holding a guard word or a protected span.

use super::chunks::{self, Chunk};

/// Removes the pleasantry sentences of one line. Unless `whole_line` allows it, the last
/// sentence left stays, so a heading or list item never loses all its text.
pub fn drop(chunks: &mut Vec<Chunk<'_>>, whole_line: bool) {
    // One pass; most sentences fail on their first word, and nothing is allocated unless a
    // pleasantry is found.
    let mut pleasant: Vec<std::ops::Range<usize>> = Vec::new();
    let (mut start, mut so_far, mut marked) = (0, true, false);
    for (i, chunk) in chunks.iter().enumerate() {
        if so_far {
            match politeness(chunk) {
                Some(Politeness::Marked) => marked = true,
                Some(Politeness::Neutral) => {}
                None => so_far = false,
            }
        }
        // Words after the last full stop are a sentence only when they are the whole line
        // (`Best regards,`); otherwise the sentence may go on in the next line.
        if chunk.ends_sentence() || (i + 1 == chunks.len() && start == 0) {
            if so_far && marked {
                pleasant.push(start..i + 1);
            }
            (start, so_far, marked) = (i + 1, true, false);
        }
    }
    if pleasant.is_empty() {
        return;
    }
    let all: usize = pleasant.iter().map(|r| r.len()).sum();
    if all == chunks.len() && !whole_line {
        pleasant.pop();
    }
    let opened = pleasant.first().is_some_and(|range| range.start == 0);
    for range in pleasant.into_iter().rev() {
        // The sentence before keeps its own punctuation: remove the chunks outright.
        chunks.drain(range);
    }
    if opened && let Some(first) = chunks.first_mut() {
        chunks::capitalize(first);
    }
}

enum Politeness {
    /// Only politeness uses it: it greets, thanks, wishes or signs off.
    Marked,
    /// It may stand in a pleasantry (`so much`, `in advance`, `you are doing well`).
    Neutral,
}

/// What one word is to politeness; `None` for a word no pleasantry holds, a guard word, a
/// protected span, or one with quotes or brackets, which open or close around more than a
/// sentence. A sentence is a pleasantry when every word is `Some` and one is
/// [`Politeness::Marked`] (`Good work.` stays: nothing in it greets, thanks, wishes or signs off).
fn politeness(chunk: &Chunk<'_>) -> Option<Politeness> {
    let plain_punctuation = |p: &str| p.chars().all(|c| matches!(c, '.' | ',' | '!' | '?'));
    if chunk.fixed
        || chunk.span
        || !plain_punctuation(chunk.lead())
        || !plain_punctuation(chunk.trail())
    {
        return None;
    }
    match &*chunk.lower_any()? {
        "hi" | "hey" | "hello" | "greetings" | "thank" | "thanks" | "thx" | "cheers"
        | "regards" | "luck" | "hope" | "appreciated" | "appreciate" | "sincerely" | "bye"
        | "goodbye" => Some(Politeness::Marked),
        "there" | "all" | "everyone" | "folks" | "team" | "dear" | "friend" | "i" | "we"
        | "you" | "you're" | "are" | "is" | "am" | "be" | "doing" | "well" | "fine" | "this"
        | "message" | "finds" | "it" | "so" | "very" | "much" | "a" | "lot" | "many" | "in"
        | "advance" | "again" | "for" | "your" | "the" | "good" | "great" | "best" | "kind"
        | "warm" | "warmest" | "morning" | "afternoon" | "evening" | "day" | "have" | "fun"
        | "nice" | "really" | "truly" | "and" | "with" | "of" => Some(Politeness::Neutral),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, whole_line: bool) -> String {
        let mut chunks = chunks::split(text);
        drop(&mut chunks, whole_line);
        chunks::render(&chunks)
    }

    #[test]
    fn greetings_thanks_and_wishes_go() {
        assert_eq!(
            run("Hi there! Review this code.", true),
            "Review this code."
        );
        assert_eq!(
            run("Review this code. Thank you so much!", true),
            "Review this code."
        );
        assert_eq!(run("I hope you are doing well.", true), "");
        assert_eq!(run("Thanks in advance!", true), "");
        assert_eq!(run("Best regards,", true), "");
        assert_eq!(run("Good luck, have fun.", true), "");
    }

    #[test]
    fn a_sentence_with_anything_else_stays() {
        for text in [
            "Thank you for reviewing the tests.",
            "Good work.",
            "Go there.",
            "Hi, I need a poem.",
            "Thanks, but do not reply.",
            "Hello \"world\".",
        ] {
            assert_eq!(run(text, true), text);
        }
    }

    #[test]
    fn a_heading_or_list_item_keeps_its_last_sentence() {
        assert_eq!(run("Thank you!", false), "Thank you!");
        assert_eq!(run("Hi! Thanks!", false), "Thanks!");
        // A sentence running on into the next line, or opening a quotation, is not cut.
        assert_eq!(run("We met. Thank you", true), "We met. Thank you");
        assert_eq!(run("\"Hello! I'm Lyra.", true), "\"Hello! I'm Lyra.");
        assert_eq!(run("Hi! review this.", true), "Review this.");
        assert_eq!(run("review this. Thanks!", true), "review this.");
    }
}
