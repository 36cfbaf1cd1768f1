//! Profiling aid: compresses one 50,000-character corpus text in one mode in a loop, so `perf`
//! sees only the engine. The benchmark with figures is `cargo bench -p filters --bench compress`.
//! With `SPEED_AS_SERVER=1` it runs the engine as the server does: `shorten` (two counts, no
//! per-stage breakdown) on the calling thread alone.

use filters::{Mode, Options, compress, shorten};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: speed CORPUS.jsonl [MODE] [ITERATIONS] [CHARS]");
    let mode: Mode = args
        .next()
        .as_deref()
        .unwrap_or("balanced")
        .parse()
        .expect("mode");
    let iterations: u32 = args.next().map_or(200, |n| n.parse().expect("iterations"));
    let chars: usize = args.next().map_or(50_000, |n| n.parse().expect("chars"));
    let data = std::fs::read_to_string(file).expect("corpus");
    let mut text = String::new();
    for line in data.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("jsonl");
        text.push_str(v["text"].as_str().unwrap_or_default());
        text.push_str("\n\n");
        if text.len() > chars * 2 {
            break;
        }
    }
    let text: String = text.chars().take(chars).collect();
    let options = Options::with_mode(mode);
    let as_server = std::env::var_os("SPEED_AS_SERVER").is_some_and(|v| v == "1");
    filters::helper::set_enabled(!as_server);
    let once = |text: &str| {
        if as_server {
            std::hint::black_box(shorten(text, &options).final_tokens)
        } else {
            std::hint::black_box(compress(text, &options).stats.final_tokens)
        }
    };
    once(&text);
    let started = std::time::Instant::now();
    for _ in 0..iterations {
        once(&text);
    }
    println!(
        "{mode} {chars} chars: {:?} per call",
        started.elapsed() / iterations
    );
}
