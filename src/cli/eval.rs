//! `terse eval`: how much each mode saves on JSONL corpora of real prompts, and whether it keeps
//! what it must. Prints one markdown row per corpus and mode plus an ALL row per mode.

mod summary;

use anyhow::{Context, bail};
use filters::{MAX_PROMPT_CHARS, Mode, Options, Tokenizer};
use serde_json::json;
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use summary::{Outcome, Row};

#[derive(clap::Args)]
pub struct Args {
    /// JSONL corpora: one object a line with `text` (and `id`, `kind`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Tokenizer the reductions are counted with: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Tokenizer::O200kBase)]
    tokenizer: Tokenizer,
    /// Print the rows as JSON instead of a markdown table.
    #[arg(long)]
    json: bool,
    /// Also write every original and compressed text to FILE, one JSON object a line
    /// (corpus, id, mode, original, compressed), for tools/similarity.py.
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
    /// List on standard error each prompt that lost guard items (with the first few lost) or
    /// failed its integrity check.
    #[arg(long)]
    show_losses: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

struct Prompt {
    corpus: usize,
    id: String,
    text: String,
}

struct Corpus {
    /// Prompts with no text, left out of the figures.
    empty: usize,
    name: String,
    truncated: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let (corpora, prompts) = load(&args.files)?;
    filters::tokens::warm_up(args.tokenizer);
    // The prompts are already shared out between the cores.
    filters::helper::set_enabled(false);
    let jobs: Vec<(usize, Mode)> = Mode::ALL
        .iter()
        .flat_map(|&mode| (0..prompts.len()).map(move |prompt| (prompt, mode)))
        .collect();
    let keep_text = args.dump.is_some();
    let results = run_jobs(
        &prompts,
        &jobs,
        args.tokenizer,
        keep_text,
        args.threads.into(),
    );

    if let Some(path) = &args.dump {
        write_dump(path, &corpora, &prompts, &jobs, &results)?;
    }
    if args.show_losses {
        show_losses(&corpora, &prompts, &jobs, &results);
    }
    let rows = rows(&corpora, &prompts, &jobs, &results);
    let mut out = std::io::stdout().lock();
    if args.json {
        let body = json!({ "tokenizer": args.tokenizer, "rows": rows });
        serde_json::to_writer_pretty(&mut out, &body)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", summary::markdown(&rows))?;
        let truncated: usize = corpora.iter().map(|c| c.truncated).sum();
        let empty: usize = corpora.iter().map(|c| c.empty).sum();
        writeln!(
            out,
            "\nTokenizer {}. Reduction = saved tokens / original tokens per prompt; guard items are \
             the distinct substrings `filters::guard::items_with` says must survive. {truncated} \
             prompt(s) longer than {MAX_PROMPT_CHARS} characters were cut to that length; \
             {empty} empty prompt(s) were left out.",
            args.tokenizer
        )?;
    }
    eprintln!(
        "terse: {} compressions of {} prompts in {:.1} s",
        jobs.len(),
        prompts.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn load(files: &[PathBuf]) -> anyhow::Result<(Vec<Corpus>, Vec<Prompt>)> {
    let mut corpora = Vec::new();
    let mut prompts = Vec::new();
    for (index, path) in files.iter().enumerate() {
        let content = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {} as UTF-8 text", path.display()))?;
        let name = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let mut truncated = 0;
        let mut empty = 0;
        for (number, line) in content.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let value: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{}:{}: not JSON", path.display(), number + 1))?;
            let Some(text) = value.get("text").and_then(|text| text.as_str()) else {
                bail!(
                    "{}:{}: no string field \"text\"",
                    path.display(),
                    number + 1
                );
            };
            let id = match value.get("id") {
                Some(serde_json::Value::String(id)) => id.clone(),
                _ => format!("line {}", number + 1),
            };
            // An empty prompt has no reduction to measure; it is counted, not averaged in.
            if text.trim().is_empty() {
                empty += 1;
                continue;
            }
            let text = match text.char_indices().nth(MAX_PROMPT_CHARS) {
                Some((cut, _)) => {
                    truncated += 1;
                    text[..cut].to_string()
                }
                None => text.to_string(),
            };
            prompts.push(Prompt {
                corpus: index,
                id,
                text,
            });
        }
        corpora.push(Corpus {
            name,
            truncated,
            empty,
        });
    }
    Ok((corpora, prompts))
}

/// Compresses every (prompt, mode) job on `threads` threads; jobs are handed out one at a time
/// so that a few long prompts do not leave a thread idle. Results come back in job order.
fn run_jobs(
    prompts: &[Prompt],
    jobs: &[(usize, Mode)],
    tokenizer: Tokenizer,
    keep_text: bool,
    threads: usize,
) -> Vec<(Outcome, Option<String>)> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<(Outcome, Option<String>)>> = vec![None; jobs.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let job = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(prompt, mode)) = jobs.get(job) else {
                            break done;
                        };
                        let options = Options {
                            tokenizer,
                            ..Options::with_mode(mode)
                        };
                        done.push((job, measure(&prompts[prompt].text, &options, keep_text)));
                    }
                })
            })
            .collect();
        for worker in workers {
            for (job, result) in worker.join().expect("a compression never panics") {
                results[job] = Some(result);
            }
        }
    });
    results
        .into_iter()
        .map(|result| result.expect("every job was run"))
        .collect()
}

fn measure(text: &str, options: &Options, keep_text: bool) -> (Outcome, Option<String>) {
    let compressed = filters::compress(text, options);
    let stats = &compressed.stats;
    let guard: BTreeSet<String> = filters::guard::items_with(text, options)
        .into_iter()
        .collect();
    let visible = filters::guard::visible(&compressed.text, options);
    let lost: Vec<String> = guard
        .iter()
        .filter(|item| !visible.contains(item.as_str()))
        .cloned()
        .collect();
    let outcome = Outcome {
        ceiling: ceiling(text, options, &guard, stats.original_tokens),
        reduction: if stats.original_tokens == 0 {
            0.0
        } else {
            stats.saved_tokens as f64 * 100.0 / stats.original_tokens as f64
        },
        guard_items: guard.len(),
        guard_kept: guard.len() - lost.len(),
        lost,
        integrity_passed: stats.integrity_passed,
        latency_ms: stats.latency_ms,
    };
    (outcome, keep_text.then_some(compressed.text))
}

/// See [`Outcome::ceiling`].
fn ceiling(text: &str, options: &Options, guard: &BTreeSet<String>, original_tokens: usize) -> f64 {
    if original_tokens == 0 {
        return 0.0;
    }
    let sealed = filters::vault::seal(text, options);
    let kept: Vec<&str> = sealed
        .items()
        .chain(guard.iter().map(String::as_str))
        .collect();
    let floor = filters::count_tokens(&kept.join(" "), options.tokenizer).min(original_tokens);
    (original_tokens - floor) as f64 * 100.0 / original_tokens as f64
}

fn show_losses(
    corpora: &[Corpus],
    prompts: &[Prompt],
    jobs: &[(usize, Mode)],
    results: &[(Outcome, Option<String>)],
) {
    const SHOWN: usize = 3;
    for (&(prompt, mode), (outcome, _)) in jobs.iter().zip(results) {
        if outcome.lost.is_empty() && outcome.integrity_passed {
            continue;
        }
        let prompt = &prompts[prompt];
        let integrity = if outcome.integrity_passed {
            ""
        } else {
            " integrity check failed;"
        };
        let lost: Vec<String> = outcome
            .lost
            .iter()
            .take(SHOWN)
            .map(|item| format!("{:?}", summary::shorten(item)))
            .collect();
        let more = outcome.lost.len().saturating_sub(SHOWN);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        eprintln!(
            "{}/{} {mode}:{integrity} lost {}{more}",
            corpora[prompt.corpus].name,
            prompt.id,
            lost.join(", ")
        );
    }
}

fn rows(
    corpora: &[Corpus],
    prompts: &[Prompt],
    jobs: &[(usize, Mode)],
    results: &[(Outcome, Option<String>)],
) -> Vec<Row> {
    let outcomes = |mode: Mode, corpus: Option<usize>| -> Vec<&Outcome> {
        jobs.iter()
            .zip(results)
            .filter(|((prompt, job_mode), _)| {
                *job_mode == mode && corpus.is_none_or(|c| prompts[*prompt].corpus == c)
            })
            .map(|(_, (outcome, _))| outcome)
            .collect()
    };
    let mut rows = Vec::new();
    for (index, corpus) in corpora.iter().enumerate() {
        for mode in Mode::ALL {
            let mine = outcomes(mode, Some(index));
            rows.push(Row::new(
                &corpus.name,
                mode.as_str(),
                &mine,
                corpus.truncated,
            ));
        }
    }
    let truncated = corpora.iter().map(|c| c.truncated).sum();
    for mode in Mode::ALL {
        rows.push(Row::new(
            "ALL",
            mode.as_str(),
            &outcomes(mode, None),
            truncated,
        ));
    }
    rows
}

fn write_dump(
    path: &PathBuf,
    corpora: &[Corpus],
    prompts: &[Prompt],
    jobs: &[(usize, Mode)],
    results: &[(Outcome, Option<String>)],
) -> anyhow::Result<()> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = BufWriter::new(file);
    for (&(prompt, mode), (_, compressed)) in jobs.iter().zip(results) {
        let prompt = &prompts[prompt];
        let line = json!({
            "corpus": corpora[prompt.corpus].name,
            "id": prompt.id,
            "mode": mode,
            "original": prompt.text,
            "compressed": compressed.as_deref().unwrap_or_default(),
        });
        serde_json::to_writer(&mut out, &line)?;
        out.write_all(b"\n")?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}
