//! Dashboard sessions: signing in with the admin token yields a random session id in an
//! `HttpOnly; SameSite=Strict` cookie and a per-session CSRF token that every state-changing
//! request must echo (header `X-CSRF-Token` or form field `csrf`).
//!
//! Sessions live in memory only (a restart signs everyone out) and expire a fixed time after
//! sign-in. The map is keyed by the SHA-256 of the id, so the ids themselves are not kept, and
//! both ids and CSRF tokens come from the operating system's CSPRNG (256 bits each).

use crate::keys;
use http::HeaderMap;
use rand::{Rng, TryRngCore};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use subtle::ConstantTimeEq;

/// The cookie's name; with `Secure` it takes the `__Host-` prefix, which browsers only accept
/// from a secure origin, without `Domain`, with `Path=/`.
const COOKIE: &str = "terse_admin";
const SECURE_COOKIE: &str = "__Host-terse_admin";

/// More sessions than this and the oldest is dropped, so sign-ins cannot grow memory forever.
const MAX_SESSIONS: usize = 1024;

#[derive(Clone, Debug)]
pub struct Session {
    pub csrf: String,
    pub expires_at: Instant,
}

pub struct Sessions {
    by_id_hash: Mutex<HashMap<String, Session>>,
    ttl: Duration,
    secure: bool,
}

/// 32 bytes from the OS CSPRNG, hex-encoded.
fn random_hex() -> String {
    let bytes: [u8; 32] = rand::rngs::OsRng.unwrap_err().random();
    hex::encode(bytes)
}

impl Sessions {
    pub fn new(ttl: Duration, secure: bool) -> Sessions {
        Sessions {
            by_id_hash: Mutex::new(HashMap::new()),
            ttl,
            secure,
        }
    }

    fn cookie_name(&self) -> &'static str {
        if self.secure { SECURE_COOKIE } else { COOKIE }
    }

    /// Starts a session; returns its `Set-Cookie` value.
    pub fn create(&self) -> String {
        let id = random_hex();
        let now = Instant::now();
        let session = Session {
            csrf: random_hex(),
            expires_at: now + self.ttl,
        };
        let mut map = self.by_id_hash.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, s| s.expires_at > now);
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, s)| s.expires_at)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        map.insert(keys::hash(&id), session);
        self.set_cookie(&id, self.ttl.as_secs())
    }

    /// The live session named by the request's cookie, if any.
    pub fn find(&self, headers: &HeaderMap) -> Option<Session> {
        let id = self.cookie_value(headers)?;
        let mut map = self.by_id_hash.lock().unwrap_or_else(|e| e.into_inner());
        let hash = keys::hash(id);
        match map.get(&hash) {
            Some(session) if session.expires_at > Instant::now() => Some(session.clone()),
            Some(_) => {
                map.remove(&hash);
                None
            }
            None => None,
        }
    }

    /// Ends the request's session; returns the `Set-Cookie` value that clears the cookie.
    pub fn end(&self, headers: &HeaderMap) -> String {
        if let Some(id) = self.cookie_value(headers) {
            let mut map = self.by_id_hash.lock().unwrap_or_else(|e| e.into_inner());
            map.remove(&keys::hash(id));
        }
        self.set_cookie("", 0)
    }

    fn set_cookie(&self, value: &str, max_age: u64) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}",
            self.cookie_name()
        )
    }

    fn cookie_value<'a>(&self, headers: &'a HeaderMap) -> Option<&'a str> {
        let name = self.cookie_name();
        headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(n, v)| *n == name && !v.is_empty())
            .map(|(_, v)| v)
    }
}

/// Whether `presented` is the session's CSRF token, compared in constant time.
pub fn csrf_matches(session: &Session, presented: Option<&str>) -> bool {
    presented.is_some_and(|token| token.as_bytes().ct_eq(session.csrf.as_bytes()).into())
}

/// The CSRF token a request carries in its `X-CSRF-Token` header.
pub fn csrf_header(headers: &HeaderMap) -> Option<&str> {
    headers.get("x-csrf-token").and_then(|v| v.to_str().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_cookie(set_cookie: &str) -> HeaderMap {
        let pair = set_cookie.split(';').next().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            http::header::COOKIE,
            format!("other=1; {pair}").parse().unwrap(),
        );
        headers
    }

    #[test]
    fn a_session_is_found_by_its_cookie_until_it_ends() {
        let sessions = Sessions::new(Duration::from_secs(60), false);
        let cookie = sessions.create();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
        assert!(cookie.contains("Path=/") && !cookie.contains("Secure"));
        let headers = with_cookie(&cookie);
        let session = sessions.find(&headers).expect("the session is live");
        assert_eq!(session.csrf.len(), 64);
        assert!(csrf_matches(&session, Some(&session.csrf)));
        assert!(!csrf_matches(&session, Some("nope")));
        assert!(!csrf_matches(&session, None));
        let cleared = sessions.end(&headers);
        assert!(cleared.contains("Max-Age=0"));
        assert!(sessions.find(&headers).is_none());
        assert!(sessions.find(&HeaderMap::new()).is_none());
    }

    #[test]
    fn sessions_expire_and_secure_cookies_take_the_host_prefix() {
        let sessions = Sessions::new(Duration::ZERO, true);
        let cookie = sessions.create();
        assert!(cookie.starts_with("__Host-terse_admin=") && cookie.contains("; Secure"));
        assert!(sessions.find(&with_cookie(&cookie)).is_none());
    }

    #[test]
    fn ids_are_random() {
        let sessions = Sessions::new(Duration::from_secs(60), false);
        assert_ne!(sessions.create(), sessions.create());
    }
}
