//! Targets and routing: where a proxied request goes, and with which credential.
//!
//! Targets are named in the `targets:` section of the configuration (base URL, protocol,
//! credential variable). Each base URL can be overridden by `SERVICE_TARGET_<NAME>_BASE_URL`
//! (the name upper-cased, other characters as `_`), which is how tests point every target at a
//! mock on 127.0.0.1.
//!
//! A request with a **service key** goes to the first of:
//! 1. the target named by the `X-Service-Target` request header;
//! 2. the key's default target;
//! 3. the first `model_routes` rule whose glob matches the request's `model`;
//! 4. the default target of the request's protocol (`default_targets`).
//!
//! A **pass-through key** is recognised by its prefix, longest first: `sk-ant-` goes to the
//! `anthropic` target, `sk-or-v1-` to `openrouter`, any other `sk-` to `openai`.

use super::config::ProxyConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};

/// The wire protocol of a proxy route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// `POST /v1/chat/completions`.
    Openai,
    /// `POST /v1/messages`.
    Anthropic,
}

impl Protocol {
    /// The protocol served at `path` (query string ignored), if the proxy serves it.
    pub fn for_path(path: &str) -> Option<Protocol> {
        match path.split('?').next().unwrap_or(path) {
            "/v1/chat/completions" => Some(Protocol::Openai),
            "/v1/messages" => Some(Protocol::Anthropic),
            _ => None,
        }
    }

    /// The header and value carrying `credential` upstream: OpenAI and every OpenAI-compatible
    /// host take `Authorization: Bearer`, Anthropic's messages API takes `x-api-key` (its
    /// `anthropic-version` header is forwarded as the client sent it).
    pub fn credential_header(self, credential: &str) -> (&'static str, String) {
        match self {
            Protocol::Openai => ("authorization", format!("Bearer {credential}")),
            Protocol::Anthropic => ("x-api-key", credential.to_string()),
        }
    }
}

/// One upstream as written in the configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetConfig {
    /// Scheme, host, optional port and path prefix; the request path (`/v1/...`) is appended.
    pub base_url: String,
    pub protocol: Protocol,
    /// Environment variable holding the credential sent upstream for service-key requests.
    #[serde(default)]
    pub credential_env: Option<String>,
}

/// A rule sending models whose name matches `model` (a glob: `*` any run, `?` one character)
/// to `target`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelRoute {
    pub model: String,
    pub target: String,
}

/// A target ready to use: its URL parsed and its override and credential applied.
#[derive(Clone)]
pub struct Target {
    pub name: String,
    pub protocol: Protocol,
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// The base URL's path without a trailing slash (`""`, `/api`, `/openai`).
    pub path_prefix: String,
    credential: Option<String>,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("name", &self.name)
            .field("protocol", &self.protocol)
            .field("tls", &self.tls)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("path_prefix", &self.path_prefix)
            .field("credential", &self.credential.as_ref().map(|_| "<set>"))
            .finish()
    }
}

impl Target {
    /// The credential for service-key requests, if its variable is set and not empty.
    pub fn credential(&self) -> Option<&str> {
        self.credential.as_deref()
    }

    /// The upstream path for a client path such as `/v1/messages?beta=true`.
    pub fn upstream_path(&self, client_path_and_query: &str) -> String {
        format!("{}{}", self.path_prefix, client_path_and_query)
    }

    /// The `Host` header value for the upstream request.
    pub fn host_header(&self) -> String {
        let default_port = if self.tls { 443 } else { 80 };
        if self.port == default_port {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// The upstream socket address. Host names are resolved asynchronously here because
    /// Pingora's `HttpPeer::new` resolves synchronously and panics when resolution fails.
    pub async fn resolve(&self) -> Result<SocketAddr, String> {
        let bare = self.host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            return Ok(SocketAddr::new(ip, self.port));
        }
        let mut addrs = tokio::net::lookup_host((self.host.as_str(), self.port))
            .await
            .map_err(|err| format!("cannot resolve {}: {err}", self.host))?;
        addrs
            .next()
            .ok_or_else(|| format!("{} resolves to no address", self.host))
    }
}

/// The provider a raw (pass-through) key belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Anthropic,
    OpenRouter,
    OpenAi,
}

impl Provider {
    /// The target a pass-through key of this provider is forwarded to.
    pub fn target_name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenRouter => "openrouter",
            Provider::OpenAi => "openai",
        }
    }
}

/// What kind of key a client presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresentedKey<'a> {
    Service(&'a str),
    PassThrough(Provider, &'a str),
    Unknown,
}

/// The prefix of this service's own keys.
const SERVICE_KEY_PREFIX: &str = "svc_live_";

/// Prefixes of raw provider keys, longest first so `sk-ant-` is never taken for OpenAI's `sk-`.
const PROVIDER_PREFIXES: [(&str, Provider); 3] = [
    ("sk-ant-", Provider::Anthropic),
    ("sk-or-v1-", Provider::OpenRouter),
    ("sk-", Provider::OpenAi),
];

/// Classifies a key by its prefix.
pub fn classify_key(key: &str) -> PresentedKey<'_> {
    if key.starts_with(SERVICE_KEY_PREFIX) {
        return PresentedKey::Service(key);
    }
    PROVIDER_PREFIXES
        .iter()
        .find(|(prefix, _)| key.starts_with(prefix) && key.len() > prefix.len())
        .map_or(PresentedKey::Unknown, |(_, provider)| {
            PresentedKey::PassThrough(*provider, key)
        })
}

/// Why a request could not be routed; each is the client's mistake (400) or a config gap (502).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteError {
    UnknownTarget(String),
    NoCredential(String),
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouteError::UnknownTarget(name) => write!(f, "unknown target {name:?}"),
            RouteError::NoCredential(name) => write!(
                f,
                "target {name:?} has no upstream credential configured (set its credential_env variable)"
            ),
        }
    }
}

/// Every configured target, ready to route to.
#[derive(Debug)]
pub struct Router {
    targets: BTreeMap<String, Target>,
    routing: ProxyConfig,
}

impl Router {
    /// Builds the router from configuration and environment; errors name the bad entry.
    pub fn new(
        targets: &BTreeMap<String, TargetConfig>,
        routing: &ProxyConfig,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Router, String> {
        let mut built = BTreeMap::new();
        for (name, config) in targets {
            let override_var = format!("SERVICE_TARGET_{}_BASE_URL", env_fragment(name));
            let base_url = env(&override_var).unwrap_or_else(|| config.base_url.clone());
            let (tls, host, port, path_prefix) = parse_base_url(&base_url)
                .map_err(|err| format!("targets.{name}.base_url {base_url:?}: {err}"))?;
            let credential = config
                .credential_env
                .as_deref()
                .and_then(&env)
                .filter(|value| !value.is_empty());
            built.insert(
                name.clone(),
                Target {
                    name: name.clone(),
                    protocol: config.protocol,
                    tls,
                    host,
                    port,
                    path_prefix,
                    credential,
                },
            );
        }
        let mut referenced = vec![
            (
                "proxy.default_openai_target",
                &routing.default_openai_target,
            ),
            (
                "proxy.default_anthropic_target",
                &routing.default_anthropic_target,
            ),
        ];
        referenced.extend(
            routing
                .model_routes
                .iter()
                .map(|route| ("proxy.model_routes[].target", &route.target)),
        );
        for (key, name) in referenced {
            if !built.contains_key(name) {
                return Err(format!("{key} names the unknown target {name:?}"));
            }
        }
        for provider in [Provider::Anthropic, Provider::OpenRouter, Provider::OpenAi] {
            if !built.contains_key(provider.target_name()) {
                return Err(format!(
                    "targets.{} is required: pass-through keys are forwarded to it",
                    provider.target_name()
                ));
            }
        }
        Ok(Router {
            targets: built,
            routing: routing.clone(),
        })
    }

    #[cfg(test)]
    pub fn target(&self, name: &str) -> Option<&Target> {
        self.targets.get(name)
    }

    /// The target of a pass-through key.
    pub fn for_pass_through(&self, provider: Provider) -> &Target {
        // `new` refuses a configuration without the three pass-through targets.
        &self.targets[provider.target_name()]
    }

    /// The target of a service-key request, in the documented order of precedence.
    pub fn for_service_key(
        &self,
        protocol: Protocol,
        header: Option<&str>,
        key_default: Option<&str>,
        model: Option<&str>,
    ) -> Result<&Target, RouteError> {
        let chosen = header.or(key_default).map(str::to_string).or_else(|| {
            let model = model?;
            self.routing
                .model_routes
                .iter()
                .find(|route| glob_matches(&route.model, model))
                .map(|route| route.target.clone())
        });
        let name = chosen.unwrap_or_else(|| match protocol {
            Protocol::Openai => self.routing.default_openai_target.clone(),
            Protocol::Anthropic => self.routing.default_anthropic_target.clone(),
        });
        let target = self
            .targets
            .get(&name)
            .ok_or_else(|| RouteError::UnknownTarget(name.clone()))?;
        if target.credential.is_none() {
            return Err(RouteError::NoCredential(name));
        }
        Ok(target)
    }
}

fn env_fragment(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Splits `http[s]://host[:port][/prefix]` into its parts.
fn parse_base_url(url: &str) -> Result<(bool, String, u16, String), String> {
    let uri: http::Uri = url.parse().map_err(|err| format!("not a URL: {err}"))?;
    let tls = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => return Err("the scheme must be http or https".into()),
    };
    let host = uri.host().ok_or("the URL has no host")?.to_string();
    if uri.query().is_some() {
        return Err("a base URL cannot have a query string".into());
    }
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let path_prefix = uri.path().trim_end_matches('/').to_string();
    Ok((tls, host, port, path_prefix))
}

/// Whether `name` matches `pattern`, where `*` matches any run of characters and `?` one.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let (mut p, mut n) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == name[n]) {
            p += 1;
            n += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            backtrack = Some((p, n));
            p += 1;
        } else if let Some((star, matched)) = backtrack {
            p = star + 1;
            n = matched + 1;
            backtrack = Some((star, matched + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> (BTreeMap<String, TargetConfig>, ProxyConfig) {
        let target = |url: &str, protocol, env: &str| TargetConfig {
            base_url: url.into(),
            protocol,
            credential_env: Some(env.into()),
        };
        let targets = BTreeMap::from([
            (
                "openai".into(),
                target("https://api.openai.com", Protocol::Openai, "OPENAI_API_KEY"),
            ),
            (
                "anthropic".into(),
                target(
                    "https://api.anthropic.com",
                    Protocol::Anthropic,
                    "ANTHROPIC_API_KEY",
                ),
            ),
            (
                "openrouter".into(),
                target("https://openrouter.ai/api/", Protocol::Openai, "OR_KEY"),
            ),
            (
                "groq".into(),
                target("https://api.groq.com/openai", Protocol::Openai, "GROQ_KEY"),
            ),
        ]);
        let routing = ProxyConfig {
            default_mode: crate::proxy::input::ProxyMode::Off,
            default_brevity: filters::BrevityLevel::Off,
            connect_timeout_ms: 1000,
            upstream_timeout_ms: 1000,
            default_openai_target: "openai".into(),
            default_anthropic_target: "anthropic".into(),
            model_routes: vec![ModelRoute {
                model: "llama-*".into(),
                target: "groq".into(),
            }],
        };
        (targets, routing)
    }

    fn env(name: &str) -> Option<String> {
        match name {
            "SERVICE_TARGET_OPENAI_BASE_URL" => Some("http://127.0.0.1:9999".into()),
            "OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "GROQ_KEY" => Some("secret".into()),
            _ => None,
        }
    }

    #[test]
    fn keys_are_classified_longest_prefix_first() {
        assert_eq!(
            classify_key("sk-ant-api03-abc"),
            PresentedKey::PassThrough(Provider::Anthropic, "sk-ant-api03-abc")
        );
        assert_eq!(
            classify_key("sk-or-v1-abc"),
            PresentedKey::PassThrough(Provider::OpenRouter, "sk-or-v1-abc")
        );
        assert_eq!(
            classify_key("sk-proj-abc"),
            PresentedKey::PassThrough(Provider::OpenAi, "sk-proj-abc")
        );
        assert_eq!(
            classify_key("svc_live_x"),
            PresentedKey::Service("svc_live_x")
        );
        assert_eq!(classify_key("sk-"), PresentedKey::Unknown);
        assert_eq!(classify_key("hello"), PresentedKey::Unknown);
    }

    #[test]
    fn targets_parse_and_take_the_environment_override() {
        let (targets, routing) = config();
        let router = Router::new(&targets, &routing, env).unwrap();
        let openai = router.target("openai").unwrap();
        assert!(!openai.tls);
        assert_eq!((openai.host.as_str(), openai.port), ("127.0.0.1", 9999));
        assert_eq!(openai.host_header(), "127.0.0.1:9999");
        let openrouter = router.for_pass_through(Provider::OpenRouter);
        assert!(openrouter.tls);
        assert_eq!(openrouter.port, 443);
        assert_eq!(
            openrouter.upstream_path("/v1/chat/completions"),
            "/api/v1/chat/completions"
        );
        assert_eq!(openrouter.host_header(), "openrouter.ai");
        assert!(!format!("{openai:?}").contains("secret"));
    }

    #[test]
    fn service_key_routing_follows_the_documented_order() {
        let (targets, routing) = config();
        let router = Router::new(&targets, &routing, env).unwrap();
        let pick = |header, key, model| {
            router
                .for_service_key(Protocol::Openai, header, key, model)
                .map(|t| t.name.clone())
        };
        assert_eq!(
            pick(Some("anthropic"), Some("groq"), None).unwrap(),
            "anthropic"
        );
        assert_eq!(pick(None, Some("groq"), Some("gpt-4o")).unwrap(), "groq");
        assert_eq!(pick(None, None, Some("llama-3.1-70b")).unwrap(), "groq");
        assert_eq!(pick(None, None, Some("gpt-4o")).unwrap(), "openai");
        assert_eq!(
            router
                .for_service_key(Protocol::Anthropic, None, None, None)
                .unwrap()
                .name,
            "anthropic"
        );
        assert_eq!(
            pick(Some("nope"), None, None).unwrap_err(),
            RouteError::UnknownTarget("nope".into())
        );
        assert_eq!(
            pick(Some("openrouter"), None, None).unwrap_err(),
            RouteError::NoCredential("openrouter".into())
        );
    }

    #[test]
    fn bad_configuration_names_the_entry() {
        let (mut targets, routing) = config();
        targets.get_mut("groq").unwrap().base_url = "ftp://x".into();
        let err = Router::new(&targets, &routing, env).unwrap_err();
        assert!(err.contains("targets.groq.base_url"), "{err}");
        let (mut targets, routing) = config();
        targets.remove("openrouter");
        assert!(Router::new(&targets, &routing, env).is_err());
    }

    #[test]
    fn globs_match_like_a_shell() {
        assert!(glob_matches("claude-*", "claude-3-5-sonnet"));
        assert!(glob_matches("*llama*", "meta-llama/llama-3"));
        assert!(glob_matches("gpt-4?", "gpt-4o"));
        assert!(!glob_matches("gpt-4?", "gpt-4o-mini"));
        assert!(!glob_matches("claude-*", "gpt-4o"));
    }

    #[test]
    fn paths_map_to_protocols() {
        assert_eq!(
            Protocol::for_path("/v1/messages?beta=true"),
            Some(Protocol::Anthropic)
        );
        assert_eq!(
            Protocol::for_path("/v1/chat/completions"),
            Some(Protocol::Openai)
        );
        assert_eq!(Protocol::for_path("/v1/embeddings"), None);
    }
}
