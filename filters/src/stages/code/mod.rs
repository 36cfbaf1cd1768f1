//! Code outside a fence. Prompts paste code, commands, formulas and patches without fences as
//! often as with them, and there every word may be syntax (`if x is None:`, `grep -c the
//! log`, `a x^2 + b x`), every space may be data (a patch's context, Python's indentation) and a
//! repeated line may be the point (`total += x` twice). Such lines are marked [`Kind::Code`]
//! and every stage keeps them as written.
//!
//! Found here, from a line's neighbours: indented code blocks (CommonMark's rule, less the ones
//! that read as prose), the hunks of a unified diff and a patch without its `@@` line, pipe lines
//! that belong to no table, rows of cells (as many tabs, or as many commas, line after line), and
//! the lines of a paragraph that hold no sentence next to a line of code. Whether one line reads
//! as code by its own syntax is [`syntax`]'s business.

use super::lines::{Kind, Line};
use syntax::{has_words, reads_as_code};

mod syntax;

/// Marks the code lines of a parsed document.
pub fn mark(lines: &mut [Line<'_>]) {
    mark_indented_code(lines);
    mark_patches(lines);
    mark_gutters(lines);
    mark_code_lines(lines);
}

/// Lines opening with a pipe that belong to no table (a table has its `|---|` row): a
/// compiler's gutter (`  |     ^^^ expected`), a drawing. Read as table rows, their cells
/// would be re-spaced and an empty one would gain a pipe.
fn mark_gutters(lines: &mut [Line<'_>]) {
    let is_row = |line: &Line<'_>| matches!(line.kind, Kind::TableRow | Kind::TableSeparator);
    let mut start = 0;
    while start < lines.len() {
        if !is_row(&lines[start]) {
            start += 1;
            continue;
        }
        let end = start + lines[start..].iter().take_while(|l| is_row(l)).count();
        if !lines[start..end]
            .iter()
            .any(|l| l.kind == Kind::TableSeparator)
        {
            for line in &mut lines[start..end] {
                line.kind = Kind::Code;
            }
        }
        start = end;
    }
}

/// Marks the lines of indented code blocks (CommonMark's rule, simplified): a block opens with a
/// line indented four columns after a blank line or at the start, outside a list, and runs on
/// through blank lines and indented lines. A block whose every line reads as a sentence is left
/// as text: prompts indent prose too (a section set in under its title), and it keeps its
/// indentation there as well (see `cleanup`).
fn mark_indented_code(lines: &mut [Line<'_>]) {
    let mut after_blank = true;
    let mut in_list = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.kind == Kind::Blank {
            after_blank = true;
            i += 1;
            continue;
        }
        let indented = indent_columns(line.prefix) >= 4 && line.kind != Kind::FrontMatter;
        if indented && after_blank && !in_list {
            let mut end = i + 1;
            for (j, next) in lines.iter().enumerate().skip(i + 1) {
                if next.kind == Kind::Blank {
                    continue;
                }
                if indent_columns(next.prefix) < 4 {
                    break;
                }
                end = j + 1;
            }
            let block = &mut lines[i..end];
            if !reads_as_prose(block) {
                for l in block.iter_mut().filter(|l| l.kind != Kind::Blank) {
                    l.kind = Kind::Code;
                }
            }
            after_blank = false;
            i = end;
            continue;
        }
        if line.kind == Kind::ListItem {
            in_list = true;
        } else if !indented && line.kind != Kind::FrontMatter {
            // A line at the margin ends the list (a lazy continuation line too, which
            // CommonMark would keep in it; code under it is rarer than a new paragraph).
            in_list = false;
        }
        after_blank = false;
        i += 1;
    }
}

/// Whether an indented block is prose rather than code, a command or a schema: no line holds
/// a character of code syntax, and at least three lines in four read as a sentence (four plain
/// words or more, most of what the line says; two for a list item). XML-style tags are the
/// structure of many long prompts, not code: they are read past, and a line of tags alone or a
/// heading does not count either way.
fn reads_as_prose(block: &[Line<'_>]) -> bool {
    let (mut lines, mut sentences) = (0, 0);
    for line in block.iter().filter(|l| l.kind != Kind::Blank) {
        let text = without_tags(line.content);
        if text.contains(['{', '}', ';', '=', '<', '>', '|', '\\', '$']) {
            return false;
        }
        if text.trim().is_empty() || matches!(line.kind, Kind::Heading(_)) {
            continue;
        }
        let least = if line.kind == Kind::ListItem { 2 } else { 4 };
        lines += 1;
        if has_words(&text, least) {
            sentences += 1;
        }
    }
    sentences * 4 >= lines * 3
}

/// Marks the hunks of a unified diff (`@@ -1,4 +1,5 @@` and the context, `+` and `-` lines
/// under it) and the file headers before them (`diff --git`, `--- a/x`, `+++ b/x`, `index`).
/// Read as text, a removed line would be a list item and its indentation would go.
fn mark_patches(lines: &mut [Line<'_>]) {
    // Every line these look for is plain text, classified with no prefix.
    let starts = |line: &Line<'_>, s: &str| line.prefix.is_empty() && line.content.starts_with(s);
    let mut in_hunk = false;
    for i in 0..lines.len() {
        let line = lines[i];
        let first = line
            .prefix
            .as_bytes()
            .first()
            .or(line.content.as_bytes().first());
        if starts(&line, "@@ ") && line.content.contains(" @@") {
            in_hunk = true;
        } else if in_hunk {
            in_hunk = line.kind == Kind::Blank || matches!(first, Some(b' ' | b'+' | b'-' | b'\\'));
        }
        let before = |s: &str| i > 0 && starts(&lines[i - 1], s);
        let header = starts(&line, "diff --git ")
            || (starts(&line, "--- ") && lines.get(i + 1).is_some_and(|l| starts(l, "+++ ")))
            || (starts(&line, "+++ ") && before("--- "))
            || (starts(&line, "index ") && before("diff --git "));
        // A blank line of white space in a hunk is the context line of an empty line.
        if (in_hunk || header) && (line.kind != Kind::Blank || !line.prefix.is_empty()) {
            lines[i].kind = Kind::Code;
        }
    }
}

/// Marks the lines of text that read as code (see [`syntax::reads_as_code`]), then the lines of the
/// same paragraph next to them that are no sentences (`return a` after `if x is None:`).
fn mark_code_lines(lines: &mut [Line<'_>]) {
    let mut code: Vec<bool> = lines
        .iter()
        .map(|line| line.kind == Kind::Text && reads_as_code(line.content))
        .collect();
    mark_tables_of_cells(lines, &mut code);
    mark_bare_patches(lines, &mut code);
    // Forward, then backward: a run of such lines joins the code it touches, and so does a
    // rule under or over it (the underline of a column's title). An indented block ends where
    // its indentation does (`Done.` after it is text).
    let joins = |line: &Line<'_>| {
        (line.kind == Kind::Text && line.content.is_ascii() && !has_words(line.content, 4))
            || line.kind == Kind::Rule
    };
    for i in 1..lines.len() {
        code[i] |= code[i - 1] && joins(&lines[i]);
    }
    for i in (0..lines.len().saturating_sub(1)).rev() {
        code[i] |= code[i + 1] && joins(&lines[i]);
    }
    for (line, code) in lines.iter_mut().zip(code) {
        if code {
            line.kind = Kind::Code;
        }
    }
}

/// Rows of cells, found by their neighbours: consecutive lines with as many tabs as each other
/// (a TSV file whose cells read as sentences), or three or more with as many commas, none of
/// them ending a sentence (CSV without quotes).
fn mark_tables_of_cells(lines: &[Line<'_>], code: &mut [bool]) {
    // Each text line's tabs and commas, counted once.
    let counts: Vec<Option<(usize, usize)>> = lines
        .iter()
        .map(|line| {
            (line.kind == Kind::Text).then(|| {
                line.content.bytes().fold((0, 0), |(tabs, commas), b| {
                    (
                        tabs + usize::from(b == b'\t'),
                        commas + usize::from(b == b','),
                    )
                })
            })
        })
        .collect();
    let tabs = |i: usize| counts[i].map(|c| c.0);
    let commas = |i: usize| {
        counts[i]
            .map(|c| c.1)
            .filter(|_| !lines[i].content.trim_end().ends_with('.'))
    };
    for (row, least_rows, least_cells) in [
        (&tabs as &dyn Fn(usize) -> Option<usize>, 2, 1),
        (&commas, 3, 2),
    ] {
        let mut start = 0;
        while start < lines.len() {
            let Some(count) = row(start).filter(|&n| n >= least_cells) else {
                start += 1;
                continue;
            };
            let end = start
                + (start..lines.len())
                    .take_while(|&i| row(i) == Some(count))
                    .count();
            if end - start >= least_rows {
                code[start..end].iter_mut().for_each(|c| *c = true);
            }
            start = end;
        }
    }
}

/// A patch without its `@@` line: a run of lines opening with `-` and `+` (both), the code
/// after the marker set in by a tab or two spaces or more in at least one of them.
fn mark_bare_patches(lines: &[Line<'_>], code: &mut [bool]) {
    let marker = |line: &Line<'_>| {
        let raw = if line.prefix.is_empty() {
            line.content
        } else {
            line.prefix
        };
        raw.as_bytes()
            .first()
            .copied()
            .filter(|b| matches!(b, b'-' | b'+'))
    };
    let mut start = 0;
    while start < lines.len() {
        let end = start
            + lines[start..]
                .iter()
                .take_while(|l| marker(l).is_some())
                .count();
        let run = &lines[start..end];
        let both = run.iter().any(|l| marker(l) == Some(b'-'))
            && run.iter().any(|l| marker(l) == Some(b'+'));
        let set_in = run.iter().any(|l| {
            let after = if l.prefix.is_empty() {
                &l.content[1..]
            } else {
                &l.prefix[1..]
            };
            after.starts_with('\t') || after.starts_with("  ")
        });
        if run.len() >= 2 && both && set_in {
            code[start..end].iter_mut().for_each(|c| *c = true);
        }
        start = end.max(start + 1);
    }
}

/// `content` with its XML-style tags (`<rules>`, `</rules>`, `<br/>`) cut out.
fn without_tags(content: &str) -> std::borrow::Cow<'_, str> {
    if !content.contains('<') {
        return content.into();
    }
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at..];
        let name = tag[1..].strip_prefix('/').unwrap_or(&tag[1..]);
        match tag.find('>') {
            Some(end) if name.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                out.push(' ');
                rest = &tag[end + 1..];
            }
            _ => {
                out.push('<');
                rest = &tag[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// The columns of leading white space before a line's first non-blank character, a tab
/// counting four.
fn indent_columns(prefix: &str) -> usize {
    prefix
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .map(|b| if b == b'\t' { 4 } else { 1 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_code_is_told_from_indented_prose() {
        let kinds = |doc: &str| -> Vec<Kind> {
            super::super::lines::parse(doc)
                .iter()
                .map(|l| l.kind)
                .collect()
        };
        use Kind::{Blank, Code, ListItem, Text};
        // After a blank line, outside a list: code, through its blank lines.
        assert_eq!(
            kinds("Run:\n\n    make all\n\n    make test\nDone."),
            vec![Text, Blank, Code, Blank, Code, Text]
        );
        // Indentation that continues a paragraph or a list item is not a code block.
        assert_eq!(kinds("server:\n    port: 80"), vec![Text, Text]);
        assert_eq!(
            kinds("- item\n\n    - nested item"),
            vec![ListItem, Blank, ListItem]
        );
        // Sentences set in under a tag are prose; a line of code syntax makes the block code.
        assert_eq!(
            kinds("<role>\n\n    You are the reviewer of every pull request.\n</role>"),
            vec![Text, Blank, Text, Text]
        );
        assert_eq!(
            kinds("Schema:\n\n    Every field of the record is required.\n    name: string;"),
            vec![Text, Blank, Code, Code]
        );
    }
}
