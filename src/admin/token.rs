//! The admin token: where it comes from and how a request proves it has it.
//!
//! A token set in the config or `SERVICE_ADMIN_TOKEN` wins. Otherwise the first start
//! generates one, stores only its SHA-256 hash in the store's settings, and prints the token
//! once on standard error; later starts use the stored hash.

use crate::auth::presented_key;
use crate::error::{AuthError, ServiceError};
use crate::keys;
use crate::store::Store;
use pingora::protocols::http::ServerSession;
use subtle::ConstantTimeEq;

const SETTING: &str = "admin_token_sha256";

/// The hash of the admin token to accept, creating a token on first start if none is set.
pub async fn resolve(configured: Option<&str>, store: &dyn Store) -> anyhow::Result<String> {
    if let Some(token) = configured {
        return Ok(keys::hash(token));
    }
    if let Some(hash) = store.setting(SETTING).await? {
        return Ok(hash);
    }
    let token = keys::random_token();
    let hash = keys::hash(&token);
    store.set_setting(SETTING, &hash).await?;
    eprintln!(
        "terse: generated an admin token (shown once; only its hash is stored):\n{token}\n\
         set SERVICE_ADMIN_TOKEN or admin.token to choose your own"
    );
    Ok(hash)
}

/// Whether the request carries the admin token as `Authorization: Bearer`.
pub fn authorized(session: &ServerSession, expected_hash: &str) -> bool {
    let Some(token) = presented_key(&session.req_header().headers, &[]) else {
        return false;
    };
    keys::hash(token)
        .as_bytes()
        .ct_eq(expected_hash.as_bytes())
        .into()
}

pub fn unauthorized() -> ServiceError {
    ServiceError::Auth(AuthError::AdminTokenInvalid)
}
