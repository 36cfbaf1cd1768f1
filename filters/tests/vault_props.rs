//! Property, adversarial and corpus tests of the vault: every text round-trips byte-identically
//! under every flag combination, and nothing panics or blows up on hostile input.

use filters::Options;
use filters::vault::{self, CLOSE, OPEN, Sealed};
use proptest::prelude::*;
use std::path::PathBuf;

fn options(code: bool, json: bool, variables: bool) -> Options {
    Options {
        protect_code_blocks: code,
        protect_json: json,
        protect_variables: variables,
        ..Options::default()
    }
}

fn all_flag_combinations() -> impl Iterator<Item = Options> {
    (0..8).map(|bits| options(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0))
}

/// Seals and checks the contract on the untouched sealed text; returns the seal.
fn check_round_trip(text: &str, options: &Options) -> Sealed {
    let sealed = vault::seal(text, options);
    let placeholders = sealed.text().chars().filter(|&c| c == OPEN).count();
    assert_eq!(placeholders, sealed.len(), "only placeholders use OPEN");
    let closes = sealed.text().chars().filter(|&c| c == CLOSE).count();
    assert_eq!(closes, sealed.len(), "only placeholders use CLOSE");
    let restored = sealed.restore(sealed.text());
    assert!(
        restored.as_deref() == Some(text),
        "round trip failed for {} bytes",
        text.len()
    );
    assert!(sealed.verify(text), "verify failed on the original");
    sealed
}

fn prose() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ,.!?'\n-]{0,40}"
}

fn code_fence() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["```", "~~~", "````", "  ```", "> ```", "- ~~~~"]),
        "[a-z]{0,6}",
        prop::collection::vec("[ -~]{0,30}", 0..4),
        any::<bool>(),
    )
        .prop_map(|(fence, info, lines, closed)| {
            let bare = fence.trim_start_matches(['>', '-', ' ']);
            let close = if closed { bare } else { "" };
            format!("\n{fence}{info}\n{}\n{close}\n", lines.join("\n"))
        })
}

fn inline_code() -> impl Strategy<Value = String> {
    ("`{1,3}", "[ -~]{0,20}").prop_map(|(ticks, body)| format!("{ticks}{body}{ticks}"))
}

fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i32>().prop_map(serde_json::Value::from),
        "[ -~{}\u{E000}]{0,12}".prop_map(serde_json::Value::from),
    ];
    let tree = leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map("[a-z{}]{1,6}", inner, 0..4)
                .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
        ]
    });
    (tree, any::<bool>()).prop_map(|(value, pretty)| {
        let rendered = if pretty {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        };
        rendered.unwrap_or_default()
    })
}

fn variable() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "{{N}}",
            "{{ N }}",
            "{{{N}}}",
            "{{#each N}}- {{N}}\n{{/each}}",
            "{{#if N}}{{#unless N}}x{{/unless}}{{else}}y{{/if}}",
            "{% if N %}",
            "{# N #}",
            "${N}",
            "${input:N}",
            "${N:Software Developer, senior}",
            "{{#with N}}",
            "{{/N}}",
        ]),
        "[a-zA-Z_][a-zA-Z0-9_.]{0,8}",
    )
        .prop_map(|(template, name)| template.replace('N', &name))
}

fn markup_noise() -> impl Strategy<Value = String> {
    "[{}\\[\\]`$~#%:\",\\\\\n \u{E000}\u{E001}a0-9]{0,20}"
}

fn mixed_text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        3 => prose(),
        1 => code_fence(),
        2 => inline_code(),
        2 => json_value(),
        2 => variable(),
        2 => markup_noise(),
        1 => ".{0,20}",
    ];
    prop::collection::vec(fragment, 0..24).prop_map(|parts| parts.concat())
}

/// An edit a stage could make: drop spaces and the letter e outside placeholders.
fn edit_prose(sealed: &str) -> String {
    sealed.chars().filter(|&c| c != ' ' && c != 'e').collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn mixed_text_round_trips(text in mixed_text(), flags in any::<(bool, bool, bool)>()) {
        check_round_trip(&text, &options(flags.0, flags.1, flags.2));
    }

    #[test]
    fn arbitrary_strings_round_trip(text in any::<String>(), flags in any::<(bool, bool, bool)>()) {
        check_round_trip(&text, &options(flags.0, flags.1, flags.2));
    }

    #[test]
    fn edited_prose_restores_and_verifies(text in mixed_text()) {
        let sealed = vault::seal(&text, &Options::default());
        let restored = sealed.restore(&edit_prose(sealed.text()));
        prop_assert!(restored.is_some());
        prop_assert!(sealed.verify(&restored.unwrap_or_default()));
    }

    #[test]
    fn a_dropped_placeholder_is_refused(text in mixed_text(), pick in any::<prop::sample::Index>()) {
        let sealed = vault::seal(&text, &Options::default());
        prop_assume!(!sealed.is_empty());
        let dropped = format!("{OPEN}{}{CLOSE}", pick.index(sealed.len()));
        prop_assert_eq!(sealed.restore(&sealed.text().replacen(&dropped, "", 1)), None);
    }

    #[test]
    fn sealing_is_deterministic(text in mixed_text()) {
        let a = vault::seal(&text, &Options::default());
        let b = vault::seal(&text, &Options::default());
        prop_assert_eq!(a.text(), b.text());
        prop_assert!(a.items().eq(b.items()));
        prop_assert_eq!(a.counts(), b.counts());
    }
}

#[test]
fn hostile_repetitions_round_trip() {
    let units = [
        "{",
        "[",
        "`",
        "$",
        "~",
        "{{",
        "${",
        "{%",
        "{#",
        "{{{",
        "}",
        "\n",
        "```\n",
        "~~~\n",
        "{\"a\":",
        "[1,",
        "[\"",
        "{{#each x}}",
        "{{/each}}",
        "${a:",
        "`` ",
        "\u{E000}",
        "\u{E001}",
        "[{\"k\": \"v\"},",
        "\"}",
    ];
    for unit in units {
        let text = unit.repeat(50_000 / unit.chars().count());
        for options in all_flag_combinations() {
            check_round_trip(&text, &options);
        }
    }
}

#[test]
fn deep_nesting_round_trips() {
    let deep_array = format!("{}{}", "[".repeat(5_000), "]".repeat(5_000));
    let deep_object = format!("{}1{}", "{\"a\":".repeat(5_000), "}".repeat(5_000));
    let deep_blocks = format!("{}{}", "{{#if a}}".repeat(2_000), "{{/if}}".repeat(2_000));
    let unterminated = format!("Data: [{}", "1, ".repeat(16_000));
    let padded_citations = format!("{}{}", " ".repeat(25_000), "[1] ".repeat(6_000));
    for text in [
        deep_array,
        deep_object,
        deep_blocks,
        unterminated,
        padded_citations,
    ] {
        let sealed = check_round_trip(&text, &Options::default());
        assert!(sealed.len() <= text.len());
    }
}

/// The corpus files, when the shared corpus is present (it is outside the repository).
fn corpus_files() -> Vec<PathBuf> {
    let dir = std::env::var_os("TERSE_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_prompt_round_trips_under_every_flag_combination() {
    let files = corpus_files();
    if files.is_empty() {
        eprintln!("shared corpus not found: skipped");
        return;
    }
    let mut prompts = 0;
    let mut protected = filters::ProtectedItems::default();
    for file in files {
        let content = std::fs::read_to_string(&file).expect("corpus file is readable UTF-8");
        for line in content.lines().filter(|l| !l.trim().is_empty()) {
            let record: serde_json::Value =
                serde_json::from_str(line).expect("corpus line is JSON");
            let text = record["text"].as_str().expect("corpus line has a text");
            prompts += 1;
            for options in all_flag_combinations() {
                let sealed = check_round_trip(text, &options);
                if options == Options::default() {
                    let counts = sealed.counts();
                    protected.code_blocks += counts.code_blocks;
                    protected.json_blocks += counts.json_blocks;
                    protected.variables += counts.variables;
                }
            }
        }
    }
    eprintln!("{prompts} corpus prompts round-trip; protected with all flags on: {protected:?}");
    // The corpus holds code, JSON and template variables; finding none would mean a broken finder.
    assert!(protected.code_blocks > 0 && protected.json_blocks > 0 && protected.variables > 0);
}
