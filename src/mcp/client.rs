//! The HTTP client of the terse service: `POST /api/v1/compress` and `GET /api/v1/usage`.
//!
//! The tool server is an ordinary API client, so keys, scopes, limits and usage apply to it
//! exactly as to any other. ureq is blocking and small; calls run on tokio's blocking pool so the
//! protocol loop on stdio keeps answering while a request is in flight.

use super::config::{ApiKey, McpConfig};
use super::errors::{Rejection, ServiceError};
use filters::{Mode, Stats};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Longest wait for a TCP (and TLS) connection: a local service answers in microseconds, so a
/// longer wait only delays the message that it is not running.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Longest wait for a whole call; the engine handles 50,000 characters in milliseconds.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest response body read: a 50,000-character prompt is at most 200 kB in UTF-8.
const MAX_RESPONSE_BYTES: u64 = 4 * 1024 * 1024;

/// The body of `POST /api/v1/compress` (SPEC 2.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompressRequest {
    pub prompt: String,
    pub mode: Mode,
    pub protect_code_blocks: bool,
    pub protect_json: bool,
}

/// The body of a 200 from `POST /api/v1/compress` (SPEC 2.2).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CompressResponse {
    pub compressed: String,
    pub stats: Stats,
}

#[derive(Clone)]
pub struct ServiceClient {
    agent: ureq::Agent,
    base_url: String,
    api_key: ApiKey,
}

impl ServiceClient {
    pub fn new(config: &McpConfig) -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_global(Some(CALL_TIMEOUT))
            // Error statuses carry the service's error body, which the advice quotes.
            .http_status_as_error(false)
            .user_agent(concat!("terse-mcp/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        ServiceClient {
            agent,
            base_url: config.service_url.clone(),
            api_key: config.api_key.clone(),
        }
    }

    pub async fn compress(
        &self,
        request: CompressRequest,
    ) -> Result<CompressResponse, ServiceError> {
        let client = self.clone();
        self.blocking(move || client.compress_blocking(&request))
            .await
    }

    /// The calling key's usage for the current month, as the service returns it.
    pub async fn usage(&self) -> Result<serde_json::Value, ServiceError> {
        let client = self.clone();
        self.blocking(move || client.usage_blocking()).await
    }

    async fn blocking<T: Send + 'static>(
        &self,
        call: impl FnOnce() -> Result<T, ServiceError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        tokio::task::spawn_blocking(call)
            .await
            .unwrap_or_else(|err| {
                Err(ServiceError::Unexpected {
                    url: self.base_url.clone(),
                    detail: format!("the request task failed: {err}"),
                })
            })
    }

    fn compress_blocking(
        &self,
        request: &CompressRequest,
    ) -> Result<CompressResponse, ServiceError> {
        let url = format!("{}/api/v1/compress", self.base_url);
        let body = serde_json::to_vec(request).map_err(|err| ServiceError::Unexpected {
            url: url.clone(),
            detail: format!("the request could not be encoded: {err}"),
        })?;
        let response = self
            .agent
            .post(&url)
            .header("Authorization", self.api_key.bearer())
            .content_type("application/json")
            .send(&body[..]);
        let text = read_success(&url, response)?;
        serde_json::from_str(&text).map_err(|err| ServiceError::Unexpected {
            url,
            detail: format!("the compress answer has no `compressed` and `stats`: {err}"),
        })
    }

    fn usage_blocking(&self) -> Result<serde_json::Value, ServiceError> {
        let url = format!("{}/api/v1/usage", self.base_url);
        let response = self
            .agent
            .get(&url)
            .header("Authorization", self.api_key.bearer())
            .call();
        let text = read_success(&url, response)?;
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(value @ serde_json::Value::Object(_)) => Ok(value),
            Ok(_) | Err(_) => Err(ServiceError::Unexpected {
                url,
                detail: "the usage answer is not a JSON object".to_string(),
            }),
        }
    }
}

/// The body of a 2xx answer, or the error that explains any other outcome.
fn read_success(
    url: &str,
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<String, ServiceError> {
    let mut response = response.map_err(|err| transport_error(url, err))?;
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok())
        .map(str::to_string);
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_RESPONSE_BYTES)
        .read_to_string()
        .map_err(|err| transport_error(url, err))?;
    if (200..300).contains(&status) {
        Ok(body)
    } else {
        Err(ServiceError::Rejected(Rejection::from_response(
            status,
            &body,
            retry_after,
        )))
    }
}

fn transport_error(url: &str, err: ureq::Error) -> ServiceError {
    let url = url.to_string();
    match err {
        ureq::Error::Timeout(_) => ServiceError::Timeout {
            url,
            seconds: CALL_TIMEOUT.as_secs(),
        },
        ureq::Error::Protocol(_) | ureq::Error::BodyExceedsLimit(_) | ureq::Error::BadUri(_) => {
            ServiceError::Unexpected {
                url,
                detail: err.to_string(),
            }
        }
        other => ServiceError::Unreachable {
            url,
            detail: other.to_string(),
        },
    }
}
