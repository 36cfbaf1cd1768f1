//! Which language a text is in, as far as the English word lists care.
//!
//! English rules (phrase rewrites, word dropping, sentence pruning) only run on text that reads
//! as English; every other language gets the language-neutral cleanups alone. The decision is
//! made per text and again per sentence, so an English prompt that quotes Chinese or French
//! leaves those sentences as they are.

/// True when the text's prose reads as English, judged on its first thousand words: enough to
/// tell a language by its function words, and the check stays cheap on long prompts (the
/// sentence-level check still guards foreign passages further down).
pub fn is_english(text: &str) -> bool {
    let (mut english, mut foreign, mut words, mut non_latin) = (0usize, 0usize, 0usize, 0usize);
    for word in text
        .split(|c: char| !c.is_alphabetic() && c != '\'')
        .filter(|w| !w.is_empty())
        .take(1000)
    {
        words += 1;
        if !word.is_ascii() && word.chars().any(is_non_latin_letter) {
            non_latin += 1;
            continue;
        }
        // No marker is longer than six letters, nor holds a letter outside ASCII.
        if word.len() > 6 || !word.is_ascii() {
            continue;
        }
        let mut buf = [0u8; 6];
        let lower = &mut buf[..word.len()];
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        if is_english_marker(lower) {
            english += 1;
        } else if is_foreign_marker(lower) {
            foreign += 1;
        }
    }
    if words == 0 {
        return false;
    }
    // CJK scripts write many characters per "word", so count them generously.
    // Technical prompts (keyword lists, identifiers) carry few function words: 1 in 20 is enough,
    // as long as no other language's function words are nearly as common.
    english * 20 >= words && foreign * 2 < english && non_latin * 4 < words
}

/// True when a single sentence is English enough for the English rules.
pub fn sentence_is_english(sentence: &str) -> bool {
    // Most lines are plain ASCII, which a word-at-a-time check decides.
    if sentence.is_ascii() {
        return true;
    }
    !sentence.chars().any(is_non_latin_letter) && !has_foreign_accents(sentence)
}

fn has_foreign_accents(s: &str) -> bool {
    // A sentence with several accented Latin letters is French, Spanish, German, ... ;
    // a single one is a borrowed word (café, naïve) in English prose.
    s.chars()
        .filter(|c| c.is_alphabetic() && !c.is_ascii())
        .count()
        >= 3
}

/// A letter of a script other than Latin: CJK, Cyrillic, Greek, Arabic, Hebrew, Indic, Thai, ...
pub fn is_non_latin_letter(c: char) -> bool {
    c.is_alphabetic() && (c as u32) >= 0x0370 && !((0x1E00..=0x1EFF).contains(&(c as u32)))
}

fn is_english_marker(w: &[u8]) -> bool {
    matches!(
        w,
        b"the"
            | b"and"
            | b"of"
            | b"to"
            | b"is"
            | b"are"
            | b"you"
            | b"your"
            | b"that"
            | b"with"
            | b"for"
            | b"this"
            | b"be"
            | b"will"
            | b"it"
            | b"on"
            | b"as"
            | b"an"
            | b"in"
            | b"or"
            | b"not"
            | b"from"
            | b"what"
            | b"which"
            | b"when"
            | b"should"
            | b"must"
            | b"each"
            | b"i"
            | b"my"
            | b"a"
            | b"if"
    )
}

fn is_foreign_marker(w: &[u8]) -> bool {
    matches!(
        w,
        b"der"
            | b"die"
            | b"das"
            | b"und"
            | b"ist"
            | b"nicht"
            | b"ich"
            | b"sie"
            | b"mit"
            | b"ein"
            | b"eine"
            | b"le"
            | b"la"
            | b"les"
            | b"et"
            | b"est"
            | b"une"
            | b"des"
            | b"pour"
            | b"vous"
            | b"je"
            | b"que"
            | b"el"
            | b"los"
            | b"las"
            | b"y"
            | b"es"
            | b"por"
            | b"una"
            | b"para"
            | b"con"
            | b"como"
            | b"del"
            | b"il"
            | b"di"
            | b"che"
            | b"non"
            | b"della"
            | b"sono"
            | b"het"
            | b"een"
            | b"van"
            | b"niet"
            | b"och"
            | b"att"
            | b"som"
            | b"jest"
            | b"nie"
            | b"na"
            | b"da"
            | b"em"
            | b"os"
            | b"um"
            | b"uma"
            | b"ne"
            | b"du"
            | b"au"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_english_and_others() {
        assert!(is_english(
            "I want you to act as a translator and you will reply in the language."
        ));
        assert!(!is_english(
            "Je veux que vous agissiez comme un traducteur et que vous répondiez."
        ));
        assert!(!is_english(
            "Ich möchte, dass du als Übersetzer arbeitest und nicht erklärst."
        ));
        assert!(!is_english("我希望你充当翻译，并且只回复翻译结果。"));
        assert!(!is_english(""));
    }

    #[test]
    fn sentences_in_other_scripts_are_not_english() {
        assert!(sentence_is_english("Reply in English only."));
        assert!(!sentence_is_english("请只回复翻译结果。"));
        assert!(!sentence_is_english("Пожалуйста, ответьте кратко."));
        assert!(sentence_is_english("Order a café latte."));
    }
}
