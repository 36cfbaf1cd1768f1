//! The statistics of one compression, shaped as SPEC 2.2's `stats` object.

use crate::options::{Mode, Tokenizer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub mode: Mode,
    pub original_tokens: usize,
    pub final_tokens: usize,
    pub saved_tokens: usize,
    /// Percent of the original tokens saved, rounded to two decimals.
    pub saved_percent: f64,
    /// Wall time of the in-memory work, in milliseconds (the only field that varies between runs).
    pub latency_ms: f64,
    pub tokenizer_used: Tokenizer,
    pub integrity_passed: bool,
    pub stage_breakdown: StageBreakdown,
    pub protected_items: ProtectedItems,
}

/// Tokens saved by each stage, counted with the real tokenizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StageBreakdown {
    /// Saved by the rule-based stages: cleanup, preamble pruning, phrase rewriting.
    pub deterministic_saved: usize,
    /// Saved by the density stages: function-word and sentence pruning.
    pub density_saved: usize,
    pub protected_items_count: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProtectedItems {
    /// Fenced code blocks and inline code spans.
    pub code_blocks: usize,
    pub json_blocks: usize,
    pub variables: usize,
}

impl ProtectedItems {
    pub fn total(&self) -> usize {
        self.code_blocks + self.json_blocks + self.variables
    }
}

/// The engine's answer: the text to send on, and how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct Compressed {
    pub text: String,
    pub stats: Stats,
}
