//! Properties of the engine as a whole, on generated input: the invariants of
//! `support::invariants::check` (deterministic, never more tokens, truthful statistics, integrity
//! or the original text, every guard item kept) hold in every mode and for every option; protected
//! code, JSON and variables come back byte-identical; pathological input never panics.
//!
//! `PROPTEST_CASES` raises the number of cases for a longer search.

mod support;

use filters::{Mode, Options, Tokenizer};
use proptest::prelude::*;
use support::invariants;

fn options() -> impl Strategy<Value = Options> {
    (
        prop::sample::select(Mode::ALL.to_vec()),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(Tokenizer::ALL.to_vec()),
    )
        .prop_map(
            |(mode, protect_code_blocks, protect_json, protect_variables, tokenizer)| Options {
                mode,
                protect_code_blocks,
                protect_json,
                protect_variables,
                tokenizer,
            },
        )
}

/// Pieces of prompts, including broken ones: unbalanced fences, braces and template tags,
/// JSON-looking fragments, markdown structure, guard material (negations, numbers, paths, URLs,
/// identifiers, tags) and non-English text.
const PIECES: &[&str] = &[
    "Please note that ",
    "you must not ",
    "never ",
    "don't ",
    "only ",
    "unless ",
    "basically ",
    "It is important to ",
    "In order to ",
    "the answer ",
    "should be ",
    "very ",
    "really ",
    "delete ",
    "the file ",
    "/etc/hosts ",
    "https://example.com/a?b=1 ",
    "a@b.io ",
    "v2.3.1 ",
    "42% ",
    "3.5 GB ",
    "2024-06-01 ",
    "camelCase ",
    "snake_case ",
    "MAX_RETRIES ",
    "\"quoted\" ",
    "<rules>",
    "</rules>",
    ". ",
    ", ",
    "! ",
    "? ",
    "\n",
    "\n\n",
    "\r\n",
    "  ",
    "\t",
    "# ",
    "## ",
    "- ",
    "* ",
    "1. ",
    "| a | b |\n",
    "|---|---|\n",
    "---\n",
    "**bold** ",
    "_it_ ",
    "<!-- c -->",
    "```",
    "```rust\n",
    "~~~",
    "`",
    "``",
    "{",
    "}",
    "[",
    "]",
    "{\"k\": ",
    "[1, 2",
    "\"v\"",
    ": ",
    "{{",
    "}}",
    "{{name}}",
    "{{ name }}",
    "{{{raw}}}",
    "{{#each x}}",
    "{{/each}}",
    "{%",
    "%}",
    "{% if a %}",
    "{# c #}",
    "${",
    "${input:topic}",
    "${Name:default}",
    "\\",
    "\u{200b}",
    "\u{feff}",
    "你好，世界。",
    "日本語の文章。",
    "Привет, мир. ",
    "👍🏽 ",
    "é",
    "\u{0}",
];

fn prompt_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..120).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn invariants_hold_on_arbitrary_strings(input in any::<String>(), options in options()) {
        if let Err(broken) = invariants::check(&input, &options) {
            prop_assert!(false, "{}", broken);
        }
    }

    #[test]
    fn invariants_hold_on_prompt_like_text(input in prompt_like(), options in options()) {
        if let Err(broken) = invariants::check(&input, &options) {
            prop_assert!(false, "{}", broken);
        }
    }
}

/// Prose that cannot open or close a protected item by itself.
fn plain_prose() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "Please",
        "note",
        "that",
        "you",
        "should",
        "basically",
        "really",
        "always",
        "write",
        "the",
        "a",
        "very",
        "clear",
        "answer",
        "in",
        "order",
        "to",
        "help",
        "users",
        "and",
        "also",
        "it",
        "is",
        "important",
        "not",
        "never",
        "only",
        "42",
        "files",
        ".",
        ",",
        "\n",
        "\n\n",
        "# Heading\n",
        "- item\n",
    ]);
    prop::collection::vec(words, 0..40).prop_map(|words| words.join(" "))
}

/// Items every vault must keep byte-identical: (text, kind).
fn protected_item() -> impl Strategy<Value = (String, &'static str)> {
    let body = "[a-z =;(){}\n]{0,40}";
    prop_oneof![
        (
            body,
            prop::sample::select(vec!["", "rust", "python", "json"])
        )
            .prop_map(|(body, lang)| (format!("\n```{lang}\n{body}\n```\n"), "code")),
        body.prop_map(|body| (format!("\n~~~\n{body}\n~~~\n"), "code")),
        "[a-z_]{1,12}".prop_map(|name| (format!("`{name}()`"), "code")),
        ("[a-z]{1,8}", 0u32..1000)
            .prop_map(|(key, n)| (format!("{{\"{key}\": {n}, \"list\": [1, 2]}}"), "json")),
        ("[a-z]{1,8}", "[a-z]{1,8}")
            .prop_map(|(a, b)| (format!("[\"{a}\", {{\"{b}\": null}}]"), "json")),
        "[a-z_]{1,12}".prop_map(|name| (format!("{{{{{name}}}}}"), "variable")),
        "[a-z_]{1,12}".prop_map(|name| (format!("{{{{ {name} }}}}"), "variable")),
        "[a-z_]{1,12}".prop_map(|name| (format!("{{% if {name} %}}"), "variable")),
        "[A-Za-z]{1,12}".prop_map(|name| (format!("${{{name}:default}}"), "variable")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn protected_items_come_back_byte_identical(
        parts in prop::collection::vec((plain_prose(), protected_item()), 1..6),
        tail in plain_prose(),
        mode in prop::sample::select(Mode::ALL.to_vec()),
    ) {
        let mut input = String::new();
        for (prose, (item, _)) in &parts {
            input.push_str(prose);
            input.push(' ');
            input.push_str(item);
            input.push(' ');
        }
        input.push_str(&tail);
        let options = Options::with_mode(mode);
        let compressed = match invariants::check(&input, &options) {
            Ok(compressed) => compressed,
            Err(broken) => return Err(TestCaseError::fail(broken)),
        };
        prop_assert!(compressed.stats.integrity_passed, "integrity failed in {}", mode);
        for (_, (item, kind)) in &parts {
            // Fences are placed on their own lines; the vault may own the newlines around them.
            let core = item.trim_matches('\n');
            prop_assert!(
                compressed.text.contains(core),
                "the {} item {:?} did not survive {}",
                kind,
                invariants::shorten(core),
                mode
            );
        }
    }
}

/// Input that breaks naive scanners: huge runs of one character, deep nesting, unbalanced
/// openers. Each must compress without panicking and keep every invariant.
#[test]
fn pathological_input_keeps_the_invariants() {
    const LONG: usize = filters::MAX_PROMPT_CHARS;
    let mut inputs: Vec<(String, String)> = "a .\n`{[\"#-|*<$%é你\u{200b}"
        .chars()
        .map(|c| (format!("{LONG} x {c:?}"), c.to_string().repeat(LONG)))
        .collect();
    let nested = [
        ("deep arrays", "[".repeat(10_000) + &"]".repeat(10_000)),
        (
            "deep objects",
            "{\"a\":".repeat(5_000) + "1" + &"}".repeat(5_000),
        ),
        ("unclosed arrays", "[".repeat(20_000)),
        ("deep mustache", "{{".repeat(10_000) + &"}}".repeat(10_000)),
        ("unbalanced fences", "```\ncode\n".repeat(3_000)),
        ("nested fences", "````\n```\n~~~\n".repeat(2_000)),
        ("backtick runs", "`".repeat(1_000) + "x" + &"`".repeat(999)),
        ("template soup", "{% {{ ${ {# <!-- ".repeat(2_000)),
        ("lines of spaces", " \n".repeat(20_000)),
        ("repeated sentence", "You must not do this. ".repeat(2_000)),
    ];
    inputs.extend(
        nested
            .into_iter()
            .map(|(name, text)| (name.to_string(), text)),
    );
    for (name, input) in &inputs {
        for mode in Mode::ALL {
            if let Err(broken) = invariants::check(input, &Options::with_mode(mode)) {
                panic!("{name}: {broken}");
            }
        }
    }
}

/// Inputs on which proptest or the fuzz target once found a broken invariant, kept so that each
/// stays fixed: every mode, every combination of flags and tokenizer.
const FOUND_CASES: &[&str] = &[
    "<!-- c -->Please note that ",
    "2##",
    // The fuzz target, on the engine of a7bdfad:
    ">a?",
    ">we /A\n",
    "*+*:./v",
    "$(*(*",
    "|A0w/o|\u{b}\n\0\0\0|",
    // Proptest with 3,000 cases, on the engine of 3861865:
    "{\"k\": \u{200b}}{# c #}",
    "\u{ae}\"*\u{a1}*",
    "*\u{ce6}*:\u{a980}",
    // The fuzz target, on the engine of 9fd7d71 (a blockquote after a vertical tab; an
    // article carrying the line's only question mark):
    "\u{b}\u{b}>an? >t",
    // The fuzz target, on the engine of fe21cb2 (a setext underline under an empty blockquote
    // line, which had replaced the text line before it):
    "n\u{1}\0\0\0\0\0\09\n>\n----",
    // Politeness pruning once emptied a prompt that was nothing else:
    "Thank you so much!",
    "Please.",
];

#[test]
fn cases_found_by_searching_keep_the_invariants() {
    // One line per failing input: its first broken invariant over all options.
    let failures: Vec<String> = FOUND_CASES
        .iter()
        .filter_map(|input| {
            (0u8..16)
                .flat_map(|bits| Mode::ALL.map(|mode| invariants::options_from_bits(mode, bits)))
                .find_map(|options| invariants::check(input, &options).err())
                .map(|broken| format!("{input:?}: {broken}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
