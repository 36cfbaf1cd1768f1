//! Template variables: `{{name}}`, `{{{raw}}}`, block helpers `{{#each x}}...{{/each}}` (one item
//! from the outermost open tag to its matching close tag), `{% ... %}`, `{# ... #}`, and
//! `${name}`, `${input:name}`, `${Name:default value}`.
//!
//! Every tag must close within `MAX_TAG_BYTES` and before a blank line; otherwise it is prose.

use super::scan::{BlankLines, NextMatch};
use super::span::{Kind, Span};
use memchr::memchr;

/// The longest template tag, opener to closer inclusive.
const MAX_TAG_BYTES: usize = 1_000;
/// Deeper block nesting than this is not matched (its tags are still protected one by one).
const MAX_BLOCK_DEPTH: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagKind {
    Simple,
    /// `{{#name ...}}` or `{{^name}}`; the range of its name.
    Open(usize, usize),
    /// `{{/name}}`; the range of its name.
    Close(usize, usize),
}

#[derive(Clone, Copy, Debug)]
struct Tag {
    start: usize,
    end: usize,
    kind: TagKind,
}

/// Search cursors over one gap, one per closer.
struct Closers<'a> {
    mustache: NextMatch<'a>,
    raw: NextMatch<'a>,
    statement: NextMatch<'a>,
    comment: NextMatch<'a>,
    nested_open: NextMatch<'a>,
    blanks: BlankLines<'a>,
}

/// Finds template variables gap by gap. Built once per text: its search cursors carry over from
/// one gap to the next, so many small gaps cost no more than one big one.
pub struct Finder<'a> {
    bytes: &'a [u8],
    closers: Closers<'a>,
}

impl<'a> Finder<'a> {
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        Finder {
            bytes,
            closers: Closers {
                mustache: NextMatch::new(bytes, b"}}"),
                raw: NextMatch::new(bytes, b"}}}"),
                statement: NextMatch::new(bytes, b"%}"),
                comment: NextMatch::new(bytes, b"#}"),
                nested_open: NextMatch::new(bytes, b"{{"),
                blanks: BlankLines::new(bytes),
            },
        }
    }

    /// Appends the template variables of `text[start..end]`, in order. Gaps come in text order.
    pub fn find(&mut self, start: usize, end: usize, out: &mut Vec<Span>) {
        let tags = self.tags(start, end);
        if tags.is_empty() {
            return;
        }
        let blocks = matched_blocks(self.bytes, &tags);
        let mut block = blocks.iter().peekable();
        for tag in &tags {
            while block.peek().is_some_and(|b| b.1 <= tag.start) {
                if let Some(&(s, e)) = block.next() {
                    out.push(Span::new(s, e, Kind::Variable));
                }
            }
            let inside = block.peek().is_some_and(|b| b.0 <= tag.start);
            if !inside {
                out.push(Span::new(tag.start, tag.end, Kind::Variable));
            }
        }
        out.extend(block.map(|&(s, e)| Span::new(s, e, Kind::Variable)));
    }

    /// Every well-formed tag in `bytes[start..end]`, in order, non-overlapping.
    fn tags(&mut self, start: usize, end: usize) -> Vec<Tag> {
        let bytes = &self.bytes[..end];
        let mut tags = Vec::new();
        let mut at = start;
        while let Some(i) = memchr(b'{', &bytes[at..]) {
            let brace = at + i;
            let tag = if brace > start && bytes[brace - 1] == b'$' {
                dollar(bytes, brace - 1)
            } else {
                braced(bytes, brace, &mut self.closers)
            };
            match tag {
                Some(tag) => {
                    at = tag.end;
                    tags.push(tag);
                }
                None => at = brace + 1,
            }
        }
        tags
    }
}

/// `{{...}}`, `{{{...}}}`, `{%...%}` or `{#...#}` opening at `brace`, ending within `bytes`.
fn braced(bytes: &[u8], brace: usize, closers: &mut Closers) -> Option<Tag> {
    let (open_len, closer) = match bytes.get(brace + 1)? {
        b'{' if bytes.get(brace + 2) == Some(&b'{') => (3, &mut closers.raw),
        b'{' => (2, &mut closers.mustache),
        b'%' => (2, &mut closers.statement),
        b'#' => (2, &mut closers.comment),
        _ => return None,
    };
    let inner_start = brace + open_len;
    let close = closer.at_or_after(inner_start)?;
    let end = close + open_len;
    // The cursors see the whole text; `bytes` ends where this gap does.
    if end > bytes.len() || end - brace > MAX_TAG_BYTES || closers.blanks.at_or_after(brace) < close
    {
        return None;
    }
    let inner = &bytes[inner_start..close];
    let content = trim(inner);
    if content.is_empty() {
        return None;
    }
    let mustache = bytes[brace + 1] == b'{';
    // `{{a {{b}}` is two openers and one closer: only the second is a tag.
    if mustache
        && closers
            .nested_open
            .at_or_after(inner_start)
            .is_some_and(|o| o < close)
    {
        return None;
    }
    let kind = if mustache && open_len == 2 {
        block_kind(bytes, inner_start, close)
    } else {
        TagKind::Simple
    };
    Some(Tag {
        start: brace,
        end,
        kind,
    })
}

/// Whether a `{{...}}` tag opens or closes a block, and the block's name.
fn block_kind(bytes: &[u8], inner_start: usize, close: usize) -> TagKind {
    let mut i = inner_start;
    while i < close && (bytes[i].is_ascii_whitespace() || bytes[i] == b'~') {
        i += 1;
    }
    let sigil = bytes[i];
    if !matches!(sigil, b'#' | b'^' | b'/') {
        return TagKind::Simple;
    }
    let name_start = i + 1;
    let mut name_end = name_start;
    while name_end < close && !bytes[name_end].is_ascii_whitespace() && bytes[name_end] != b'~' {
        name_end += 1;
    }
    if name_end == name_start {
        return TagKind::Simple;
    }
    if sigil == b'/' {
        TagKind::Close(name_start, name_end)
    } else {
        TagKind::Open(name_start, name_end)
    }
}

/// `${name}`, `${input:name}` or `${Name:default value}` starting at the `$` at `dollar`.
/// A default holds neither a newline nor a brace, which also keeps this scan linear.
fn dollar(bytes: &[u8], dollar: usize) -> Option<Tag> {
    let name_start = dollar + 2;
    let mut i = name_start;
    while i < bytes.len()
        && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'.' | b'-'))
    {
        i += 1;
    }
    if i == name_start || !bytes[name_start].is_ascii_alphanumeric() && bytes[name_start] != b'_' {
        return None;
    }
    if bytes.get(i) == Some(&b':') {
        i += 1;
        while i < bytes.len() && !matches!(bytes[i], b'}' | b'{' | b'\n') {
            i += 1;
            if i - dollar > MAX_TAG_BYTES {
                return None;
            }
        }
    }
    (bytes.get(i) == Some(&b'}')).then_some(Tag {
        start: dollar,
        end: i + 1,
        kind: TagKind::Simple,
    })
}

fn trim(inner: &[u8]) -> &[u8] {
    let start = inner.iter().position(|b| !b.is_ascii_whitespace());
    let end = inner.iter().rposition(|b| !b.is_ascii_whitespace());
    match (start, end) {
        (Some(s), Some(e)) => &inner[s..=e],
        _ => &[],
    }
}

/// The outermost matched blocks, as byte ranges in order. A close tag matches the innermost open
/// tag of the same name; open tags it skips over were never closed and end up inside the block.
fn matched_blocks(bytes: &[u8], tags: &[Tag]) -> Vec<(usize, usize)> {
    let mut stack: Vec<(usize, usize, usize)> = Vec::new();
    let mut blocks = Vec::new();
    for tag in tags {
        match tag.kind {
            TagKind::Open(s, e) if stack.len() < MAX_BLOCK_DEPTH => stack.push((tag.start, s, e)),
            TagKind::Close(s, e) => {
                let name = &bytes[s..e];
                if let Some(depth) = stack
                    .iter()
                    .rposition(|&(_, os, oe)| &bytes[os..oe] == name)
                {
                    blocks.push((stack[depth].0, tag.end));
                    stack.truncate(depth);
                }
            }
            _ => {}
        }
    }
    // Matched blocks nest or are disjoint; keep only those no earlier block contains.
    blocks.sort_unstable();
    let mut outermost: Vec<(usize, usize)> = Vec::with_capacity(blocks.len());
    for block in blocks {
        if outermost.last().is_none_or(|last| block.0 >= last.1) {
            outermost.push(block);
        }
    }
    outermost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::span::found_in;

    fn items(text: &str) -> Vec<&str> {
        found_in(text, |text, start, end, out| {
            Finder::new(text).find(start, end, out)
        })
    }

    #[test]
    fn mustache_forms() {
        assert_eq!(
            items("Hi {{name}}, {{ user.email }} and {{{raw_html}}}."),
            vec!["{{name}}", "{{ user.email }}", "{{{raw_html}}}"]
        );
    }

    #[test]
    fn jinja_forms() {
        assert_eq!(
            items("{% for x in xs %}{{ x }}{% endfor %} {# note #}"),
            vec!["{% for x in xs %}", "{{ x }}", "{% endfor %}", "{# note #}"]
        );
    }

    #[test]
    fn dollar_forms() {
        assert_eq!(
            items("${name} ${input:topic} ${Position:Software Developer, Senior (L5)} $x {y}"),
            vec![
                "${name}",
                "${input:topic}",
                "${Position:Software Developer, Senior (L5)}"
            ]
        );
        assert!(items("${a + b} ${} ${a:multi\nline} ${:x}").is_empty());
    }

    #[test]
    fn block_helpers_are_one_item_with_nesting() {
        let text = "A {{#each items}}- {{#if x}}{{x}}{{else}}none{{/if}}\n{{/each}} B {{#with p}}{{/with}}";
        assert_eq!(
            items(text),
            vec![
                "{{#each items}}- {{#if x}}{{x}}{{else}}none{{/if}}\n{{/each}}",
                "{{#with p}}{{/with}}"
            ]
        );
    }

    #[test]
    fn unclosed_block_tags_are_protected_alone() {
        assert_eq!(
            items("{{#each a}} text {{#if b}}x{{/if}} end"),
            vec!["{{#each a}}", "{{#if b}}x{{/if}}"]
        );
        assert_eq!(
            items("{{/each}} {{~#unless z~}}"),
            vec!["{{/each}}", "{{~#unless z~}}"]
        );
    }

    #[test]
    fn unclosed_or_long_or_blank_line_tags_are_prose() {
        assert!(items("{{ never closed").is_empty());
        assert!(items("{{ a\n\nb }}").is_empty());
        let long = format!("{{{{{}}}}}", "x".repeat(MAX_TAG_BYTES));
        assert!(items(&long).is_empty());
        assert!(items("{{ }} {%%} {x}").is_empty());
    }

    #[test]
    fn nested_openers_leave_the_outer_one_as_prose() {
        assert_eq!(items("{{a {{b}}"), vec!["{{b}}"]);
    }
}
