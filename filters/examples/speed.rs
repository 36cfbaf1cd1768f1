//! Rough per-call timing of one long corpus prompt in every mode (the real benchmark is
//! `cargo bench -p filters --bench compress`).

use filters::{Mode, Options, compress, count_tokens};
use std::time::Instant;

fn main() {
    let file = std::env::args().nth(1).expect("corpus file");
    let data = std::fs::read_to_string(file).expect("corpus");
    let mut text = String::new();
    for line in data.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        text.push_str(v["text"].as_str().unwrap());
        text.push_str("\n\n");
        if text.chars().count() > 50_000 {
            break;
        }
    }
    let text: String = text.chars().take(50_000).collect();
    let small: String = text.chars().take(2_000).collect();
    for (name, t) in [("2k", &small), ("50k", &text)] {
        let n = 50;
        let t0 = Instant::now();
        for _ in 0..n {
            std::hint::black_box(count_tokens(t, filters::Tokenizer::O200kBase));
        }
        println!("{name} count only: {:?}", t0.elapsed() / n);
        for mode in Mode::ALL {
            let _ = compress(t, &Options::with_mode(mode));
            let t0 = Instant::now();
            for _ in 0..n {
                std::hint::black_box(compress(t, &Options::with_mode(mode)));
            }
            println!("{name} {mode}: {:?}", t0.elapsed() / n);
        }
    }
}
