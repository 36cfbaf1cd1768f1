//! Forwarding one rewritten request upstream and streaming the answer back.
//!
//! The proxy makes the upstream request itself, from `request_filter`, through Pingora's
//! connector (pooled connections, rustls for HTTPS). That is what lets it send the rewritten
//! body with an exact `Content-Length` and pick the target from the body's `model`: Pingora's
//! own proxy phases choose the upstream before the body is read. The response is written to
//! the client chunk by chunk as it arrives, so server-sent events pass through one by one with
//! no buffering; a failed write (the client went away) drops the upstream connection, which
//! ends the upstream request.

use super::estimate::UsageScanner;
use super::route::{Protocol, Target};
use bytes::Bytes;
use pingora::connectors::http::Connector;
use pingora::http::{RequestHeader, ResponseHeader};
use pingora::prelude::HttpPeer;
use pingora::proxy::Session;
use pingora::{ErrorType, http::Method};
use std::time::Duration;

/// Request headers never forwarded: hop-by-hop headers, framing the proxy recomputes, every
/// credential header (the upstream credential is set fresh) and this service's own controls.
const DROPPED_REQUEST_HEADERS: [&str; 15] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "expect",
    "accept-encoding",
    "authorization",
    "x-api-key",
    "x-service-key",
];

/// Response headers never passed back: hop-by-hop headers Pingora sets for the client itself.
const DROPPED_RESPONSE_HEADERS: [&str; 4] = ["connection", "keep-alive", "proxy-connection", "te"];

/// Timeouts of the upstream exchange.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    pub connect: Duration,
    /// Longest wait for the response header, and between two reads of the response body.
    pub read: Duration,
}

/// What the proxy sends upstream.
pub struct UpstreamRequest<'a> {
    pub target: &'a Target,
    pub protocol: Protocol,
    /// The client's path and query (`/v1/messages?beta=true`).
    pub path_and_query: &'a str,
    /// The client's request headers (filtered here).
    pub client_headers: &'a http::HeaderMap,
    /// The credential to present upstream (the target's own, or the client's pass-through key).
    pub credential: &'a str,
    pub body: Bytes,
}

/// Why no upstream answer reached the client.
#[derive(Debug)]
pub enum ForwardError {
    /// The upstream could not be resolved or connected to, or broke off before answering (502).
    Unreachable(String),
    /// The upstream did not answer within the timeout (504).
    Timeout,
    /// The response had started; the exchange was cut (client gone or upstream broke off).
    /// Nothing more can be sent to the client.
    Aborted { client_gone: bool },
}

/// The finished exchange.
pub struct Forwarded {
    pub status: u16,
    /// Completion tokens reported by the answer's `usage`, when it had one.
    pub completion_tokens: Option<u64>,
}

fn is_timeout(etype: &ErrorType) -> bool {
    matches!(
        etype,
        ErrorType::ConnectTimedout
            | ErrorType::ReadTimedout
            | ErrorType::WriteTimedout
            | ErrorType::TLSHandshakeTimedout
    )
}

fn upstream_error(err: &pingora::Error) -> ForwardError {
    if is_timeout(err.etype()) {
        ForwardError::Timeout
    } else {
        ForwardError::Unreachable(err.etype().as_str().to_string())
    }
}

fn build_request_header(request: &UpstreamRequest<'_>) -> pingora::Result<RequestHeader> {
    let target = request.target;
    let path = target.upstream_path(request.path_and_query);
    let mut header = RequestHeader::build(Method::POST, path.as_bytes(), None)?;
    for (name, value) in request.client_headers {
        let name_str = name.as_str();
        if DROPPED_REQUEST_HEADERS.contains(&name_str) || name_str.starts_with("x-service-") {
            continue;
        }
        header.append_header(name.clone(), value.clone())?;
    }
    header.insert_header(http::header::HOST, target.host_header())?;
    header.insert_header(http::header::CONTENT_LENGTH, request.body.len())?;
    // Identity responses let the proxy read `usage` for the output estimate as it streams past.
    header.insert_header(http::header::ACCEPT_ENCODING, "identity")?;
    let (credential_name, credential_value) =
        request.protocol.credential_header(request.credential);
    header.insert_header(credential_name, credential_value)?;
    Ok(header)
}

/// Sends `request` upstream and streams the answer to `session`, adding the headers
/// `extra_headers` resolves to (the telemetry) to the response header. They are awaited only
/// once the upstream has answered, so work they need (token counts) overlaps the upstream's.
pub async fn forward(
    connector: &Connector,
    session: &mut Session,
    request: UpstreamRequest<'_>,
    timeouts: Timeouts,
    extra_headers: impl Future<Output = Vec<(&'static str, String)>>,
) -> Result<Forwarded, ForwardError> {
    let addr = request
        .target
        .resolve()
        .await
        .map_err(ForwardError::Unreachable)?;
    let mut peer = HttpPeer::new(addr, request.target.tls, request.target.host.clone());
    peer.options.connection_timeout = Some(timeouts.connect);
    peer.options.total_connection_timeout = Some(timeouts.connect);
    peer.options.read_timeout = Some(timeouts.read);
    peer.options.write_timeout = Some(timeouts.read);
    let header = build_request_header(&request)
        .map_err(|err| ForwardError::Unreachable(format!("bad request header: {err}")))?;

    // A pooled connection the upstream closed meanwhile fails before any answer: retry once on
    // a fresh connection (the request is only replayed when nothing came back).
    let mut attempt = 0;
    let (mut upstream, response) = loop {
        attempt += 1;
        let (mut upstream, reused) = connector
            .get_http_session(&peer)
            .await
            .map_err(|err| upstream_error(&err))?;
        // A pooled connection keeps the timeouts it was created with: set them per request.
        upstream.set_read_timeout(Some(timeouts.read));
        upstream.set_write_timeout(Some(timeouts.read));
        let sent = async {
            upstream
                .write_request_header(Box::new(header.clone()))
                .await?;
            upstream
                .write_request_body(request.body.clone(), true)
                .await?;
            upstream.finish_request_body().await?;
            upstream.read_response_header().await
        }
        .await;
        match sent {
            Ok(()) => {
                let response = upstream
                    .response_header()
                    .cloned()
                    .ok_or_else(|| ForwardError::Unreachable("no response header".into()))?;
                break (upstream, response);
            }
            Err(err) if reused && attempt == 1 && !is_timeout(err.etype()) => continue,
            Err(err) => return Err(upstream_error(&err)),
        }
    };

    let status = response.status.as_u16();
    let mut client_header = ResponseHeader::build(response.status, None)
        .map_err(|err| ForwardError::Unreachable(err.to_string()))?;
    for (name, value) in response.headers.iter() {
        if !DROPPED_RESPONSE_HEADERS.contains(&name.as_str()) {
            let _ = client_header.append_header(name.clone(), value.clone());
        }
    }
    for (name, value) in extra_headers.await {
        let _ = client_header.insert_header(name, value);
    }
    let client_gone = ForwardError::Aborted { client_gone: true };
    if session
        .write_response_header(Box::new(client_header), false)
        .await
        .is_err()
    {
        return Err(client_gone);
    }

    let mut scanner = match request.protocol {
        Protocol::Openai => UsageScanner::openai(),
        Protocol::Anthropic => UsageScanner::anthropic(),
    };
    loop {
        match upstream.read_response_body().await {
            Ok(Some(chunk)) => {
                scanner.feed(&chunk);
                if session
                    .write_response_body(Some(chunk), false)
                    .await
                    .is_err()
                {
                    return Err(client_gone);
                }
            }
            Ok(None) => break,
            Err(_) => {
                // The answer is partly sent: all that is left is to cut the client off too.
                return Err(ForwardError::Aborted { client_gone: false });
            }
        }
    }
    if session.write_response_body(None, true).await.is_err() {
        return Err(client_gone);
    }
    if upstream.response_done() {
        connector
            .release_http_session(upstream, &peer, Some(Duration::from_secs(60)))
            .await;
    }
    Ok(Forwarded {
        status,
        completion_tokens: scanner.completion_tokens(),
    })
}
