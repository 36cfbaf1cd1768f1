//! What must hold for every compression, whatever the input: checked by the property tests, the
//! golden tests and the fuzz target (which includes this file through `#[path]`).

use filters::{Compressed, Mode, Options, Tokenizer};

/// Compresses `input` twice and checks every invariant of the engine's contract. Returns the
/// first compression, or a description of the first broken invariant.
pub fn check(input: &str, options: &Options) -> Result<Compressed, String> {
    let first = filters::compress(input, options);
    let second = filters::compress(input, options);
    let out = &first.text;
    let stats = &first.stats;
    let context = format!("mode {} with {options:?}", options.mode);

    if second.text != *out {
        return Err(format!("{context}: two runs gave different text"));
    }
    let mut second_stats = second.stats.clone();
    second_stats.latency_ms = stats.latency_ms;
    if second_stats != *stats {
        return Err(format!("{context}: two runs gave different statistics"));
    }
    if stats.mode != options.mode || stats.tokenizer_used != options.tokenizer {
        return Err(format!("{context}: stats name another mode or tokenizer"));
    }
    let original_tokens = filters::count_tokens(input, options.tokenizer);
    let final_tokens = filters::count_tokens(out, options.tokenizer);
    if stats.original_tokens != original_tokens || stats.final_tokens != final_tokens {
        return Err(format!(
            "{context}: stats say {} -> {} tokens, the texts have {original_tokens} -> {final_tokens}",
            stats.original_tokens, stats.final_tokens
        ));
    }
    let shortened = filters::shorten(input, options);
    if shortened.text != *out
        || shortened.original_tokens != original_tokens
        || shortened.final_tokens != final_tokens
        || shortened.integrity_passed != stats.integrity_passed
    {
        return Err(format!("{context}: shorten and compress disagree"));
    }
    if final_tokens > original_tokens {
        return Err(format!(
            "{context}: output has more tokens ({final_tokens}) than input ({original_tokens})"
        ));
    }
    if stats.saved_tokens != original_tokens - final_tokens {
        return Err(format!("{context}: savedTokens is not original - final"));
    }
    let breakdown = &stats.stage_breakdown;
    if breakdown.deterministic_saved + breakdown.density_saved != stats.saved_tokens {
        return Err(format!(
            "{context}: stage savings {} + {} do not add up to {}",
            breakdown.deterministic_saved, breakdown.density_saved, stats.saved_tokens
        ));
    }
    if breakdown.protected_items_count != stats.protected_items.total() {
        return Err(format!(
            "{context}: protectedItemsCount is not the sum of protectedItems"
        ));
    }
    if out.trim().is_empty() && !input.trim().is_empty() {
        return Err(format!(
            "{context}: a prompt with text in it came out blank"
        ));
    }
    if !stats.integrity_passed && out != input {
        return Err(format!(
            "{context}: integrity failed but the text was changed"
        ));
    }
    let visible = filters::guard::visible(out, options);
    if let Some(missing) = filters::guard::items_with(input, options)
        .into_iter()
        .find(|item| !visible.contains(item.as_str()))
    {
        return Err(format!(
            "{context}: the guard item {:?} is missing from the output",
            shorten(&missing)
        ));
    }
    Ok(first)
}

/// Keeps failure messages readable when an item is long.
pub fn shorten(text: &str) -> String {
    const LIMIT: usize = 120;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// The options coded by the low four bits of `bits`: protect code, protect JSON, protect
/// variables, cl100k_base instead of o200k_base. Lets a search cover every combination.
pub fn options_from_bits(mode: Mode, bits: u8) -> Options {
    Options {
        mode,
        protect_code_blocks: bits & 1 != 0,
        protect_json: bits & 2 != 0,
        protect_variables: bits & 4 != 0,
        tokenizer: if bits & 8 != 0 {
            Tokenizer::Cl100kBase
        } else {
            Tokenizer::O200kBase
        },
    }
}
