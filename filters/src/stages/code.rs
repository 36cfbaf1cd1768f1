//! Code outside a fence. Prompts paste code, commands, formulas and patches without fences as
//! often as with them, and there every word may be syntax (`if x is None:`, `grep -c the
//! log`, `a x^2 + b x`), every space may be data (a patch's context, Python's indentation) and a
//! repeated line may be the point (`total += x` twice). Such lines are marked [`Kind::Code`]
//! and every stage keeps them as written.
//!
//! Three kinds are found: indented code blocks (CommonMark's rule, less the ones that read as
//! prose), the hunks of a unified diff, and lines of text that read as code by their syntax,
//! with the lines of their paragraph around them that are no sentences.

use super::lines::{Kind, Line};
use std::sync::OnceLock;

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

/// Whether `text` says something in words: at least `least` plain words (letters, apostrophes
/// and hyphens, with the punctuation around them), and they are most of what it says.
fn has_words(text: &str, least: usize) -> bool {
    let (mut words, mut plain) = (0, 0);
    for word in text.split_whitespace() {
        words += 1;
        let core = word.trim_matches(|c: char| !c.is_alphanumeric());
        if !core.is_empty()
            && core
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-')
        {
            plain += 1;
        }
    }
    plain >= least && plain * 10 >= words * 7
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

/// Marks the lines of text that read as code (see [`reads_as_code`]), then the lines of the
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
    let row = |line: &Line<'_>, sep: u8| {
        (line.kind == Kind::Text).then(|| memchr::memchr_iter(sep, line.content.as_bytes()).count())
    };
    for (sep, least_rows, least_cells) in [(b'\t', 2, 1), (b',', 3, 2)] {
        let mut start = 0;
        while start < lines.len() {
            let Some(count) = row(&lines[start], sep).filter(|&n| n >= least_cells) else {
                start += 1;
                continue;
            };
            let end = start
                + lines[start..]
                    .iter()
                    .take_while(|l| {
                        row(l, sep) == Some(count)
                            && (sep == b'\t' || !l.content.trim_end().ends_with('.'))
                    })
                    .count();
            if end - start >= least_rows {
                code[start..end].iter_mut().for_each(|c| *c = true);
            }
            start = end.max(start + 1);
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

/// Whether a time of day (`10:00:01`, `10:00`) stands in the first three words of `text`, the
/// first of them a date, a time or a month (`2023-11-20`, `[2023-11-20`, `Nov`).
fn starts_with_time_stamp(text: &str) -> bool {
    let mut words = text.split_whitespace().take(3).peekable();
    let Some(first) = words.peek().map(|w| w.trim_start_matches('[')) else {
        return false;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let opens = first.starts_with(|c: char| c.is_ascii_digit()) || MONTHS.contains(&first);
    opens
        && words.any(|w| {
            let b = w.trim_start_matches('[').as_bytes();
            let at = b.iter().position(|&c| c == b':');
            at.is_some_and(|at| {
                at >= 1
                    && b[at - 1].is_ascii_digit()
                    && b.get(at + 1).is_some_and(u8::is_ascii_digit)
                    && b.get(at + 2).is_some_and(u8::is_ascii_digit)
            })
        })
}

type Finder = memchr::memmem::Finder<'static>;

static TWO_SPACES: OnceLock<Finder> = OnceLock::new();
static IS: OnceLock<Finder> = OnceLock::new();

/// A searcher for `needle`, built once.
fn finder(cell: &'static OnceLock<Finder>, needle: &'static str) -> &'static Finder {
    cell.get_or_init(|| Finder::new(needle))
}

/// Which characters of code syntax a line holds (see [`reads_as_code`]).
struct Seen {
    /// `=`, `&`, `|` or `::`: an operator may be here.
    operator: bool,
    caret: bool,
    backslash: bool,
    /// A tab, or two spaces in a row.
    gap: bool,
    box_drawing: bool,
}

/// Whether `text` assigns: ` = ` after a short name or expression (`total = 0`, `val a = b`,
/// `f(x) = a x^2`). A rubric's `5 = Critical` or a gloss in another script is no assignment.
fn assigns(text: &str) -> bool {
    text.split_once(" = ").is_some_and(|(left, _)| {
        // What a lead-in hands over after its colon: `Solve for x: a x + b = c`.
        let left = left.rsplit(':').next().unwrap_or(left).trim();
        let terms = left.split_whitespace().count();
        let formula = left
            .split_whitespace()
            .any(|w| matches!(w, "+" | "-" | "*" | "/" | "^"));
        left.is_ascii()
            && (terms <= 3 || (formula && terms <= 9))
            && left.bytes().any(|b| b.is_ascii_alphabetic())
    })
}

/// Whether white space inside `text` lines up columns: tabs between three cells or more, or in
/// a line that is no sentence (`Alice    the admin`, `base\t0.8`) a tab or a run of two spaces
/// or more not after `.`, `!`, `?`, `:`, `;` or `,` (where typists leave two). In a sentence
/// such a gap is a slip of the keyboard.
fn has_column_gap(text: &str) -> bool {
    let bytes = text.trim().as_bytes();
    let (mut tabs, mut gaps, mut wide) = (0, 0, 0);
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        if b == b'\t' {
            tabs += 1;
        }
        if b != b' ' {
            run = 0;
            continue;
        }
        run += 1;
        if run == 2 && !matches!(bytes[i - 2], b'.' | b'!' | b'?' | b':' | b';' | b',') {
            gaps += 1;
        }
        if run == 3 {
            wide += 1;
        }
    }
    // A header row in capitals (`USER  PID  %CPU`) is no sentence either.
    let sentence = has_words(text, 4)
        && text
            .split_whitespace()
            .filter(|w| w.bytes().any(|b| b.is_ascii_lowercase()))
            .count()
            >= 4;
    // Two gaps of three spaces or more line up columns even between words (`Bob   a developer
    // works on the API`).
    tabs >= 2 || wide >= 2 || (tabs + gaps > 0 && !sentence)
}

/// Whether a line of text reads as code, a shell command or a formula by its syntax: it ends a
/// statement or opens a block (`;`, `{`, `}`), holds an operator (` = `, `==`, `+=`, `=>`,
/// `&&`, ...), opens a block with a keyword (`if x is None:`, `for item in items:`), calls
/// something first thing (`print(i)`), runs a command (`$ make`, `grep -c the access.log`) or
/// writes TeX (`\frac`). A sentence needs none of these.
pub fn reads_as_code(content: &str) -> bool {
    let text = content.trim_end();
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    // Which characters of code syntax the line holds, found by vector searches: most lines
    // hold none of them and are done with after these.
    let bytes = text.as_bytes();
    // For bytes that are rare in prose; a pair of common ones is searched as a pair.
    let followed = |b: u8, next: &[u8]| {
        memchr::memchr_iter(b, bytes).any(|i| bytes.get(i + 1).is_some_and(|n| next.contains(n)))
    };
    let has = |pair: &Finder| pair.find(bytes).is_some();
    let seen = Seen {
        operator: memchr::memchr3(b'=', b'&', b'|', bytes).is_some() || followed(b':', b":"),
        caret: memchr::memchr(b'^', bytes).is_some(),
        backslash: memchr::memchr(b'\\', bytes).is_some(),
        gap: memchr::memchr(b'\t', bytes).is_some() || has(finder(&TWO_SPACES, "  ")),
        // U+2500..U+257F, box drawing, is E2 94 xx or E2 95 xx.
        box_drawing: followed(0xE2, &[0x94, 0x95]),
    };
    const OPERATORS: [&str; 11] = [
        "==", "!=", "+=", "-=", "*=", "/=", "=>", "&&", "||", ":=", "::",
    ];
    // A statement's end: `;` after a call or an index (`x.push(a);`, `a[i] = b;`) or in a line
    // of few words, where a sentence's would end a clause of a poem or a contract.
    let statement = text.ends_with(';') && (text.contains([')', ']']) || !has_words(text, 4));
    let identity = has(finder(&IS, " is "))
        && [" is None", " is True", " is False", " is null"]
            .iter()
            .any(|op| text.contains(op));
    if text.ends_with(['{', '}'])
        || statement
        || identity
        || (seen.operator && (OPERATORS.iter().any(|op| text.contains(op)) || assigns(text)))
        || text.starts_with("$ ")
        || text.starts_with(">>> ")
        || text.starts_with("Traceback (")
        // A Makefile recipe's variable or silenced command (`$(CC) -o app`, `@echo done`).
        || text.starts_with("$(")
        || (text.starts_with('@') && text[1..].starts_with(|c: char| c.is_ascii_lowercase()))
    {
        return true;
    }
    // An error line (`SyntaxError: expected ':'`, `java.lang.NullPointerException: ...`): its
    // words are the error's, quoted exactly. And the caret under the place it points at.
    if first.ends_with("Error:") || first.ends_with("Exception:") {
        return true;
    }
    if seen.caret
        && bytes
            .iter()
            .all(|b| matches!(b, b'^' | b'~' | b' ' | b'\t'))
    {
        return true;
    }
    // A log line: a time stamp first (`2023-11-20 10:00:01,123 INFO ...`, `[10:00:05]`,
    // `Nov 20 10:00:04 host ...`); its message is quoted from the program.
    if starts_with_time_stamp(text) {
        return true;
    }
    // Columns: cells between ` | ` (a table without its outer pipes, a pipeline), box drawing
    // (`│ speed │`, `├── src`), or a gap no sentence has (a tab, or two spaces that no
    // punctuation ends a sentence or clause before), which aligns columns.
    if seen.box_drawing || (seen.operator && text.contains(" | ")) {
        return true;
    }
    if seen.gap && has_column_gap(text) {
        return true;
    }
    // TeX: a backslash before a command name (`\frac`, `\neq`), a line break `\\`.
    if seen.backslash
        && bytes
            .windows(2)
            .any(|w| w[0] == b'\\' && (w[1].is_ascii_lowercase() || w[1] == b'\\'))
        && !text.contains(":\\")
    {
        return true;
    }
    const BLOCK_KEYWORDS: [&str; 12] = [
        "if", "elif", "else", "for", "while", "def", "class", "try", "except", "with", "switch",
        "case",
    ];
    if BLOCK_KEYWORDS.contains(&first.trim_end_matches(':')) && text.ends_with(':') {
        return true;
    }
    // A call first thing: `print(i)`, `os.path.join(a, b)`.
    if let Some((callee, _)) = first.split_once('(')
        && !callee.is_empty()
        && callee
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        && text.ends_with([')', ':'])
    {
        return true;
    }
    // A command: one no sentence opens with, or one that is also a word (`cat`, `make`) with an
    // argument no sentence has (a flag, a path, a pipe).
    const COMMANDS: [&str; 26] = [
        "echo", "grep", "egrep", "sed", "awk", "git", "npm", "npx", "pip", "pip3", "cargo",
        "kubectl", "curl", "wget", "sudo", "chmod", "chown", "mkdir", "cd", "ls", "rm", "cp", "mv",
        "ln", "tar", "ssh",
    ];
    const WORD_COMMANDS: [&str; 7] = [
        "cat", "python", "python3", "node", "docker", "make", "export",
    ];
    // A Dockerfile's instructions (`RUN echo the build is done`).
    const DOCKERFILE: [&str; 8] = [
        "FROM",
        "RUN",
        "COPY",
        "ADD",
        "CMD",
        "ENTRYPOINT",
        "ENV",
        "WORKDIR",
    ];
    if DOCKERFILE.contains(&first) && words.clone().next().is_some() {
        return true;
    }
    // A statement that opens with its keyword: `return a is b`, `assert x is y`.
    if matches!(first, "return" | "assert" | "yield" | "elif" | "lambda") && !has_words(text, 5) {
        return true;
    }
    // A prompt before a command: `user@host:~$ grep ...`, `PS C:\\> dir`.
    if (first.contains('@') && first.ends_with(['$', '#']) && first.contains(':'))
        || (first == "PS" && text.contains(":\\") && text.contains('>'))
    {
        return true;
    }
    // A crontab line: five time fields (`0 5 * * 1 /usr/bin/backup`).
    if text
        .split_whitespace()
        .take(5)
        .filter(|f| {
            f.bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'*' | b'/' | b',' | b'-'))
        })
        .count()
        == 5
        && text.contains('*')
    {
        return true;
    }
    let mut args = words.peekable();
    (COMMANDS.contains(&first) && args.peek().is_some())
        || (WORD_COMMANDS.contains(&first)
            && args.any(|w| w.starts_with('-') || w.contains(['/', '.', '|', '='])))
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
    fn sentences_do_not_read_as_code() {
        for prose in [
            "If the build fails:",
            "Use the tool to find the bug in the code.",
            "At 10:30 we meet the team in the lobby.",
            "5 = Critical / Emergency",
            "Return the result as JSON (one object per line).",
            "And summer's lease hath all too short a date;",
            "Make sure the tests pass before you commit.",
            "Export the report to PDF when you are done.",
        ] {
            assert!(!reads_as_code(prose), "{prose:?}");
        }
        for code in [
            "if x is None:",
            "total += compute(a, b, c)",
            "print(result)",
            "grep -c the access.log",
            "$ make test",
            "x.push(a);",
            "2023-11-20 10:00:01,123 INFO  [main] Starting the server",
            "name\tqty\tnote",
            "\\frac{a}{b} + c",
        ] {
            assert!(reads_as_code(code), "{code:?}");
        }
    }

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
