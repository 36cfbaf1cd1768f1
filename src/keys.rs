//! API key material: generating a secret, hashing it for storage, and the display prefix.
//!
//! A key is `svc_live_` followed by 40 characters drawn from `[A-Za-z0-9]` by the operating
//! system's CSPRNG (about 238 bits). Only its SHA-256 hash and a short display prefix are
//! stored; with that much entropy an unsalted fast hash is safe, and it lets a lookup use an
//! index instead of scanning every key.

use rand::distr::Alphanumeric;
use rand::{Rng, TryRngCore};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::store::{KeyRecord, Scope};

pub const KEY_PREFIX: &str = "svc_live_";
const SECRET_CHARS: usize = 40;
/// Characters of the secret shown after `svc_live_` in listings.
const DISPLAY_SECRET_CHARS: usize = 4;

/// A freshly generated key: the secret is shown to its owner once, then dropped.
pub struct NewSecret {
    pub secret: String,
    pub hash: String,
    pub display_prefix: String,
}

pub fn generate() -> NewSecret {
    let mut rng = rand::rngs::OsRng.unwrap_err();
    let random: String = (0..SECRET_CHARS)
        .map(|_| char::from(rng.sample(Alphanumeric)))
        .collect();
    let secret = format!("{KEY_PREFIX}{random}");
    NewSecret {
        hash: hash(&secret),
        display_prefix: display_prefix(&secret),
        secret,
    }
}

/// A random identifier with a readable prefix, e.g. `key_3f9a0c1b2d4e`.
pub fn random_id(prefix: &str) -> String {
    let mut rng = rand::rngs::OsRng.unwrap_err();
    let bytes: [u8; 6] = rng.random();
    format!("{prefix}{}", hex::encode(bytes))
}

/// A random token for the admin API: 48 alphanumeric characters.
pub fn random_token() -> String {
    let mut rng = rand::rngs::OsRng.unwrap_err();
    (0..48)
        .map(|_| char::from(rng.sample(Alphanumeric)))
        .collect()
}

/// The lowercase hex SHA-256 of `secret`: what the store keeps.
pub fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Whether `secret` hashes to `stored_hash`, compared in constant time.
pub fn matches(secret: &str, stored_hash: &str) -> bool {
    hash(secret).as_bytes().ct_eq(stored_hash.as_bytes()).into()
}

pub fn display_prefix(secret: &str) -> String {
    secret
        .chars()
        .take(KEY_PREFIX.len() + DISPLAY_SECRET_CHARS)
        .collect()
}

/// Whether `candidate` has the shape of a service key (the proxy tells these from provider keys).
pub fn looks_like_service_key(candidate: &str) -> bool {
    candidate.starts_with(KEY_PREFIX)
}

/// What a caller asks for when creating a key: the flags of `terse keys create` and the JSON
/// body of `POST /admin/v1/keys` are this one struct.
#[derive(Clone, Debug, Default, serde::Deserialize, clap::Args)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyRequest {
    /// A name to recognise the key by.
    #[arg(long)]
    pub name: String,
    /// full, compress_only or proxy_only (default full).
    #[arg(long)]
    pub scope: Option<String>,
    /// Days until the key stops working (default: never).
    #[arg(long)]
    pub expires_in_days: Option<u32>,
    /// Requests per minute (default: limits.default_rpm).
    #[arg(long)]
    pub rpm: Option<u32>,
    /// Original tokens per calendar month, UTC (default: limits.default_monthly_quota).
    #[arg(long)]
    pub monthly_quota: Option<u64>,
    /// Proxy default compression mode: conservative, balanced, aggressive or off.
    #[arg(long)]
    pub mode: Option<String>,
    /// Proxy default output brevity: off, lite, full or ultra.
    #[arg(long)]
    pub brevity: Option<String>,
    /// Proxy default target name.
    #[arg(long)]
    pub target: Option<String>,
}

/// The proxy modes a key may default to: the three engine modes and `off`.
pub const KEY_MODES: [&str; 4] = ["conservative", "balanced", "aggressive", "off"];

impl KeyRequest {
    /// Checks every field and builds the record to store, with a fresh secret.
    pub fn into_record(self, now: i64) -> Result<(KeyRecord, NewSecret), String> {
        let name = self.name.trim().to_string();
        if name.is_empty() || name.chars().count() > 100 {
            return Err("name must have 1 to 100 characters".into());
        }
        let scope: Scope = self.scope.as_deref().unwrap_or("full").parse()?;
        let expires_at = match self.expires_in_days {
            Some(0) => return Err("expiresInDays must be at least 1".into()),
            Some(days) => Some(now + i64::from(days) * crate::clock::DAY),
            None => None,
        };
        if self.rpm == Some(0) {
            return Err("rpm must be at least 1".into());
        }
        if self.monthly_quota == Some(0) {
            return Err("monthlyQuota must be at least 1".into());
        }
        if let Some(mode) = &self.mode
            && !KEY_MODES.contains(&mode.as_str())
        {
            return Err(format!(
                "unknown mode {mode:?}: expected conservative, balanced, aggressive or off"
            ));
        }
        let brevity = self
            .brevity
            .as_deref()
            .map(str::parse::<filters::BrevityLevel>)
            .transpose()
            .map_err(|err| err.to_string())?;
        let secret = generate();
        let record = KeyRecord {
            id: random_id("key_"),
            name,
            prefix: secret.display_prefix.clone(),
            hash: secret.hash.clone(),
            scope,
            created_at: now,
            expires_at,
            revoked: false,
            rpm: self.rpm,
            monthly_quota: self.monthly_quota,
            last_used_at: None,
            mode: self.mode,
            brevity,
            target: self.target.filter(|t| !t.trim().is_empty()),
        };
        Ok((record, secret))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_has_the_prefix_and_enough_random_characters() {
        let key = generate();
        assert!(key.secret.starts_with(KEY_PREFIX));
        let random = &key.secret[KEY_PREFIX.len()..];
        assert_eq!(random.len(), SECRET_CHARS);
        assert!(random.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(key.display_prefix.len(), 13);
        assert!(matches(&key.secret, &key.hash));
        assert!(!matches("svc_live_other", &key.hash));
        assert_ne!(generate().secret, key.secret);
    }
}

#[cfg(test)]
mod request_tests {
    use super::*;

    #[test]
    fn a_request_is_validated_into_a_record() {
        let request = KeyRequest {
            name: " ci ".into(),
            scope: Some("compress_only".into()),
            expires_in_days: Some(2),
            rpm: Some(10),
            ..KeyRequest::default()
        };
        let (record, secret) = request.into_record(100).unwrap();
        assert_eq!(record.name, "ci");
        assert_eq!(record.scope, Scope::CompressOnly);
        assert_eq!(record.expires_at, Some(100 + 2 * 86_400));
        assert!(matches(&secret.secret, &record.hash));
        assert!(!record.prefix.is_empty() && secret.secret.starts_with(&record.prefix));
    }

    #[test]
    fn bad_requests_are_refused() {
        let base = KeyRequest {
            name: "x".into(),
            ..KeyRequest::default()
        };
        for bad in [
            KeyRequest {
                name: "".into(),
                ..base.clone()
            },
            KeyRequest {
                scope: Some("admin".into()),
                ..base.clone()
            },
            KeyRequest {
                expires_in_days: Some(0),
                ..base.clone()
            },
            KeyRequest {
                rpm: Some(0),
                ..base.clone()
            },
            KeyRequest {
                mode: Some("max".into()),
                ..base.clone()
            },
            KeyRequest {
                brevity: Some("loud".into()),
                ..base.clone()
            },
        ] {
            assert!(bad.into_record(0).is_err());
        }
    }
}
