//! The tool server's settings, read once from the environment at start-up (SPEC 4.4).
//!
//! An assistant starts `terse mcp` from its configuration file and passes settings only through
//! `env`, so every mistake here must stop the server with a message that names the variable and
//! says how to fix it: a server that starts on a bad setting would fail every call instead.

use filters::{BrevityLevel, Mode, UnknownName};
use std::fmt;
use std::str::FromStr;

/// The service's default public address (`server.public_listen` in conf/terse.yaml).
pub const DEFAULT_SERVICE_URL: &str = "http://127.0.0.1:8080";

/// A service key. Its `Debug` and `Display` never show the secret, so it cannot leak into a log.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// The value of the `Authorization` header that carries this key.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.0)
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct McpConfig {
    pub api_key: ApiKey,
    /// Base address of the terse service, without a trailing slash.
    pub service_url: String,
    /// Mode of a `service_compress` call that does not name one.
    pub default_mode: Mode,
    /// Output-brevity level whose directive goes into the server's `instructions`.
    pub brevity: BrevityLevel,
    /// Path of a price table given by SERVICE_PRICES, if any (else the embedded default).
    pub prices_path: Option<String>,
    /// Model of the price table that prices this session's savings (SERVICE_PRICE_MODEL).
    pub price_model: Option<String>,
}

/// How to create a key, quoted by every message about a missing or rejected key.
pub const CREATE_KEY_HINT: &str = "create one with `terse keys create --name mcp --scope compress_only` \
(the secret is the last line it prints) and set it as SERVICE_API_KEY in the `env` of this server's \
entry in your assistant's MCP configuration";

impl McpConfig {
    pub fn from_env() -> Result<Self, String> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads every setting through `lookup`, so tests need not touch the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let set = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());

        let api_key = match set("SERVICE_API_KEY") {
            None => return Err(format!("SERVICE_API_KEY is not set: {CREATE_KEY_HINT}")),
            Some(key) => parse_api_key(&key)?,
        };
        let service_url = match set("SERVICE_URL") {
            None => DEFAULT_SERVICE_URL.to_string(),
            Some(url) => parse_service_url(&url)?,
        };
        let default_mode = named(set("SERVICE_MODE"), "SERVICE_MODE", Mode::Balanced)?;
        let brevity = named(
            set("SERVICE_PONYTAIL"),
            "SERVICE_PONYTAIL",
            BrevityLevel::Off,
        )?;
        Ok(McpConfig {
            api_key,
            service_url,
            default_mode,
            brevity,
            prices_path: set("SERVICE_PRICES"),
            price_model: set("SERVICE_PRICE_MODEL").map(|model| model.trim().to_string()),
        })
    }
}

/// A setting that names one of a fixed set of values, or `default` when unset.
fn named<T>(value: Option<String>, variable: &str, default: T) -> Result<T, String>
where
    T: FromStr<Err = UnknownName> + fmt::Display,
{
    match value {
        None => Ok(default),
        Some(value) => value
            .trim()
            .parse()
            .map_err(|err| format!("{variable}: {err} (or leave it unset for {default})")),
    }
}

fn parse_api_key(raw: &str) -> Result<ApiKey, String> {
    let key = raw.trim();
    // A header value must be visible ASCII; a key pasted with a quote or a line break would
    // otherwise fail every call with a confusing transport error.
    if !key.bytes().all(|b| b.is_ascii_graphic()) || key.contains('"') {
        return Err(format!(
            "SERVICE_API_KEY contains spaces, quotes or non-ASCII characters: paste the key exactly \
             as `terse keys create` printed it (svc_live_ followed by letters and digits), or {CREATE_KEY_HINT}"
        ));
    }
    Ok(ApiKey(key.to_string()))
}

fn parse_service_url(raw: &str) -> Result<String, String> {
    let url = raw.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => {
            Ok(url.to_string())
        }
        _ => Err(format!(
            "SERVICE_URL {raw:?} is not an http:// or https:// address of the terse service \
             (for example {DEFAULT_SERVICE_URL}, its default); leave it unset for the default"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<McpConfig, String> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        McpConfig::from_lookup(|name| vars.get(name).cloned())
    }

    #[test]
    fn defaults_apply_when_only_the_key_is_set() {
        let c = config(&[("SERVICE_API_KEY", "svc_live_abc")]).unwrap();
        assert_eq!(c.service_url, DEFAULT_SERVICE_URL);
        assert_eq!(c.default_mode, Mode::Balanced);
        assert_eq!(c.brevity, BrevityLevel::Off);
        assert_eq!(c.api_key.bearer(), "Bearer svc_live_abc");
        assert_eq!(c.prices_path, None);
    }

    #[test]
    fn a_missing_or_blank_key_is_an_error_that_says_how_to_get_one() {
        for vars in [&[][..], &[("SERVICE_API_KEY", "  ")][..]] {
            let err = config(vars).unwrap_err();
            assert!(err.starts_with("SERVICE_API_KEY is not set"), "{err}");
            assert!(err.contains("terse keys create"), "{err}");
        }
    }

    #[test]
    fn a_key_with_spaces_or_quotes_is_rejected() {
        for key in ["svc_live_a b", "\"svc_live_ab\"", "svc_live_é"] {
            let err = config(&[("SERVICE_API_KEY", key)]).unwrap_err();
            assert!(err.contains("SERVICE_API_KEY contains"), "{err}");
        }
    }

    #[test]
    fn every_level_and_mode_is_accepted_and_unknown_ones_are_named() {
        for level in BrevityLevel::ALL {
            let c = config(&[
                ("SERVICE_API_KEY", "k"),
                ("SERVICE_PONYTAIL", level.as_str()),
            ]);
            assert_eq!(c.unwrap().brevity, level);
        }
        for mode in Mode::ALL {
            let c = config(&[("SERVICE_API_KEY", "k"), ("SERVICE_MODE", mode.as_str())]);
            assert_eq!(c.unwrap().default_mode, mode);
        }
        let err = config(&[("SERVICE_API_KEY", "k"), ("SERVICE_PONYTAIL", "max")]).unwrap_err();
        assert!(
            err.contains("SERVICE_PONYTAIL") && err.contains("off, lite, full, ultra"),
            "{err}"
        );
        let err = config(&[("SERVICE_API_KEY", "k"), ("SERVICE_MODE", "fast")]).unwrap_err();
        assert!(
            err.contains("SERVICE_MODE") && err.contains("conservative"),
            "{err}"
        );
    }

    #[test]
    fn service_urls_are_checked_and_normalised() {
        let c = config(&[
            ("SERVICE_API_KEY", "k"),
            ("SERVICE_URL", "https://terse.example/"),
        ]);
        assert_eq!(c.unwrap().service_url, "https://terse.example");
        for bad in ["127.0.0.1:8080", "ftp://x", "http://"] {
            let err = config(&[("SERVICE_API_KEY", "k"), ("SERVICE_URL", bad)]).unwrap_err();
            assert!(err.starts_with("SERVICE_URL"), "{err}");
        }
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let c = config(&[("SERVICE_API_KEY", "svc_live_secret")]).unwrap();
        assert!(!format!("{c:?}").contains("secret"));
    }
}
