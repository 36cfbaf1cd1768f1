//! `terse keys create|list|revoke`: key management straight on the data directory. SQLite in
//! WAL mode lets this run while the server is up; see `auth.cache_ttl_ms` for how soon a
//! running server sees a revocation made here.

use crate::clock;
use crate::config::Config;
use crate::keys::KeyRequest;
use crate::store::{SqliteStore, Store};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// YAML configuration file (default: the embedded conf/terse.yaml); only `storage.data_dir`
    /// is used.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: KeysCommand,
}

#[derive(clap::Subcommand)]
enum KeysCommand {
    /// Create a key; its secret is printed once, alone on the last line.
    Create(KeyRequest),
    /// List keys (never their secrets).
    List,
    /// Revoke a key by its id.
    Revoke { id: String },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let store = SqliteStore::open(&config.storage.data_dir)?;
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(execute(args.command, &store))
}

async fn execute(command: KeysCommand, store: &SqliteStore) -> anyhow::Result<ExitCode> {
    match command {
        KeysCommand::Create(request) => {
            let (record, secret) = request
                .into_record(clock::now())
                .map_err(|why| anyhow::anyhow!("cannot create the key: {why}"))?;
            store.create_key(&record).await?;
            println!(
                "created key {} ({}, scope {})",
                record.id, record.name, record.scope
            );
            if let Some(at) = record.expires_at {
                println!("expires {}", clock::day_label(at));
            }
            println!("the secret below is shown once; store it now:");
            println!("{}", secret.secret);
            Ok(ExitCode::SUCCESS)
        }
        KeysCommand::List => {
            let now = clock::now();
            println!(
                "{:<16} {:<14} {:<13} {:<8} {:<10} {:<10} {:>6} {:>12} NAME",
                "ID", "PREFIX", "SCOPE", "STATUS", "EXPIRES", "LAST USED", "RPM", "QUOTA"
            );
            for key in store.list_keys().await? {
                let day = |at: Option<i64>| at.map_or_else(|| "-".to_string(), clock::day_label);
                println!(
                    "{:<16} {:<14} {:<13} {:<8} {:<10} {:<10} {:>6} {:>12} {}",
                    key.id,
                    key.prefix,
                    key.scope.as_str(),
                    key.status(now),
                    day(key.expires_at),
                    day(key.last_used_at),
                    key.rpm.map_or_else(|| "default".into(), |r| r.to_string()),
                    key.monthly_quota
                        .map_or_else(|| "default".into(), |q| q.to_string()),
                    key.name
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        KeysCommand::Revoke { id } => {
            if store.revoke_key(&id).await? {
                println!("revoked {id}");
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!("terse: no key with id {id}");
                Ok(ExitCode::from(1))
            }
        }
    }
}
