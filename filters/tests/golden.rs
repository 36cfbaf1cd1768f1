//! Golden tests: real prompts (`tests/golden/NAME.input.txt`) compressed in each mode must give
//! exactly `tests/golden/NAME.MODE.txt`. A deliberate change of the engine regenerates them with
//! `UPDATE_GOLDEN=1 cargo test -p filters --test golden`; review the diff before committing it.

mod support;

use filters::{Mode, Options};
use std::path::{Path, PathBuf};
use support::invariants;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn inputs() -> Vec<(String, PathBuf)> {
    let mut inputs: Vec<(String, PathBuf)> = std::fs::read_dir(golden_dir())
        .expect("tests/golden exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter_map(|path| {
            let file = path.file_name()?.to_str()?;
            let name = file.strip_suffix(".input.txt")?.to_string();
            Some((name, path))
        })
        .collect();
    inputs.sort();
    inputs
}

/// Where two texts first differ, as "line N: expected ... / actual ...".
fn first_difference(expected: &str, actual: &str) -> String {
    let mut expected_lines = expected.split_inclusive('\n');
    let mut actual_lines = actual.split_inclusive('\n');
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (None, None) => break,
            (e, a) if e == a => continue,
            (e, a) => {
                return format!(
                    "line {number}:\n  expected {:?}\n  actual   {:?}",
                    e.map(invariants::shorten),
                    a.map(invariants::shorten)
                );
            }
        }
    }
    "no line differs".to_string()
}

#[test]
fn golden_prompts_compress_to_their_expected_text() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|value| value == "1");
    let inputs = inputs();
    assert!(
        inputs.len() >= 3,
        "tests/golden should hold the golden prompts"
    );
    let mut failures = Vec::new();
    for (name, path) in &inputs {
        let input = std::fs::read_to_string(path).expect("a golden prompt is UTF-8 text");
        for mode in Mode::ALL {
            // An invariant broken on a real prompt is reported, but does not stop regeneration.
            let compressed = match invariants::check(&input, &Options::with_mode(mode)) {
                Ok(compressed) => compressed,
                Err(broken) => {
                    failures.push(format!("{name}: {broken}"));
                    filters::compress(&input, &Options::with_mode(mode))
                }
            };
            let expected_path = golden_dir().join(format!("{name}.{mode}.txt"));
            if update {
                std::fs::write(&expected_path, &compressed.text).unwrap_or_else(|err| {
                    panic!("cannot write {}: {err}", expected_path.display())
                });
                continue;
            }
            match std::fs::read_to_string(&expected_path) {
                Ok(expected) if expected == compressed.text => {}
                Ok(expected) => failures.push(format!(
                    "{name} in {mode} differs at {}",
                    first_difference(&expected, &compressed.text)
                )),
                Err(err) => failures.push(format!("{}: {err}", expected_path.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(after a deliberate engine change: UPDATE_GOLDEN=1 cargo test -p filters --test golden)",
        failures.join("\n")
    );
}
