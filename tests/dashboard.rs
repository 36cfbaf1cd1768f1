//! The dashboard's server side against the real binary, without a browser: sign-in with the
//! admin token, the session cookie's attributes, CSRF on the cookie-authenticated admin API,
//! the security headers, and the playground endpoint. (tests/e2e/dashboard.test.mjs drives the
//! same pages in Chromium.)

mod support;

use serde_json::{Value, json};
use support::{ADMIN_TOKEN, Server, raw_request};

fn server() -> (tempfile::TempDir, Server) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = Server::start(&dir.path().join("data"), &[]);
    (dir, server)
}

/// Sends one HTTP/1.1 request to the admin port; returns status and the whole response text.
fn admin_raw(
    s: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
        s.admin,
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    raw_request(s.admin, request.as_bytes())
}

fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    let head = response.split("\r\n\r\n").next().unwrap_or("");
    head.lines().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn body_json(response: &str) -> Value {
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

/// Signs in and returns the `Cookie` header value and the page's CSRF token.
fn sign_in(s: &Server) -> (String, String) {
    let (status, response) = admin_raw(
        s,
        "POST",
        "/login",
        &[FORM],
        &format!("token={ADMIN_TOKEN}"),
    );
    assert_eq!(status, 303, "{response}");
    assert_eq!(header(&response, "location"), Some("/keys"));
    let set_cookie = header(&response, "set-cookie").expect("a session cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    assert!(
        !set_cookie.contains("Secure"),
        "plain http by default: {set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_string();
    let (status, page) = admin_raw(s, "GET", "/keys", &[("Cookie", &cookie)], "");
    assert_eq!(status, 200, "{page}");
    let csrf = page
        .split("name=\"csrf-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page carries its CSRF token")
        .to_string();
    assert_eq!(csrf.len(), 64);
    (cookie, csrf)
}

#[test]
fn sign_in_sets_a_strict_cookie_and_wrong_tokens_are_refused() {
    let (_dir, s) = server();
    let (status, page) = admin_raw(&s, "GET", "/keys", &[], "");
    assert_eq!((status, header(&page, "location")), (303, Some("/login")));

    let (status, page) = admin_raw(&s, "GET", "/login", &[], "");
    assert_eq!(status, 200);
    let csp = header(&page, "content-security-policy").expect("a CSP");
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert_eq!(header(&page, "x-frame-options"), Some("DENY"));
    assert!(!page.contains("<script>"), "no inline script");

    let (status, page) = admin_raw(&s, "POST", "/login", &[FORM], "token=wrong-token-000000");
    assert_eq!(status, 401);
    assert!(page.contains("not valid") && header(&page, "set-cookie").is_none());
    let (status, _) = admin_raw(&s, "POST", "/login", &[FORM], "token=");
    assert_eq!(status, 400);
    // A sign-in posted from another site is refused even with the right token.
    let cross = [FORM, ("Origin", "http://evil.example")];
    let (status, page) = admin_raw(
        &s,
        "POST",
        "/login",
        &cross,
        &format!("token={ADMIN_TOKEN}"),
    );
    assert_eq!(status, 403);
    assert!(header(&page, "set-cookie").is_none());
    let (status, _) = admin_raw(
        &s,
        "POST",
        "/login",
        &[("Content-Type", "text/plain")],
        "token=x",
    );
    assert_eq!(status, 415);

    let (cookie, csrf) = sign_in(&s);
    // Signing out needs the CSRF token, then the cookie is worthless.
    let (status, _) = admin_raw(
        &s,
        "POST",
        "/logout",
        &[FORM, ("Cookie", &cookie)],
        "csrf=nope",
    );
    assert_eq!(status, 403);
    let (status, response) = admin_raw(
        &s,
        "POST",
        "/logout",
        &[FORM, ("Cookie", &cookie)],
        &format!("csrf={csrf}"),
    );
    assert_eq!(
        (status, header(&response, "location")),
        (303, Some("/login"))
    );
    assert!(
        header(&response, "set-cookie")
            .unwrap()
            .contains("Max-Age=0")
    );
    let (status, _) = admin_raw(&s, "GET", "/admin/v1/keys", &[("Cookie", &cookie)], "");
    assert_eq!(status, 401);
}

#[test]
fn the_cookie_api_needs_the_csrf_token_for_changes() {
    let (_dir, s) = server();
    let (cookie, csrf) = sign_in(&s);
    let json_type = ("Content-Type", "application/json");
    let body = json!({ "name": "from the dashboard", "scope": "compress_only" }).to_string();

    let (status, _) = admin_raw(&s, "GET", "/admin/v1/keys", &[("Cookie", &cookie)], "");
    assert_eq!(status, 200);
    let (status, response) = admin_raw(
        &s,
        "POST",
        "/admin/v1/keys",
        &[json_type, ("Cookie", &cookie)],
        &body,
    );
    assert_eq!(status, 403);
    assert_eq!(body_json(&response)["error"]["code"], "csrf_token_invalid");
    let wrong = [
        json_type,
        ("Cookie", &cookie),
        ("X-CSRF-Token", &"0".repeat(64)),
    ];
    assert_eq!(
        admin_raw(&s, "POST", "/admin/v1/keys", &wrong, &body).0,
        403
    );

    let good = [
        json_type,
        ("Cookie", cookie.as_str()),
        ("X-CSRF-Token", csrf.as_str()),
    ];
    let (status, response) = admin_raw(&s, "POST", "/admin/v1/keys", &good, &body);
    assert_eq!(status, 201, "{response}");
    let created = body_json(&response);
    let secret = created["secret"].as_str().unwrap();
    assert_eq!(
        s.compress(secret, r#"{"prompt": "hello there"}"#).status,
        200
    );
    let id = created["key"]["id"].as_str().unwrap();
    let (status, _) = admin_raw(
        &s,
        "POST",
        &format!("/admin/v1/keys/{id}/revoke"),
        &good,
        "",
    );
    assert_eq!(status, 200);
    assert_eq!(
        s.compress(secret, r#"{"prompt": "hello there"}"#).status,
        401
    );

    // Scripts keep using the bearer token, which needs no CSRF token.
    assert_eq!(s.admin("GET", "/admin/v1/keys", None).status, 200);
    let forged_session = [
        json_type,
        ("Cookie", "terse_admin=0123"),
        ("X-CSRF-Token", csrf.as_str()),
    ];
    assert_eq!(
        admin_raw(&s, "POST", "/admin/v1/keys", &forged_session, &body).0,
        401
    );
}

#[test]
fn the_playground_answers_spec_2_2_with_highlighting() {
    let (_dir, s) = server();
    let prompt = "Please could you kindly run `make test` for {{project}} and then, \
                  if it is not too much trouble, tell me what failed.";
    let body = json!({ "prompt": prompt, "mode": "aggressive" }).to_string();
    let reply = s.admin("POST", "/admin/v1/playground", Some(&body));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let value = reply.json();
    assert_eq!(value["success"], true);
    assert_eq!(value["stats"]["mode"], "aggressive");
    assert_eq!(value["stats"]["protectedItems"]["variables"], 1);
    let joined = |side: &str| -> String {
        value["highlight"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|seg| seg["text"].as_str().unwrap())
            .collect()
    };
    assert_eq!(joined("original"), prompt);
    assert_eq!(joined("compressed"), value["compressed"].as_str().unwrap());
    let protected: Vec<&str> = value["highlight"]["original"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|seg| seg["kind"] == "protected")
        .map(|seg| seg["text"].as_str().unwrap())
        .collect();
    assert_eq!(protected, ["`make test`", "{{project}}"]);
    assert_eq!(
        value["highlight"]["protectedItems"],
        json!(["`make test`", "{{project}}"])
    );
    // The playground is not a key's traffic and refuses what the compress API refuses.
    let bad = s.admin("POST", "/admin/v1/playground", Some(r#"{"prompt": 3}"#));
    assert_eq!(
        (bad.status, bad.code().as_str()),
        (400, "prompt_not_string")
    );
    assert_eq!(
        s.admin("GET", "/admin/v1/usage", None).json()["totals"]["requests"],
        0
    );
}
