//! Errors of the rate limit and the monthly quota (429).

#[derive(Clone, Debug, PartialEq)]
pub enum LimitError {
    /// More requests this minute than the key's rpm allows.
    RateLimited {
        limit: u32,
        retry_after_secs: u64,
        /// Seconds until the bucket is full again.
        reset_secs: u64,
    },
    /// The key has used its monthly token quota.
    QuotaExceeded {
        quota: u64,
        /// Seconds until the next calendar month (UTC).
        reset_secs: u64,
    },
}

impl LimitError {
    pub fn status(&self) -> u16 {
        429
    }

    pub fn code(&self) -> &'static str {
        match self {
            LimitError::RateLimited { .. } => "rate_limited",
            LimitError::QuotaExceeded { .. } => "quota_exceeded",
        }
    }

    pub fn message(&self) -> String {
        match self {
            LimitError::RateLimited {
                limit,
                retry_after_secs,
                ..
            } => format!(
                "rate limit of {limit} requests per minute exceeded; retry in {retry_after_secs} s"
            ),
            LimitError::QuotaExceeded { quota, .. } => format!(
                "monthly quota of {quota} tokens used up; it resets at the start of next month (UTC)"
            ),
        }
    }

    pub fn headers(&self) -> Vec<(&'static str, String)> {
        match self {
            LimitError::RateLimited {
                limit,
                retry_after_secs,
                reset_secs,
            } => vec![
                ("Retry-After", retry_after_secs.to_string()),
                ("X-RateLimit-Limit", limit.to_string()),
                ("X-RateLimit-Remaining", "0".into()),
                ("X-RateLimit-Reset", reset_secs.to_string()),
            ],
            LimitError::QuotaExceeded { quota, reset_secs } => vec![
                ("Retry-After", reset_secs.to_string()),
                // For a quota the limit is counted in tokens, not requests.
                ("X-RateLimit-Limit", quota.to_string()),
                ("X-RateLimit-Remaining", "0".into()),
                ("X-RateLimit-Reset", reset_secs.to_string()),
            ],
        }
    }
}
