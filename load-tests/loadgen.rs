//! A paced (open-loop) HTTP/1.1 load generator for the proxy benchmark.
//!
//! Request `k` is due at `start + k / rate`; each of `--connections` threads owns one
//! keep-alive connection and takes every n-th request. Latency is measured from the moment a
//! request was due, so a slow answer that delays the next request is counted against it
//! (no coordinated omission). Plain `std`: no client library between the clock and the socket.
//!
//! Usage: loadgen --url http://127.0.0.1:8080/v1/chat/completions --body FILE
//!                [--header 'Name: value']... [--rate 200] [--seconds 20] [--connections 8]
//!                [--warmup 2] [--ttfb]
//! With a body containing `@@VARY@@`, each request writes its own 8-digit number there (same
//! length, so `Content-Length` holds): texts that differ on every request.
//! Prints one JSON object: requests, errors, statuses, and p50/p90/p99/max in milliseconds
//! (of the whole response, or of the first response byte with `--ttfb`), and the median and
//! p99 of the proxy's own time on each request as its `X-Service-Latency-Ms` header reports it
//! (`NaN` when the server sends none).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    host: String,
    path: String,
    body: Vec<u8>,
    headers: Vec<String>,
    rate: f64,
    seconds: f64,
    connections: usize,
    warmup: f64,
    ttfb: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        host: String::new(),
        path: String::new(),
        body: Vec::new(),
        headers: Vec::new(),
        rate: 200.0,
        seconds: 20.0,
        connections: 8,
        warmup: 2.0,
        ttfb: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => {
                let url = value()?;
                let rest = url
                    .strip_prefix("http://")
                    .ok_or("only http:// URLs are supported")?;
                let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                args.host = host.to_string();
                args.path = if path.is_empty() {
                    "/".into()
                } else {
                    path.into()
                };
            }
            "--body" => {
                let path = value()?;
                args.body = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
            }
            "--header" => args.headers.push(value()?),
            "--rate" => args.rate = value()?.parse().map_err(|_| "bad --rate")?,
            "--seconds" => args.seconds = value()?.parse().map_err(|_| "bad --seconds")?,
            "--connections" => {
                args.connections = value()?.parse().map_err(|_| "bad --connections")?
            }
            "--warmup" => args.warmup = value()?.parse().map_err(|_| "bad --warmup")?,
            "--ttfb" => args.ttfb = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.host.is_empty() || args.rate <= 0.0 || args.connections == 0 {
        return Err("--url is required; --rate and --connections must be positive".into());
    }
    Ok(args)
}

/// One response: its status, when its first byte arrived, and the proxy's own time on the
/// request when it reported one (`X-Service-Latency-Ms`).
type Response = (u16, Instant, Option<f64>);

/// Reads one response.
fn read_response(reader: &mut BufReader<TcpStream>) -> std::io::Result<Response> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let first_byte = Instant::now();
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
    let (mut length, mut chunked, mut service_ms) = (None, false, None);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let lower = trimmed.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        } else if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        } else if let Some(v) = lower.strip_prefix("x-service-latency-ms:") {
            service_ms = v.trim().parse::<f64>().ok();
        }
    }
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| std::io::Error::other("bad chunk size"))?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
        }
    } else if let Some(length) = length {
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
    }
    Ok((status, first_byte, service_ms))
}

fn connect(host: &str) -> std::io::Result<(TcpStream, BufReader<TcpStream>)> {
    let stream = TcpStream::connect(host)?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let reader = BufReader::new(stream.try_clone()?);
    Ok((stream, reader))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn main() {
    let args = match parse_args() {
        Ok(args) => Arc::new(args),
        Err(why) => {
            eprintln!("loadgen: {why}");
            std::process::exit(2);
        }
    };
    let mut request = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        args.path,
        args.host,
        args.body.len()
    )
    .into_bytes();
    for header in &args.headers {
        request.extend_from_slice(header.as_bytes());
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"\r\n");
    request.extend_from_slice(&args.body);
    let request = Arc::new(request);

    let total = ((args.warmup + args.seconds) * args.rate).round() as usize;
    let warmup = (args.warmup * args.rate).round() as usize;
    let interval = Duration::from_secs_f64(1.0 / args.rate);
    let start = Instant::now() + Duration::from_millis(100);
    let workers: Vec<_> = (0..args.connections)
        .map(|worker| {
            let (args, request) = (args.clone(), request.clone());
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut service = Vec::new();
                let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
                let mut errors = 0usize;
                let mut conn = None;
                let marker = find(&request, b"@@VARY@@");
                let mut own = request.as_ref().clone();
                for k in (worker..total).step_by(args.connections) {
                    if let Some(at) = marker {
                        own[at..at + 8]
                            .copy_from_slice(format!("{:08}", k % 100_000_000).as_bytes());
                    }
                    let due = start + interval * k as u32;
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let result = (|| -> std::io::Result<Response> {
                        if conn.is_none() {
                            conn = Some(connect(&args.host)?);
                        }
                        let (stream, reader) = conn.as_mut().expect("connected above");
                        stream.write_all(&own)?;
                        read_response(reader)
                    })();
                    let done = Instant::now();
                    match result {
                        Ok((status, first_byte, service_ms)) => {
                            *statuses.entry(status).or_default() += 1;
                            let end = if args.ttfb { first_byte } else { done };
                            if k >= warmup {
                                let latency = end.saturating_duration_since(due);
                                latencies.push(latency.as_secs_f64() * 1000.0);
                                service.extend(service_ms);
                            }
                        }
                        Err(_) => {
                            errors += 1;
                            conn = None;
                        }
                    }
                }
                (latencies, service, statuses, errors)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut service = Vec::new();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let mut errors = 0;
    for worker in workers {
        let (l, v, s, e) = worker.join().unwrap_or_default();
        latencies.extend(l);
        service.extend(v);
        for (status, n) in s {
            *statuses.entry(status).or_default() += n;
        }
        errors += e;
    }
    latencies.sort_by(f64::total_cmp);
    service.sort_by(f64::total_cmp);
    let statuses: Vec<String> = statuses
        .iter()
        .map(|(s, n)| format!("\"{s}\": {n}"))
        .collect();
    println!(
        "{{\"requests\": {}, \"errors\": {}, \"statuses\": {{{}}}, \"p50_ms\": {:.3}, \"p90_ms\": {:.3}, \"p99_ms\": {:.3}, \"max_ms\": {:.3}, \"service_p50_ms\": {:.3}, \"service_p99_ms\": {:.3}}}",
        latencies.len(),
        errors,
        statuses.join(", "),
        percentile(&latencies, 50.0),
        percentile(&latencies, 90.0),
        percentile(&latencies, 99.0),
        latencies.last().copied().unwrap_or(f64::NAN),
        percentile(&service, 50.0),
        percentile(&service, 99.0)
    );
}
