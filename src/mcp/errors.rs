//! Why a call to the service failed, and what the user should do about it.
//!
//! Each failure becomes a tool result with `isError: true` whose text is `advice()`: the assistant
//! shows it to the user or acts on it, so it names the cause and the fix, never just a status.

use super::config::CREATE_KEY_HINT;
use serde::Deserialize;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum ServiceError {
    /// No HTTP answer at all: connection refused, unknown host, TLS failure.
    Unreachable { url: String, detail: String },
    /// The service took longer than the client's timeout.
    Timeout { url: String, seconds: u64 },
    /// The service answered with an error status.
    Rejected(Rejection),
    /// The answer is not what terse's API sends (wrong SERVICE_URL, or a proxy in between).
    Unexpected { url: String, detail: String },
}

/// An error status of the service with the parts of its error body that help the user.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rejection {
    pub status: u16,
    /// The stable error code of the service's error body (`error.code`), when present.
    pub code: Option<String>,
    /// The service's own explanation (`error.message`), when present.
    pub message: Option<String>,
    /// Seconds to wait before retrying (`Retry-After` of a 429).
    pub retry_after: Option<String>,
}

/// The service's documented error body: `{"success": false, "error": {"code", "message"}}`.
#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    code: Option<String>,
    message: Option<String>,
}

impl Rejection {
    /// Builds a rejection from a status, its body and its `Retry-After` header. A body that is
    /// not the documented error shape still yields the status (the advice depends mostly on it).
    pub fn from_response(status: u16, body: &str, retry_after: Option<String>) -> Self {
        let (code, message) = match serde_json::from_str::<ErrorBody>(body) {
            Ok(ErrorBody { error }) => (error.code, error.message),
            Err(_) => (None, None),
        };
        Rejection {
            status,
            code,
            message,
            retry_after,
        }
    }

    fn service_says(&self) -> String {
        match (&self.code, &self.message) {
            (Some(code), Some(message)) => format!(" (service: {code}: {message})"),
            (None, Some(message)) => format!(" (service: {message})"),
            (Some(code), None) => format!(" (service: {code})"),
            (None, None) => String::new(),
        }
    }
}

impl ServiceError {
    /// The message for the user: what happened and what to do.
    pub fn advice(&self) -> String {
        match self {
            ServiceError::Unreachable { url, detail } => format!(
                "the terse service at {url} is not reachable ({detail}): start it with `terse serve` \
                 (or ./run.sh), or set SERVICE_URL in this server's MCP configuration to the \
                 service's address, then call the tool again"
            ),
            ServiceError::Timeout { url, seconds } => format!(
                "the terse service at {url} did not answer within {seconds} s: check that it is \
                 running and not overloaded (its /healthz), then call the tool again"
            ),
            ServiceError::Unexpected { url, detail } => format!(
                "the answer from {url} is not the terse API ({detail}): check that SERVICE_URL \
                 points at the terse service's public address (default http://127.0.0.1:8080)"
            ),
            ServiceError::Rejected(rejection) => rejection_advice(rejection),
        }
    }
}

fn rejection_advice(r: &Rejection) -> String {
    let says = r.service_says();
    match (r.status, r.code.as_deref()) {
        (400, Some("prompt_too_long")) => format!(
            "the prompt is too long for the service{says}: it accepts at most {} characters, so \
             split the prompt and compress each part",
            filters::MAX_PROMPT_CHARS
        ),
        (400, _) => {
            format!("the service rejected the arguments{says}: correct them and call again")
        }
        (401, _) => format!(
            "the service rejected SERVICE_API_KEY as missing, unknown, expired or revoked{says}: \
             {CREATE_KEY_HINT}"
        ),
        (403, _) => format!(
            "the key lacks the compress scope{says}: create one with scope full or compress_only \
             (`terse keys create --name mcp --scope compress_only`) and set it as SERVICE_API_KEY"
        ),
        (413, _) => format!(
            "the request is larger than the service's body limit{says}: split the prompt into \
             smaller parts and compress each"
        ),
        (429, Some("quota_exceeded")) => format!(
            "the key's monthly token quota is used up{says}: wait for the next calendar month \
             (UTC), or use a key with a larger quota (`terse keys create ... --monthly-quota \
             TOKENS`); service_get_metrics shows this month's usage"
        ),
        (429, _) => {
            let wait = match &r.retry_after {
                Some(seconds) => format!("wait {seconds} s and call again"),
                None => "wait a minute and call again".to_string(),
            };
            format!(
                "the key's rate limit is reached{says}: {wait}, or use a key with a higher limit \
                 (`terse keys create ... --rpm R`)"
            )
        }
        (status, _) if status >= 500 => format!(
            "the terse service failed with status {status}{says}: see the service's log, then \
             call again"
        ),
        (status, _) => format!(
            "the terse service answered status {status}{says}: check that SERVICE_URL points at \
             the terse service"
        ),
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.advice())
    }
}

impl std::error::Error for ServiceError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejected(status: u16, body: &str) -> String {
        ServiceError::Rejected(Rejection::from_response(status, body, Some("7".into()))).advice()
    }

    #[test]
    fn each_status_says_what_to_do() {
        let body = r#"{"success":false,"error":{"code":"forbidden_scope","message":"no"}}"#;
        let forbidden = rejected(403, body);
        assert!(
            forbidden.starts_with("the key lacks the compress scope"),
            "{forbidden}"
        );
        assert!(forbidden.contains("full or compress_only"));
        assert!(forbidden.contains("forbidden_scope: no"));

        assert!(rejected(401, "").contains("terse keys create"));
        let limited = rejected(429, "{}");
        assert!(limited.contains("wait 7 s"), "{limited}");
        assert!(rejected(413, "").contains("split"));
        let quota = rejected(
            429,
            r#"{"success":false,"error":{"code":"quota_exceeded"}}"#,
        );
        assert!(quota.contains("monthly token quota is used up"), "{quota}");
        assert!(rejected(503, "").contains("status 503"));
        assert!(rejected(404, "not found").contains("SERVICE_URL"));
    }

    #[test]
    fn a_too_long_prompt_names_the_limit() {
        let body =
            r#"{"success":false,"error":{"code":"prompt_too_long","message":"60000 > 50000"}}"#;
        let advice = rejected(400, body);
        assert!(advice.contains("50000 characters"), "{advice}");
        let other = rejected(400, r#"{"success":false,"error":{"code":"invalid_mode"}}"#);
        assert!(
            other.contains("invalid_mode") && other.contains("correct them"),
            "{other}"
        );
    }

    #[test]
    fn an_unreachable_service_names_the_address_and_the_fix() {
        let err = ServiceError::Unreachable {
            url: "http://127.0.0.1:9".into(),
            detail: "connection refused".into(),
        };
        let advice = err.to_string();
        assert!(advice.contains("http://127.0.0.1:9") && advice.contains("terse serve"));
    }
}
