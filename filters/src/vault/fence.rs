//! Fenced code blocks: ``` or ~~~ (three or more), any info string, closed by a line holding the
//! same character at least as many times; an unterminated fence runs to the end of the text.
//! Fences inside blockquotes (`> `) and list items (`- `, `1. `) are found too.

use super::span::{Kind, Span};
use memchr::memchr;

/// An opening fence line: where its item starts within the line, its character and run length.
struct Opening {
    item_offset: usize,
    fence: u8,
    run: usize,
}

/// Appends every fenced code block of `text`, in order. Line-by-line, one pass.
pub fn find(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let len = bytes.len();
    let mut pos = 0;
    while pos < len {
        let line_end = end_of_line(bytes, pos);
        let Some(open) = opening(&bytes[pos..line_end]) else {
            pos = line_end + 1;
            continue;
        };
        let start = pos + open.item_offset;
        let mut next = line_end + 1;
        let mut closed = None;
        while next < len {
            let end = end_of_line(bytes, next);
            if is_closing(&bytes[next..end], open.fence, open.run) {
                closed = Some(end);
                break;
            }
            next = end + 1;
        }
        match closed {
            Some(end) => {
                out.push(Span::new(start, trim_cr(bytes, start, end), Kind::Code));
                pos = end + 1;
            }
            None => {
                let mut end = len;
                if end > line_end && bytes[end - 1] == b'\n' {
                    end -= 1;
                }
                out.push(Span::new(start, trim_cr(bytes, start, end), Kind::Code));
                return;
            }
        }
    }
}

fn end_of_line(bytes: &[u8], from: usize) -> usize {
    memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i)
}

/// Leaves a line's final `\r` outside the item, so the placeholder keeps the text's line endings.
fn trim_cr(bytes: &[u8], start: usize, end: usize) -> usize {
    if end > start + 3 && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

fn skip_blanks(line: &[u8], mut i: usize) -> usize {
    while i < line.len() && matches!(line[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Skips indentation and blockquote markers; returns (index after them, whether any `>` was seen).
fn skip_quote_prefix(line: &[u8]) -> (usize, bool) {
    let mut i = skip_blanks(line, 0);
    let mut quoted = false;
    while i < line.len() && line[i] == b'>' {
        quoted = true;
        i = skip_blanks(line, i + 1);
    }
    (i, quoted)
}

/// The length of a list marker (`-`, `*`, `+`, `1.`, `1)`) and its following blanks at `i`, if any.
fn list_marker(line: &[u8], i: usize) -> Option<usize> {
    let rest = &line[i..];
    let marker = match rest.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let digits = rest
                .iter()
                .take(10)
                .take_while(|b| b.is_ascii_digit())
                .count();
            match rest.get(digits) {
                Some(b'.' | b')') => digits + 1,
                _ => return None,
            }
        }
        _ => return None,
    };
    match rest.get(marker) {
        Some(b' ' | b'\t') => Some(skip_blanks(line, i + marker) - i),
        _ => None,
    }
}

fn run_length(line: &[u8], i: usize, fence: u8) -> usize {
    line[i..].iter().take_while(|&&b| b == fence).count()
}

fn opening(line: &[u8]) -> Option<Opening> {
    let (mut i, mut prefixed) = skip_quote_prefix(line);
    if let Some(marker) = list_marker(line, i) {
        i += marker;
        prefixed = true;
    }
    let fence = *line.get(i)?;
    if fence != b'`' && fence != b'~' {
        return None;
    }
    let run = run_length(line, i, fence);
    if run < 3 {
        return None;
    }
    // CommonMark: a backtick fence's info string holds no backtick (```x``` is inline code).
    if fence == b'`' && memchr(b'`', &line[i + run..]).is_some() {
        return None;
    }
    // Indentation alone belongs to the block; quote and list markers stay in the prose.
    let item_offset = if prefixed { i } else { 0 };
    Some(Opening {
        item_offset,
        fence,
        run,
    })
}

fn is_closing(line: &[u8], fence: u8, open_run: usize) -> bool {
    let (i, _) = skip_quote_prefix(line);
    let run = run_length(line, i, fence);
    run >= open_run
        && line[i + run..]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::span::found_in;

    fn items(text: &str) -> Vec<&str> {
        found_in(text, |text, _, _, out| find(text, out))
    }

    #[test]
    fn backtick_and_tilde_fences() {
        let text = "a\n```rust\nfn x() {}\n```\nb\n~~~\ny\n~~~~\nc";
        assert_eq!(items(text), vec!["```rust\nfn x() {}\n```", "~~~\ny\n~~~~"]);
    }

    #[test]
    fn closing_needs_same_char_and_length() {
        let text = "````md\n```\ninner\n```\n~~~~\n````\nafter";
        assert_eq!(items(text), vec!["````md\n```\ninner\n```\n~~~~\n````"]);
    }

    #[test]
    fn closing_line_holds_nothing_else() {
        let text = "```\ncode ``` more\n``` x\n```\n";
        assert_eq!(items(text), vec!["```\ncode ``` more\n``` x\n```"]);
    }

    #[test]
    fn unterminated_runs_to_end() {
        assert_eq!(
            items("x\n```py\nprint(1)\n\nmore\n"),
            vec!["```py\nprint(1)\n\nmore"]
        );
        assert_eq!(items("```"), vec!["```"]);
    }

    #[test]
    fn indentation_belongs_to_block_but_markers_do_not() {
        assert_eq!(items("  ```\n  x\n  ```"), vec!["  ```\n  x\n  ```"]);
        assert_eq!(items("> ```\n> x\n> ```\n"), vec!["```\n> x\n> ```"]);
        assert_eq!(
            items("1. ```sh\n   ls\n   ```"),
            vec!["```sh\n   ls\n   ```"]
        );
    }

    #[test]
    fn inline_triple_backticks_are_not_a_fence() {
        assert!(items("use ```x``` here\nno fence").is_empty());
        assert!(items("``\nx").is_empty());
    }

    #[test]
    fn crlf_line_endings_stay_outside() {
        assert_eq!(items("```\r\nx\r\n```\r\ny"), vec!["```\r\nx\r\n```"]);
    }
}
