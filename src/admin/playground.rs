//! `POST /admin/v1/playground`: the dashboard's compression playground. Takes a SPEC 2.1
//! body, answers SPEC 2.2 plus the highlighting of both texts and the protected items.
//! It is an admin tool, not a key's traffic: nothing is charged or recorded as usage.

use super::word_diff::{self, Segment};
use super::{AdminReply, error_reply};
use crate::app::App;
use crate::body;
use crate::error::ApiError;
use crate::request;
use filters::vault::{self, CLOSE, OPEN};
use pingora::protocols::http::ServerSession;
use serde_json::json;

pub async fn compress(app: &App, session: &mut ServerSession) -> AdminReply {
    if let Err(error) = body::require_json(session) {
        return error_reply(error.into());
    }
    let raw = match body::read_capped(session, app.config.limits.max_body_bytes).await {
        Ok(raw) => raw,
        Err(error) => return error_reply(error.into()),
    };
    let request = match request::parse_body(&raw, &app.compress_defaults()) {
        Ok(request) => request,
        Err(error) => return error_reply(ApiError::from(error).into()),
    };
    let compressed = filters::compress(&request.prompt, &request.options);
    let sealed = vault::seal(&request.prompt, &request.options);
    // Literal U+E000/U+E001 characters are sealed too, but they are not protected content.
    let items: Vec<&str> = sealed
        .items()
        .filter(|item| !item.chars().all(|c| c == OPEN || c == CLOSE))
        .collect();
    let (original, result): (Vec<Segment>, Vec<Segment>) =
        word_diff::highlight(&request.prompt, &compressed.text, &items);
    let mut body = request::response_body(&compressed);
    body["highlight"] = json!({
        "original": original,
        "compressed": result,
        "protectedItems": items,
    });
    (200, body)
}
