//! `terse mcp`: the MCP tool server that coding assistants start over stdio (SPEC 4.4).
//!
//! It is a client of the running service's public API (`POST /api/v1/compress`,
//! `GET /api/v1/usage`), so keys, scopes, limits and usage apply as for any client. Standard
//! output carries protocol messages only; logs go to standard error.

mod args;
mod client;
#[cfg(test)]
mod client_tests;
pub mod config;
mod errors;
mod prices;
mod schema;
mod server;
mod session;

use config::McpConfig;
use prices::PriceTable;
use rmcp::ServiceExt;
use session::SessionTelemetry;

/// Serves MCP on stdin/stdout until the client closes the connection. Every setting is checked
/// before the first byte is read, so a bad one stops the server with a message on stderr.
pub fn serve(config: McpConfig) -> anyhow::Result<()> {
    let price = PriceTable::load(config.prices_path.as_deref())
        .and_then(|table| table.for_session(config.price_model.as_deref()))
        .map_err(anyhow::Error::msg)?;
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        tracing::info!(
            service_url = %config.service_url,
            mode = %config.default_mode,
            brevity = %config.brevity,
            price_model = %price.model,
            "terse mcp serving on stdio"
        );
        let server = server::TerseMcp::new(&config, SessionTelemetry::new(config.brevity, price));
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|err| anyhow::anyhow!("the MCP handshake failed: {err}"))?;
        let reason = running.waiting().await?;
        tracing::info!(?reason, "terse mcp stopped");
        Ok(())
    })
}

/// Logs to standard error only: standard output belongs to the protocol.
///
/// The SDK and the HTTP client log whole messages at debug level (prompts included), so they are
/// capped at `warn` whatever RUST_LOG asks: a log line never carries a prompt or a key.
fn init_logging() {
    let mut filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    for quiet in ["rmcp=warn", "ureq=warn", "ureq_proto=warn"] {
        if let Ok(directive) = quiet.parse() {
            filter = filter.add_directive(directive);
        }
    }
    // A second initialisation (only possible in tests) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
