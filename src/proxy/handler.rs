//! The proxy routes end to end: who is calling, how to treat the body, where it goes, and
//! what is recorded. Runs inside the gateway's `request_filter`, which then reports the
//! request as answered (the upstream exchange is made here, see `forward`).
//!
//! Order: key (service key → auth, scope, rate limit, quota; raw provider key → pass-through)
//! → body (100-continue, byte cap) → input stage (mode and brevity from header, key, config)
//! → target → upstream exchange with telemetry headers → usage and output estimate.

use super::estimate::OutputEstimator;
use super::forward::{self, ForwardError, Timeouts, UpstreamRequest};
use super::input::{Plan, ProxyMode, RequestStats, Rewritten};
use super::prices::PriceTable;
use super::route::{PresentedKey, Protocol, RouteError, Router, Target, classify_key};
use super::telemetry::Telemetry;
use super::{anthropic, openai};
use crate::app::App;
use crate::auth::{self, RouteKind};
use crate::error::{ApiError, AuthError, ServiceError};
use crate::store::{ANONYMOUS_KEY_ID, KeyRecord, UsageRecord, UsageTotals};
use crate::{body, clock};
use bytes::Bytes;
use filters::BrevityLevel;
use http::HeaderMap;
use pingora::connectors::http::Connector;
use pingora::http::ResponseHeader;
use pingora::proxy::Session;
use std::time::Instant;

/// Request headers that steer the proxy (never forwarded upstream).
pub const MODE_HEADER: &str = "x-service-mode";
pub const BREVITY_HEADER: &str = "x-service-brevity";
pub const TARGET_HEADER: &str = "x-service-target";
/// Where a service key may arrive besides `Authorization: Bearer`: the service's own header,
/// then Anthropic's (what the `anthropic` SDK sends).
const KEY_HEADERS: [&str; 2] = ["x-service-key", "x-api-key"];

/// The proxy's shared state: targets, the upstream connection pool, the output estimator and
/// the price table.
pub struct Proxy {
    pub router: Router,
    pub connector: Connector,
    pub estimator: OutputEstimator,
    pub prices: PriceTable,
    pub timeouts: Timeouts,
}

impl Proxy {
    /// Builds the proxy from the configuration and the process environment (base URL
    /// overrides and upstream credentials).
    pub fn from_config(config: &crate::config::Config) -> anyhow::Result<Proxy> {
        let router = Router::new(&config.targets, &config.proxy, |name| {
            std::env::var(name).ok()
        })
        .map_err(|why| anyhow::anyhow!("invalid proxy configuration: {why}"))?;
        let prices = PriceTable::embedded().map_err(|why| anyhow::anyhow!(why))?;
        tracing::info!(prices_as_of = %prices.as_of, "proxy price table loaded");
        Ok(Proxy {
            router,
            connector: Connector::new(None),
            estimator: OutputEstimator::default(),
            prices,
            timeouts: Timeouts {
                connect: config.proxy.connect_timeout(),
                read: config.proxy.upstream_timeout(),
            },
        })
    }
}

/// What the gateway logs about a proxy request.
pub struct Outcome {
    pub key_id: Option<String>,
}

/// A proxy error: a status, a stable code, a message, and extra headers.
struct ProxyError {
    status: u16,
    code: &'static str,
    message: String,
    headers: Vec<(&'static str, String)>,
}

impl From<ServiceError> for ProxyError {
    fn from(error: ServiceError) -> Self {
        ProxyError {
            status: error.status(),
            code: error.code(),
            message: error.message(),
            headers: error.headers(),
        }
    }
}

impl From<AuthError> for ProxyError {
    fn from(error: AuthError) -> Self {
        ServiceError::from(error).into()
    }
}

impl From<ApiError> for ProxyError {
    fn from(error: ApiError) -> Self {
        ServiceError::from(error).into()
    }
}

impl ProxyError {
    fn bad_request(code: &'static str, message: String) -> Self {
        ProxyError {
            status: 400,
            code,
            message,
            headers: Vec::new(),
        }
    }

    fn from_route(error: RouteError) -> Self {
        match error {
            RouteError::UnknownTarget(_) => Self::bad_request("unknown_target", error.to_string()),
            RouteError::NoCredential(_) => ProxyError {
                status: 502,
                code: "target_not_configured",
                message: error.to_string(),
                headers: Vec::new(),
            },
        }
    }

    fn from_forward(error: &ForwardError) -> Option<Self> {
        let (status, code, message) = match error {
            ForwardError::Unreachable(why) => (
                502,
                "upstream_unreachable",
                format!("the upstream provider could not be reached ({why})"),
            ),
            ForwardError::Timeout => (
                504,
                "upstream_timeout",
                "the upstream provider did not answer in time".to_string(),
            ),
            ForwardError::Aborted { client_gone } => {
                tracing::debug!(client_gone, "proxy exchange cut after the response started");
                return None;
            }
        };
        Some(ProxyError {
            status,
            code,
            message,
            headers: Vec::new(),
        })
    }
}

/// Who is calling.
enum Caller {
    Service(KeyRecord),
    PassThrough(String, super::route::Provider),
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// The key a client presented: `X-Service-Key` first (it names this service explicitly), then
/// `Authorization: Bearer`, then `x-api-key`.
fn presented_key(headers: &HeaderMap) -> Option<&str> {
    header_str(headers, "x-service-key").or_else(|| auth::presented_key(headers, &KEY_HEADERS[1..]))
}

/// Handles one request on a proxy route and answers it.
pub async fn handle(
    app: &App,
    proxy: &Proxy,
    session: &mut Session,
    protocol: Protocol,
) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome { key_id: None };
    let result = serve(app, proxy, session, protocol, started, &mut outcome).await;
    if let Err((error, mut stats)) = result {
        let deferred = std::mem::take(&mut stats.deferred);
        stats.add_deferred_count(RequestStats::count_deferred(&deferred, stats.tokenizer));
        let telemetry = Telemetry::from_stats(&stats, 0, elapsed_ms(started));
        let _ = respond_error(session, protocol, &error, &telemetry).await;
    }
    outcome
}

fn elapsed_ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

type Failure = (ProxyError, RequestStats);

fn plain(error: impl Into<ProxyError>) -> Failure {
    (error.into(), RequestStats::default())
}

async fn serve(
    app: &App,
    proxy: &Proxy,
    session: &mut Session,
    protocol: Protocol,
    started: Instant,
    outcome: &mut Outcome,
) -> Result<(), Failure> {
    let now = clock::now();
    let mut extra_headers = Vec::new();
    let headers = &session.req_header().headers;
    let caller = match presented_key(headers).map(classify_key) {
        None => return Err(plain(AuthError::MissingKey)),
        Some(PresentedKey::Unknown) => return Err(plain(AuthError::UnknownKey)),
        Some(PresentedKey::PassThrough(provider, key)) => {
            Caller::PassThrough(key.to_string(), provider)
        }
        Some(PresentedKey::Service(secret)) => {
            let key = app
                .auth
                .authenticate(Some(secret), now)
                .await
                .map_err(plain)?;
            outcome.key_id = Some(key.id.clone());
            auth::check_scope(key.scope, RouteKind::Proxy).map_err(plain)?;
            let admission = app
                .limits
                .admit(&key)
                .map_err(|e| plain(ServiceError::from(e)))?;
            extra_headers = admission.headers();
            app.limits
                .check_quota(&key)
                .map_err(|e| plain(ServiceError::from(e)))?;
            Caller::Service(key)
        }
    };
    let key_record = match &caller {
        Caller::Service(key) => Some(key),
        Caller::PassThrough(..) => None,
    };
    let plan = plan_for(&session.req_header().headers, key_record, app).map_err(plain)?;

    let downstream = session.as_downstream_mut();
    if header_str(&downstream.req_header().headers, "expect")
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
    {
        let _ = downstream.write_continue_response().await;
    }
    let raw = body::read_capped(downstream, app.config.limits.max_body_bytes)
        .await
        .map_err(plain)?;
    let rewrite = || match protocol {
        Protocol::Openai => openai::rewrite(&raw, &plan),
        Protocol::Anthropic => anthropic::rewrite(&raw, &plan),
    };
    let Rewritten { body, stats } = crate::engine::cpu_bound(plan.work_bytes(raw.len()), rewrite);
    let body = body.map_or(raw, Bytes::from);

    let request_headers = session.req_header().headers.clone();
    let (target, credential): (&Target, String) = match &caller {
        Caller::PassThrough(key, provider) => {
            (proxy.router.for_pass_through(*provider), key.clone())
        }
        Caller::Service(key) => {
            let target = proxy
                .router
                .for_service_key(
                    protocol,
                    header_str(&request_headers, TARGET_HEADER),
                    key.target.as_deref(),
                    stats.model.as_deref(),
                )
                .map_err(|e| (ProxyError::from_route(e), stats.clone()))?;
            let credential = target.credential().unwrap_or_default().to_string();
            (target, credential)
        }
    };

    let path_and_query = session
        .req_header()
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let request = UpstreamRequest {
        target,
        protocol,
        path_and_query: &path_and_query,
        client_headers: &request_headers,
        credential: &credential,
        body,
    };
    // Mode off: the token counts only feed the telemetry, so they are made on a blocking
    // thread while the upstream works, and joined when its answer arrives.
    let mut stats = stats;
    let deferred = std::mem::take(&mut stats.deferred);
    let tokenizer = stats.tokenizer;
    let mut counting = (!deferred.is_empty()).then(|| {
        tokio::task::spawn_blocking(move || RequestStats::count_deferred(&deferred, tokenizer))
    });
    let latency_ms = elapsed_ms(started);
    let output_ahead = proxy.estimator.saved_ahead(stats.brevity_applied);
    let telemetry_headers = async {
        if let Some(handle) = counting.take() {
            stats.add_deferred_count(handle.await.unwrap_or(0));
        }
        extra_headers.extend(Telemetry::from_stats(&stats, output_ahead, latency_ms).headers());
        extra_headers
    };
    let result = forward::forward(
        &proxy.connector,
        session,
        request,
        proxy.timeouts,
        telemetry_headers,
    )
    .await;
    if let Some(handle) = counting.take() {
        stats.add_deferred_count(handle.await.unwrap_or(0));
    }
    let completion_tokens = match &result {
        Ok(done) if (200..300).contains(&done.status) => done.completion_tokens,
        _ => None,
    };
    // An upstream that never answered costs the caller nothing: no usage, no quota.
    let answered = !matches!(
        result,
        Err(ForwardError::Unreachable(_) | ForwardError::Timeout)
    );
    if answered {
        record(
            app,
            proxy,
            &caller,
            protocol,
            &stats,
            completion_tokens,
            now,
        );
    }
    match result {
        Ok(_) => Ok(()),
        Err(error) => match ProxyError::from_forward(&error) {
            Some(proxy_error) => Err((proxy_error, stats)),
            None => Ok(()),
        },
    }
}

/// Mode and brevity: the request header, then the key's default, then the configuration.
fn plan_for(headers: &HeaderMap, key: Option<&KeyRecord>, app: &App) -> Result<Plan, ProxyError> {
    let config = &app.config.proxy;
    let mode = match header_str(headers, MODE_HEADER) {
        Some(value) => value
            .parse::<ProxyMode>()
            .map_err(|e| ProxyError::bad_request("invalid_mode", e.to_string()))?,
        None => key
            .and_then(|k| k.mode.as_deref())
            .and_then(|m| m.parse().ok())
            .unwrap_or(config.default_mode),
    };
    let brevity = match header_str(headers, BREVITY_HEADER) {
        Some(value) => value
            .parse::<BrevityLevel>()
            .map_err(|e| ProxyError::bad_request("invalid_brevity", e.to_string()))?,
        None => key
            .and_then(|k| k.brevity)
            .unwrap_or(config.default_brevity),
    };
    Ok(Plan { mode, brevity })
}

/// Usage of a finished exchange: per key for service keys, anonymous totals for pass-through
/// traffic (no key, no credential, nothing that identifies the caller). The output estimate
/// learns from the answer's own `usage`.
fn record(
    app: &App,
    proxy: &Proxy,
    caller: &Caller,
    protocol: Protocol,
    stats: &RequestStats,
    completion_tokens: Option<u64>,
    now: i64,
) {
    let output_saved_est = completion_tokens.map_or(0, |tokens| {
        proxy.estimator.observe(stats.brevity_applied, tokens);
        proxy.estimator.saved_for(stats.brevity_applied, tokens)
    });
    let input_saved = stats.input_saved();
    let usd_saved = proxy
        .prices
        .usd_saved(stats.model.as_deref(), input_saved, output_saved_est);
    let route = match protocol {
        Protocol::Openai => "proxy_openai",
        Protocol::Anthropic => "proxy_anthropic",
    };
    let (original, saved) = (stats.original_tokens as u64, input_saved.max(0) as u64);
    app.metrics.observe_tokens(route, original, saved);
    let key_id = match caller {
        Caller::Service(key) => {
            app.limits.charge(&key.id, original);
            key.id.clone()
        }
        Caller::PassThrough(..) => ANONYMOUS_KEY_ID.to_string(),
    };
    app.usage.record(UsageRecord {
        key_id,
        at: now,
        route: route.into(),
        model: stats.model.clone().unwrap_or_default(),
        totals: UsageTotals {
            requests: 1,
            original_tokens: original,
            final_tokens: stats.input_tokens as u64,
            saved_tokens: saved,
            output_saved_est,
            usd_saved,
        },
    });
}

/// Writes a proxy error in the protocol's own shape, with the telemetry headers.
async fn respond_error(
    session: &mut Session,
    protocol: Protocol,
    error: &ProxyError,
    telemetry: &Telemetry,
) -> pingora::Result<()> {
    let body = match protocol {
        Protocol::Openai => openai::error_body(error.status, error.code, &error.message),
        Protocol::Anthropic => anthropic::error_body(error.status, error.code, &error.message),
    };
    if !session.as_downstream_mut().is_body_done() {
        // The body was never read: the connection cannot carry another request.
        session.set_keepalive(None);
    }
    let mut header = ResponseHeader::build(error.status, Some(12))?;
    header.insert_header(http::header::CONTENT_TYPE, "application/json")?;
    header.insert_header(http::header::CONTENT_LENGTH, body.len())?;
    for (name, value) in &error.headers {
        header.insert_header(*name, value.as_str())?;
    }
    for (name, value) in telemetry.headers() {
        header.insert_header(name, value)?;
    }
    session
        .write_response_header(Box::new(header), false)
        .await?;
    session
        .write_response_body(Some(Bytes::from(body)), true)
        .await
}
