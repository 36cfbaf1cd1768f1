//! terse's compression engine.
//!
//! Pure, synchronous and free of I/O: text in, text and statistics out. The pipeline for one
//! text is: seal protected spans in the [`vault`], run the stages the [`Mode`] asks for on the
//! sealed text, restore the vault, verify every sealed item came back byte-identical, and count
//! tokens. Any failure of that check returns the original text with `integrity_passed: false`.
//!
//! A text's compression depends on nothing but the text and its [`Options`], so a conversation's
//! compressed prefix is the same from turn to turn and provider prompt caches keep hitting.

pub mod brevity;
pub mod guard;
pub mod lang;
pub mod options;
pub mod stages;
pub mod stats;
pub mod tokens;
pub mod vault;

pub use brevity::BrevityLevel;
pub use options::{Mode, Options, Tokenizer, UnknownName};
pub use stats::{Compressed, ProtectedItems, StageBreakdown, Stats};

use std::time::Instant;

/// The longest prompt the public API accepts, in Unicode characters (SPEC 8).
pub const MAX_PROMPT_CHARS: usize = 50_000;

/// Compresses `text` as `options` ask. Never panics, never returns a damaged prompt.
pub fn compress(text: &str, options: &Options) -> Compressed {
    let started = Instant::now();
    let tokenizer = options.tokenizer;
    let original_tokens = tokens::count(text, tokenizer);

    let sealed = vault::seal(text, options);
    let protected_items = sealed.counts();
    let ctx = stages::Context {
        mode: options.mode,
        tokenizer,
        english: lang::is_english(sealed.text()),
    };

    let staged = stages::run(sealed.text(), &ctx);
    let restored_deterministic = sealed.restore(&staged.deterministic);
    let restored = sealed.restore(&staged.dense);
    // Only the text that is sent on needs the byte-for-byte check; the intermediate text is
    // restored just to count what the rule stages saved.
    let integrity_passed = match (&restored_deterministic, &restored) {
        (Some(_), Some(out)) => sealed.verify(out),
        _ => false,
    };

    let (text_out, deterministic_tokens, final_tokens) =
        match (integrity_passed, restored_deterministic, restored) {
            (true, Some(det), Some(out)) => {
                let det_tokens = tokens::count(&det, tokenizer);
                let out_tokens = tokens::count(&out, tokenizer);
                if out_tokens >= original_tokens {
                    // Compression that saves nothing is not worth a changed prompt.
                    (text.to_string(), original_tokens, original_tokens)
                } else {
                    (out, det_tokens.min(original_tokens), out_tokens)
                }
            }
            _ => (text.to_string(), original_tokens, original_tokens),
        };

    let saved_tokens = original_tokens - final_tokens;
    let deterministic_saved = original_tokens - deterministic_tokens;
    let stats = Stats {
        mode: options.mode,
        original_tokens,
        final_tokens,
        saved_tokens,
        saved_percent: percent(saved_tokens, original_tokens),
        latency_ms: round_to(started.elapsed().as_secs_f64() * 1000.0, 3),
        tokenizer_used: tokenizer,
        integrity_passed,
        stage_breakdown: StageBreakdown {
            deterministic_saved,
            density_saved: saved_tokens.saturating_sub(deterministic_saved),
            protected_items_count: protected_items.total(),
        },
        protected_items,
    };
    Compressed {
        text: text_out,
        stats,
    }
}

/// Counts the tokens of `text` with `tokenizer`, exactly as tiktoken does.
pub fn count_tokens(text: &str, tokenizer: Tokenizer) -> usize {
    tokens::count(text, tokenizer)
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        round_to(part as f64 * 100.0 / whole as f64, 2)
    }
}

fn round_to(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}
