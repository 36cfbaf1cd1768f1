//! terse: the command-line entry point. Each subcommand lives in its own module under `cli/`.

use clap::{Parser, Subcommand};

mod admin;
mod api;
mod app;
mod auth;
mod body;
mod cli;
mod clock;
mod config;
mod engine;
mod error;
mod gateway;
mod keys;
mod limits;
mod mcp;
mod metrics;
mod proxy;
mod request;
mod server;
mod store;
mod usage;

#[derive(Parser)]
#[command(
    name = "terse",
    version,
    about = "Prompt compression service and drop-in LLM API proxy"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compress a prompt from FILE or standard input.
    Compress(cli::compress::Args),
    /// Measure the token reduction of every mode on JSONL corpora.
    Eval(cli::eval::Args),
    /// Run the service: the public API and the admin API (Pingora).
    Serve(cli::serve::Args),
    /// Create, list and revoke API keys in the data directory.
    Keys(cli::keys::Args),
    /// Run the MCP tool server for coding assistants on stdio (settings from SERVICE_* variables).
    Mcp(cli::mcp::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compress(args) => cli::compress::run(args),
        Command::Eval(args) => cli::eval::run(args),
        Command::Serve(args) => cli::serve::run(args),
        Command::Keys(args) => cli::keys::run(args),
        Command::Mcp(args) => cli::mcp::run(args),
    };
    match result {
        Ok(code) => code,
        // A reader that stopped early (`terse eval ... | head`) is not an error of ours.
        Err(err) if is_broken_pipe(&err) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("terse: {err:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().map(|io| io.kind());
        // serde_json wraps the writer's error without exposing it as a source.
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io == Some(BrokenPipe) || json == Some(BrokenPipe)
    })
}
