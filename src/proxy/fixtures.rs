//! Shared inputs of the adapters' unit tests.

use super::input::{Plan, ProxyMode};
use filters::{BrevityLevel, Mode};
use serde_json::Value;

/// Wordy prose around a code span, a template variable and inline JSON.
pub const WORDY: &str = "I would really like you to please basically just help me out here, if you \
    could, with the following task, which is honestly quite simple: run `cargo test --all` \
    and explain {{result}} using the JSON {\"a\": 1, \"b\": [1, 2]} as the reference.";

/// Whether `text` still holds every protected item of [`WORDY`] byte for byte.
pub fn keeps_protected(text: &str) -> bool {
    text.contains("`cargo test --all`")
        && text.contains("{{result}}")
        && text.contains("{\"a\": 1, \"b\": [1, 2]}")
}

pub fn plan(brevity: BrevityLevel) -> Plan {
    Plan {
        mode: ProxyMode::Compress(Mode::Aggressive),
        brevity,
    }
}

pub fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("the rewritten body is JSON")
}
