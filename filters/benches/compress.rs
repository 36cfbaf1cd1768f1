//! Speed of the engine: every mode on a 2,000- and a 50,000-character prompt, with token
//! counting alone as the baseline, and balanced once more on one thread (the helper thread off,
//! as the server runs it). Throughput is reported in bytes per second.
//!
//! Run: `cargo bench -p filters --bench compress`
//! (a quick check: `cargo bench -p filters --bench compress -- --warm-up-time 1 --measurement-time 2`).
//!
//! The prompts are real text: the corpus prompts taken round-robin across the corpus files (so
//! system prompts, user prompts and coding-agent prompts alternate), joined by blank lines and
//! cut at the size on a character boundary. Without the corpus, the golden prompts shipped in
//! `tests/golden` are used the same way.

#[path = "../tests/support/corpus.rs"]
#[allow(dead_code)] // the benchmark needs the texts only
mod corpus;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use filters::{Mode, Options, Tokenizer};
use std::hint::black_box;
use std::path::Path;

const SIZES: [usize; 2] = [2_000, 50_000];

fn source_texts() -> Vec<String> {
    if let Some(prompts) = corpus::prompts() {
        // Prompts arrive file by file; regroup them per corpus file to interleave the files.
        let mut by_corpus: Vec<(String, Vec<String>)> = Vec::new();
        for prompt in prompts {
            match by_corpus.last_mut() {
                Some((name, texts)) if *name == prompt.corpus => texts.push(prompt.text),
                _ => by_corpus.push((prompt.corpus, vec![prompt.text])),
            }
        }
        return round_robin(by_corpus.into_iter().map(|(_, texts)| texts).collect());
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.to_string_lossy().ends_with(".input.txt"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a readable golden prompt"))
        .collect()
}

fn round_robin(groups: Vec<Vec<String>>) -> Vec<String> {
    let longest = groups.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|i| groups.iter().filter_map(move |group| group.get(i).cloned()))
        .filter(|text| !text.trim().is_empty())
        .collect()
}

/// Joins `texts` (repeating them if they are too short) and cuts the result at `chars` characters.
fn prompt_of(texts: &[String], chars: usize) -> String {
    assert!(!texts.is_empty(), "no benchmark text");
    let mut prompt = String::new();
    for text in texts.iter().cycle() {
        if prompt.chars().count() >= chars {
            break;
        }
        if !prompt.is_empty() {
            prompt.push_str("\n\n");
        }
        prompt.push_str(text);
    }
    match prompt.char_indices().nth(chars) {
        Some((cut, _)) => prompt[..cut].to_string(),
        None => prompt,
    }
}

fn engine(c: &mut Criterion) {
    let texts = source_texts();
    for chars in SIZES {
        let prompt = prompt_of(&texts, chars);
        let mut group = c.benchmark_group(format!("{chars}_chars"));
        group.throughput(Throughput::Bytes(prompt.len() as u64));
        group.bench_function("count_tokens", |b| {
            b.iter(|| filters::count_tokens(black_box(&prompt), Tokenizer::O200kBase))
        });
        for mode in Mode::ALL {
            let options = Options::with_mode(mode);
            group.bench_with_input(
                BenchmarkId::new("compress", mode.as_str()),
                &prompt,
                |b, prompt| b.iter(|| filters::compress(black_box(prompt), &options)),
            );
        }
        // What the server runs: it turns the helper thread off (see `filters::helper`).
        filters::helper::set_enabled(false);
        let options = Options::with_mode(Mode::Balanced);
        group.bench_with_input(
            BenchmarkId::new("compress_one_thread", Mode::Balanced.as_str()),
            &prompt,
            |b, prompt| b.iter(|| filters::compress(black_box(prompt), &options)),
        );
        filters::helper::set_enabled(true);
        group.finish();
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
