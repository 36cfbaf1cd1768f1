//! Quick tuning loop for the engine's authors: median reduction per corpus and mode, guard
//! retention, and (with SHOW=id) the compressed text of one prompt. The product's evaluation
//! command is `terse eval`.

use filters::{Mode, Options, compress, guard};

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let show = std::env::var("SHOW").ok();
    for file in &files {
        let data = std::fs::read_to_string(file).expect("corpus file");
        let texts: Vec<(String, String)> = data
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let t: String = v["text"].as_str().unwrap().chars().take(50_000).collect();
                (v["id"].as_str().unwrap_or("").to_string(), t)
            })
            .collect();
        for mode in Mode::ALL {
            let mut reductions = Vec::new();
            let (mut items, mut kept, mut failed) = (0usize, 0usize, 0usize);
            let mut micros = 0u128;
            for (id, text) in &texts {
                let t0 = std::time::Instant::now();
                let out = compress(text, &Options::with_mode(mode));
                micros += t0.elapsed().as_micros();
                if !out.stats.integrity_passed {
                    failed += 1;
                }
                reductions.push(out.stats.saved_percent);
                if std::env::var("ZERO").is_ok() && out.stats.saved_percent == 0.0 {
                    eprintln!(
                        "ZERO {id} {mode} {} chars: {:?}",
                        text.len(),
                        text.chars().take(80).collect::<String>()
                    );
                }
                let mut distinct: Vec<&str> = guard::items(text);
                distinct.sort();
                distinct.dedup();
                items += distinct.len();
                let missing: Vec<&&str> = distinct
                    .iter()
                    .filter(|i| !out.text.contains(**i))
                    .collect();
                kept += distinct.len() - missing.len();
                if std::env::var("MISSING").is_ok() && !missing.is_empty() {
                    eprintln!(
                        "{id} {mode}: missing {:?}",
                        missing.iter().take(5).collect::<Vec<_>>()
                    );
                }
                if show.as_deref() == Some(id.as_str()) {
                    println!(
                        "===== {id} {mode} ({}%)\n{}\n",
                        out.stats.saved_percent, out.text
                    );
                }
            }
            reductions.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let q = |p: f64| reductions[((reductions.len() - 1) as f64 * p) as usize];
            println!(
                "{:40} {:12} median {:5.1}  p10 {:5.1}  p90 {:5.1}  guard {:6.2}%  integrity-fail {}  {:.0}us/prompt",
                file.rsplit('/').next().unwrap(),
                mode.as_str(),
                q(0.5),
                q(0.1),
                q(0.9),
                100.0 * kept as f64 / items.max(1) as f64,
                failed,
                micros as f64 / texts.len() as f64
            );
        }
    }
}
