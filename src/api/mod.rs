//! The local routes of the public listener, answered without an upstream, and the small
//! response type they share.

pub mod compress;
pub mod health;
pub mod usage;

use crate::error::ServiceError;
use bytes::Bytes;
use http::Method;
use pingora::http::ResponseHeader;
use pingora::proxy::Session;

/// Which handler owns a request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Route {
    Compress,
    /// The provider proxy: `/v1/chat/completions` or `/v1/messages` (`proxy::handler`).
    Proxy(crate::proxy::route::Protocol),
    Usage,
    Healthz,
    Readyz,
    /// A known path with the wrong method.
    WrongMethod,
    #[default]
    NotFound,
}

impl Route {
    pub fn of(method: &Method, path: &str) -> Route {
        if let Some(protocol) = crate::proxy::route::Protocol::for_path(path) {
            return if *method == Method::POST {
                Route::Proxy(protocol)
            } else {
                Route::WrongMethod
            };
        }
        let (route, allowed) = match path {
            "/api/v1/compress" => (Route::Compress, Method::POST),
            "/api/v1/usage" => (Route::Usage, Method::GET),
            "/healthz" => (Route::Healthz, Method::GET),
            "/readyz" => (Route::Readyz, Method::GET),
            _ => return Route::NotFound,
        };
        if *method == allowed || (allowed == Method::GET && *method == Method::HEAD) {
            route
        } else {
            Route::WrongMethod
        }
    }

    /// The metrics and log label.
    pub fn label(self) -> &'static str {
        match self {
            Route::Compress => "compress",
            Route::Proxy(crate::proxy::route::Protocol::Openai) => "proxy_openai",
            Route::Proxy(crate::proxy::route::Protocol::Anthropic) => "proxy_anthropic",
            Route::Usage => "usage",
            Route::Healthz => "healthz",
            Route::Readyz => "readyz",
            Route::WrongMethod | Route::NotFound => "unknown",
        }
    }
}

/// A complete local response.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Bytes,
}

impl Reply {
    pub fn json(status: u16, body: &serde_json::Value) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: Bytes::from(body.to_string()),
        }
    }

    pub fn with_headers(mut self, headers: Vec<(&'static str, String)>) -> Reply {
        self.headers.extend(headers);
        self
    }

    /// The compress API's rendering of a service error.
    pub fn error(error: &ServiceError) -> Reply {
        Reply::json(error.status(), &error.body()).with_headers(error.headers())
    }
}

/// Writes `reply` as the whole response.
pub async fn respond(session: &mut Session, reply: Reply) -> pingora::Result<()> {
    let mut header = ResponseHeader::build(reply.status, Some(reply.headers.len() + 3))?;
    header.insert_header(http::header::CONTENT_TYPE, "application/json")?;
    header.insert_header(http::header::CONTENT_LENGTH, reply.body.len())?;
    header.insert_header(http::header::CACHE_CONTROL, "no-store")?;
    for (name, value) in reply.headers {
        header.insert_header(name, value)?;
    }
    let head_only = session.req_header().method == Method::HEAD;
    session
        .write_response_header(Box::new(header), head_only)
        .await?;
    if !head_only {
        session.write_response_body(Some(reply.body), true).await?;
    }
    Ok(())
}
