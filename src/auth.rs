//! Who is calling: the key from the request headers, looked up by hash, checked for expiry,
//! revocation and scope.
//!
//! Lookups are cached in memory for `auth.cache_ttl_ms` so the hot path skips the store.
//! A revocation through the admin API evicts the key at once ([`Authenticator::forget`]);
//! one made by `terse keys revoke` in another process is seen once the entry expires.

use crate::error::{ApiError, AuthError, ServiceError};
use crate::keys;
use crate::store::{KeyRecord, Scope, Store};
use http::HeaderMap;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The kinds of route a key may be allowed to call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteKind {
    /// `POST /api/v1/compress`.
    Compress,
    /// `/v1/chat/completions` and `/v1/messages`.
    #[allow(dead_code, reason = "the proxy routes of issue 4 check this scope")]
    Proxy,
    /// `GET /api/v1/usage`: a key may always read its own usage.
    OwnUsage,
}

/// Whether a key of `scope` may call a route of `kind`.
pub fn check_scope(scope: Scope, kind: RouteKind) -> Result<(), AuthError> {
    let allowed = match kind {
        RouteKind::Compress => matches!(scope, Scope::Full | Scope::CompressOnly),
        RouteKind::Proxy => matches!(scope, Scope::Full | Scope::ProxyOnly),
        RouteKind::OwnUsage => true,
    };
    if allowed {
        Ok(())
    } else {
        Err(AuthError::ScopeDenied { scope })
    }
}

/// The headers a compress request may carry its key in, after `Authorization: Bearer`.
pub const COMPRESS_KEY_HEADERS: &[&str] = &["x-service-key"];

/// The key presented in `Authorization: Bearer <key>` or, failing that, in the first of
/// `headers` that is present and non-empty.
pub fn presented_key<'a>(request: &'a HeaderMap, headers: &[&str]) -> Option<&'a str> {
    let bearer = request
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
    bearer
        .into_iter()
        .chain(
            headers
                .iter()
                .filter_map(|name| request.get(*name).and_then(|v| v.to_str().ok()))
                .map(str::trim),
        )
        .find(|key| !key.is_empty())
}

pub struct Authenticator {
    store: Arc<dyn Store>,
    ttl: Duration,
    /// Key hash → record and when it was read.
    cache: Mutex<HashMap<String, (KeyRecord, Instant)>>,
}

/// Entries beyond this many are dropped wholesale rather than tracked for eviction.
const CACHE_LIMIT: usize = 100_000;

impl Authenticator {
    pub fn new(store: Arc<dyn Store>, ttl: Duration) -> Authenticator {
        Authenticator {
            store,
            ttl,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The active key for `secret`, or why there is none.
    pub async fn authenticate(
        &self,
        secret: Option<&str>,
        now: i64,
    ) -> Result<KeyRecord, ServiceError> {
        let secret = secret.ok_or(AuthError::MissingKey)?;
        if !keys::looks_like_service_key(secret) {
            return Err(AuthError::UnknownKey.into());
        }
        let hash = keys::hash(secret);
        let key = match self.cached(&hash) {
            Some(key) => key,
            None => {
                let found = self.store.key_by_hash(&hash).await.map_err(|err| {
                    tracing::error!(error = %err, "key lookup failed");
                    ApiError::Internal
                })?;
                let key = found.ok_or(AuthError::UnknownKey)?;
                self.remember(&hash, &key);
                key
            }
        };
        // The store found it by hash; compare again in constant time so no timing of our own
        // code depends on how much of the hash matched.
        if !keys::matches(secret, &key.hash) {
            return Err(AuthError::UnknownKey.into());
        }
        if key.revoked {
            return Err(AuthError::RevokedKey.into());
        }
        if key.is_expired(now) {
            return Err(AuthError::ExpiredKey.into());
        }
        Ok(key)
    }

    /// Drops a key from the cache (after it was revoked or changed in this process).
    pub fn forget(&self, key_id: &str) {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.retain(|_, (key, _)| key.id != key_id);
    }

    fn cached(&self, hash: &str) -> Option<KeyRecord> {
        if self.ttl.is_zero() {
            return None;
        }
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .get(hash)
            .filter(|(_, at)| at.elapsed() < self.ttl)
            .map(|(key, _)| key.clone())
    }

    fn remember(&self, hash: &str, key: &KeyRecord) {
        if self.ttl.is_zero() {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(hash.to_string(), (key.clone(), Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_allow_their_routes_only() {
        assert!(check_scope(Scope::Full, RouteKind::Compress).is_ok());
        assert!(check_scope(Scope::Full, RouteKind::Proxy).is_ok());
        assert!(check_scope(Scope::CompressOnly, RouteKind::Compress).is_ok());
        assert!(check_scope(Scope::CompressOnly, RouteKind::Proxy).is_err());
        assert!(check_scope(Scope::ProxyOnly, RouteKind::Proxy).is_ok());
        assert!(check_scope(Scope::ProxyOnly, RouteKind::Compress).is_err());
        assert!(check_scope(Scope::ProxyOnly, RouteKind::OwnUsage).is_ok());
    }

    #[test]
    fn the_key_comes_from_bearer_then_the_named_headers() {
        let mut headers = HeaderMap::new();
        assert_eq!(presented_key(&headers, COMPRESS_KEY_HEADERS), None);
        headers.insert("x-service-key", "svc_live_b".parse().unwrap());
        assert_eq!(
            presented_key(&headers, COMPRESS_KEY_HEADERS),
            Some("svc_live_b")
        );
        headers.insert("authorization", "bearer svc_live_a".parse().unwrap());
        assert_eq!(
            presented_key(&headers, COMPRESS_KEY_HEADERS),
            Some("svc_live_a")
        );
        headers.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(
            presented_key(&headers, COMPRESS_KEY_HEADERS),
            Some("svc_live_b")
        );
    }
}
