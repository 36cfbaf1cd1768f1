//! Admin key routes: list, create (the secret is returned once), revoke.

use super::{AdminReply, bad_request, internal};
use crate::app::App;
use crate::body;
use crate::clock;
use crate::error::{ApiError, ServiceError};
use crate::keys::KeyRequest;
use crate::store::KeyRecord;
use pingora::protocols::http::ServerSession;
use serde_json::{Value, json};

/// The admin view of a key: the record plus its status and effective limits.
pub fn key_json(app: &App, key: &KeyRecord, now: i64) -> Value {
    let mut value = serde_json::to_value(key).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        fields.insert("status".into(), json!(key.status(now)));
        fields.insert("effectiveRpm".into(), json!(app.limits.rpm_of(key)));
        fields.insert(
            "effectiveMonthlyQuota".into(),
            json!(app.limits.quota_of(key)),
        );
        fields.insert("monthUsedTokens".into(), json!(app.limits.used(&key.id)));
    }
    value
}

pub async fn list(app: &App) -> AdminReply {
    match app.store.list_keys().await {
        Ok(keys) => {
            let now = clock::now();
            let keys: Vec<Value> = keys.iter().map(|k| key_json(app, k, now)).collect();
            (200, json!({ "success": true, "keys": keys }))
        }
        Err(err) => internal(err),
    }
}

pub async fn create(app: &App, session: &mut ServerSession) -> AdminReply {
    if let Err(error) = body::require_json(session) {
        return super::error_reply(error.into());
    }
    let raw = match body::read_capped(session, 64 * 1024).await {
        Ok(raw) => raw,
        Err(error) => return super::error_reply(error.into()),
    };
    let request: KeyRequest = match serde_json::from_slice(&raw) {
        Ok(request) => request,
        Err(err) => return bad_request(format!("invalid key request: {err}")),
    };
    let now = clock::now();
    let (record, secret) = match request.into_record(now) {
        Ok(created) => created,
        Err(why) => return bad_request(why),
    };
    if let Err(err) = app.store.create_key(&record).await {
        return internal(err);
    }
    tracing::info!(key_id = %record.id, scope = %record.scope, "key created via admin API");
    (
        201,
        json!({ "success": true, "key": key_json(app, &record, now), "secret": secret.secret }),
    )
}

pub async fn revoke(app: &App, id: &str) -> AdminReply {
    match app.store.revoke_key(id).await {
        Ok(true) => {
            app.auth.forget(id);
            tracing::info!(key_id = %id, "key revoked via admin API");
            match app.store.key_by_id(id).await {
                Ok(Some(key)) => (
                    200,
                    json!({ "success": true, "key": key_json(app, &key, clock::now()) }),
                ),
                Ok(None) => super::error_reply(ServiceError::Api(ApiError::NotFound)),
                Err(err) => internal(err),
            }
        }
        Ok(false) => super::error_reply(ServiceError::Api(ApiError::NotFound)),
        Err(err) => internal(err),
    }
}
