//! The vault through its public interface: what is sealed, how placeholders look, and how
//! `restore` and `verify` judge a text that comes back from the stages.

use filters::vault::{self, CLOSE, OPEN, Sealed};
use filters::{Options, ProtectedItems};

fn all_on() -> Options {
    Options::default()
}

/// Seals `text`, checks the untouched sealed text restores byte-identically, returns the seal.
fn round_trip(text: &str, options: &Options) -> Sealed {
    let sealed = vault::seal(text, options);
    let restored = sealed.restore(sealed.text());
    assert_eq!(restored.as_deref(), Some(text), "round trip of {text:?}");
    assert!(sealed.verify(text));
    sealed
}

fn items(text: &str, options: &Options) -> Vec<String> {
    round_trip(text, options)
        .items()
        .map(str::to_string)
        .collect()
}

fn placeholder(index: usize) -> String {
    format!("{OPEN}{index}{CLOSE}")
}

fn counts(code_blocks: usize, json_blocks: usize, variables: usize) -> ProtectedItems {
    ProtectedItems {
        code_blocks,
        json_blocks,
        variables,
    }
}

#[test]
fn fenced_block_placeholder_stands_alone_on_its_line() {
    let text = "Intro\n```python\nprint({'a': 1})  # {{x}}\n```\nOutro `x`.";
    let sealed = round_trip(text, &all_on());
    assert_eq!(
        sealed.text(),
        format!("Intro\n{}\nOutro {}.", placeholder(0), placeholder(1))
    );
    assert_eq!(sealed.counts(), counts(2, 0, 0));
    assert_eq!(sealed.len(), 2);
}

#[test]
fn tilde_and_unterminated_fences() {
    assert_eq!(
        items(
            "a\n~~~\nx ``` y\n~~~\nb\n````\nopen to the end\n",
            &all_on()
        ),
        vec!["~~~\nx ``` y\n~~~", "````\nopen to the end"]
    );
}

#[test]
fn inline_code_spans_count_as_code() {
    let sealed = round_trip("Use `a` and ``b`c`` but not ` alone", &all_on());
    assert_eq!(sealed.counts(), counts(2, 0, 0));
}

#[test]
fn variables_in_all_forms() {
    let text = "Dear {{name}}, {{ title }} {{{html}}} {% if x %}{# c #} ${lang} ${input:topic} \
                act as ${Position:Software Developer}.";
    let sealed = round_trip(text, &all_on());
    assert_eq!(sealed.counts(), counts(0, 0, 8));
    assert_eq!(
        sealed.items().last(),
        Some("${Position:Software Developer}")
    );
}

#[test]
fn nested_block_helpers_are_one_item() {
    let text = "{{#each users}}\n{{#if active}}- {{name}}{{/if}}\n{{/each}} done {{#unless x}}";
    assert_eq!(
        items(text, &all_on()),
        vec![
            "{{#each users}}\n{{#if active}}- {{name}}{{/if}}\n{{/each}}",
            "{{#unless x}}"
        ]
    );
}

#[test]
fn json_inside_prose_and_whole_prompt() {
    let text = "Answer with {\"verdict\": \"yes\", \"score\": 3} and nothing else [1].";
    let sealed = round_trip(text, &all_on());
    assert_eq!(sealed.counts(), counts(0, 1, 0));
    assert_eq!(
        sealed.text(),
        format!("Answer with {} and nothing else [1].", placeholder(0))
    );

    let whole = "\n{\n  \"model\": \"gpt\",\n  \"prompt\": \"Hi {{user}}, use `x`\"\n}\n";
    let sealed = round_trip(whole, &all_on());
    assert_eq!(sealed.counts(), counts(0, 1, 0));
    assert_eq!(sealed.text(), format!("\n{}\n", placeholder(0)));
}

#[test]
fn invalid_json_looking_braces_are_left_alone() {
    let text = "Set {a: 1}, {'b': 2}, {\"c\": }, [x], [], {} and {\"d\": 1";
    let sealed = round_trip(text, &all_on());
    assert_eq!(sealed.counts(), counts(0, 0, 0));
    assert_eq!(sealed.text(), text);
}

#[test]
fn precedence_code_then_json_then_variables() {
    // JSON inside a code span is code; a variable inside valid JSON is JSON.
    let text = "`{\"a\": 1}` then {\"b\": \"{{x}}\"} then {{y}}";
    let sealed = round_trip(text, &all_on());
    assert_eq!(sealed.counts(), counts(1, 1, 1));
    assert_eq!(
        sealed.items().collect::<Vec<_>>(),
        vec!["`{\"a\": 1}`", "{\"b\": \"{{x}}\"}", "{{y}}"]
    );
}

#[test]
fn disabled_kinds_stay_prose_and_are_not_counted() {
    let text = "```\ncode\n```\n`x` {\"k\": [\"v\"]} {{name}} ${v}";
    let full = round_trip(text, &all_on());
    assert_eq!(full.counts(), counts(2, 1, 2));

    let protecting = |code, json, variables| Options {
        protect_code_blocks: code,
        protect_json: json,
        protect_variables: variables,
        ..all_on()
    };
    let no_code = protecting(false, true, true);
    assert_eq!(round_trip(text, &no_code).counts(), counts(0, 1, 2));
    let no_json = protecting(true, false, true);
    assert_eq!(round_trip(text, &no_json).counts(), counts(2, 0, 2));
    let no_variables = protecting(true, true, false);
    assert_eq!(round_trip(text, &no_variables).counts(), counts(2, 1, 0));
    let nothing = protecting(false, false, false);
    let bare = round_trip(text, &nothing);
    assert_eq!(bare.text(), text);
    assert!(bare.is_empty());
}

#[test]
fn private_use_delimiters_in_input_are_sealed_as_uncounted_literals() {
    let text = format!("a {OPEN}0{CLOSE} b {CLOSE} `c{OPEN}`");
    let sealed = round_trip(&text, &all_on());
    assert_eq!(sealed.counts(), counts(1, 0, 0));
    assert_eq!(sealed.len(), 4);
    assert_eq!(
        sealed.text(),
        format!(
            "a {}0{} b {} {}",
            placeholder(0),
            placeholder(1),
            placeholder(2),
            placeholder(3)
        )
    );
    // Even with every kind off, the delimiters are sealed.
    let nothing = Options {
        protect_code_blocks: false,
        protect_json: false,
        protect_variables: false,
        ..all_on()
    };
    assert_eq!(vault::seal(&text, &nothing).len(), 4);
}

#[test]
fn restore_accepts_changed_prose_around_placeholders() {
    let sealed = round_trip("Please   kindly run `make`  now {{x}}.", &all_on());
    let edited = sealed
        .text()
        .replace("Please   kindly ", "")
        .replace("  ", " ");
    let restored = sealed.restore(&edited).expect("placeholders intact");
    assert_eq!(restored, "run `make` now {{x}}.");
    assert!(sealed.verify(&restored));
}

#[test]
fn restore_refuses_damaged_placeholders() {
    let sealed = round_trip("`a` `b` `c`", &all_on());
    let (p0, p1, p2) = (placeholder(0), placeholder(1), placeholder(2));
    let damaged = [
        format!("{p0} {p2}"),
        format!("{p0} {p1} {p1} {p2}"),
        format!("{p1} {p0} {p2}"),
        format!("{p0} {p1} {p2} {}", placeholder(3)),
        format!("{p0} {p1} {OPEN}02{CLOSE}"),
        format!("{p0} {p1} {OPEN}2"),
        format!("{p0} {p1} {OPEN}{CLOSE}"),
        format!("{p0} {p1} {p2}{CLOSE}"),
        format!("{p0} {p1} {OPEN}{p2}"),
        format!("{p0} {p1} {OPEN}+2{CLOSE}"),
        String::new(),
    ];
    for text in &damaged {
        assert_eq!(sealed.restore(text), None, "{text:?}");
    }
    assert_eq!(
        sealed.restore(&format!("{p0}{p1}{p2}")).as_deref(),
        Some("`a``b``c`")
    );
}

#[test]
fn verify_checks_items_order_and_delimiters() {
    let text = "x `a` y\n```\nb\n```\nz";
    let sealed = vault::seal(text, &all_on());
    assert!(sealed.verify(text));
    assert!(sealed.verify("`a` ```\nb\n```"));
    assert!(!sealed.verify("```\nb\n``` `a`"), "out of order");
    assert!(!sealed.verify("x `A` y\n```\nb\n```\nz"), "item changed");
    assert!(!sealed.verify(&format!("{text}{OPEN}")), "stray delimiter");

    let with_literal = format!("{OPEN} `a`");
    let sealed = vault::seal(&with_literal, &all_on());
    assert!(sealed.verify(&with_literal));
    assert!(!sealed.verify(&format!("{with_literal}{OPEN}")));
}

#[test]
fn empty_and_plain_text() {
    for text in ["", "plain prose, no markup at all.\n\n", "é 中文 🎉"] {
        let sealed = round_trip(text, &all_on());
        assert!(sealed.is_empty());
        assert_eq!(sealed.text(), text);
    }
}
