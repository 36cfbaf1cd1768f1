//! terse: the command-line entry point. Each subcommand lives in its own module under `cli/`.

use clap::{Parser, Subcommand};

mod cli;
// Wired into the gateway once the service lands; until then only its unit tests use it.
#[allow(dead_code)]
mod proxy;

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
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compress(args) => cli::compress::run(args),
        Command::Eval(args) => cli::eval::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("terse: {err:#}");
            std::process::ExitCode::from(2)
        }
    }
}
