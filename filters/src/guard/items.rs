//! The guard's items as a list: what the evaluation and the property tests check survives.

use super::spans::protected_spans;
use super::words::{is_required_word, trim_punct};
use crate::vault::{CLOSE, OPEN};

/// The substrings of `text` that must survive compression in every mode, with the default
/// protections: see [`items_with`].
pub fn items(text: &str) -> Vec<String> {
    items_with(text, &crate::Options::default())
}

/// The substrings of `text` that must survive compression under `options`: quoted strings, tags,
/// URLs, addresses, paths and slots, negations and restrictive words, numbers and identifiers.
/// Vault items are left out (the vault checks them byte for byte), and so are HTML comments and
/// zero-width characters, which formatting cleanup removes by design. Used by the evaluation and
/// the property tests to check retention.
pub fn items_with(text: &str, options: &crate::Options) -> Vec<String> {
    let sealed = crate::vault::seal(text, options);
    let visible = strip_unseen(sealed.text());
    let mut out: Vec<String> = Vec::new();
    for line in visible.lines() {
        let line = strip_list_marker(line);
        let spans = protected_spans(line);
        let mut last = 0;
        for &(s, e) in &spans {
            words_into(&line[last..s], &mut out);
            let span = line[s..e].trim_end();
            if !span.contains([OPEN, CLOSE]) {
                out.push(span.to_string());
            }
            last = e;
        }
        words_into(&line[last..], &mut out);
    }
    out
}

/// `text` as a reader sees it once formatting cleanup has run: without the HTML comments and
/// zero-width characters outside protected spans, which [`items_with`] leaves out of the guard
/// items too. Retention is checked against this, so a text returned unchanged (nothing to save)
/// still keeps its items. Protected spans are sealed first because cleanup never sees inside them:
/// a `<!--` quoted in inline code does not open a comment that hides the prose after it.
pub fn visible(text: &str, options: &crate::Options) -> String {
    let sealed = crate::vault::seal(text, options);
    let unseen_removed = strip_unseen(sealed.text());
    // A comment may hold a whole placeholder; the sealed form still serves for finding guard
    // items, which never contain one.
    sealed.restore(&unseen_removed).unwrap_or(unseen_removed)
}

/// Removes HTML comments and zero-width characters from sealed text.
fn strip_unseen(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("<!--") {
        let Some(end) = rest[pos..].find("-->") else {
            break;
        };
        out.push_str(&rest[..pos]);
        rest = &rest[pos + end + 3..];
    }
    out.push_str(rest);
    out.retain(|c| !matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}'));
    out
}

fn words_into(free: &str, out: &mut Vec<String>) {
    // Table pipes are structure that cleanup re-spaces: cells are separate words.
    for chunk in free.split(|c: char| c.is_whitespace() || c == '|') {
        let word = trim_punct(chunk);
        if is_required_word(word) && !is_markup(word) && !word.contains([OPEN, CLOSE]) {
            out.push(word.to_string());
        }
    }
}

/// Markdown and list markup that formatting cleanup may legitimately rewrite.
fn is_markup(word: &str) -> bool {
    word.bytes().all(|b| {
        matches!(
            b,
            b'*' | b'_'
                | b'#'
                | b'-'
                | b'|'
                | b'='
                | b'~'
                | b'>'
                | b'+'
                | b'`'
                | b':'
                | b'<'
                | b'!'
        )
    })
}

/// A list item's marker (`- `, `12. `, `- [x] `) is structure, not content.
fn strip_list_marker(line: &str) -> &str {
    // As the line parser reads it: any white space, then blockquote markers.
    let t = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    let rest = if digits > 0 && t[digits..].starts_with(['.', ')']) {
        &t[digits + 1..]
    } else if t.starts_with(['-', '*', '+']) {
        &t[1..]
    } else {
        // A blockquote's `>` markers are structure too.
        return t;
    };
    if !rest.starts_with(' ') {
        return t;
    }
    let rest = rest.trim_start();
    for task in ["[ ] ", "[x] ", "[X] "] {
        if let Some(r) = rest.strip_prefix(task) {
            return r;
        }
    }
    rest
}
