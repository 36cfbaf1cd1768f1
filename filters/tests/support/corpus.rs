//! Reads the corpora of real prompts (JSONL lines with `id`, `kind`, `text`) for tests and
//! benchmarks. The corpus lives outside the repository: `$TERSE_CORPUS_DIR`, or else
//! `../shared/corpus` beside the workspace root. Callers skip their corpus checks when it is absent.

use std::path::PathBuf;

pub struct Prompt {
    pub corpus: String,
    pub id: String,
    pub text: String,
}

/// The corpus directory, if it exists.
pub fn dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TERSE_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    dir.is_dir().then_some(dir)
}

/// Every prompt of every `*.jsonl` file of the corpus, files in name order, lines in file order.
/// `None` when there is no corpus. A malformed line is a broken corpus and panics with its place.
pub fn prompts() -> Option<Vec<Prompt>> {
    let dir = dir()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    let mut prompts = Vec::new();
    for file in files {
        let corpus = file
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let content = std::fs::read_to_string(&file)
            .unwrap_or_else(|err| panic!("cannot read {}: {err}", file.display()));
        for (number, line) in content.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|err| panic!("{}:{}: {err}", file.display(), number + 1));
            let field = |name: &str| value[name].as_str().unwrap_or_default().to_string();
            prompts.push(Prompt {
                corpus: corpus.clone(),
                id: field("id"),
                text: field("text"),
            });
        }
    }
    Some(prompts)
}
