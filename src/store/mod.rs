//! Where keys and usage live. Handlers see only the [`Store`] trait, so a networked backend
//! (Postgres for keys and usage, Redis for shared counters) can be added next to
//! [`sqlite::SqliteStore`] without touching them.

pub mod sqlite;

use filters::BrevityLevel;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

pub use sqlite::SqliteStore;

/// The usage bucket of traffic that has no service key (pass-through provider keys).
#[allow(
    dead_code,
    reason = "the proxy of issue 4 records pass-through traffic here"
)]
pub const ANONYMOUS_KEY_ID: &str = "anonymous";

/// What a key may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The compress endpoint and the proxy.
    Full,
    /// The compress endpoint only.
    CompressOnly,
    /// The proxy only.
    ProxyOnly,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Full, Scope::CompressOnly, Scope::ProxyOnly];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Full => "full",
            Scope::CompressOnly => "compress_only",
            Scope::ProxyOnly => "proxy_only",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == s)
            .ok_or_else(|| {
                format!("unknown scope {s:?}: expected full, compress_only or proxy_only")
            })
    }
}

/// A stored key. The secret itself is never stored, only its hash.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyRecord {
    pub id: String,
    pub name: String,
    /// The first characters of the secret (`svc_live_ab12`), safe to show.
    pub prefix: String,
    #[serde(skip)]
    pub hash: String,
    pub scope: Scope,
    pub created_at: i64,
    pub expires_at: Option<i64>,
    pub revoked: bool,
    /// Requests per minute; `None` takes the configured default.
    pub rpm: Option<u32>,
    /// Original tokens per calendar month; `None` takes the configured default.
    pub monthly_quota: Option<u64>,
    pub last_used_at: Option<i64>,
    /// Proxy defaults of this key: compression mode (`conservative`, `balanced`,
    /// `aggressive` or `off`), output brevity and target name.
    pub mode: Option<String>,
    pub brevity: Option<BrevityLevel>,
    pub target: Option<String>,
}

impl KeyRecord {
    pub fn is_expired(&self, now: i64) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }

    /// `active`, `revoked` or `expired`: what listings show.
    pub fn status(&self, now: i64) -> &'static str {
        if self.revoked {
            "revoked"
        } else if self.is_expired(now) {
            "expired"
        } else {
            "active"
        }
    }
}

/// Tokens and requests counted over some span.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageTotals {
    pub requests: u64,
    pub original_tokens: u64,
    pub final_tokens: u64,
    pub saved_tokens: u64,
    /// The proxy's estimate of output tokens saved by brevity directives.
    pub output_saved_est: u64,
    pub usd_saved: f64,
}

impl UsageTotals {
    pub fn add(&mut self, other: &UsageTotals) {
        self.requests += other.requests;
        self.original_tokens += other.original_tokens;
        self.final_tokens += other.final_tokens;
        self.saved_tokens += other.saved_tokens;
        self.output_saved_est += other.output_saved_est;
        self.usd_saved += other.usd_saved;
    }
}

/// One request's usage, as sent to the background writer.
#[derive(Clone, Debug, PartialEq)]
pub struct UsageRecord {
    /// The key, or [`ANONYMOUS_KEY_ID`].
    pub key_id: String,
    /// When the request was served (Unix seconds); stored in its UTC hour.
    pub at: i64,
    /// `compress`, `chat` or `messages`.
    pub route: String,
    /// The model of a proxied request; empty for compress.
    pub model: String,
    pub totals: UsageTotals,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyUsage {
    /// `YYYY-MM-DD` (UTC).
    pub day: String,
    #[serde(flatten)]
    pub totals: UsageTotals,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelUsage {
    pub model: String,
    #[serde(flatten)]
    pub totals: UsageTotals,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyUsage {
    pub key_id: String,
    #[serde(flatten)]
    pub totals: UsageTotals,
}

/// Usage of one key (or of all) between two instants.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageReport {
    pub totals: UsageTotals,
    /// Days with any usage, oldest first.
    pub daily: Vec<DailyUsage>,
    /// Models by original tokens, largest first (compress traffic is the model "").
    pub top_models: Vec<ModelUsage>,
}

/// Storage of keys, usage and the few service settings.
#[async_trait::async_trait]
pub trait Store: Send + Sync {
    async fn create_key(&self, key: &KeyRecord) -> anyhow::Result<()>;
    async fn key_by_hash(&self, hash: &str) -> anyhow::Result<Option<KeyRecord>>;
    async fn key_by_id(&self, id: &str) -> anyhow::Result<Option<KeyRecord>>;
    /// Every key, newest first.
    async fn list_keys(&self) -> anyhow::Result<Vec<KeyRecord>>;
    /// Marks a key revoked; `false` when no key has that id.
    async fn revoke_key(&self, id: &str) -> anyhow::Result<bool>;

    /// Adds a batch of records to their hourly buckets and updates the keys' last use, in one
    /// transaction.
    async fn write_usage(&self, batch: &[UsageRecord]) -> anyhow::Result<()>;
    /// Usage of `key_id` (or of every key when `None`) in `[from, to)`.
    async fn usage_report(
        &self,
        key_id: Option<&str>,
        from: i64,
        to: i64,
    ) -> anyhow::Result<UsageReport>;
    /// Totals of every key with usage in `[from, to)`, largest original tokens first.
    async fn usage_by_key(&self, from: i64, to: i64) -> anyhow::Result<Vec<KeyUsage>>;

    async fn setting(&self, name: &str) -> anyhow::Result<Option<String>>;
    async fn set_setting(&self, name: &str, value: &str) -> anyhow::Result<()>;
}
