//! `POST /api/v1/compress` (SPEC 4.1): authenticate, check scope and limits, read and validate
//! the body, compress, record usage, answer SPEC 2.2.

use super::Reply;
use crate::app::App;
use crate::auth::{self, RouteKind};
use crate::error::ServiceError;
use crate::store::{UsageRecord, UsageTotals};
use crate::{body, clock, request};
use pingora::proxy::Session;

/// What the gateway logs about a compress request.
pub struct Outcome {
    pub reply: Reply,
    pub key_id: Option<String>,
}

pub async fn handle(app: &App, session: &mut Session) -> Outcome {
    let mut key_id = None;
    let reply = match compress(app, session, &mut key_id).await {
        Ok(reply) => reply,
        Err(error) => Reply::error(&error),
    };
    Outcome { reply, key_id }
}

async fn compress(
    app: &App,
    session: &mut Session,
    key_id: &mut Option<String>,
) -> Result<Reply, ServiceError> {
    let now = clock::now();
    let presented = auth::presented_key(&session.req_header().headers, auth::COMPRESS_KEY_HEADERS);
    let key = app.auth.authenticate(presented, now).await?;
    *key_id = Some(key.id.clone());
    auth::check_scope(key.scope, RouteKind::Compress)?;
    let admission = app.limits.admit(&key)?;
    app.limits.check_quota(&key)?;

    let downstream = session.as_downstream_mut();
    body::require_json(downstream)?;
    let raw = body::read_capped(downstream, app.config.limits.max_body_bytes).await?;
    let request = request::parse_body(&raw, &app.compress_defaults())
        .map_err(crate::error::ApiError::from)?;

    let compressed = crate::engine::compress(&request.prompt, &request.options);
    let stats = &compressed.stats;
    let (original, saved) = (stats.original_tokens as u64, stats.saved_tokens as u64);
    app.limits.charge(&key.id, original);
    app.metrics.observe_tokens("compress", original, saved);
    app.usage.record(UsageRecord {
        key_id: key.id.clone(),
        at: now,
        route: "compress".into(),
        model: String::new(),
        totals: UsageTotals {
            requests: 1,
            original_tokens: original,
            final_tokens: stats.final_tokens as u64,
            saved_tokens: saved,
            output_saved_est: 0,
            usd_saved: 0.0,
        },
    });
    Ok(Reply::json(200, &request::response_body(&compressed)).with_headers(admission.headers()))
}
