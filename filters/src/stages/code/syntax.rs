//! Whether one line of text reads as code, a command, a formula, a log line or a row of
//! columns, by its syntax alone (its neighbours are the parent module's business).

use std::sync::OnceLock;

/// Whether `text` says something in words: at least `least` plain words (letters, apostrophes
/// and hyphens, with the punctuation around them), and they are most of what it says.
pub(super) fn has_words(text: &str, least: usize) -> bool {
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

/// Which characters of code syntax a line holds (see [`reads_as_code`]).
struct Seen {
    /// `=`, `&`, `|` or `::`: an operator may be here.
    operator: bool,
    caret: bool,
    backslash: bool,
    tab: bool,
    box_drawing: bool,
}

impl Seen {
    /// One pass over a line's bytes: most lines hold none of these characters, and are done
    /// with after it.
    fn of(bytes: &[u8]) -> Seen {
        // A pair of bytes is searched for as a pair.
        let followed = |b: u8, next: &[u8]| {
            memchr::memchr_iter(b, bytes)
                .any(|i| bytes.get(i + 1).is_some_and(|n| next.contains(n)))
        };
        // One pass for the single bytes: a fold of comparisons, which the compiler turns into
        // vector code.
        let flags = bytes.iter().fold(0u8, |flags, &b| {
            flags
                | u8::from(matches!(b, b'=' | b'&' | b'|'))
                | (u8::from(b == b':') << 1)
                | (u8::from(b == b'^') << 2)
                | (u8::from(b == b'\\') << 3)
                | (u8::from(b == b'\t') << 4)
                | (u8::from(b == 0xE2) << 5)
        });
        let any = |bit: u8| flags & (1 << bit) != 0;
        Seen {
            operator: any(0) || (any(1) && followed(b':', b":")),
            caret: any(2),
            backslash: any(3),
            tab: any(4),
            // U+2500..U+257F, box drawing, is E2 94 xx or E2 95 xx.
            box_drawing: any(5) && followed(0xE2, &[0x94, 0x95]),
        }
    }
}

type Finder = memchr::memmem::Finder<'static>;

/// Two spaces in a row (searched for as a pair: spaces are every other byte of prose).
fn has_two_spaces(bytes: &[u8]) -> bool {
    static TWO_SPACES: OnceLock<Finder> = OnceLock::new();
    TWO_SPACES
        .get_or_init(|| Finder::new("  "))
        .find(bytes)
        .is_some()
}

/// The word `is` between spaces.
fn has_is(bytes: &[u8]) -> bool {
    static IS: OnceLock<Finder> = OnceLock::new();
    IS.get_or_init(|| Finder::new(" is ")).find(bytes).is_some()
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
pub(super) fn reads_as_code(content: &str) -> bool {
    let text = content.trim_end();
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let bytes = text.as_bytes();
    let seen = Seen::of(bytes);
    const OPERATORS: [&str; 11] = [
        "==", "!=", "+=", "-=", "*=", "/=", "=>", "&&", "||", ":=", "::",
    ];
    // A statement's end: `;` after a call or an index (`x.push(a);`, `a[i] = b;`) or in a line
    // of few words, where a sentence's would end a clause of a poem or a contract.
    let statement = text.ends_with(';') && (text.contains([')', ']']) || !has_words(text, 4));
    if text.ends_with(['{', '}'])
        || statement
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
    let opens_with = bytes[0];
    if (opens_with.is_ascii_digit() || opens_with == b'[' || opens_with.is_ascii_uppercase())
        && starts_with_time_stamp(text)
    {
        return true;
    }
    // Columns: cells between ` | ` (a table without its outer pipes, a pipeline), box drawing
    // (`│ speed │`, `├── src`), or a gap no sentence has (a tab, or two spaces that no
    // punctuation ends a sentence or clause before), which aligns columns.
    if seen.box_drawing || (seen.operator && text.contains(" | ")) {
        return true;
    }
    if (seen.tab || has_two_spaces(bytes)) && has_column_gap(text) {
        return true;
    }
    // Identity: `x is None`, `because "s" is null`.
    if has_is(bytes)
        && [" is None", " is True", " is False", " is null"]
            .iter()
            .any(|op| text.contains(op))
    {
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
    if (opens_with.is_ascii_digit() || opens_with == b'*')
        && text
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
}
