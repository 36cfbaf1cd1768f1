//! Integration tests of `terse serve`: the real binary on free loopback ports with a temporary
//! data directory, covering every status of SPEC 7 plus 404/405/413/415, expiry, revocation,
//! scopes, exact rate limiting under concurrency, quotas, a SIGTERM restart that keeps keys and
//! usage, the admin API, and that no secret or prompt text reaches the disk or the logs.

mod support;

use serde_json::json;
use std::sync::{Arc, Barrier};
use support::{Server, raw_request};

fn server(env: &[(&str, &str)]) -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = Server::start(&dir.path().join("data"), env);
    (dir, server)
}

const PROMPT: &str = "Please could you kindly summarize the following text for me. \
It is really very important that you do this well. The deploy failed with error E1234 \
because the disk was full, and the fix is to run `df -h` then remove old logs.";

#[test]
fn compress_answers_spec_2_2_with_rate_headers() {
    let (_dir, s) = server(&[]);
    let key = s.create_key(&["--name", "ok", "--scope", "compress_only", "--rpm", "100"]);
    assert!(key.starts_with("svc_live_") && key.len() >= 9 + 32, "{key}");
    let body = json!({ "prompt": PROMPT, "mode": "aggressive", "protectJson": false }).to_string();
    let reply = s.compress(&key, &body);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let value = reply.json();
    assert_eq!(value["success"], true);
    assert!(value["compressed"].as_str().unwrap().contains("`df -h`"));
    let stats = &value["stats"];
    assert_eq!(stats["mode"], "aggressive");
    assert_eq!(stats["tokenizerUsed"], "o200k_base");
    assert_eq!(stats["integrityPassed"], true);
    let (original, fin, saved) = (
        stats["originalTokens"].as_u64().unwrap(),
        stats["finalTokens"].as_u64().unwrap(),
        stats["savedTokens"].as_u64().unwrap(),
    );
    assert!(original > 0 && fin <= original && saved == original - fin);
    for field in [
        "savedPercent",
        "latencyMs",
        "stageBreakdown",
        "protectedItems",
    ] {
        assert!(stats.get(field).is_some(), "stats lacks {field}");
    }
    assert_eq!(reply.header("x-ratelimit-limit"), Some("100"));
    assert_eq!(reply.header("x-ratelimit-remaining"), Some("99"));
    assert!(reply.header("x-ratelimit-reset").is_some());

    // X-Service-Key works as well as Bearer, and the charset parameter is accepted.
    let via_header = support::request(
        "POST",
        &s.url("/api/v1/compress"),
        &[
            ("x-service-key", &key),
            ("content-type", "application/json; charset=utf-8"),
        ],
        Some(&body),
    );
    assert_eq!(via_header.status, 200, "{}", via_header.body);
    // Omitted mode is the configured default, `balanced`.
    let default_mode = s.compress(&key, &json!({ "prompt": PROMPT }).to_string());
    assert_eq!(default_mode.json()["stats"]["mode"], "balanced");
}

#[test]
fn invalid_bodies_are_400_with_stable_codes() {
    let (_dir, s) = server(&[]);
    let key = s.create_key(&["--name", "bad-bodies"]);
    let too_long = "é".repeat(50_001);
    let at_limit = "é".repeat(50_000);
    let cases = [
        ("{not json".to_string(), "invalid_json"),
        ("[1,2]".to_string(), "invalid_json"),
        ("{}".to_string(), "missing_prompt"),
        (json!({ "prompt": 7 }).to_string(), "prompt_not_string"),
        (json!({ "prompt": too_long }).to_string(), "prompt_too_long"),
        (
            json!({ "prompt": "x", "mode": "extreme" }).to_string(),
            "invalid_mode",
        ),
        (
            json!({ "prompt": "x", "protectCodeBlocks": "yes" }).to_string(),
            "invalid_flag",
        ),
        (
            json!({ "prompt": "x", "protectVariables": 1 }).to_string(),
            "invalid_flag",
        ),
    ];
    for (body, code) in cases {
        let reply = s.compress(&key, &body);
        assert_eq!(reply.status, 400, "{code}: {}", reply.body);
        assert_eq!(reply.json()["success"], false);
        assert_eq!(reply.code(), code, "{}", reply.body);
        assert!(
            !reply.json()["error"]["message"]
                .as_str()
                .unwrap()
                .is_empty()
        );
    }
    // 50,000 characters (100,000 bytes) is within bounds: the limit counts characters.
    let reply = s.compress(&key, &json!({ "prompt": at_limit }).to_string());
    assert_eq!(
        reply.status,
        200,
        "{}",
        &reply.body[..reply.body.len().min(300)]
    );
}

#[test]
fn missing_unknown_expired_and_revoked_keys_are_401() {
    let (_dir, s) = server(&[("SERVICE_AUTH_CACHE_TTL_MS", "0")]);
    let body = json!({ "prompt": PROMPT }).to_string();
    let json_only = [("content-type", "application/json")];
    let missing = support::request("POST", &s.url("/api/v1/compress"), &json_only, Some(&body));
    assert_eq!(
        (missing.status, missing.code().as_str()),
        (401, "missing_api_key")
    );
    assert_eq!(missing.header("www-authenticate"), Some("Bearer"));

    let unknown = s.compress("svc_live_0000000000000000000000000000000000000000", &body);
    assert_eq!(
        (unknown.status, unknown.code().as_str()),
        (401, "invalid_api_key")
    );
    let not_a_key = s.compress("sk-something", &body);
    assert_eq!(not_a_key.status, 401);

    // Expiry: a key whose expiry has passed (moved into the past in the database, since a
    // test cannot wait a day) is refused.
    let expiring = s.create_key(&["--name", "expiring", "--expires-in-days", "1"]);
    assert_eq!(s.compress(&expiring, &body).status, 200);
    let id = s.key_id(&expiring);
    let db = rusqlite::Connection::open(s.data_dir.join("terse.db")).unwrap();
    db.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    db.execute("UPDATE keys SET expires_at = 1 WHERE id = ?1", [&id])
        .unwrap();
    drop(db);
    let expired = s.compress(&expiring, &body);
    assert_eq!(
        (expired.status, expired.code().as_str()),
        (401, "expired_api_key")
    );

    // Revocation by the CLI while the server runs (cache disabled: effective at once).
    let revoked = s.create_key(&["--name", "to-revoke"]);
    assert_eq!(s.compress(&revoked, &body).status, 200);
    let id = s.key_id(&revoked);
    assert!(s.keys(&["revoke", &id]).contains("revoked"));
    let reply = s.compress(&revoked, &body);
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (401, "revoked_api_key")
    );
    assert!(s.keys(&["list"]).contains("revoked"));
}

#[test]
fn admin_revocation_is_immediate_despite_the_cache() {
    let (_dir, s) = server(&[("SERVICE_AUTH_CACHE_TTL_MS", "600000")]);
    let created = s.admin(
        "POST",
        "/admin/v1/keys",
        Some(r#"{"name": "dash", "scope": "full"}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let secret = created.json()["secret"].as_str().unwrap().to_string();
    let id = created.json()["key"]["id"].as_str().unwrap().to_string();
    assert!(created.json()["key"].get("hash").is_none());
    let body = json!({ "prompt": PROMPT }).to_string();
    assert_eq!(s.compress(&secret, &body).status, 200);
    let revoked = s.admin("POST", &format!("/admin/v1/keys/{id}/revoke"), None);
    assert_eq!(revoked.status, 200, "{}", revoked.body);
    assert_eq!(revoked.json()["key"]["status"], "revoked");
    assert_eq!(s.compress(&secret, &body).status, 401);
    assert_eq!(
        s.admin("POST", "/admin/v1/keys/key_nope/revoke", None)
            .status,
        404
    );
}

#[test]
fn scopes_are_enforced_with_403() {
    let (_dir, s) = server(&[]);
    let proxy_only = s.create_key(&["--name", "p", "--scope", "proxy_only"]);
    let reply = s.compress(&proxy_only, &json!({ "prompt": PROMPT }).to_string());
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (403, "insufficient_scope")
    );
    // A proxy-only key may still read its own usage.
    let usage = s.get(
        "/api/v1/usage",
        &[("authorization", &format!("Bearer {proxy_only}"))],
    );
    assert_eq!(usage.status, 200, "{}", usage.body);
    let full = s.create_key(&["--name", "f", "--scope", "full"]);
    assert_eq!(
        s.compress(&full, &json!({ "prompt": PROMPT }).to_string())
            .status,
        200
    );
}

#[test]
fn bodies_over_the_cap_are_413_and_non_json_is_415() {
    let (_dir, s) = server(&[("SERVICE_LIMITS_MAX_BODY_BYTES", "2048")]);
    let key = s.create_key(&["--name", "size"]);
    let big = json!({ "prompt": "word ".repeat(1000) }).to_string();
    let reply = s.compress(&key, &big);
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (413, "body_too_large")
    );

    // Chunked, with no Content-Length: caught while reading.
    let chunk = "a".repeat(1500);
    let raw = format!(
        "POST /api/v1/compress HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
         {len:x}\r\n{chunk}\r\n{len:x}\r\n{chunk}\r\n0\r\n\r\n",
        len = chunk.len()
    );
    let (status, text) = raw_request(s.public, raw.as_bytes());
    assert_eq!(status, 413, "{text}");

    let auth = format!("Bearer {key}");
    let body = json!({ "prompt": "x" }).to_string();
    for content_type in [Some("text/plain"), Some("application/jsonx"), None] {
        let mut headers = vec![("authorization", auth.as_str())];
        if let Some(ct) = content_type {
            headers.push(("content-type", ct));
        }
        let reply = support::request("POST", &s.url("/api/v1/compress"), &headers, Some(&body));
        assert_eq!(reply.status, 415, "{content_type:?}: {}", reply.body);
        assert_eq!(reply.code(), "unsupported_media_type");
    }
}

#[test]
fn rate_limit_admits_exactly_n_of_many_parallel_requests() {
    let (_dir, s) = server(&[]);
    const LIMIT: usize = 8;
    const CALLERS: usize = 40;
    let key = s.create_key(&["--name", "burst", "--rpm", &LIMIT.to_string()]);
    let body = json!({ "prompt": "Hello there, please summarize." }).to_string();
    let barrier = Arc::new(Barrier::new(CALLERS));
    let url = s.url("/api/v1/compress");
    let handles: Vec<_> = (0..CALLERS)
        .map(|_| {
            let (barrier, url, key, body) =
                (barrier.clone(), url.clone(), key.clone(), body.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let auth = format!("Bearer {key}");
                support::request(
                    "POST",
                    &url,
                    &[
                        ("authorization", &auth),
                        ("content-type", "application/json"),
                    ],
                    Some(&body),
                )
            })
        })
        .collect();
    let replies: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let ok = replies.iter().filter(|r| r.status == 200).count();
    let limited: Vec<_> = replies.iter().filter(|r| r.status == 429).collect();
    assert_eq!(
        ok,
        LIMIT,
        "statuses: {:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(limited.len(), CALLERS - LIMIT);
    let one = limited[0];
    assert_eq!(one.code(), "rate_limited");
    let retry: u64 = one.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(one.header("x-ratelimit-limit"), Some("8"));
    assert_eq!(one.header("x-ratelimit-remaining"), Some("0"));
    assert!(one.header("x-ratelimit-reset").is_some());
}

#[test]
fn the_monthly_quota_is_429_once_used_up() {
    let (_dir, s) = server(&[]);
    let key = s.create_key(&["--name", "quota", "--monthly-quota", "10"]);
    let body = json!({ "prompt": PROMPT }).to_string();
    assert_eq!(s.compress(&key, &body).status, 200);
    let reply = s.compress(&key, &body);
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (429, "quota_exceeded")
    );
    assert!(reply.header("retry-after").is_some());
    assert_eq!(reply.header("x-ratelimit-limit"), Some("10"));
}

#[test]
fn usage_survives_sigterm_and_sigint_restarts_and_keys_persist() {
    // A long flush interval: only the shutdown flush can save these records.
    let (_dir, mut s) = server(&[("SERVICE_USAGE_FLUSH_INTERVAL_MS", "600000")]);
    let key = s.create_key(&["--name", "durable", "--monthly-quota", "1000000"]);
    let body = json!({ "prompt": PROMPT }).to_string();
    let auth = format!("Bearer {key}");
    let mut original = 0;
    let mut requests = 0;
    for signal in ["TERM", "INT"] {
        for _ in 0..5 {
            let reply = s.compress(&key, &body);
            assert_eq!(reply.status, 200);
            original += reply.json()["stats"]["originalTokens"].as_u64().unwrap();
            requests += 1;
        }
        let status = s.stop_with(signal);
        assert!(status.success(), "SIG{signal}: exit status {status:?}");
        s.restart();
        let usage = s.get("/api/v1/usage", &[("authorization", &auth)]);
        assert_eq!(usage.status, 200, "{}", usage.body);
        let value = usage.json();
        assert_eq!(
            value["totals"]["requests"], requests,
            "after SIG{signal}: {value}"
        );
        assert_eq!(value["totals"]["originalTokens"], original);
        assert_eq!(value["daily"].as_array().unwrap().len(), 1);
        // The quota was seeded from the stored usage.
        assert_eq!(value["quota"]["usedTokens"], original);
    }
}

#[test]
fn admin_api_is_guarded_and_reports_usage() {
    let (_dir, s) = server(&[]);
    for token in [None, Some("Bearer wrong-token-wrong-token")] {
        let headers: Vec<(&str, &str)> = token
            .map(|t| vec![("authorization", t)])
            .unwrap_or_default();
        let reply = support::request("GET", &s.admin_url("/admin/v1/keys"), &headers, None);
        assert_eq!(
            (reply.status, reply.code().as_str()),
            (401, "invalid_admin_token")
        );
    }
    let bad = s.admin(
        "POST",
        "/admin/v1/keys",
        Some(r#"{"name": "x", "scope": "root"}"#),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    let created = s.admin(
        "POST",
        "/admin/v1/keys",
        Some(r#"{"name": "reporter", "scope": "compress_only", "rpm": 50, "monthlyQuota": 100000, "expiresInDays": 30}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let secret = created.json()["secret"].as_str().unwrap().to_string();
    let id = created.json()["key"]["id"].as_str().unwrap().to_string();
    let reply = s.compress(&secret, &json!({ "prompt": PROMPT }).to_string());
    let original = reply.json()["stats"]["originalTokens"].as_u64().unwrap();

    let listed = s.admin("GET", "/admin/v1/keys", None);
    assert!(!listed.body.contains(&secret));
    let keys = listed.json()["keys"].as_array().unwrap().clone();
    assert!(
        keys.iter()
            .any(|k| k["id"] == id.as_str() && k["scope"] == "compress_only")
    );

    // Usage reaches the store within the flush interval (50 ms here); poll, bounded.
    let mut totals = serde_json::Value::Null;
    for _ in 0..100 {
        totals = s
            .admin("GET", &format!("/admin/v1/keys/{id}/usage"), None)
            .json()["totals"]
            .clone();
        if totals["requests"] == 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(totals["originalTokens"], original, "{totals}");
    let all = s.admin("GET", "/admin/v1/usage", None).json();
    assert_eq!(all["byKey"][0]["keyId"], id.as_str());
    assert_eq!(all["totals"]["requests"], 1);
    assert_eq!(
        s.admin("GET", "/admin/v1/usage?from=2026-02-30", None)
            .status,
        400
    );

    let metrics = support::request("GET", &s.admin_url("/metrics"), &[], None);
    assert_eq!(metrics.status, 200);
    assert!(
        metrics
            .body
            .contains(r#"terse_requests_total{route="compress",status="200"} 1"#),
        "{}",
        metrics.body
    );
    assert!(
        metrics
            .body
            .contains("terse_request_duration_seconds_bucket")
    );
    assert!(
        metrics
            .body
            .contains(r#"terse_tokens_original_total{route="compress"}"#)
    );
}

#[test]
fn health_readiness_and_unknown_routes() {
    let (_dir, s) = server(&[]);
    assert_eq!(s.get("/healthz", &[]).json()["status"], "ok");
    assert_eq!(s.get("/readyz", &[]).json()["status"], "ready");
    let missing = s.get("/nope", &[]);
    assert_eq!(
        (missing.status, missing.code().as_str()),
        (404, "not_found")
    );
    let wrong = s.get("/api/v1/compress", &[]);
    assert_eq!(
        (wrong.status, wrong.code().as_str()),
        (405, "method_not_allowed")
    );
}

#[test]
fn no_secret_or_prompt_text_reaches_disk_or_logs() {
    let (_dir, mut s) = server(&[]);
    let key = s.create_key(&["--name", "secretive"]);
    let marker = "zebra-quartz-marmalade-7731";
    let prompt = format!("Please keep this private: {marker}. {PROMPT}");
    assert_eq!(
        s.compress(&key, &json!({ "prompt": prompt }).to_string())
            .status,
        200
    );
    // Also a rejected body and an unknown key, which take the error paths.
    assert_eq!(
        s.compress(
            &key,
            &json!({ "prompt": prompt, "mode": marker }).to_string()
        )
        .status,
        400
    );
    let unknown = format!("svc_live_{marker}");
    assert_eq!(s.compress(&unknown, "{}").status, 401);
    assert_eq!(s.stop().code(), Some(0));

    let disk = support::all_bytes_under(&s.data_dir);
    assert!(!disk.is_empty());
    let log = s.log_text();
    assert!(log.contains("compress"), "the log should record requests");
    for secret in [
        key.as_str(),
        &key[9..],
        unknown.as_str(),
        marker,
        support::ADMIN_TOKEN,
    ] {
        assert!(
            !support::contains(&disk, secret),
            "{secret} found in the data directory"
        );
        assert!(!log.contains(secret), "{secret} found in the log");
    }
}

#[test]
fn a_bad_config_names_line_column_and_key_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    let text = include_str!("../conf/terse.yaml").replace("default_rpm: 600", "default_rpm: many");
    std::fs::write(&path, &text).unwrap();
    let out = std::process::Command::new(support::BIN)
        .args(["serve", "--config", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .position(|l| l.contains("default_rpm: many"))
        .unwrap()
        + 1;
    assert!(stderr.contains(&format!("bad.yaml:{line}:")), "{stderr}");
    assert!(stderr.contains("limits.default_rpm"), "{stderr}");
}

#[test]
fn a_generated_admin_token_is_printed_once_and_only_its_hash_is_kept() {
    let (_dir, mut s) = server(&[("SERVICE_ADMIN_TOKEN", "")]);
    let log = s.log_text();
    let token = log
        .lines()
        .skip_while(|l| !l.contains("generated an admin token"))
        .nth(1)
        .expect("the token is printed on the line after the notice")
        .trim()
        .to_string();
    assert!(token.len() >= 32, "{token}");
    let auth = format!("Bearer {token}");
    let keys_url = s.admin_url("/admin/v1/keys");
    assert_eq!(
        support::request("GET", &keys_url, &[("authorization", &auth)], None).status,
        200
    );
    assert_eq!(s.stop().code(), Some(0));
    assert!(!support::contains(
        &support::all_bytes_under(&s.data_dir),
        &token
    ));

    // The next start keeps the stored hash: same token, not printed again.
    s.restart();
    let keys_url = s.admin_url("/admin/v1/keys");
    assert_eq!(
        support::request("GET", &keys_url, &[("authorization", &auth)], None).status,
        200
    );
    assert_eq!(s.log_text().matches("generated an admin token").count(), 1);
}
