//! The public listener's one `ProxyHttp` implementation. Read it as a table of contents: each
//! phase hands off to the module that owns the concern.
//!
//! * `request_filter`: the local routes answer here (`api::*`); unknown paths get a 404 JSON.
//!   The proxy routes (`/v1/chat/completions`, `/v1/messages`) are answered by
//!   `proxy::handler`, which makes the upstream request itself.
//! * `upstream_peer`: no route goes upstream yet, so reaching it is an error.
//! * `logging`: metrics and one structured log line (never a key or prompt text).

use crate::api::{self, Reply, Route};
use crate::app::App;
use crate::error::{ApiError, ServiceError};
use crate::proxy;
use async_trait::async_trait;
use pingora::prelude::*;
use pingora::proxy::{ProxyHttp, Session};
use std::sync::Arc;
use std::time::Instant;

pub struct Gateway {
    app: Arc<App>,
}

impl Gateway {
    pub fn new(app: Arc<App>) -> Gateway {
        Gateway { app }
    }
}

/// What one request carries from phase to phase.
pub struct RequestCtx {
    started: Instant,
    route: Route,
    key_id: Option<String>,
}

#[async_trait]
impl ProxyHttp for Gateway {
    type CTX = RequestCtx;

    fn new_ctx(&self) -> RequestCtx {
        RequestCtx {
            started: Instant::now(),
            route: Route::NotFound,
            key_id: None,
        }
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut RequestCtx) -> Result<bool> {
        ctx.started = Instant::now();
        let header = session.req_header();
        ctx.route = Route::of(&header.method, header.uri.path());
        let reply = match ctx.route {
            Route::Proxy(protocol) => {
                // The proxy writes its own response (streamed from the upstream).
                let outcome =
                    proxy::handler::handle(&self.app, &self.app.proxy, session, protocol).await;
                ctx.key_id = outcome.key_id;
                return Ok(true);
            }
            Route::Compress => {
                let outcome = api::compress::handle(&self.app, session).await;
                ctx.key_id = outcome.key_id;
                outcome.reply
            }
            Route::Usage => {
                let (reply, key_id) = api::usage::handle(&self.app, session).await;
                ctx.key_id = key_id;
                reply
            }
            Route::Healthz => api::health::healthz(),
            Route::Readyz => api::health::readyz(&self.app).await,
            Route::WrongMethod => Reply::error(&ServiceError::Api(ApiError::MethodNotAllowed)),
            Route::NotFound => Reply::error(&ServiceError::Api(ApiError::NotFound)),
        };
        api::respond(session, reply).await?;
        Ok(true)
    }

    async fn upstream_peer(
        &self,
        _session: &mut Session,
        ctx: &mut RequestCtx,
    ) -> Result<Box<HttpPeer>> {
        Error::e_explain(
            ErrorType::InternalError,
            format!("route {:?} has no upstream", ctx.route),
        )
    }

    async fn logging(&self, session: &mut Session, error: Option<&Error>, ctx: &mut RequestCtx) {
        let status = session
            .response_written()
            .map_or(0, |header| header.status.as_u16());
        let elapsed = ctx.started.elapsed();
        let route = ctx.route.label();
        self.app
            .metrics
            .observe_request(route, status, elapsed.as_secs_f64());
        tracing::info!(
            route,
            status,
            latency_us = elapsed.as_micros() as u64,
            key_id = ctx.key_id.as_deref().unwrap_or("-"),
            error = error.map(|e| e.etype().as_str()).unwrap_or("-"),
            "request"
        );
    }
}
