//! The admin listener (loopback only): the web dashboard ([`dashboard`]), a JSON API over keys
//! and usage, and Prometheus metrics. The JSON API takes the admin token
//! (`Authorization: Bearer <token>`, compared in constant time) from scripts, or a dashboard
//! session cookie from the browser, in which case every request other than GET must also carry
//! the session's CSRF token in `X-CSRF-Token`.
//!
//! | Method and path                       | What                                         |
//! |---------------------------------------|----------------------------------------------|
//! | `GET /metrics`                        | Prometheus text (no token: loopback only)    |
//! | `GET /admin/v1/keys`                  | every key, never a secret                    |
//! | `POST /admin/v1/keys`                 | create; the secret is in the answer, once    |
//! | `POST /admin/v1/keys/{id}/revoke`     | revoke (also `DELETE /admin/v1/keys/{id}`)   |
//! | `GET /admin/v1/usage`                 | all keys: totals, per day, top models, by key|
//! | `GET /admin/v1/keys/{id}/usage`       | one key: totals, per day, top models         |
//! | `POST /admin/v1/playground`           | SPEC 2.1 in, SPEC 2.2 plus highlighting out  |
//!
//! Usage routes take `?from=YYYY-MM-DD&to=YYYY-MM-DD` (inclusive days, UTC); the default is the
//! current calendar month.

pub mod dashboard;
pub mod keys;
pub mod playground;
pub mod session;
pub mod token;
pub mod usage;
pub mod word_diff;

use crate::app::App;
use crate::error::{ApiError, ServiceError};
use async_trait::async_trait;
use http::{Method, Response, StatusCode};
use pingora::apps::http_app::ServeHttp;
use pingora::protocols::http::ServerSession;
use serde_json::{Value, json};
use session::Sessions;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Sent with every answer of the admin listener: scripts and styles from this origin only
/// (no inline code), no framing, no plugins, forms and fetches to this origin only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
frame-ancestors 'none'; base-uri 'none'";

pub struct AdminApp {
    app: Arc<App>,
    sessions: Sessions,
}

impl AdminApp {
    pub fn new(app: Arc<App>) -> AdminApp {
        let sessions = Sessions::new(
            Duration::from_secs(app.config.admin.session_ttl_minutes * 60),
            app.config.admin.secure_cookie,
        );
        AdminApp { app, sessions }
    }
}

/// An admin JSON answer: status and body.
pub type AdminReply = (u16, Value);

/// Any answer of the admin listener, before the common headers are added.
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Answer {
        Answer {
            status,
            content_type,
            body,
            headers: Vec::new(),
        }
    }

    pub fn json((status, body): AdminReply) -> Answer {
        Answer::new(status, "application/json", body.to_string().into_bytes())
    }

    pub fn html(status: u16, html: String) -> Answer {
        Answer::new(status, "text/html; charset=utf-8", html.into_bytes())
    }

    pub fn text(status: u16, text: &str) -> Answer {
        Answer::new(
            status,
            "text/plain; charset=utf-8",
            text.as_bytes().to_vec(),
        )
    }

    /// 303 See Other to `location` (a path of this listener).
    pub fn redirect(location: &'static str) -> Answer {
        Answer::text(303, "").with_header("Location", location.to_string())
    }

    pub fn with_header(mut self, name: &'static str, value: String) -> Answer {
        self.headers.push((name, value));
        self
    }
}

pub fn error_reply(error: ServiceError) -> AdminReply {
    (error.status(), error.body())
}

pub fn bad_request(message: impl Into<String>) -> AdminReply {
    (
        400,
        json!({ "success": false, "error": { "code": "invalid_request", "message": message.into() } }),
    )
}

pub fn internal(err: anyhow::Error) -> AdminReply {
    tracing::error!(error = %err, "admin request failed");
    error_reply(ServiceError::Api(ApiError::Internal))
}

fn csrf_refused() -> AdminReply {
    (
        403,
        json!({ "success": false, "error": { "code": "csrf_token_invalid",
            "message": "a signed-in dashboard request that changes something must carry the session's X-CSRF-Token header" } }),
    )
}

#[async_trait]
impl ServeHttp for AdminApp {
    async fn response(&self, session: &mut ServerSession) -> Response<Vec<u8>> {
        let started = Instant::now();
        let method = session.req_header().method.clone();
        let path = session.req_header().uri.path().to_string();
        let query = session.req_header().uri.query().unwrap_or("").to_string();

        let answer = if method == Method::GET && path == "/metrics" {
            let text = self.app.metrics.render();
            Answer::new(200, "text/plain; version=0.0.4", text.into_bytes())
        } else if path == "/admin" || path.starts_with("/admin/") {
            Answer::json(match self.authorize(session, &method) {
                Err(refusal) => refusal,
                Ok(()) => self.route(session, &method, &path, &query).await,
            })
        } else {
            match dashboard::serve(&self.app, &self.sessions, session, &method, &path).await {
                Some(answer) => answer,
                None => Answer::json(error_reply(ServiceError::Api(ApiError::NotFound))),
            }
        };
        tracing::info!(
            listener = "admin",
            method = %method,
            path = %redact_path(&path),
            status = answer.status,
            latency_us = started.elapsed().as_micros() as u64,
            "admin request"
        );
        build(answer)
    }
}

impl AdminApp {
    /// The admin token as a bearer token (scripts), or a live dashboard session whose CSRF
    /// token accompanies every request that is not a GET.
    fn authorize(&self, session: &ServerSession, method: &Method) -> Result<(), AdminReply> {
        let headers = &session.req_header().headers;
        if headers.contains_key(http::header::AUTHORIZATION) {
            return if token::authorized(session, &self.app.admin_token_hash) {
                Ok(())
            } else {
                Err(error_reply(token::unauthorized()))
            };
        }
        let Some(signed_in) = self.sessions.find(headers) else {
            return Err(error_reply(token::unauthorized()));
        };
        if method == Method::GET || session::csrf_matches(&signed_in, session::csrf_header(headers))
        {
            Ok(())
        } else {
            Err(csrf_refused())
        }
    }

    async fn route(
        &self,
        session: &mut ServerSession,
        method: &Method,
        path: &str,
        query: &str,
    ) -> AdminReply {
        let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
        let app = &self.app;
        match (method, segments.as_slice()) {
            (&Method::GET, ["admin", "v1", "keys"]) => keys::list(app).await,
            (&Method::POST, ["admin", "v1", "keys"]) => keys::create(app, session).await,
            (&Method::POST, ["admin", "v1", "keys", id, "revoke"])
            | (&Method::DELETE, ["admin", "v1", "keys", id]) => keys::revoke(app, id).await,
            (&Method::GET, ["admin", "v1", "keys", id, "usage"]) => {
                usage::for_key(app, id, query).await
            }
            (&Method::GET, ["admin", "v1", "usage"]) => usage::for_all(app, query).await,
            (&Method::POST, ["admin", "v1", "playground"]) => {
                playground::compress(app, session).await
            }
            _ => error_reply(ServiceError::Api(ApiError::NotFound)),
        }
    }
}

/// Key ids are not secret, but anything else in a path could be: log only known shapes.
fn redact_path(path: &str) -> &str {
    if path.len() <= 64
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_-.".contains(&b))
    {
        path
    } else {
        "<redacted>"
    }
}

/// `Referrer-Policy: same-origin` rather than `no-referrer`: under `no-referrer` browsers send
/// `Origin: null` with form posts, and the sign-in checks `Origin`; nothing goes cross-origin.
fn build(answer: Answer) -> Response<Vec<u8>> {
    let len = answer.body.len();
    let mut response = Response::new(answer.body);
    *response.status_mut() =
        StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    let fixed = [
        (http::header::CONTENT_TYPE, answer.content_type),
        (http::header::CACHE_CONTROL, "no-store"),
        (
            http::header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ),
        (http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (http::header::X_FRAME_OPTIONS, "DENY"),
        (http::header::REFERRER_POLICY, "same-origin"),
    ];
    for (name, value) in fixed {
        headers.insert(name, http::HeaderValue::from_static(value));
    }
    headers.insert(http::header::CONTENT_LENGTH, http::HeaderValue::from(len));
    for (name, value) in answer.headers {
        if let Ok(value) = http::HeaderValue::from_str(&value) {
            headers.append(name, value);
        }
    }
    response
}
