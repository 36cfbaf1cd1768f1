//! Per-key limits, in memory: requests per minute (GCRA) and tokens per calendar month (UTC).
//!
//! GCRA keeps one "theoretical arrival time" per key. With rate `rpm` the emission interval is
//! `T = 60 s / rpm` and the burst tolerance is a full minute (`rpm * T`): a fresh key may send
//! `rpm` requests at once, then one every `T`. The check and the update happen under one lock,
//! so concurrent requests can never be over-admitted.
//!
//! The quota counts original tokens. It is seeded from the store at start (this month's
//! usage), checked before a request is processed and charged after it; one request may
//! overshoot the quota by its own size, never more.

use crate::clock;
use crate::error::LimitError;
use crate::store::KeyRecord;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

const MINUTE_NS: u128 = 60_000_000_000;

/// What the rate limiter reports for an admitted request (for `X-RateLimit-*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admission {
    /// The key's requests per minute; 0 when unlimited.
    pub limit: u32,
    pub remaining: u32,
    pub reset_secs: u64,
}

impl Admission {
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        if self.limit == 0 {
            return Vec::new();
        }
        vec![
            ("X-RateLimit-Limit", self.limit.to_string()),
            ("X-RateLimit-Remaining", self.remaining.to_string()),
            ("X-RateLimit-Reset", self.reset_secs.to_string()),
        ]
    }
}

struct Quotas {
    month_start: i64,
    used: HashMap<String, u64>,
}

pub struct Limiter {
    default_rpm: u32,
    default_quota: u64,
    epoch: Instant,
    /// Theoretical arrival time per key, in nanoseconds since `epoch`.
    arrivals: Mutex<HashMap<String, u128>>,
    quotas: Mutex<Quotas>,
}

fn ceil_secs(ns: u128) -> u64 {
    ns.div_ceil(1_000_000_000) as u64
}

impl Limiter {
    /// `default_rpm` / `default_quota` of 0 mean unlimited.
    pub fn new(default_rpm: u32, default_quota: u64) -> Limiter {
        Limiter {
            default_rpm,
            default_quota,
            epoch: Instant::now(),
            arrivals: Mutex::new(HashMap::new()),
            quotas: Mutex::new(Quotas {
                month_start: clock::month_start(clock::now()),
                used: HashMap::new(),
            }),
        }
    }

    /// Loads the tokens each key has used in the month starting at `month_start`.
    pub fn seed_month(&self, month_start: i64, used: impl IntoIterator<Item = (String, u64)>) {
        let mut quotas = self.quotas.lock().unwrap_or_else(|p| p.into_inner());
        quotas.month_start = month_start;
        quotas.used = used.into_iter().collect();
    }

    pub fn rpm_of(&self, key: &KeyRecord) -> u32 {
        key.rpm.unwrap_or(self.default_rpm)
    }

    pub fn quota_of(&self, key: &KeyRecord) -> u64 {
        key.monthly_quota.unwrap_or(self.default_quota)
    }

    /// Admits one request of `key` now, or says when to retry.
    pub fn admit(&self, key: &KeyRecord) -> Result<Admission, LimitError> {
        self.admit_at(key, self.epoch.elapsed().as_nanos())
    }

    fn admit_at(&self, key: &KeyRecord, now: u128) -> Result<Admission, LimitError> {
        let limit = self.rpm_of(key);
        if limit == 0 {
            return Ok(Admission {
                limit: 0,
                remaining: 0,
                reset_secs: 0,
            });
        }
        let interval = MINUTE_NS / u128::from(limit);
        let tolerance = interval * u128::from(limit);
        let mut arrivals = self.arrivals.lock().unwrap_or_else(|p| p.into_inner());
        let tat = arrivals.get(&key.id).copied().unwrap_or(now).max(now);
        let new_tat = tat + interval;
        let ahead = new_tat - now;
        if ahead > tolerance {
            return Err(LimitError::RateLimited {
                limit,
                retry_after_secs: ceil_secs(ahead - tolerance).max(1),
                reset_secs: ceil_secs(tat - now),
            });
        }
        arrivals.insert(key.id.clone(), new_tat);
        Ok(Admission {
            limit,
            remaining: ((tolerance - ahead) / interval) as u32,
            reset_secs: ceil_secs(ahead),
        })
    }

    /// Refuses a key whose monthly quota is used up.
    pub fn check_quota(&self, key: &KeyRecord) -> Result<(), LimitError> {
        self.check_quota_at(key, clock::now())
    }

    fn check_quota_at(&self, key: &KeyRecord, now: i64) -> Result<(), LimitError> {
        let quota = self.quota_of(key);
        if quota == 0 {
            return Ok(());
        }
        let mut quotas = self.quotas.lock().unwrap_or_else(|p| p.into_inner());
        roll_month(&mut quotas, now);
        if quotas.used.get(&key.id).copied().unwrap_or(0) >= quota {
            return Err(LimitError::QuotaExceeded {
                quota,
                reset_secs: (clock::next_month_start(now) - now).max(1) as u64,
            });
        }
        Ok(())
    }

    /// Charges `tokens` to the key's month.
    pub fn charge(&self, key_id: &str, tokens: u64) {
        self.charge_at(key_id, tokens, clock::now());
    }

    fn charge_at(&self, key_id: &str, tokens: u64, now: i64) {
        let mut quotas = self.quotas.lock().unwrap_or_else(|p| p.into_inner());
        roll_month(&mut quotas, now);
        *quotas.used.entry(key_id.to_string()).or_insert(0) += tokens;
    }

    /// Tokens the key has used this month.
    pub fn used(&self, key_id: &str) -> u64 {
        let quotas = self.quotas.lock().unwrap_or_else(|p| p.into_inner());
        quotas.used.get(key_id).copied().unwrap_or(0)
    }
}

fn roll_month(quotas: &mut Quotas, now: i64) {
    let month = clock::month_start(now);
    if month != quotas.month_start {
        quotas.month_start = month;
        quotas.used.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Scope;
    use std::sync::Arc;

    fn key(rpm: Option<u32>, quota: Option<u64>) -> KeyRecord {
        KeyRecord {
            id: "key_1".into(),
            name: "t".into(),
            prefix: "svc_live_abcd".into(),
            hash: "h".into(),
            scope: Scope::Full,
            created_at: 0,
            expires_at: None,
            revoked: false,
            rpm,
            monthly_quota: quota,
            last_used_at: None,
            mode: None,
            brevity: None,
            target: None,
        }
    }

    #[test]
    fn a_burst_admits_exactly_rpm_then_refills_one_per_interval() {
        let limiter = Limiter::new(100, 0);
        let k = key(Some(6), None);
        let admitted = (0..20).filter(|_| limiter.admit_at(&k, 0).is_ok()).count();
        assert_eq!(admitted, 6);
        let Err(LimitError::RateLimited {
            retry_after_secs,
            limit,
            ..
        }) = limiter.admit_at(&k, 0)
        else {
            panic!("the 7th request must be refused");
        };
        assert_eq!((limit, retry_after_secs), (6, 10));
        // One interval (10 s) later exactly one more request fits.
        let later = 10_000_000_000;
        assert!(limiter.admit_at(&k, later).is_ok());
        assert!(limiter.admit_at(&k, later).is_err());
    }

    #[test]
    fn remaining_counts_down() {
        let limiter = Limiter::new(3, 0);
        let k = key(None, None);
        let remaining: Vec<u32> = (0..3)
            .map(|_| limiter.admit_at(&k, 5).unwrap().remaining)
            .collect();
        assert_eq!(remaining, [2, 1, 0]);
    }

    #[test]
    fn zero_means_unlimited() {
        let limiter = Limiter::new(0, 0);
        let k = key(None, None);
        assert!((0..10_000).all(|_| limiter.admit_at(&k, 0).is_ok()));
        limiter.charge("key_1", u64::MAX / 2);
        assert!(limiter.check_quota(&k).is_ok());
    }

    #[test]
    fn concurrent_requests_are_never_over_admitted() {
        let limiter = Arc::new(Limiter::new(0, 0));
        let k = Arc::new(key(Some(50), None));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (limiter, k) = (limiter.clone(), k.clone());
                std::thread::spawn(move || (0..100).filter(|_| limiter.admit(&k).is_ok()).count())
            })
            .collect();
        let admitted: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(admitted, 50);
    }

    #[test]
    fn the_quota_is_per_calendar_month() {
        let limiter = Limiter::new(0, 0);
        let k = key(None, Some(100));
        let jan = 1_704_067_200; // 2024-01-01
        limiter.seed_month(jan, [("key_1".to_string(), 90)]);
        assert!(limiter.check_quota_at(&k, jan + 10).is_ok());
        limiter.charge_at("key_1", 10, jan + 10);
        let err = limiter.check_quota_at(&k, jan + 10).unwrap_err();
        assert_eq!(err.code(), "quota_exceeded");
        // February starts afresh.
        let feb = 1_706_745_600;
        assert!(limiter.check_quota_at(&k, feb).is_ok());
        assert_eq!(limiter.used("key_1"), 0);
    }
}
