//! `terse serve [--config PATH]`: load the configuration, start logging, run the server.

use crate::config::{Config, LogFormat};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

#[derive(clap::Args)]
pub struct Args {
    /// YAML configuration file (default: the embedded conf/terse.yaml). SERVICE_<SECTION>_<KEY>
    /// environment variables override any key.
    #[arg(long)]
    config: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    init_logging(&config);
    crate::server::run(config)?;
    Ok(ExitCode::SUCCESS)
}

fn init_logging(config: &Config) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(config.logging.level.as_str()));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match config.logging.format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}
