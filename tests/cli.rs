//! `terse compress` and `terse eval` as a user runs them: the real binary, real files and pipes.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn terse(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_terse"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the terse binary starts");
    let written = child.stdin.take().expect("stdin is piped").write_all(stdin);
    // A command refused by its arguments exits before reading: the pipe is closed then.
    if let Err(err) = written {
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing to terse: {err}"
        );
    }
    child.wait_with_output().expect("terse finishes")
}

fn stdout_json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|line| serde_json::from_str(line).expect("each output line is JSON"))
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A file in a fresh per-test directory under the target dir (removed by `cargo clean`).
fn temp_file(test: &str, name: &str, content: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("a temporary file");
    path
}

const PROMPT: &str = "Please note that you must not delete the file `config.yaml` unless the user \
                      asks for it.\n\n```sh\nrm -rf build/\n```\n";

#[test]
fn plain_output_is_the_compressed_text() {
    let plain = terse(&["compress", "--mode", "aggressive"], PROMPT.as_bytes());
    assert!(plain.status.success(), "{}", stderr(&plain));
    let json = terse(
        &["compress", "--mode", "aggressive", "--json"],
        PROMPT.as_bytes(),
    );
    assert!(json.status.success(), "{}", stderr(&json));
    let body = &stdout_json_lines(&json)[0];
    assert_eq!(
        body["compressed"].as_str().unwrap().as_bytes(),
        plain.stdout
    );
}

#[test]
fn json_output_is_the_compress_response_body() {
    let path = temp_file("json_output", "prompt.md", PROMPT.as_bytes());
    let output = terse(
        &[
            "compress",
            "--json",
            "--tokenizer",
            "cl100k_base",
            "--no-protect-json",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let body = &stdout_json_lines(&output)[0];
    let keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["success", "compressed", "stats"]);
    assert_eq!(body["success"], true);
    let stats = &body["stats"];
    assert_eq!(stats["mode"], "balanced");
    assert_eq!(stats["tokenizerUsed"], "cl100k_base");
    assert_eq!(
        stats["originalTokens"],
        filters::count_tokens(PROMPT, filters::Tokenizer::Cl100kBase)
    );
    assert_eq!(
        stats["finalTokens"],
        filters::count_tokens(
            body["compressed"].as_str().unwrap(),
            filters::Tokenizer::Cl100kBase
        )
    );
    for field in [
        "savedTokens",
        "savedPercent",
        "latencyMs",
        "integrityPassed",
        "stageBreakdown",
        "protectedItems",
    ] {
        assert!(stats.get(field).is_some(), "stats lacks {field}");
    }
}

#[test]
fn bad_input_is_refused_with_a_message_and_a_failure_status() {
    let too_long = "a".repeat(filters::MAX_PROMPT_CHARS + 1);
    let cases: [(&[&str], &[u8], &str); 4] = [
        (&["compress"], too_long.as_bytes(), "limit is 50000"),
        (&["compress"], b"caf\xc3\x28 bad", "not valid UTF-8"),
        (&["compress", "--mode", "extreme"], b"x", "extreme"),
        (
            &["compress", "/nonexistent/prompt.txt"],
            b"",
            "cannot read /nonexistent/prompt.txt",
        ),
    ];
    for (args, input, message) in cases {
        let output = terse(args, input);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(output.stdout.is_empty(), "{args:?} printed a result");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // The limit counts characters: 50,000 two-byte characters are accepted.
    let at_limit = "é".repeat(filters::MAX_PROMPT_CHARS);
    assert!(terse(&["compress"], at_limit.as_bytes()).status.success());
}

#[test]
fn jsonl_answers_every_line_in_order_and_carries_on_after_a_bad_one() {
    let requests = [
        serde_json::json!({ "prompt": PROMPT, "mode": "conservative" }).to_string(),
        "this is not JSON".to_string(),
        serde_json::json!({ "prompt": "x".repeat(50_001) }).to_string(),
        serde_json::json!({ "prompt": PROMPT, "mode": "turbo" }).to_string(),
        serde_json::json!({ "prompt": 7 }).to_string(),
        serde_json::json!({ "prompt": PROMPT, "protectJson": "yes" }).to_string(),
        serde_json::json!({ "prompt": PROMPT, "tokenizer": "cl100k_base" }).to_string(),
    ];
    let mut input = requests.join("\n").into_bytes();
    input.extend_from_slice(b"\r\n{\"prompt\": \"\xff\"}\n");
    let path = temp_file("jsonl", "requests.jsonl", &input);

    let output = terse(
        &[
            "compress",
            "--mode",
            "aggressive",
            "--jsonl",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("6 of 8 lines were refused"),
        "{}",
        stderr(&output)
    );
    let lines = stdout_json_lines(&output);
    let codes: Vec<&str> = lines
        .iter()
        .map(|line| line["error"]["code"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        codes,
        [
            "ok",
            "invalid_json",
            "prompt_too_long",
            "invalid_mode",
            "prompt_not_string",
            "invalid_flag",
            "ok",
            "invalid_json"
        ]
    );
    assert_eq!(lines[0]["stats"]["mode"], "conservative");
    // A line without a mode takes the command line's.
    assert_eq!(lines[6]["stats"]["mode"], "aggressive");
    assert_eq!(lines[6]["stats"]["tokenizerUsed"], "cl100k_base");
    for line in [&lines[1], &lines[7]] {
        assert_eq!(line["success"], false);
    }

    // The same batch on standard input gives the same answers (latency aside).
    let piped = terse(
        &["compress", "--mode", "aggressive", "--jsonl", "-"],
        &input,
    );
    let mut piped_lines = stdout_json_lines(&piped);
    let mut file_lines = lines;
    for line in piped_lines.iter_mut().chain(file_lines.iter_mut()) {
        if let Some(stats) = line.get_mut("stats") {
            stats["latencyMs"] = Value::Null;
        }
    }
    assert_eq!(piped_lines, file_lines);
    assert!(
        !stderr(&piped).contains('\r'),
        "no progress bar when stderr is not a terminal"
    );
}

#[test]
fn eval_prints_a_row_per_corpus_and_mode_and_cuts_long_prompts() {
    let corpus: String = [
        serde_json::json!({ "id": "a", "kind": "user_prompt", "text": PROMPT }),
        serde_json::json!({ "id": "b", "kind": "user_prompt", "text": "word ".repeat(12_000) }),
        serde_json::json!({ "id": "c", "kind": "user_prompt", "text": "" }),
    ]
    .iter()
    .map(|line| format!("{line}\n"))
    .collect();
    let path = temp_file("eval", "tiny.jsonl", corpus.as_bytes());
    let dump = path.with_file_name("dump.jsonl");

    let output = terse(
        &[
            "eval",
            "--json",
            "--dump",
            dump.to_str().unwrap(),
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    let rows = report["rows"].as_array().unwrap();
    let names: Vec<(&str, &str)> = rows
        .iter()
        .map(|row| {
            (
                row["corpus"].as_str().unwrap(),
                row["mode"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("tiny", "conservative"),
            ("tiny", "balanced"),
            ("tiny", "aggressive"),
            ("ALL", "conservative"),
            ("ALL", "balanced"),
            ("ALL", "aggressive"),
        ]
    );
    // The empty prompt "c" has no reduction to measure: it is left out of the rows.
    for row in rows {
        assert_eq!(row["prompts"], 2);
        assert_eq!(row["truncated"], 1);
        assert_eq!(row["integrityFailures"], 0);
    }
    let dumped: Vec<Value> = std::fs::read_to_string(&dump)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(dumped.len(), 6);
    let long = dumped.iter().find(|line| line["id"] == "b").unwrap();
    assert_eq!(
        long["original"].as_str().unwrap().chars().count(),
        filters::MAX_PROMPT_CHARS
    );

    let table = terse(&["eval", path.to_str().unwrap()], b"");
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.starts_with("| corpus | mode | prompts | median | p10 | p90 |"),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|line| line.starts_with("| tiny |"))
            .count(),
        3
    );
    assert!(text.contains("1 empty prompt(s) were left out"), "{text}");

    let missing = terse(&["eval", "/nonexistent.jsonl"], b"");
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("/nonexistent.jsonl"));
}
