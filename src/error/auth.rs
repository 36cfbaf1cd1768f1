//! Errors of authentication (401) and authorization (403).

use crate::store::Scope;

#[derive(Clone, Debug, PartialEq)]
pub enum AuthError {
    /// No key in `Authorization: Bearer` or `X-Service-Key`.
    MissingKey,
    /// A key that matches no stored key.
    UnknownKey,
    ExpiredKey,
    RevokedKey,
    /// A valid key whose scope does not include the route.
    ScopeDenied {
        scope: Scope,
    },
    /// An admin API request without the admin token.
    AdminTokenInvalid,
}

impl AuthError {
    pub fn status(&self) -> u16 {
        match self {
            AuthError::ScopeDenied { .. } => 403,
            _ => 401,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            AuthError::MissingKey => "missing_api_key",
            AuthError::UnknownKey => "invalid_api_key",
            AuthError::ExpiredKey => "expired_api_key",
            AuthError::RevokedKey => "revoked_api_key",
            AuthError::ScopeDenied { .. } => "insufficient_scope",
            AuthError::AdminTokenInvalid => "invalid_admin_token",
        }
    }

    pub fn message(&self) -> String {
        match self {
            AuthError::MissingKey => {
                "an API key is required: send Authorization: Bearer <key> or X-Service-Key".into()
            }
            AuthError::UnknownKey => "the API key is not valid".into(),
            AuthError::ExpiredKey => "the API key has expired".into(),
            AuthError::RevokedKey => "the API key has been revoked".into(),
            AuthError::ScopeDenied { scope } => {
                format!("a key with scope {scope} cannot call this endpoint")
            }
            AuthError::AdminTokenInvalid => {
                "the admin API requires Authorization: Bearer <admin token>".into()
            }
        }
    }

    pub fn headers(&self) -> Vec<(&'static str, String)> {
        match self {
            AuthError::ScopeDenied { .. } => Vec::new(),
            _ => vec![("WWW-Authenticate", "Bearer".into())],
        }
    }
}
