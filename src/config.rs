//! The service configuration: `conf/terse.yaml` (embedded as the default), then `SERVICE_*`
//! environment overrides.
//!
//! Every value is validated while it is deserialized, so a bad file is reported by serde-saphyr
//! with its line and column; we add the dotted key found at that line. Environment overrides
//! are applied generically: each scalar `section.key` of the file maps to
//! `SERVICE_<SECTION>_<KEY>` (upper case), so a new key needs no override code of its own.

use anyhow::{Context, bail};
use filters::Mode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The configuration compiled into the binary, used when no `--config` is given.
pub const EMBEDDED_DEFAULT: &str = include_str!("../conf/terse.yaml");

/// The prefix of every environment override.
pub const ENV_PREFIX: &str = "SERVICE_";

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub storage: StorageConfig,
    pub admin: AdminConfig,
    pub auth: AuthConfig,
    pub limits: LimitsConfig,
    pub compress: CompressConfig,
    pub usage: UsageConfig,
    pub logging: LoggingConfig,
    pub proxy: crate::proxy::config::ProxyConfig,
    pub targets: crate::proxy::config::TargetsConfig,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub public_listen: SocketAddr,
    /// Must be a loopback address (checked by [`Config::validate`]).
    pub admin_listen: SocketAddr,
    pub threads: usize,
    pub grace_period_seconds: u64,
    pub graceful_shutdown_timeout_seconds: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageConfig {
    pub data_dir: PathBuf,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminConfig {
    /// Empty means "not configured": a generated token's hash in the data directory is used.
    pub token: AdminToken,
    /// Minutes a dashboard sign-in stays valid.
    pub session_ttl_minutes: u64,
    /// Marks the session cookie `Secure` (and names it `__Host-terse_admin`).
    pub secure_cookie: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthConfig {
    pub cache_ttl_ms: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    pub max_body_bytes: usize,
    pub default_rpm: u32,
    pub default_monthly_quota: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompressConfig {
    pub default_mode: Mode,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsageConfig {
    pub flush_interval_ms: u64,
    pub flush_batch_size: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggingConfig {
    pub level: LogLevel,
    pub format: LogFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// The admin token as configured; never printed by `Debug`.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AdminToken(String);

impl AdminToken {
    /// The configured token, or `None` when the file and environment leave it empty.
    pub fn configured(&self) -> Option<&str> {
        (!self.0.is_empty()).then_some(self.0.as_str())
    }
}

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() {
            "<unset>"
        } else {
            "<set>"
        })
    }
}

impl Config {
    /// Loads `path` (or the embedded default) and applies the process environment.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Config> {
        let (source, origin) = match path {
            Some(path) => (
                std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the config file {}", path.display()))?,
                path.display().to_string(),
            ),
            None => (
                EMBEDDED_DEFAULT.to_string(),
                "<embedded conf/terse.yaml>".into(),
            ),
        };
        let config = Config::parse(&source, &origin)?;
        config.with_env(std::env::vars())
    }

    /// The checks a type alone cannot express, as (dotted key, problem).
    fn validate(&self) -> Result<(), (&'static str, String)> {
        let admin = self.server.admin_listen;
        if !admin.ip().is_loopback() {
            return Err((
                "server.admin_listen",
                format!(
                    "{admin} is not a loopback address: the admin listener only binds 127.0.0.0/8 or ::1"
                ),
            ));
        }
        let public = self.server.public_listen;
        if public.port() == admin.port()
            && (public.ip() == admin.ip() || public.ip().is_unspecified())
        {
            return Err((
                "server.admin_listen",
                format!(
                    "{admin} is also the public listener's address: the two listeners need their own ports"
                ),
            ));
        }
        if let Some(token) = self.admin.token.configured()
            && token.chars().count() < 16
        {
            return Err((
                "admin.token",
                "the admin token must have at least 16 characters".into(),
            ));
        }
        if self.admin.session_ttl_minutes == 0 || self.admin.session_ttl_minutes > 7 * 24 * 60 {
            return Err((
                "admin.session_ttl_minutes",
                "a dashboard session must last between 1 minute and 7 days".into(),
            ));
        }
        if self.usage.flush_batch_size == 0 || self.usage.flush_interval_ms == 0 {
            return Err((
                "usage",
                "flush_interval_ms and flush_batch_size must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// Parses YAML text; the error names the origin, line, column and key.
    pub fn parse(source: &str, origin: &str) -> anyhow::Result<Config> {
        let config = serde_saphyr::from_str::<Config>(source).map_err(|err| {
            let message = err.without_snippet().to_string();
            match err.location() {
                Some(at) if at.line() > 0 => {
                    let key = key_path_at(source, at.line() as usize)
                        .map(|key| format!(" (key `{key}`)"))
                        .unwrap_or_default();
                    anyhow::anyhow!(
                        "invalid configuration at {origin}:{}:{}{key}: {message}",
                        at.line(),
                        at.column()
                    )
                }
                _ => anyhow::anyhow!("invalid configuration in {origin}: {message}"),
            }
        })?;
        config.validate().map_err(|(key, problem)| {
            let (line, column) = locate_key(source, key).unwrap_or((0, 0));
            anyhow::anyhow!(
                "invalid configuration at {origin}:{line}:{column} (key `{key}`): {problem}"
            )
        })?;
        Ok(config)
    }

    /// Applies `SERVICE_<SECTION>_<KEY>` overrides from `vars`.
    pub fn with_env(
        self,
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> anyhow::Result<Config> {
        let mut tree = serde_json::to_value(&self).context("cannot represent the configuration")?;
        let overrides: Vec<(String, String)> = vars
            .into_iter()
            .filter(|(name, _)| name.starts_with(ENV_PREFIX))
            .collect();
        if overrides.is_empty() {
            return Ok(self);
        }
        let Value::Object(sections) = &mut tree else {
            bail!("the configuration is not a map of sections");
        };
        for (section, keys) in sections.iter_mut() {
            let Value::Object(keys) = keys else { continue };
            for (key, value) in keys.iter_mut() {
                let name = env_name(section, key);
                if let Some((_, raw)) = overrides.iter().find(|(var, _)| *var == name) {
                    *value = typed_like(value, raw).with_context(|| {
                        format!("invalid value in the environment variable {name}")
                    })?;
                }
            }
        }
        let config: Config = serde_json::from_value(tree).map_err(|err| {
            anyhow::anyhow!("invalid value in a SERVICE_* environment variable: {err}")
        })?;
        config.validate().map_err(|(key, problem)| {
            let (section, name) = key.split_once('.').unwrap_or((key, ""));
            anyhow::anyhow!(
                "invalid configuration (key `{key}`, environment {}): {problem}",
                env_name(section, name)
            )
        })?;
        Ok(config)
    }
}

fn env_name(section: &str, key: &str) -> String {
    format!("{ENV_PREFIX}{section}_{key}").to_ascii_uppercase()
}

/// Reads an environment string as the same JSON kind as the value it replaces.
fn typed_like(current: &Value, raw: &str) -> anyhow::Result<Value> {
    let raw = raw.trim();
    Ok(match current {
        Value::Bool(_) => Value::Bool(
            raw.parse()
                .map_err(|_| anyhow::anyhow!("expected true or false"))?,
        ),
        Value::Number(_) => {
            let number: serde_json::Number = raw
                .parse()
                .map_err(|_| anyhow::anyhow!("expected a number"))?;
            Value::Number(number)
        }
        _ => Value::String(raw.to_string()),
    })
}

/// Each mapping key of `source` as (dotted path, 1-based line, 1-based column of the value).
/// A line-oriented reading that suits this file's plain block style.
fn key_lines(source: &str) -> Vec<(String, usize, usize)> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut found = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let trimmed = text.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = text.len() - trimmed.len();
        let Some((key, rest)) = trimmed.split_once(':') else {
            continue;
        };
        let key = key.trim().trim_matches('"').trim_matches('\'');
        if key.is_empty() || key.contains(' ') {
            continue;
        }
        while stack.last().is_some_and(|(depth, _)| *depth >= indent) {
            stack.pop();
        }
        stack.push((indent, key.to_string()));
        let path = stack
            .iter()
            .map(|(_, key)| key.as_str())
            .collect::<Vec<_>>()
            .join(".");
        let value_column = text.len() - rest.trim_start().len() + 1;
        found.push((path, index + 1, value_column));
    }
    found
}

/// The dotted key whose line is `line` (1-based), or the last key before it.
fn key_path_at(source: &str, line: usize) -> Option<String> {
    key_lines(source)
        .into_iter()
        .take_while(|(_, at, _)| *at <= line)
        .last()
        .map(|(path, _, _)| path)
}

/// The line and column of the value of the dotted `key`.
fn locate_key(source: &str, key: &str) -> Option<(usize, usize)> {
    key_lines(source)
        .into_iter()
        .find(|(path, _, _)| path == key)
        .map(|(_, line, column)| (line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_default_parses() {
        let config = Config::parse(EMBEDDED_DEFAULT, "embedded").unwrap();
        assert_eq!(config.server.public_listen.to_string(), "127.0.0.1:8080");
        assert_eq!(config.server.admin_listen.to_string(), "127.0.0.1:8081");
        assert_eq!(config.compress.default_mode, Mode::Balanced);
        assert!(config.admin.token.configured().is_none());
    }

    #[test]
    fn a_bad_value_names_line_column_and_key() {
        let bad = EMBEDDED_DEFAULT.replace("default_rpm: 600", "default_rpm: lots");
        let err = Config::parse(&bad, "t.yaml").unwrap_err().to_string();
        let line = bad
            .lines()
            .position(|l| l.contains("default_rpm: lots"))
            .unwrap()
            + 1;
        assert!(err.contains(&format!("t.yaml:{line}:")), "{err}");
        assert!(err.contains("limits.default_rpm"), "{err}");
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let bad = EMBEDDED_DEFAULT.replace("  threads: 0", "  threads: 0\n  thraeds: 2");
        let err = Config::parse(&bad, "t.yaml").unwrap_err().to_string();
        assert!(err.contains("thraeds"), "{err}");
    }

    #[test]
    fn the_admin_listener_must_be_loopback() {
        let bad = EMBEDDED_DEFAULT.replace("\"127.0.0.1:8081\"", "\"0.0.0.0:8081\"");
        let err = Config::parse(&bad, "t.yaml").unwrap_err().to_string();
        assert!(err.contains("loopback"), "{err}");
        assert!(err.contains("server.admin_listen"), "{err}");
        let line = bad
            .lines()
            .position(|l| l.contains("0.0.0.0:8081"))
            .unwrap()
            + 1;
        assert!(err.contains(&format!("t.yaml:{line}:17 ")), "{err}");
    }

    #[test]
    fn the_two_listeners_need_their_own_ports() {
        let bad = EMBEDDED_DEFAULT.replace("\"127.0.0.1:8081\"", "\"127.0.0.1:8080\"");
        let err = Config::parse(&bad, "t.yaml").unwrap_err().to_string();
        assert!(err.contains("server.admin_listen"), "{err}");
        assert!(err.contains("own ports"), "{err}");
    }

    #[test]
    fn environment_overrides_every_kind_of_key() {
        let config = Config::parse(EMBEDDED_DEFAULT, "embedded").unwrap();
        let vars = [
            ("SERVICE_LIMITS_DEFAULT_RPM", "7"),
            ("SERVICE_SERVER_PUBLIC_LISTEN", "127.0.0.1:9999"),
            ("SERVICE_COMPRESS_DEFAULT_MODE", "aggressive"),
            ("SERVICE_ADMIN_TOKEN", "0123456789abcdef0123"),
            ("SERVICE_API_KEY", "not a config key"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let config = config.with_env(vars).unwrap();
        assert_eq!(config.limits.default_rpm, 7);
        assert_eq!(config.server.public_listen.port(), 9999);
        assert_eq!(config.compress.default_mode, Mode::Aggressive);
        assert_eq!(
            config.admin.token.configured(),
            Some("0123456789abcdef0123")
        );
    }

    #[test]
    fn a_bad_environment_value_names_the_variable() {
        let config = Config::parse(EMBEDDED_DEFAULT, "embedded").unwrap();
        let vars = [("SERVICE_LIMITS_DEFAULT_RPM".to_string(), "many".to_string())];
        let err = format!("{:#}", config.with_env(vars).unwrap_err());
        assert!(err.contains("SERVICE_LIMITS_DEFAULT_RPM"), "{err}");
    }
}
