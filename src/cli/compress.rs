//! `terse compress`: one prompt from a file or standard input, or a JSONL batch of requests.

use crate::cli::progress::Progress;
use crate::request::{self, RequestError};
use anyhow::{Context, bail};
use filters::{MAX_PROMPT_CHARS, Mode, Options, Tokenizer};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Compression mode: conservative, balanced or aggressive. With --jsonl, the mode of the
    /// lines that give none.
    #[arg(long, default_value_t = Mode::Balanced)]
    mode: Mode,
    /// Tokenizer for the statistics: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Tokenizer::O200kBase)]
    tokenizer: Tokenizer,
    /// Compress fenced code blocks and inline code like prose.
    #[arg(long)]
    no_protect_code: bool,
    /// Compress JSON like prose.
    #[arg(long)]
    no_protect_json: bool,
    /// Compress template variables ({{x}}, {% %}, ${x}) like prose.
    #[arg(long)]
    no_protect_variables: bool,
    /// Print the response body of POST /api/v1/compress instead of the bare text.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Read one request object a line (SPEC 2.1 fields) from FILE ("-" for standard input) and
    /// write one response object a line.
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    jsonl: Option<PathBuf>,
    /// The prompt to compress; standard input when absent or "-".
    file: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let defaults = Options {
        mode: args.mode,
        protect_code_blocks: !args.no_protect_code,
        protect_json: !args.no_protect_json,
        protect_variables: !args.no_protect_variables,
        tokenizer: args.tokenizer,
    };
    match &args.jsonl {
        Some(path) => run_jsonl(path, &defaults),
        None => run_single(args.file.as_deref(), args.json, &defaults),
    }
}

fn run_single(file: Option<&Path>, json: bool, options: &Options) -> anyhow::Result<ExitCode> {
    let bytes = read_all(file)?;
    let prompt = String::from_utf8(bytes).map_err(|err| {
        anyhow::anyhow!(
            "{} is not valid UTF-8 (first bad byte at offset {})",
            describe(file),
            err.utf8_error().valid_up_to()
        )
    })?;
    let chars = prompt.chars().count();
    if chars > MAX_PROMPT_CHARS {
        bail!(
            "{} has {chars} characters; the limit is {MAX_PROMPT_CHARS}",
            describe(file)
        );
    }
    let compressed = compress_warm(&prompt, options);
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, &request::response_body(&compressed))?;
        out.write_all(b"\n")?;
    } else {
        out.write_all(compressed.text.as_bytes())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Answers each line in order; a bad line gets an error object in its place and the batch goes
/// on. Exits 1 when any line was refused, so that scripts notice.
fn run_jsonl(path: &Path, defaults: &Options) -> anyhow::Result<ExitCode> {
    let (mut input, total_bytes): (Box<dyn BufRead>, Option<u64>) = if is_stdin(Some(path)) {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let size = file.metadata().ok().map(|meta| meta.len());
        (Box::new(BufReader::new(file)), size)
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut progress = Progress::new(total_bytes);
    let (mut lines, mut refused, mut bytes_done) = (0u64, 0u64, 0u64);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if read == 0 {
            break;
        }
        bytes_done += read as u64;
        lines += 1;
        let body = match answer_line(trim_line_end(&line), defaults) {
            Ok(body) => body,
            Err(err) => {
                refused += 1;
                err.body()
            }
        };
        serde_json::to_writer(&mut out, &body)?;
        out.write_all(b"\n")?;
        progress.update(bytes_done, lines);
    }
    out.flush()?;
    progress.finish();
    if refused > 0 {
        eprintln!("terse: {refused} of {lines} lines were refused; see their error objects");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn answer_line(line: &[u8], defaults: &Options) -> Result<serde_json::Value, RequestError> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err(RequestError::InvalidJson("the line is empty".to_string()));
    }
    let request = request::parse_body(line, defaults)?;
    let compressed = compress_warm(&request.prompt, &request.options);
    Ok(request::response_body(&compressed))
}

/// Compresses after loading the tokenizer, so that `latencyMs` measures the compression and not
/// the one-time vocabulary load of this process.
fn compress_warm(prompt: &str, options: &Options) -> filters::Compressed {
    filters::tokens::warm_up(options.tokenizer);
    filters::compress(prompt, options)
}

fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn is_stdin(file: Option<&Path>) -> bool {
    file.is_none_or(|path| path == Path::new("-"))
}

fn describe(file: Option<&Path>) -> String {
    match file {
        Some(path) if !is_stdin(Some(path)) => path.display().to_string(),
        _ => "standard input".to_string(),
    }
}

fn read_all(file: Option<&Path>) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if is_stdin(file) {
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        let path = file.expect("not standard input, so a path was given");
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {}", path.display()))?;
    }
    Ok(bytes)
}
