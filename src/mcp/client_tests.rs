//! The client against a tiny HTTP server on 127.0.0.1 that answers canned responses: what the
//! client sends (path, key header, SPEC 2.1 body) and how each answer maps to a result or error.
//! The end-to-end tests (tests/e2e/test_mcp.py) run the same paths against the real service.

use super::client::{CompressRequest, ServiceClient};
use super::config::McpConfig;
use super::errors::ServiceError;
use filters::{Mode, Options};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;
use std::time::Duration;

/// One request as the server saw it.
struct Seen {
    request_line: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Serves one connection with `response` (a whole HTTP/1.1 response) and returns what it read.
fn serve_once(response: String) -> (String, JoinHandle<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut reader = BufReader::new(stream);
        let mut request_line = String::new();
        reader.read_line(&mut request_line).unwrap();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let length = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map(|(_, v)| v.parse::<usize>().unwrap())
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        reader.get_mut().write_all(response.as_bytes()).unwrap();
        Seen {
            request_line: request_line.trim_end().to_string(),
            headers,
            body: String::from_utf8(body).unwrap(),
        }
    });
    (url, handle)
}

fn http_response(status: &str, extra_headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra_headers}connection: close\r\n\r\n{body}",
        body.len()
    )
}

fn client(url: &str) -> ServiceClient {
    let config = McpConfig::from_lookup(|name| match name {
        "SERVICE_API_KEY" => Some("svc_live_testkey".to_string()),
        "SERVICE_URL" => Some(url.to_string()),
        _ => None,
    })
    .unwrap();
    ServiceClient::new(&config)
}

fn request() -> CompressRequest {
    CompressRequest {
        prompt: "Please could you summarise `x`".to_string(),
        mode: Mode::Aggressive,
        protect_code_blocks: true,
        protect_json: false,
    }
}

#[tokio::test]
async fn compress_sends_the_spec_body_with_the_key_and_reads_the_stats() {
    let engine = filters::compress("Please could you summarise `x`", &Options::default());
    let body = json!({"success": true, "compressed": engine.text, "stats": engine.stats});
    let (url, server) = serve_once(http_response("200 OK", "", &body.to_string()));
    let answer = client(&url).compress(request()).await.unwrap();
    assert_eq!(answer.compressed, engine.text);
    assert_eq!(answer.stats, engine.stats);

    let seen = server.join().unwrap();
    assert_eq!(seen.request_line, "POST /api/v1/compress HTTP/1.1");
    assert_eq!(
        seen.header("authorization"),
        Some("Bearer svc_live_testkey")
    );
    assert_eq!(seen.header("content-type"), Some("application/json"));
    let sent: Value = serde_json::from_str(&seen.body).unwrap();
    assert_eq!(
        sent,
        json!({"prompt": "Please could you summarise `x`", "mode": "aggressive",
               "protectCodeBlocks": true, "protectJson": false})
    );
}

#[tokio::test]
async fn error_statuses_keep_the_code_message_and_retry_after() {
    let body = r#"{"success":false,"error":{"code":"rate_limited","message":"60 per minute"}}"#;
    let (url, server) = serve_once(http_response(
        "429 Too Many Requests",
        "retry-after: 12\r\n",
        body,
    ));
    let err = client(&url).compress(request()).await.unwrap_err();
    server.join().unwrap();
    let ServiceError::Rejected(rejection) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(rejection.status, 429);
    assert_eq!(rejection.code.as_deref(), Some("rate_limited"));
    assert_eq!(rejection.retry_after.as_deref(), Some("12"));
    assert!(err.advice().contains("wait 12 s"), "{err}");

    let body = r#"{"success":false,"error":{"code":"insufficient_scope","message":"proxy_only"}}"#;
    let (url, server) = serve_once(http_response("403 Forbidden", "", body));
    let err = client(&url).compress(request()).await.unwrap_err();
    server.join().unwrap();
    assert!(
        err.advice().starts_with("the key lacks the compress scope"),
        "{err}"
    );
}

#[tokio::test]
async fn an_answer_that_is_not_the_api_is_unexpected() {
    let (url, server) = serve_once(http_response("200 OK", "", "<html>hello</html>"));
    let err = client(&url).compress(request()).await.unwrap_err();
    server.join().unwrap();
    assert!(matches!(err, ServiceError::Unexpected { .. }), "{err:?}");
    assert!(err.advice().contains("SERVICE_URL"));
}

#[tokio::test]
async fn a_closed_port_is_unreachable() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = client(&url).usage().await.unwrap_err();
    assert!(matches!(err, ServiceError::Unreachable { .. }), "{err:?}");
    assert!(err.advice().contains(&url), "{err}");
}

#[tokio::test]
async fn usage_is_a_get_with_the_key_and_passes_the_object_through() {
    let body = r#"{"success":true,"month":"2026-11","requests":3}"#;
    let (url, server) = serve_once(http_response("200 OK", "", body));
    let usage = client(&url).usage().await.unwrap();
    assert_eq!(usage["requests"], 3);
    let seen = server.join().unwrap();
    assert_eq!(seen.request_line, "GET /api/v1/usage HTTP/1.1");
    assert_eq!(
        seen.header("authorization"),
        Some("Bearer svc_live_testkey")
    );
}
