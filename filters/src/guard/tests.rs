use super::*;

fn spans_of(line: &str) -> Vec<&str> {
    protected_spans(line)
        .into_iter()
        .map(|(s, e)| &line[s..e])
        .collect()
}

#[test]
fn a_comment_opener_quoted_in_code_hides_nothing() {
    let text = "Look for `<!-- Generated` first.\nPlace at END of it:\n```html\n<!-- x\n-->\n```";
    let options = crate::Options::default();
    assert_eq!(visible(text, &options), text);
    assert_eq!(visible("a <!-- b --> c\u{200B}", &options), "a  c");
}

#[test]
fn quoted_strings_tags_urls_and_slots_are_spans() {
    assert_eq!(
        spans_of(r#"My first request is "I need help.""#),
        vec![r#""I need help.""#]
    );
    assert_eq!(
        spans_of("wrap it in <rules> and </rules> now"),
        vec!["<rules>", "</rules>"]
    );
    assert_eq!(
        spans_of("see https://example.com/a?b=1."),
        vec!["https://example.com/a?b=1"]
    );
    assert_eq!(
        spans_of("mail me@example.org, or edit src/main.rs"),
        vec!["me@example.org", "src/main.rs"]
    );
    assert_eq!(
        spans_of("Subject: {input provided subject}"),
        vec!["{input provided subject}"]
    );
    assert_eq!(
        spans_of("use a 'Student Level' that fits"),
        vec!["'Student Level'"]
    );
    assert_eq!(spans_of("don't and can't are words"), Vec::<&str>::new());
    assert_eq!(spans_of("and/or he/she"), Vec::<&str>::new());
    assert_eq!(
        spans_of("[Your Name] and [link](http://x.y)"),
        vec!["[Your Name]", "[link](http://x.y)"]
    );
}

#[test]
fn guard_words() {
    for w in [
        "not",
        "Never",
        "don't",
        "without",
        "only",
        "must",
        "3.5",
        "v2",
        "camelCase",
        "snake_case",
        "JSON",
        "iPhone",
        "2024-01-01",
        "50%",
    ] {
        assert!(is_guard_word(w), "{w}");
    }
    for w in [
        "the",
        "really",
        "please",
        "basically",
        "Output",
        "well-known",
        "café",
    ] {
        assert!(!is_guard_word(w), "{w}");
    }
}

#[test]
fn items_lists_guard_words_and_spans() {
    let items = items(r#"Do not use "foo bar" or src/x.rs before 5 PM. <!-- not 7 -->"#);
    for expected in ["not", "\"foo bar\"", "src/x.rs", "5", "PM"] {
        assert!(items.iter().any(|i| i == expected), "{expected}");
    }
    assert!(!items.iter().any(|i| i == "7"));
}
