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
mod fnv;
pub mod guard;
pub mod helper;
pub mod lang;
pub mod options;
pub mod stages;
pub mod stats;
pub mod tokens;
pub mod vault;

pub use brevity::BrevityLevel;
pub use options::{Mode, Options, Tokenizer, UnknownName};
pub use stats::{Compressed, ProtectedItems, StageBreakdown, Stats};

use std::sync::Arc;
use std::time::Instant;

/// The longest prompt the public API accepts, in Unicode characters (SPEC 8).
pub const MAX_PROMPT_CHARS: usize = 50_000;

/// Compresses `text` as `options` ask. Never panics, never returns a damaged prompt.
pub fn compress(text: &str, options: &Options) -> Compressed {
    let started = Instant::now();
    let run = run(text, options, Breakdown::Stages);
    let saved_tokens = run.original_tokens - run.final_tokens;
    let deterministic_saved =
        run.original_tokens - run.deterministic_tokens.unwrap_or(run.original_tokens);
    let stats = Stats {
        mode: options.mode,
        original_tokens: run.original_tokens,
        final_tokens: run.final_tokens,
        saved_tokens,
        saved_percent: percent(saved_tokens, run.original_tokens),
        latency_ms: round_to(started.elapsed().as_secs_f64() * 1000.0, 3),
        tokenizer_used: options.tokenizer,
        integrity_passed: run.integrity_passed,
        stage_breakdown: StageBreakdown {
            deterministic_saved,
            density_saved: saved_tokens.saturating_sub(deterministic_saved),
            protected_items_count: run.protected_items.total(),
        },
        protected_items: run.protected_items,
    };
    Compressed {
        text: run.text,
        stats,
    }
}

/// What forwarding a prompt needs: the same text as [`compress`] gives, with its two token
/// counts but without the per-stage breakdown, which costs a third count.
#[derive(Clone, Debug, PartialEq)]
pub struct Shortened {
    pub text: String,
    pub original_tokens: usize,
    pub final_tokens: usize,
    pub integrity_passed: bool,
}

/// [`compress`] without the per-stage breakdown: the text the proxy forwards.
pub fn shorten(text: &str, options: &Options) -> Shortened {
    let run = run(text, options, Breakdown::Totals);
    Shortened {
        text: run.text,
        original_tokens: run.original_tokens,
        final_tokens: run.final_tokens,
        integrity_passed: run.integrity_passed,
    }
}

/// Whether a run counts the text after the rule-based stages as well.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Breakdown {
    Stages,
    Totals,
}

struct Run {
    text: String,
    original_tokens: usize,
    /// With [`Breakdown::Stages`]: the tokens after the rule-based stages.
    deterministic_tokens: Option<usize>,
    final_tokens: usize,
    integrity_passed: bool,
    protected_items: ProtectedItems,
}

/// The pipeline: seal, run the stages, restore, verify, count.
fn run(text: &str, options: &Options, breakdown: Breakdown) -> Run {
    let tokenizer = options.tokenizer;
    // On a long text the original's count is made on the helper thread meanwhile.
    let shared: Option<Arc<str>> = helper::worth_splitting(text.len()).then(|| text.into());
    let original_counts = shared
        .clone()
        .map(|original| helper::start(move || tokens::segment_counts(&original, tokenizer)));
    let sealed = vault::seal(text, options);
    let protected_items = sealed.counts();
    let ctx = stages::Context {
        mode: options.mode,
        tokenizer,
        english: lang::is_english(sealed.text()),
        rule_stage_text: breakdown == Breakdown::Stages,
    };

    let staged = stages::run(sealed.text(), &ctx);
    let restored = sealed.restore(&staged.dense);
    // Only the text that is sent on needs the byte-for-byte check; the intermediate text is
    // restored just to count what the rule stages saved.
    let restored_deterministic = match &staged.deterministic {
        Some(text) => sealed.restore(text).map(Some),
        None => Some(None),
    };
    let integrity_passed = match (&restored_deterministic, &restored) {
        (Some(_), Some(out)) => sealed.verify(out),
        _ => false,
    };
    let changed = match (integrity_passed, restored_deterministic, restored) {
        (true, Some(det), Some(out)) => Some((det, out)),
        _ => None,
    };

    // The versions share most of their lines, which are counted once.
    let (mut det, out) = match changed {
        Some((det, out)) => (det, Some(out)),
        None => (None, None),
    };
    let original_counts = original_counts.map(helper::Pending::wait);
    // On a long text the intermediate version is counted on the helper thread meanwhile.
    let det_job = match (shared, &original_counts) {
        (Some(original), Some(counts)) => det.take().map(|det| {
            let counts = counts.clone();
            helper::start(move || {
                let mut counter = tokens::SharedLines::new(tokenizer);
                counter.remember(&original, &counts);
                counter.count(&det)
            })
        }),
        _ => None,
    };
    let mut counter = tokens::SharedLines::new(tokenizer);
    let original_tokens = match &original_counts {
        Some(counts) => counter.remember(text, counts),
        None => counter.count(text),
    };
    let det_tokens = det.as_deref().map(|det| counter.count(det));
    let out_tokens = out.as_deref().map(|out| counter.count(out));
    drop(counter);
    let det_tokens = det_tokens.or_else(|| det_job.map(helper::Pending::wait));
    let (text, deterministic_tokens, final_tokens) = match (out, out_tokens) {
        (Some(out), Some(out_tokens))
            if out_tokens < original_tokens
                && (!out.trim().is_empty() || text.trim().is_empty()) =>
        {
            (out, det_tokens.map(|t| t.min(original_tokens)), out_tokens)
        }
        // Compression that saves nothing is not worth a changed prompt, and a prompt that was
        // only pleasantries or decoration is sent as written rather than blank (providers
        // reject an empty message).
        _ => (
            text.to_string(),
            (breakdown == Breakdown::Stages).then_some(original_tokens),
            original_tokens,
        ),
    };
    Run {
        text,
        original_tokens,
        deterministic_tokens,
        final_tokens,
        integrity_passed,
        protected_items,
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
