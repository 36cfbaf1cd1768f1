//! Forward-only search cursors. Each pass asks "where is the next X at or after p" with p never
//! decreasing, so a cursor remembers its last answer and the whole pass stays linear even on
//! adversarial input (thousands of openers with no closer).

use memchr::{memchr, memmem};

/// The memory of a forward-only search: the last query position and its answer.
#[derive(Default)]
struct Memo {
    searched: bool,
    searched_from: usize,
    /// `None` means nothing in `hay[searched_from..]`.
    found: Option<usize>,
}

impl Memo {
    /// The answer for `from`: the remembered one while still valid, else `search(from)`.
    fn at_or_after(
        &mut self,
        from: usize,
        search: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<usize> {
        let valid = self.searched
            && from >= self.searched_from
            && self.found.is_none_or(|found| found >= from);
        if !valid {
            *self = Memo {
                searched: true,
                searched_from: from,
                found: search(from),
            };
        }
        self.found
    }
}

/// The next occurrence of a fixed needle in `hay`, for non-decreasing query positions.
pub struct NextMatch<'a> {
    hay: &'a [u8],
    finder: memmem::Finder<'static>,
    memo: Memo,
}

impl<'a> NextMatch<'a> {
    pub fn new(hay: &'a [u8], needle: &'static [u8]) -> Self {
        NextMatch {
            hay,
            finder: memmem::Finder::new(needle),
            memo: Memo::default(),
        }
    }

    /// The first match starting at or after `from`.
    pub fn at_or_after(&mut self, from: usize) -> Option<usize> {
        let (hay, finder) = (self.hay, &self.finder);
        self.memo.at_or_after(from, |from| {
            hay.get(from..)
                .and_then(|rest| finder.find(rest))
                .map(|i| from + i)
        })
    }
}

/// Positions of blank lines (a newline followed by a line of only blanks and another newline),
/// for non-decreasing query positions. Code spans and template tags never cross one.
pub struct BlankLines<'a> {
    hay: &'a [u8],
    memo: Memo,
}

impl<'a> BlankLines<'a> {
    pub fn new(hay: &'a [u8]) -> Self {
        BlankLines {
            hay,
            memo: Memo::default(),
        }
    }

    /// The index of the newline that starts the first blank line at or after `from`, or
    /// `hay.len()` when there is none.
    pub fn at_or_after(&mut self, from: usize) -> usize {
        let hay = self.hay;
        self.memo
            .at_or_after(from, |from| next_blank_line(hay, from))
            .unwrap_or(hay.len())
    }
}

fn next_blank_line(hay: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < hay.len() {
        let newline = at + memchr(b'\n', &hay[at..])?;
        let mut next = newline + 1;
        while next < hay.len() && matches!(hay[next], b' ' | b'\t' | b'\r') {
            next += 1;
        }
        if next < hay.len() && hay[next] == b'\n' {
            return Some(newline);
        }
        at = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_match_answers_monotone_queries() {
        let hay = b"a}}b}}c";
        let mut close = NextMatch::new(hay, b"}}");
        assert_eq!(close.at_or_after(0), Some(1));
        assert_eq!(close.at_or_after(1), Some(1));
        assert_eq!(close.at_or_after(2), Some(4));
        assert_eq!(close.at_or_after(5), None);
        assert_eq!(close.at_or_after(6), None);
    }

    #[test]
    fn blank_lines_include_whitespace_only_lines() {
        let hay = b"a\nb\n \t\nc\n\nd";
        let mut blanks = BlankLines::new(hay);
        assert_eq!(blanks.at_or_after(0), 3);
        assert_eq!(blanks.at_or_after(3), 3);
        assert_eq!(blanks.at_or_after(4), 8);
        assert_eq!(blanks.at_or_after(9), hay.len());
    }
}
