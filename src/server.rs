//! Pingora bootstrap: the public listener (the [`Gateway`]), the admin listener (the
//! [`AdminApp`]), and the usage flusher as a background service. No daemon; SIGTERM is a
//! graceful stop whose grace period and runtime timeout come from the config.

use crate::admin::{self, AdminApp};
use crate::app::App;
use crate::auth::Authenticator;
use crate::clock;
use crate::config::Config;
use crate::gateway::Gateway;
use crate::limits::Limiter;
use crate::metrics::Metrics;
use crate::store::{SqliteStore, Store};
use crate::usage::{self, UsageFlusher};
use anyhow::Context;
use async_trait::async_trait;
use pingora::server::configuration::ServerConf;
use pingora::server::{RunArgs, Server, ShutdownSignal, ShutdownSignalWatch};
use pingora::services::listening::Service;
use std::sync::Arc;
use std::time::Duration;
use tokio::signal::unix::{SignalKind, signal};

/// Pingora's signals, except that SIGINT (Ctrl-C) is graceful too: both SIGTERM and SIGINT
/// finish in-flight requests and flush usage. SIGQUIT keeps Pingora's meaning (hand the
/// listening sockets to a new process, then stop).
struct GracefulSignals;

#[async_trait]
impl ShutdownSignalWatch for GracefulSignals {
    async fn recv(&self) -> ShutdownSignal {
        let wait_for = |kind: SignalKind| async move {
            match signal(kind) {
                Ok(mut stream) => {
                    stream.recv().await;
                }
                Err(err) => {
                    tracing::error!(error = %err, "cannot watch a signal");
                    std::future::pending::<()>().await;
                }
            }
        };
        tokio::select! {
            _ = wait_for(SignalKind::terminate()) => ShutdownSignal::GracefulTerminate,
            _ = wait_for(SignalKind::interrupt()) => ShutdownSignal::GracefulTerminate,
            _ = wait_for(SignalKind::quit()) => ShutdownSignal::GracefulUpgrade,
        }
    }
}

/// Builds everything from `config` and runs until SIGTERM/SIGINT, then writes queued usage.
pub fn run(config: Config) -> anyhow::Result<()> {
    // Requests share the cores already; a second thread per long text only competes with them.
    filters::helper::set_enabled(false);
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&config.storage.data_dir)?);
    let setup = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (app, flusher) = setup.block_on(build_app(config, store))?;
    let flusher = Arc::new(flusher);

    let mut server = Server::new_with_opt_and_conf(None, server_conf(&app.config));
    let conf = server.configuration.clone();

    let mut public = pingora::proxy::http_proxy_service_with_name(
        &conf,
        Gateway::new(app.clone()),
        "terse public API",
    );
    public.add_tcp(&app.config.server.public_listen.to_string());

    let mut admin_service = Service::new("terse admin API".to_string(), AdminApp::new(app.clone()));
    admin_service.add_tcp(&app.config.server.admin_listen.to_string());

    let flusher_service = pingora::services::background::GenBackgroundService::new(
        "terse usage flusher".to_string(),
        flusher.clone(),
    );

    server.add_service(flusher_service);
    server.add_service(public);
    server.add_service(admin_service);
    server.bootstrap();
    tracing::info!(
        public = %app.config.server.public_listen,
        admin = %app.config.server.admin_listen,
        data_dir = %app.config.storage.data_dir.display(),
        "terse serving"
    );
    server.run(RunArgs {
        shutdown_signal: Box::new(GracefulSignals),
    });

    setup.block_on(flusher.drain());
    tracing::info!("terse stopped");
    Ok(())
}

async fn build_app(
    config: Config,
    store: Arc<dyn Store>,
) -> anyhow::Result<(Arc<App>, UsageFlusher)> {
    // Load both tokenizers now so the first request does not pay for it.
    for tokenizer in filters::Tokenizer::ALL {
        filters::count_tokens("warm up", tokenizer);
    }
    let admin_token_hash = admin::token::resolve(config.admin.token.configured(), store.as_ref())
        .await
        .context("cannot set up the admin token")?;
    let limits = Limiter::new(
        config.limits.default_rpm,
        config.limits.default_monthly_quota,
    );
    let now = clock::now();
    let month = clock::month_start(now);
    let used = store
        .usage_by_key(month, clock::next_month_start(now))
        .await
        .context("cannot read this month's usage")?;
    limits.seed_month(
        month,
        used.into_iter()
            .map(|row| (row.key_id, row.totals.original_tokens)),
    );
    let (sink, flusher) = usage::channel(
        store.clone(),
        Duration::from_millis(config.usage.flush_interval_ms),
        config.usage.flush_batch_size,
    );
    let proxy = crate::proxy::handler::Proxy::from_config(&config)?;
    let app = App {
        proxy,
        auth: Authenticator::new(
            store.clone(),
            Duration::from_millis(config.auth.cache_ttl_ms),
        ),
        limits,
        usage: sink,
        metrics: Metrics::new(),
        admin_token_hash,
        store,
        config,
    };
    Ok((Arc::new(app), flusher))
}

fn server_conf(config: &Config) -> ServerConf {
    let threads = match config.server.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    ServerConf {
        daemon: false,
        threads,
        grace_period_seconds: Some(config.server.grace_period_seconds),
        graceful_shutdown_timeout_seconds: Some(config.server.graceful_shutdown_timeout_seconds),
        ..ServerConf::default()
    }
}
