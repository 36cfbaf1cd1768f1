//! Errors in the request itself: its route, content type, size or body.

use crate::request::RequestError;

#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// The body failed SPEC 2.1 validation; the code comes from [`RequestError::code`].
    Request(RequestError),
    /// A body larger than `limits.max_body_bytes`.
    BodyTooLarge {
        limit: usize,
    },
    /// A body that is not declared `application/json`.
    UnsupportedMediaType,
    /// A body that could not be read from the connection.
    BodyUnreadable,
    NotFound,
    MethodNotAllowed,
    /// A failure of the service itself (the store, say); details go to the log only.
    Internal,
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::Request(_) | ApiError::BodyUnreadable => 400,
            ApiError::BodyTooLarge { .. } => 413,
            ApiError::UnsupportedMediaType => 415,
            ApiError::NotFound => 404,
            ApiError::MethodNotAllowed => 405,
            ApiError::Internal => 500,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Request(e) => e.code(),
            ApiError::BodyTooLarge { .. } => "body_too_large",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::BodyUnreadable => "body_unreadable",
            ApiError::NotFound => "not_found",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::Internal => "internal_error",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::Request(e) => e.to_string(),
            ApiError::BodyTooLarge { limit } => {
                format!("the request body is larger than {limit} bytes")
            }
            ApiError::UnsupportedMediaType => {
                "the request body must be sent with Content-Type: application/json".into()
            }
            ApiError::BodyUnreadable => "the request body could not be read".into(),
            ApiError::NotFound => "no such endpoint".into(),
            ApiError::MethodNotAllowed => "this endpoint does not accept that method".into(),
            ApiError::Internal => "the service failed to process the request".into(),
        }
    }
}

impl From<RequestError> for ApiError {
    fn from(e: RequestError) -> Self {
        ApiError::Request(e)
    }
}
