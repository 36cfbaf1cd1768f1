//! The state every handler shares: configuration, store, auth, limits, usage and metrics.

use crate::auth::Authenticator;
use crate::config::Config;
use crate::limits::Limiter;
use crate::metrics::Metrics;
use crate::store::Store;
use crate::usage::UsageSink;
use filters::Options;
use std::sync::Arc;

pub struct App {
    pub config: Config,
    pub store: Arc<dyn Store>,
    pub auth: Authenticator,
    pub limits: Limiter,
    pub usage: UsageSink,
    pub metrics: Metrics,
    /// Targets, upstream connections and output estimates of the provider proxy.
    pub proxy: crate::proxy::handler::Proxy,
    /// SHA-256 (hex) of the admin token: from config, or generated on first start.
    pub admin_token_hash: String,
}

impl App {
    /// What a compress request gets for the fields it omits.
    pub fn compress_defaults(&self) -> Options {
        Options::with_mode(self.config.compress.default_mode)
    }
}
