//! A harness that runs the real `terse` binary on free loopback ports with a temporary data
//! directory, and a small HTTP client over it. Every wait is bounded; a `Drop` guard kills the
//! child when a test fails.

#![allow(
    dead_code,
    reason = "each test crate uses a different part of the harness"
)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub const ADMIN_TOKEN: &str = "test-admin-token-0123456789";
pub const BIN: &str = env!("CARGO_BIN_EXE_terse");

/// A loopback port that no other server of this test process has been given.
///
/// Ports come from a per-process counter below the kernel's ephemeral range (32768+), not from
/// binding port 0: a port released by such a probe can be handed to a parallel test's server in
/// the gap before ours binds it, and our readiness probe would then find that other server.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    const FIRST: u32 = 20_000;
    const SPAN: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let base = std::process::id() * 97 % SPAN;
    for _ in 0..SPAN {
        let port = (FIRST + (base + NEXT.fetch_add(1, Ordering::Relaxed)) % SPAN) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port in {FIRST}..{}", FIRST + SPAN)
}

pub struct Server {
    child: Option<Child>,
    pub public: u16,
    pub admin: u16,
    pub data_dir: PathBuf,
    pub log: PathBuf,
    env: Vec<(String, String)>,
}

impl Server {
    /// Starts the service on `data_dir` with the given `SERVICE_*` overrides.
    pub fn start(data_dir: &Path, env: &[(&str, &str)]) -> Server {
        let mut server = Server {
            child: None,
            public: 0,
            admin: 0,
            data_dir: data_dir.to_path_buf(),
            log: data_dir.with_extension("log"),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        server.spawn();
        server
    }

    fn spawn(&mut self) {
        // A port can be taken between the probe and the bind: retry a few times.
        for _ in 0..5 {
            self.public = free_port();
            self.admin = free_port();
            let log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.log)
                .expect("open the log file");
            let mut command = Command::new(BIN);
            command
                .arg("serve")
                .env_clear()
                .env("PATH", std::env::var("PATH").unwrap_or_default())
                .env(
                    "SERVICE_SERVER_PUBLIC_LISTEN",
                    format!("127.0.0.1:{}", self.public),
                )
                .env(
                    "SERVICE_SERVER_ADMIN_LISTEN",
                    format!("127.0.0.1:{}", self.admin),
                )
                .env("SERVICE_STORAGE_DATA_DIR", &self.data_dir)
                .env("SERVICE_ADMIN_TOKEN", ADMIN_TOKEN)
                .env("SERVICE_SERVER_THREADS", "2")
                .env("SERVICE_USAGE_FLUSH_INTERVAL_MS", "50")
                .env("SERVICE_LOGGING_LEVEL", "debug")
                .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("clone the log handle"))
                .stderr(log);
            let child = command.spawn().expect("start terse serve");
            self.child = Some(child);
            if self.wait_ready(Duration::from_secs(30)) {
                return;
            }
            self.kill();
        }
        panic!(
            "terse serve did not become ready; log:\n{}",
            self.log_text()
        );
    }

    fn wait_ready(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(_)) = child.try_wait()
            {
                return false;
            }
            if self.get("/healthz", &[]).status == 200 && admin_up(self.admin) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Sends SIGTERM and waits (bounded) for a clean exit.
    pub fn stop(&mut self) -> ExitStatus {
        self.stop_with("TERM")
    }

    /// Sends `signal` (`TERM`, `INT`) and waits (bounded) for the process to exit.
    pub fn stop_with(&mut self, signal: &str) -> ExitStatus {
        let mut child = self.child.take().expect("the server is running");
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(status) = child.try_wait().expect("wait for terse") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("terse did not exit within 20 s of SIG{signal}");
    }

    /// Starts the server again on the same data directory.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "stop the server first");
        self.spawn();
    }

    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.public)
    }

    pub fn admin_url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.admin)
    }

    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        request("GET", &self.url(path), headers, None)
    }

    /// POSTs `body` as `application/json` with the key as a bearer token.
    pub fn compress(&self, key: &str, body: &str) -> Reply {
        let auth = format!("Bearer {key}");
        request(
            "POST",
            &self.url("/api/v1/compress"),
            &[
                ("authorization", &auth),
                ("content-type", "application/json"),
            ],
            Some(body),
        )
    }

    pub fn admin(&self, method: &str, path: &str, body: Option<&str>) -> Reply {
        let auth = format!("Bearer {ADMIN_TOKEN}");
        request(
            method,
            &self.admin_url(path),
            &[
                ("authorization", &auth),
                ("content-type", "application/json"),
            ],
            body,
        )
    }

    /// Runs `terse keys ARGS` on this data directory; returns stdout.
    pub fn keys(&self, args: &[&str]) -> String {
        run_keys(&self.data_dir, args)
    }

    /// Creates a key with the CLI and returns its secret (the last line of stdout).
    pub fn create_key(&self, args: &[&str]) -> String {
        let mut all = vec!["create"];
        all.extend_from_slice(args);
        let out = self.keys(&all);
        out.lines().last().expect("a secret line").to_string()
    }

    /// The id of the key whose secret starts with `prefix` (from `terse keys list`).
    pub fn key_id(&self, secret: &str) -> String {
        let prefix = &secret[..13];
        self.keys(&["list"])
            .lines()
            .find(|l| l.contains(prefix))
            .and_then(|l| l.split_whitespace().next())
            .expect("the key is listed")
            .to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn run_keys(data_dir: &Path, args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("keys")
        .args(args)
        .env("SERVICE_STORAGE_DATA_DIR", data_dir)
        .output()
        .expect("run terse keys");
    assert!(
        out.status.success(),
        "terse keys {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn admin_up(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

/// Status, headers (lower-case names) and body of a response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `error.code` of an error body.
    pub fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

impl PartialEq<u16> for Reply {
    fn eq(&self, other: &u16) -> bool {
        self.status == *other
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

pub fn request(method: &str, url: &str, headers: &[(&str, &str)], body: Option<&str>) -> Reply {
    let agent = agent();
    let response = match (method, body) {
        ("GET", _) => {
            let mut req = agent.get(url);
            for (k, v) in headers {
                req = req.header(*k, *v);
            }
            req.call()
        }
        ("DELETE", _) => {
            let mut req = agent.delete(url);
            for (k, v) in headers {
                req = req.header(*k, *v);
            }
            req.call()
        }
        (_, body) => {
            let mut req = agent.post(url);
            for (k, v) in headers {
                req = req.header(*k, *v);
            }
            req.send(body.unwrap_or(""))
        }
    };
    match response {
        Ok(mut response) => Reply {
            status: response.status().as_u16(),
            headers: response
                .headers()
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
                .collect(),
            body: response.body_mut().read_to_string().unwrap_or_default(),
        },
        Err(err) => Reply {
            status: 0,
            headers: Vec::new(),
            body: format!("transport error: {err}"),
        },
    }
}

/// Sends raw bytes (for requests an HTTP client will not produce) and returns the status line
/// code and the whole response text.
pub fn raw_request(port: u16, bytes: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("set a timeout");
    // The server may answer and close before reading everything we send.
    let _ = stream.write_all(bytes);
    let mut response = Vec::new();
    let mut buf = [0u8; 8192];
    for _ in 0..1000 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                response.extend_from_slice(&buf[..n]);
                if complete(&response) {
                    break;
                }
            }
        }
    }
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// Whether a response with a Content-Length has arrived whole.
fn complete(response: &[u8]) -> bool {
    let text = String::from_utf8_lossy(response);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .is_some_and(|len| body.len() >= len)
}

/// Every byte of every file under `dir`.
pub fn all_bytes_under(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir)
        .expect("read the data directory")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            bytes.extend(all_bytes_under(&path));
        } else if let Ok(content) = std::fs::read(&path) {
            bytes.extend(content);
        }
    }
    bytes
}

pub fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}
