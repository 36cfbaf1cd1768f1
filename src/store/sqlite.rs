//! The embedded store: one SQLite file in the data directory, in WAL mode so that `terse keys`
//! can write while the server reads. Every statement is short; one connection behind a mutex
//! is enough because key lookups are cached and usage is written in batches.

use super::{
    DailyUsage, KeyRecord, KeyUsage, ModelUsage, Scope, Store, UsageRecord, UsageReport,
    UsageTotals,
};
use crate::clock;
use anyhow::Context;
use rusqlite::{Connection, OptionalExtension, Row, params};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

pub const DB_FILE: &str = "terse.db";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS keys (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    prefix        TEXT NOT NULL,
    hash          TEXT NOT NULL UNIQUE,
    scope         TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER,
    revoked       INTEGER NOT NULL DEFAULT 0,
    rpm           INTEGER,
    monthly_quota INTEGER,
    last_used_at  INTEGER,
    mode          TEXT,
    brevity       TEXT,
    target        TEXT
);
CREATE TABLE IF NOT EXISTS usage (
    key_id           TEXT NOT NULL,
    hour             INTEGER NOT NULL,
    route            TEXT NOT NULL,
    model            TEXT NOT NULL,
    requests         INTEGER NOT NULL,
    original_tokens  INTEGER NOT NULL,
    final_tokens     INTEGER NOT NULL,
    saved_tokens     INTEGER NOT NULL,
    output_saved_est INTEGER NOT NULL,
    usd_saved        REAL NOT NULL,
    PRIMARY KEY (key_id, hour, route, model)
);
CREATE INDEX IF NOT EXISTS usage_by_hour ON usage (hour);
CREATE TABLE IF NOT EXISTS settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

const KEY_COLUMNS: &str = "id, name, prefix, hash, scope, created_at, expires_at, revoked, rpm, \
                           monthly_quota, last_used_at, mode, brevity, target";

const TOTALS_COLUMNS: &str = "COALESCE(SUM(requests), 0), COALESCE(SUM(original_tokens), 0), \
     COALESCE(SUM(final_tokens), 0), COALESCE(SUM(saved_tokens), 0), \
     COALESCE(SUM(output_saved_est), 0), COALESCE(SUM(usd_saved), 0.0)";

pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database in `data_dir`, which is created too.
    pub fn open(data_dir: &Path) -> anyhow::Result<SqliteStore> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create the data directory {}", data_dir.display()))?;
        let path = data_dir.join(DB_FILE);
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot open the database {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)
            .context("cannot create the database schema")?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent: keep going.
        self.conn
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    fn totals_where(
        conn: &Connection,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> rusqlite::Result<UsageTotals> {
        conn.query_row(
            &format!("SELECT {TOTALS_COLUMNS} FROM usage WHERE {filter}"),
            args,
            |row| totals_at(row, 0),
        )
    }
}

fn key_from_row(row: &Row<'_>) -> rusqlite::Result<KeyRecord> {
    let scope: String = row.get(4)?;
    let brevity: Option<String> = row.get(12)?;
    Ok(KeyRecord {
        id: row.get(0)?,
        name: row.get(1)?,
        prefix: row.get(2)?,
        hash: row.get(3)?,
        // An unreadable scope grants nothing rather than everything.
        scope: scope.parse().unwrap_or(Scope::ProxyOnly),
        created_at: row.get(5)?,
        expires_at: row.get(6)?,
        revoked: row.get(7)?,
        rpm: row.get(8)?,
        monthly_quota: row.get::<_, Option<i64>>(9)?.map(|q| q.max(0) as u64),
        last_used_at: row.get(10)?,
        mode: row.get(11)?,
        brevity: brevity.and_then(|b| b.parse().ok()),
        target: row.get(13)?,
    })
}

fn totals_at(row: &Row<'_>, first: usize) -> rusqlite::Result<UsageTotals> {
    let count =
        |i: usize| -> rusqlite::Result<u64> { Ok(row.get::<_, i64>(first + i)?.max(0) as u64) };
    Ok(UsageTotals {
        requests: count(0)?,
        original_tokens: count(1)?,
        final_tokens: count(2)?,
        saved_tokens: count(3)?,
        output_saved_est: count(4)?,
        usd_saved: row.get(first + 5)?,
    })
}

type BucketKey = (String, i64, String, String);

/// Sums records that fall in the same bucket, so a batch costs one upsert per bucket.
fn aggregate(batch: &[UsageRecord]) -> (HashMap<BucketKey, UsageTotals>, HashMap<String, i64>) {
    let mut buckets: HashMap<BucketKey, UsageTotals> = HashMap::new();
    let mut last_used: HashMap<String, i64> = HashMap::new();
    for record in batch {
        let bucket = (
            record.key_id.clone(),
            clock::hour_floor(record.at),
            record.route.clone(),
            record.model.clone(),
        );
        buckets.entry(bucket).or_default().add(&record.totals);
        let seen = last_used.entry(record.key_id.clone()).or_insert(record.at);
        *seen = (*seen).max(record.at);
    }
    (buckets, last_used)
}

#[async_trait::async_trait]
impl Store for SqliteStore {
    async fn create_key(&self, key: &KeyRecord) -> anyhow::Result<()> {
        self.conn().execute(
            &format!("INSERT INTO keys ({KEY_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"),
            params![
                key.id,
                key.name,
                key.prefix,
                key.hash,
                key.scope.as_str(),
                key.created_at,
                key.expires_at,
                key.revoked,
                key.rpm,
                key.monthly_quota.map(|q| q.min(i64::MAX as u64) as i64),
                key.last_used_at,
                key.mode,
                key.brevity.map(|b| b.as_str()),
                key.target,
            ],
        )?;
        Ok(())
    }

    async fn key_by_hash(&self, hash: &str) -> anyhow::Result<Option<KeyRecord>> {
        Ok(self
            .conn()
            .prepare_cached(&format!("SELECT {KEY_COLUMNS} FROM keys WHERE hash = ?1"))?
            .query_row([hash], key_from_row)
            .optional()?)
    }

    async fn key_by_id(&self, id: &str) -> anyhow::Result<Option<KeyRecord>> {
        Ok(self
            .conn()
            .prepare_cached(&format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = ?1"))?
            .query_row([id], key_from_row)
            .optional()?)
    }

    async fn list_keys(&self) -> anyhow::Result<Vec<KeyRecord>> {
        let conn = self.conn();
        let mut statement = conn.prepare(&format!(
            "SELECT {KEY_COLUMNS} FROM keys ORDER BY created_at DESC, id"
        ))?;
        let keys = statement
            .query_map([], key_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(keys)
    }

    async fn revoke_key(&self, id: &str) -> anyhow::Result<bool> {
        let changed = self
            .conn()
            .execute("UPDATE keys SET revoked = 1 WHERE id = ?1", [id])?;
        Ok(changed > 0)
    }

    async fn write_usage(&self, batch: &[UsageRecord]) -> anyhow::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let (buckets, last_used) = aggregate(batch);
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut upsert = tx.prepare_cached(
                "INSERT INTO usage (key_id, hour, route, model, requests, original_tokens,
                     final_tokens, saved_tokens, output_saved_est, usd_saved)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                 ON CONFLICT (key_id, hour, route, model) DO UPDATE SET
                     requests = requests + excluded.requests,
                     original_tokens = original_tokens + excluded.original_tokens,
                     final_tokens = final_tokens + excluded.final_tokens,
                     saved_tokens = saved_tokens + excluded.saved_tokens,
                     output_saved_est = output_saved_est + excluded.output_saved_est,
                     usd_saved = usd_saved + excluded.usd_saved",
            )?;
            for ((key_id, hour, route, model), t) in &buckets {
                upsert.execute(params![
                    key_id,
                    hour,
                    route,
                    model,
                    t.requests as i64,
                    t.original_tokens as i64,
                    t.final_tokens as i64,
                    t.saved_tokens as i64,
                    t.output_saved_est as i64,
                    t.usd_saved,
                ])?;
            }
            let mut touch = tx.prepare_cached(
                "UPDATE keys SET last_used_at = MAX(COALESCE(last_used_at, 0), ?2) WHERE id = ?1",
            )?;
            for (key_id, at) in &last_used {
                touch.execute(params![key_id, at])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    async fn usage_report(
        &self,
        key_id: Option<&str>,
        from: i64,
        to: i64,
    ) -> anyhow::Result<UsageReport> {
        let conn = self.conn();
        let key_filter = if key_id.is_some() {
            "key_id = ?3"
        } else {
            "?3 IS NULL"
        };
        let filter = format!("hour >= ?1 AND hour < ?2 AND {key_filter}");
        let args: [&dyn rusqlite::ToSql; 3] = [&from, &to, &key_id];
        let totals = Self::totals_where(&conn, &filter, &args)?;

        let mut daily_statement = conn.prepare(&format!(
            "SELECT hour / {day} AS day, {TOTALS_COLUMNS} FROM usage WHERE {filter}
             GROUP BY day ORDER BY day",
            day = clock::DAY
        ))?;
        let daily = daily_statement
            .query_map(args, |row| {
                Ok(DailyUsage {
                    day: clock::day_label(row.get::<_, i64>(0)? * clock::DAY),
                    totals: totals_at(row, 1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;

        let mut models_statement = conn.prepare(&format!(
            "SELECT model, {TOTALS_COLUMNS} FROM usage WHERE {filter}
             GROUP BY model ORDER BY SUM(original_tokens) DESC, model LIMIT 10"
        ))?;
        let top_models = models_statement
            .query_map(args, |row| {
                Ok(ModelUsage {
                    model: row.get(0)?,
                    totals: totals_at(row, 1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(UsageReport {
            totals,
            daily,
            top_models,
        })
    }

    async fn usage_by_key(&self, from: i64, to: i64) -> anyhow::Result<Vec<KeyUsage>> {
        let conn = self.conn();
        let mut statement = conn.prepare(&format!(
            "SELECT key_id, {TOTALS_COLUMNS} FROM usage WHERE hour >= ?1 AND hour < ?2
             GROUP BY key_id ORDER BY SUM(original_tokens) DESC, key_id"
        ))?;
        let rows = statement
            .query_map([from, to], |row| {
                Ok(KeyUsage {
                    key_id: row.get(0)?,
                    totals: totals_at(row, 1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    async fn setting(&self, name: &str) -> anyhow::Result<Option<String>> {
        Ok(self
            .conn()
            .query_row(
                "SELECT value FROM settings WHERE name = ?1",
                [name],
                |row| row.get(0),
            )
            .optional()?)
    }

    async fn set_setting(&self, name: &str, value: &str) -> anyhow::Result<()> {
        self.conn().execute(
            "INSERT INTO settings (name, value) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [name, value],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str, hash: &str) -> KeyRecord {
        KeyRecord {
            id: id.into(),
            name: "test".into(),
            prefix: "svc_live_abcd".into(),
            hash: hash.into(),
            scope: Scope::CompressOnly,
            created_at: 1_000,
            expires_at: Some(2_000),
            revoked: false,
            rpm: Some(5),
            monthly_quota: Some(1_000),
            last_used_at: None,
            mode: Some("off".into()),
            brevity: Some(filters::BrevityLevel::Lite),
            target: Some("openai".into()),
        }
    }

    fn record(key_id: &str, at: i64, model: &str, original: u64, saved: u64) -> UsageRecord {
        UsageRecord {
            key_id: key_id.into(),
            at,
            route: if model.is_empty() { "compress" } else { "chat" }.into(),
            model: model.into(),
            totals: UsageTotals {
                requests: 1,
                original_tokens: original,
                final_tokens: original - saved,
                saved_tokens: saved,
                output_saved_est: 0,
                usd_saved: 0.5,
            },
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn keys_round_trip_and_revoke() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("nested")).unwrap();
        block_on(async {
            let k = key("key_1", "h1");
            store.create_key(&k).await.unwrap();
            assert_eq!(store.key_by_hash("h1").await.unwrap(), Some(k.clone()));
            assert_eq!(store.key_by_id("key_1").await.unwrap(), Some(k));
            assert!(store.key_by_hash("nope").await.unwrap().is_none());
            assert!(store.revoke_key("key_1").await.unwrap());
            assert!(!store.revoke_key("key_2").await.unwrap());
            assert!(store.key_by_id("key_1").await.unwrap().unwrap().revoked);
            assert_eq!(store.list_keys().await.unwrap().len(), 1);
        });
    }

    #[test]
    fn usage_is_summed_per_bucket_and_reported_per_day_and_model() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        block_on(async {
            store.create_key(&key("key_1", "h1")).await.unwrap();
            let day = 19_000 * clock::DAY;
            store
                .write_usage(&[
                    record("key_1", day + 10, "", 100, 40),
                    record("key_1", day + 20, "", 50, 10),
                    record("key_1", day + clock::DAY + 5, "gpt-4o", 1_000, 300),
                    record("other", day + 30, "", 7, 1),
                ])
                .await
                .unwrap();
            store
                .write_usage(&[record("key_1", day + 40, "", 10, 5)])
                .await
                .unwrap();
            let report = store
                .usage_report(Some("key_1"), day, day + 2 * clock::DAY)
                .await
                .unwrap();
            assert_eq!(report.totals.requests, 4);
            assert_eq!(report.totals.original_tokens, 1_160);
            assert_eq!(report.totals.saved_tokens, 355);
            assert_eq!(report.totals.usd_saved, 2.0);
            assert_eq!(report.daily.len(), 2);
            assert_eq!(report.daily[0].day, clock::day_label(day));
            assert_eq!(report.daily[0].totals.original_tokens, 160);
            assert_eq!(report.top_models[0].model, "gpt-4o");

            let all = store
                .usage_report(None, day, day + clock::DAY)
                .await
                .unwrap();
            assert_eq!(all.totals.requests, 4);
            let by_key = store.usage_by_key(day, day + 2 * clock::DAY).await.unwrap();
            assert_eq!(by_key[0].key_id, "key_1");
            assert_eq!(by_key[1].totals.original_tokens, 7);
            let touched = store.key_by_id("key_1").await.unwrap().unwrap();
            assert_eq!(touched.last_used_at, Some(day + clock::DAY + 5));
        });
    }

    #[test]
    fn settings_are_upserted() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(dir.path()).unwrap();
        block_on(async {
            assert_eq!(store.setting("a").await.unwrap(), None);
            store.set_setting("a", "1").await.unwrap();
            store.set_setting("a", "2").await.unwrap();
            assert_eq!(store.setting("a").await.unwrap().as_deref(), Some("2"));
        });
    }
}
