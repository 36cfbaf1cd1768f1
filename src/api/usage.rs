//! `GET /api/v1/usage`: the calling key's usage this calendar month (UTC), totals and a
//! per-day series, read from the store (records reach it within `usage.flush_interval_ms`).

use super::Reply;
use crate::app::App;
use crate::auth::{self, RouteKind};
use crate::clock;
use crate::error::{ApiError, ServiceError};
use pingora::proxy::Session;
use serde_json::json;

pub async fn handle(app: &App, session: &Session) -> (Reply, Option<String>) {
    let now = clock::now();
    let presented = auth::presented_key(&session.req_header().headers, auth::COMPRESS_KEY_HEADERS);
    let key = match app.auth.authenticate(presented, now).await {
        Ok(key) => key,
        Err(error) => return (Reply::error(&error), None),
    };
    let reply = match report(app, &key, now).await {
        Ok(reply) => reply,
        Err(error) => Reply::error(&error),
    };
    (reply, Some(key.id))
}

async fn report(app: &App, key: &crate::store::KeyRecord, now: i64) -> Result<Reply, ServiceError> {
    auth::check_scope(key.scope, RouteKind::OwnUsage)?;
    let (from, to) = (clock::month_start(now), clock::next_month_start(now));
    let report = app
        .store
        .usage_report(Some(&key.id), from, to)
        .await
        .map_err(|err| {
            tracing::error!(error = %err, "usage query failed");
            ApiError::Internal
        })?;
    let quota = app.limits.quota_of(key);
    let used = app.limits.used(&key.id);
    Ok(Reply::json(
        200,
        &json!({
            "success": true,
            "keyId": key.id,
            "month": clock::month_label(now),
            "totals": report.totals,
            "daily": report.daily,
            "topModels": report.top_models,
            "quota": {
                "monthlyTokens": quota,
                "usedTokens": used,
                "remainingTokens": if quota == 0 { None } else { Some(quota.saturating_sub(used)) },
            },
            "rateLimit": { "requestsPerMinute": app.limits.rpm_of(key) },
        }),
    ))
}
