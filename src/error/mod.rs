//! The service's own errors. Each kind has one HTTP status, one stable code and one message
//! (`status()`, `code()`, `message()`), so every front end renders them its own way: the
//! compress API as `{"success": false, "error": {"code", "message"}}` ([`ServiceError::body`]),
//! the proxy in the OpenAI or Anthropic error shape. The codes are listed in the README.

pub mod api;
pub mod auth;
pub mod limit;

pub use api::ApiError;
pub use auth::AuthError;
pub use limit::LimitError;

use serde_json::json;

/// Any error the service answers itself.
#[derive(Clone, Debug, PartialEq)]
pub enum ServiceError {
    Api(ApiError),
    Auth(AuthError),
    Limit(LimitError),
}

impl ServiceError {
    pub fn status(&self) -> u16 {
        match self {
            ServiceError::Api(e) => e.status(),
            ServiceError::Auth(e) => e.status(),
            ServiceError::Limit(e) => e.status(),
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::Api(e) => e.code(),
            ServiceError::Auth(e) => e.code(),
            ServiceError::Limit(e) => e.code(),
        }
    }

    pub fn message(&self) -> String {
        match self {
            ServiceError::Api(e) => e.message(),
            ServiceError::Auth(e) => e.message(),
            ServiceError::Limit(e) => e.message(),
        }
    }

    /// Headers the response must carry besides the body (`Retry-After`, `X-RateLimit-*`,
    /// `WWW-Authenticate`).
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        match self {
            ServiceError::Api(_) => Vec::new(),
            ServiceError::Auth(e) => e.headers(),
            ServiceError::Limit(e) => e.headers(),
        }
    }

    /// The compress API's error body.
    pub fn body(&self) -> serde_json::Value {
        if let ServiceError::Api(ApiError::Request(e)) = self {
            return e.body();
        }
        json!({
            "success": false,
            "error": { "code": self.code(), "message": self.message() },
        })
    }
}

impl From<ApiError> for ServiceError {
    fn from(e: ApiError) -> Self {
        ServiceError::Api(e)
    }
}

impl From<AuthError> for ServiceError {
    fn from(e: AuthError) -> Self {
        ServiceError::Auth(e)
    }
}

impl From<LimitError> for ServiceError {
    fn from(e: LimitError) -> Self {
        ServiceError::Limit(e)
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status(), self.code(), self.message())
    }
}

impl std::error::Error for ServiceError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::RequestError;

    #[test]
    fn every_kind_renders_the_documented_shape() {
        let errors: Vec<ServiceError> = vec![
            ApiError::Request(RequestError::MissingPrompt).into(),
            ApiError::BodyTooLarge { limit: 10 }.into(),
            ApiError::UnsupportedMediaType.into(),
            ApiError::NotFound.into(),
            AuthError::MissingKey.into(),
            AuthError::ScopeDenied {
                scope: crate::store::Scope::ProxyOnly,
            }
            .into(),
            LimitError::RateLimited {
                limit: 5,
                retry_after_secs: 12,
                reset_secs: 60,
            }
            .into(),
        ];
        let statuses: Vec<u16> = errors.iter().map(ServiceError::status).collect();
        assert_eq!(statuses, [400, 413, 415, 404, 401, 403, 429]);
        for error in &errors {
            let body = error.body();
            assert_eq!(body["success"], false);
            assert_eq!(body["error"]["code"], error.code());
            assert!(!error.message().is_empty());
        }
    }
}
