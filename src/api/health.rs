//! `GET /healthz` (the process answers) and `GET /readyz` (the store answers too).

use super::Reply;
use crate::app::App;
use serde_json::json;

pub fn healthz() -> Reply {
    Reply::json(200, &json!({ "status": "ok" }))
}

pub async fn readyz(app: &App) -> Reply {
    match app.store.setting("schema_probe").await {
        Ok(_) => Reply::json(200, &json!({ "status": "ready" })),
        Err(err) => {
            tracing::error!(error = %err, "readiness probe: the store does not answer");
            Reply::json(503, &json!({ "status": "unavailable", "reason": "store" }))
        }
    }
}
