use crate::mcp::config::McpConfig;
use std::process::ExitCode;

/// Settings come from the environment, as an assistant's MCP configuration passes them.
#[derive(clap::Args)]
#[command(after_help = "Environment:
  SERVICE_API_KEY      service key with scope full or compress_only (required)
  SERVICE_URL          address of the terse service (default http://127.0.0.1:8080)
  SERVICE_MODE         default compression mode: conservative, balanced (default), aggressive
  SERVICE_PONYTAIL     output brevity in the instructions: off (default), lite, full, ultra
  SERVICE_PRICES       price table (YAML) instead of the embedded one
  SERVICE_PRICE_MODEL  model of the price table that values the savings
  RUST_LOG             log filter (logs go to standard error)")]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    let config = McpConfig::from_env().map_err(anyhow::Error::msg)?;
    crate::mcp::serve(config)?;
    Ok(ExitCode::SUCCESS)
}
