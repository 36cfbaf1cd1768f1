//! The `X-Service-*` telemetry headers of SPEC 2.4, sent on every proxy response (errors too).
//!
//! | Header | Value |
//! |---|---|
//! | `X-Service-Original-Tokens` | tokens of the prompt texts the proxy handles (system, developer, user text), as sent |
//! | `X-Service-Input-Tokens` | tokens of the same texts as forwarded, brevity directive included |
//! | `X-Service-Input-Saved` | original minus input; negative when the directive cost more than compression saved |
//! | `X-Service-Output-Saved-Est` | an **estimate** of output tokens the directive saves (see `estimate.rs`) |
//! | `X-Service-Latency-Ms` | the proxy's own time on the request before it went upstream (auth, limits, compression, routing), in ms |
//! | `X-Service-Vault-Status` | `intact`, `bypassed` or `fallback` (see `input::VaultStatus`) |
//!
//! Token counts use the model's tokenizer (`input::tokenizer_for_model`). A request refused
//! before its body was read reports zeros and `bypassed`.

use super::input::{RequestStats, VaultStatus};

pub const ORIGINAL_TOKENS: &str = "x-service-original-tokens";
pub const INPUT_TOKENS: &str = "x-service-input-tokens";
pub const INPUT_SAVED: &str = "x-service-input-saved";
pub const OUTPUT_SAVED_EST: &str = "x-service-output-saved-est";
pub const LATENCY_MS: &str = "x-service-latency-ms";
pub const VAULT_STATUS: &str = "x-service-vault-status";

/// The values of one response's telemetry headers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Telemetry {
    pub original_tokens: usize,
    pub input_tokens: usize,
    pub output_saved_est: u64,
    pub latency_ms: f64,
    pub vault: VaultStatus,
}

impl Telemetry {
    pub fn from_stats(stats: &RequestStats, output_saved_est: u64, latency_ms: f64) -> Self {
        Telemetry {
            original_tokens: stats.original_tokens,
            input_tokens: stats.input_tokens,
            output_saved_est,
            latency_ms,
            vault: stats.vault,
        }
    }

    pub fn input_saved(&self) -> i64 {
        self.original_tokens as i64 - self.input_tokens as i64
    }

    /// Header names and values, ready to insert into a response.
    pub fn headers(&self) -> [(&'static str, String); 6] {
        [
            (ORIGINAL_TOKENS, self.original_tokens.to_string()),
            (INPUT_TOKENS, self.input_tokens.to_string()),
            (INPUT_SAVED, self.input_saved().to_string()),
            (OUTPUT_SAVED_EST, self.output_saved_est.to_string()),
            (LATENCY_MS, format!("{:.3}", self.latency_ms)),
            (VAULT_STATUS, self.vault.as_str().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_carry_every_value() {
        let telemetry = Telemetry {
            original_tokens: 120,
            input_tokens: 150,
            output_saved_est: 42,
            latency_ms: 0.1234,
            vault: VaultStatus::Intact,
        };
        let headers = telemetry.headers();
        let get = |name| headers.iter().find(|(n, _)| *n == name).unwrap().1.clone();
        assert_eq!(get(ORIGINAL_TOKENS), "120");
        assert_eq!(get(INPUT_TOKENS), "150");
        assert_eq!(get(INPUT_SAVED), "-30");
        assert_eq!(get(OUTPUT_SAVED_EST), "42");
        assert_eq!(get(LATENCY_MS), "0.123");
        assert_eq!(get(VAULT_STATUS), "intact");
        let default = Telemetry::default().headers();
        assert_eq!(default[5].1, "bypassed");
    }
}
