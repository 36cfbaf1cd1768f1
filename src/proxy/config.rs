//! The `proxy:` and `targets:` sections of `conf/terse.yaml`.

use super::input::ProxyMode;
use super::route::{ModelRoute, TargetConfig};
use filters::BrevityLevel;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// Every upstream the proxy may forward to, by name.
pub type TargetsConfig = BTreeMap<String, TargetConfig>;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProxyConfig {
    /// Compression mode when neither `X-Service-Mode` nor the key sets one.
    pub default_mode: ProxyMode,
    /// Output brevity when neither `X-Service-Brevity` nor the key sets one.
    pub default_brevity: BrevityLevel,
    /// Longest wait for a TCP (and TLS) connection to an upstream, in milliseconds.
    pub connect_timeout_ms: u64,
    /// Longest wait for the upstream's response header, and between two body reads.
    pub upstream_timeout_ms: u64,
    /// Target of service-key requests on `/v1/chat/completions` no other rule placed.
    pub default_openai_target: String,
    /// Target of service-key requests on `/v1/messages` no other rule placed.
    pub default_anthropic_target: String,
    /// Model-name rules, first match wins.
    #[serde(default)]
    pub model_routes: Vec<ModelRoute>,
}

impl ProxyConfig {
    pub fn connect_timeout(&self) -> Duration {
        Duration::from_millis(self.connect_timeout_ms.max(1))
    }

    pub fn upstream_timeout(&self) -> Duration {
        Duration::from_millis(self.upstream_timeout_ms.max(1))
    }
}
