//! Reading a request body safely: the JSON content-type check (415) and a byte cap (413)
//! enforced against `Content-Length` before reading and again while reading. Works on any
//! downstream session, so the local API, the admin API and the proxy share it.

use crate::error::ApiError;
use bytes::{Bytes, BytesMut};
use pingora::protocols::http::ServerSession;

/// 415 unless the request declares `application/json` (parameters such as `charset` allowed).
pub fn require_json(session: &ServerSession) -> Result<(), ApiError> {
    let declared = session
        .get_header(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let media_type = declared.split(';').next().unwrap_or("").trim();
    if media_type.eq_ignore_ascii_case("application/json") {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType)
    }
}

/// The whole body, at most `cap` bytes.
///
/// On 413 the rest of the body is left unread, so the connection is marked not reusable.
pub async fn read_capped(session: &mut ServerSession, cap: usize) -> Result<Bytes, ApiError> {
    let declared = session
        .get_header(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|len| len > cap as u64) {
        session.set_keepalive(None);
        return Err(ApiError::BodyTooLarge { limit: cap });
    }
    let mut body = BytesMut::with_capacity(declared.map_or(8 * 1024, |len| len as usize));
    // Each read returns at least one byte until the end, so `cap + 1` reads bound the loop
    // even for a client that trickles single bytes.
    for _ in 0..=cap {
        match session.read_request_body().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > cap {
                    session.set_keepalive(None);
                    return Err(ApiError::BodyTooLarge { limit: cap });
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body.freeze()),
            Err(err) => {
                tracing::debug!(error = %err, "request body read failed");
                session.set_keepalive(None);
                return Err(ApiError::BodyUnreadable);
            }
        }
    }
    session.set_keepalive(None);
    Err(ApiError::BodyTooLarge { limit: cap })
}
