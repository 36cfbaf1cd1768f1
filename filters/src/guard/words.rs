//! Guard words: single words no stage may drop or rewrite (negations and restrictive words,
//! numbers, identifiers and the like).

use crate::vault::OPEN;

/// Negations and restrictive words: never dropped or changed, and a sentence holding one is
/// never pruned. These are the meaning guard's words; [`super::items`] lists them.
pub fn is_restrictive(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"not"
            | b"no"
            | b"never"
            | b"nor"
            | b"neither"
            | b"none"
            | b"nothing"
            | b"nobody"
            | b"nowhere"
            | b"without"
            | b"except"
            | b"excluding"
            | b"exclude"
            | b"unless"
            | b"until"
            | b"only"
            | b"solely"
            | b"exclusively"
            | b"cannot"
            | b"must"
            | b"mustn't"
            | b"shall"
            | b"should"
            | b"avoid"
            | b"refrain"
            | b"forbidden"
            | b"prohibited"
            | b"disallowed"
            | b"don't"
            | b"required"
            | b"mandatory"
            | b"always"
            | b"exactly"
            | b"instead"
            | b"but"
            | b"however"
            | b"unlike"
            | b"stop"
            | b"false"
            | b"true"
            | b"null"
            | b"won't"
            | b"can't"
            | b"ever"
    ) || lower.ends_with(b"n't")
}

/// Words that steer a sentence's sense (quantity, condition, order, comparison, modality):
/// no word-level rule drops them, though aggressive sentence pruning may drop a whole redundant
/// sentence that holds one.
pub fn is_steering(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"may"
            | b"might"
            | b"require"
            | b"requires"
            | b"all"
            | b"every"
            | b"each"
            | b"any"
            | b"some"
            | b"both"
            | b"either"
            | b"or"
            | b"if"
            | b"else"
            | b"otherwise"
            | b"whether"
            | b"before"
            | b"after"
            | b"than"
            | b"least"
            | b"most"
            | b"more"
            | b"between"
            | b"over"
            | b"under"
            | b"above"
            | b"below"
            | b"within"
            | b"less"
            | b"fewer"
            | b"max"
            | b"min"
            | b"maximum"
            | b"minimum"
            | b"just"
            | b"although"
            | b"though"
            | b"rather"
            | b"because"
            | b"since"
            | b"against"
            | b"first"
            | b"last"
            | b"once"
            | b"twice"
            | b"per"
            | b"same"
            | b"different"
            | b"other"
            | b"prefer"
            | b"preferred"
            | b"important"
            | b"critical"
            | b"warning"
            | b"note"
            | b"yes"
    )
}

/// True for a word (without surrounding punctuation) that no stage may drop or change.
pub fn is_guard_word(word: &str) -> bool {
    // One pass over the bytes decides every shape test; this runs once per word of every line.
    let bytes = word.as_bytes();
    if bytes.is_empty() {
        return false;
    }
    let mut buf = [0u8; 24];
    let (mut upper, mut camel, mut ascii) = (0usize, false, true);
    let mut prev_lower = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'a'..=b'z' => prev_lower = true,
            b'A'..=b'Z' => {
                upper += 1;
                camel |= prev_lower;
                prev_lower = false;
            }
            b'\'' | b'-' => prev_lower = false,
            // A vault placeholder (OPEN starts with this byte) or any other non-ASCII letter.
            0xEE if word[i..].starts_with(OPEN) => return true,
            0x80.. => {
                ascii = false;
                prev_lower = false;
            }
            // Digits, underscores, dots, slashes, @, #, $ ... : numbers, identifiers, versions.
            _ => return true,
        }
        if let Some(d) = buf.get_mut(i) {
            *d = b.to_ascii_lowercase();
        }
    }
    // camelCase, iPhone, macOS; CONSTANTS and kebab-case with capitals (2+ capitals).
    if upper >= 2 || camel {
        return true;
    }
    if !ascii || bytes.len() > buf.len() {
        // Long or non-ASCII words are content, and content is never in a drop list.
        return false;
    }
    let lower = &buf[..bytes.len()];
    is_restrictive(lower) || is_steering(lower)
}

/// A guard word that must survive even sentence pruning: a negation or restrictive word, or a
/// datum (number, identifier, version, symbol-bearing word).
pub fn is_required_word(word: &str) -> bool {
    if !is_guard_word(word) {
        return false;
    }
    let mut buf = [0u8; 24];
    match ascii_lower(word, &mut buf) {
        Some(lower)
            if word
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-') =>
        {
            is_restrictive(lower) || is_identifier_shaped(word)
        }
        _ => true,
    }
}

/// camelCase, PascalCase inside a word, kebab-case with capitals, and CONSTANTS (2+ capitals).
fn is_identifier_shaped(word: &str) -> bool {
    let bytes = word.as_bytes();
    let upper = bytes.iter().filter(|b| b.is_ascii_uppercase()).count();
    if upper >= 2 {
        return true;
    }
    // a lower-case letter followed by a capital: camelCase, iPhone, macOS.
    bytes
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// Lower-cases an ASCII word into `buf`; None when it does not fit or is not ASCII.
pub fn ascii_lower<'b>(word: &str, buf: &'b mut [u8; 24]) -> Option<&'b [u8]> {
    let bytes = word.as_bytes();
    if !word.is_ascii() {
        return None;
    }
    let out = buf.get_mut(..bytes.len())?;
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = b.to_ascii_lowercase();
    }
    Some(out)
}

/// A word without the punctuation around it.
pub fn trim_punct(chunk: &str) -> &str {
    // Byte by byte: this runs on every word, and only the curly quotes are not ASCII.
    let mut rest = chunk;
    loop {
        rest = match rest.as_bytes().first() {
            Some(b'(' | b'[' | b'"' | b'\'' | b'*' | b'_' | b'|') => &rest[1..],
            Some(0xE2) if rest.starts_with(['\u{201C}', '\u{2018}']) => &rest[3..],
            _ => break,
        };
    }
    loop {
        rest = match rest.as_bytes().last() {
            Some(
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' | b']' | b'"' | b'\'' | b'*' | b'_'
                | b'|',
            ) => &rest[..rest.len() - 1],
            Some(0x9D | 0x99) if rest.ends_with(['\u{201D}', '\u{2019}']) => {
                &rest[..rest.len() - 3]
            }
            _ => break,
        };
    }
    rest
}
