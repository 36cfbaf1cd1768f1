//! Telemetry of one tool-server session (one assistant connection), kept in memory.
//!
//! Input savings are measured: the sum of the service's `stats` of every successful compression.
//! Output savings cannot be measured here, because the answers the assistant's model writes
//! never pass through this server; they are an estimate, labelled as such (see `output_estimate`).

use super::prices::SessionPrice;
use filters::{BrevityLevel, Stats};
use serde::Serialize;
use std::sync::Mutex;
use std::time::Instant;

/// Assumed answer length per token of compressed prompt, for the output estimate: an answer as
/// long as the prompt that asked for it. A prior, not a measurement.
pub const ASSUMED_ANSWER_TOKENS_PER_PROMPT_TOKEN: f64 = 1.0;

#[derive(Debug, Default)]
struct Counters {
    tool_calls: u64,
    compress_calls: u64,
    failed_calls: u64,
    original_tokens: u64,
    final_tokens: u64,
    input_tokens_saved: u64,
}

#[derive(Debug)]
pub struct SessionTelemetry {
    started: Instant,
    brevity: BrevityLevel,
    price: SessionPrice,
    counters: Mutex<Counters>,
}

/// The `session` object of `service_get_metrics` (every field is documented in the README).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionMetrics {
    pub uptime_seconds: f64,
    pub tool_calls: u64,
    pub compress_calls: u64,
    pub failed_calls: u64,
    pub original_tokens: u64,
    pub final_tokens: u64,
    pub input_tokens_saved: u64,
    pub input_saved_percent: f64,
    pub brevity_level: BrevityLevel,
    pub output_saving_share: f64,
    pub output_tokens_saved_est: u64,
    pub price_model: String,
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
    pub input_usd_saved: f64,
    pub output_usd_saved_est: f64,
    pub net_usd_saved: f64,
}

impl SessionTelemetry {
    pub fn new(brevity: BrevityLevel, price: SessionPrice) -> Self {
        SessionTelemetry {
            started: Instant::now(),
            brevity,
            price,
            counters: Mutex::new(Counters::default()),
        }
    }

    fn counters(&self) -> std::sync::MutexGuard<'_, Counters> {
        // The counters stay consistent even if a holder panicked: every update is one statement.
        self.counters
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Counts one `tools/call` of either tool, before it runs.
    pub fn record_call(&self) {
        self.counters().tool_calls += 1;
    }

    /// Counts a call that returned `isError: true`.
    pub fn record_failure(&self) {
        self.counters().failed_calls += 1;
    }

    pub fn record_compression(&self, stats: &Stats) {
        let mut counters = self.counters();
        counters.compress_calls += 1;
        counters.original_tokens += stats.original_tokens as u64;
        counters.final_tokens += stats.final_tokens as u64;
        counters.input_tokens_saved += stats.saved_tokens as u64;
    }

    pub fn snapshot(&self) -> SessionMetrics {
        let counters = self.counters();
        let share = self.brevity.prior_output_saving();
        let output_saved = output_estimate(counters.final_tokens, share);
        let price = &self.price.price;
        let input_usd = price.input_usd(counters.input_tokens_saved as f64);
        let output_usd = price.output_usd(output_saved as f64);
        SessionMetrics {
            uptime_seconds: round(self.started.elapsed().as_secs_f64(), 3),
            tool_calls: counters.tool_calls,
            compress_calls: counters.compress_calls,
            failed_calls: counters.failed_calls,
            original_tokens: counters.original_tokens,
            final_tokens: counters.final_tokens,
            input_tokens_saved: counters.input_tokens_saved,
            input_saved_percent: if counters.original_tokens == 0 {
                0.0
            } else {
                round(
                    100.0 * counters.input_tokens_saved as f64 / counters.original_tokens as f64,
                    2,
                )
            },
            brevity_level: self.brevity,
            output_saving_share: share,
            output_tokens_saved_est: output_saved,
            price_model: self.price.model.clone(),
            input_usd_per_mtok: price.input_usd_per_mtok,
            output_usd_per_mtok: price.output_usd_per_mtok,
            input_usd_saved: round(input_usd, 6),
            output_usd_saved_est: round(output_usd, 6),
            net_usd_saved: round(input_usd + output_usd, 6),
        }
    }
}

/// Estimated output tokens saved: the answers to the compressed prompts are assumed to be
/// `ASSUMED_ANSWER_TOKENS_PER_PROMPT_TOKEN` times as long as those prompts, and the brevity
/// directive is assumed to save its level's prior share of them.
pub fn output_estimate(compressed_prompt_tokens: u64, share: f64) -> u64 {
    (compressed_prompt_tokens as f64 * ASSUMED_ANSWER_TOKENS_PER_PROMPT_TOKEN * share).round()
        as u64
}

fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::prices::ModelPrice;
    use filters::{Mode, Options};

    fn telemetry(level: BrevityLevel) -> SessionTelemetry {
        let price = SessionPrice {
            model: "m".into(),
            price: ModelPrice {
                input_usd_per_mtok: 3.0,
                output_usd_per_mtok: 15.0,
            },
        };
        SessionTelemetry::new(level, price)
    }

    fn stats(original: usize, final_tokens: usize) -> Stats {
        let mut stats = filters::compress("hello", &Options::with_mode(Mode::Balanced)).stats;
        stats.original_tokens = original;
        stats.final_tokens = final_tokens;
        stats.saved_tokens = original - final_tokens;
        stats
    }

    #[test]
    fn compressions_add_up_and_are_priced() {
        let session = telemetry(BrevityLevel::Full);
        for (original, final_tokens) in [(1000, 600), (3000, 1400)] {
            session.record_call();
            session.record_compression(&stats(original, final_tokens));
        }
        session.record_call();
        session.record_failure();
        let m = session.snapshot();
        assert_eq!((m.tool_calls, m.compress_calls, m.failed_calls), (3, 2, 1));
        assert_eq!(
            (m.original_tokens, m.final_tokens, m.input_tokens_saved),
            (4000, 2000, 2000)
        );
        assert_eq!(m.input_saved_percent, 50.0);
        // 2000 compressed-prompt tokens x 1.0 x 0.30 (full's prior share).
        assert_eq!(m.output_tokens_saved_est, 600);
        assert!(
            (m.input_usd_saved - 0.006).abs() < 1e-9,
            "{}",
            m.input_usd_saved
        );
        assert!((m.output_usd_saved_est - 0.009).abs() < 1e-9);
        assert!((m.net_usd_saved - 0.015).abs() < 1e-9);
    }

    #[test]
    fn no_directive_means_no_output_estimate() {
        let session = telemetry(BrevityLevel::Off);
        session.record_compression(&stats(100, 50));
        let m = session.snapshot();
        assert_eq!(m.output_tokens_saved_est, 0);
        assert_eq!(m.output_usd_saved_est, 0.0);
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json["brevityLevel"], "off");
        assert!(json.get("outputTokensSavedEst").is_some());
    }
}
