//! The admin listener (loopback only): a JSON API over keys and usage, guarded by the admin
//! token (`Authorization: Bearer <token>`, compared in constant time), and Prometheus metrics.
//!
//! | Method and path                       | What                                         |
//! |---------------------------------------|----------------------------------------------|
//! | `GET /metrics`                        | Prometheus text (no token: loopback only)    |
//! | `GET /admin/v1/keys`                  | every key, never a secret                    |
//! | `POST /admin/v1/keys`                 | create; the secret is in the answer, once    |
//! | `POST /admin/v1/keys/{id}/revoke`     | revoke (also `DELETE /admin/v1/keys/{id}`)   |
//! | `GET /admin/v1/usage`                 | all keys: totals, per day, top models, by key|
//! | `GET /admin/v1/keys/{id}/usage`       | one key: totals, per day, top models         |
//!
//! Usage routes take `?from=YYYY-MM-DD&to=YYYY-MM-DD` (inclusive days, UTC); the default is the
//! current calendar month.

pub mod keys;
pub mod token;
pub mod usage;

use crate::app::App;
use crate::error::{ApiError, ServiceError};
use async_trait::async_trait;
use http::{Method, Response, StatusCode};
use pingora::apps::http_app::ServeHttp;
use pingora::protocols::http::ServerSession;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

pub struct AdminApp {
    app: Arc<App>,
}

impl AdminApp {
    pub fn new(app: Arc<App>) -> AdminApp {
        AdminApp { app }
    }
}

/// An admin answer: status and JSON body.
pub type AdminReply = (u16, Value);

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

#[async_trait]
impl ServeHttp for AdminApp {
    async fn response(&self, session: &mut ServerSession) -> Response<Vec<u8>> {
        let started = Instant::now();
        let method = session.req_header().method.clone();
        let path = session.req_header().uri.path().to_string();
        let query = session.req_header().uri.query().unwrap_or("").to_string();

        if method == Method::GET && path == "/metrics" {
            let text = self.app.metrics.render();
            return build(200, "text/plain; version=0.0.4", text.into_bytes());
        }
        let (status, body) = if !token::authorized(session, &self.app.admin_token_hash) {
            error_reply(token::unauthorized())
        } else {
            self.route(session, &method, &path, &query).await
        };
        tracing::info!(
            listener = "admin",
            method = %method,
            path = %redact_path(&path),
            status,
            latency_us = started.elapsed().as_micros() as u64,
            "admin request"
        );
        build(status, "application/json", body.to_string().into_bytes())
    }
}

impl AdminApp {
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
            _ => error_reply(ServiceError::Api(ApiError::NotFound)),
        }
    }
}

/// Key ids are not secret, but anything else in a path could be: log only known shapes.
fn redact_path(path: &str) -> &str {
    if path.len() <= 64
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_-".contains(&b))
    {
        path
    } else {
        "<redacted>"
    }
}

fn build(status: u16, content_type: &'static str, body: Vec<u8>) -> Response<Vec<u8>> {
    let len = body.len();
    let mut response = Response::new(body);
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(content_type),
    );
    headers.insert(http::header::CONTENT_LENGTH, http::HeaderValue::from(len));
    headers.insert(
        http::header::CACHE_CONTROL,
        http::HeaderValue::from_static("no-store"),
    );
    response
}
