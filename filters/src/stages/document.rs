//! The document the prose edits are written into, line by line: where an emptied line goes,
//! and which bullets aggressive drops.

use super::lines::{self, Kind};

/// Whether bullet items keep their bullets. Aggressive drops them (telegraphic layout): each item
/// still starts a line of its own and keeps its indentation, and a bullet costs a token per item.
/// Numbered items keep their numbers, which order and name them, and a task keeps its dash,
/// without which `[ ]` is no task box.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bullets {
    Keep,
    Drop,
}

/// A document written line by line. A prose line the rules emptied (`You will:` before a list)
/// is left out rather than kept as an empty line, and so is a blank line that would then follow
/// another blank line or open the document (cleanup has already collapsed every other run).
pub(super) struct Document {
    pub(super) text: String,
    lines: usize,
    last_blank: bool,
    bullets: Bullets,
    /// The lines before the current list end with a lead-in that negates, excludes or sets a
    /// condition (`Do not:`, `Never do any of the following:`, `If the build fails:`): its items
    /// keep their bullets, which tie them to it. Without them they would read as commands of
    /// their own, and the condition's list would have no visible end.
    list_held_by_lead_in: bool,
}

impl Document {
    pub(super) fn with_capacity(bytes: usize, bullets: Bullets) -> Self {
        Document {
            text: String::with_capacity(bytes),
            lines: 0,
            last_blank: false,
            bullets,
            list_held_by_lead_in: false,
        }
    }

    pub(super) fn line(&mut self, line: &lines::Line<'_>, content: &str) {
        if line.kind == Kind::Text && content.is_empty() && !line.content.is_empty() {
            // Emptied: a blank line after it would now open the document.
            if self.lines == 0 {
                self.last_blank = true;
            }
            return;
        }
        let blank = line.kind == Kind::Blank;
        if blank && self.last_blank {
            return;
        }
        if self.lines > 0 {
            self.text.push('\n');
        }
        self.lines += 1;
        let bullet = line.around_bullet();
        if bullet.is_none() && !blank {
            self.list_held_by_lead_in = self.bullets == Bullets::Drop && holding_lead_in(content);
        }
        match bullet {
            // Without its bullet the item must still read as a line of text, not as a heading,
            // a nested item or a table row.
            Some((before, after))
                if self.bullets == Bullets::Drop
                    && !self.list_held_by_lead_in
                    && indent_width(before) < 4
                    // The dash of a YAML sequence's entry (`- name: build`) is syntax: without it two
                    // entries would be one map with a key twice.
                    && !lines::opens_with_yaml_key(content)
                    // A task box needs its dash to stay one (`- [ ] Write the tests`).
                    && after.is_empty()
                    && lines::reads_as_text(content) =>
            {
                self.text.push_str(before);
                self.text.push_str(after);
            }
            _ => self.text.push_str(line.prefix),
        }
        self.text.push_str(content);
        self.last_blank = blank;
    }
}

/// Whether a line is a lead-in (it ends with `:`) that negates, excludes or sets a condition
/// for what follows it.
fn holding_lead_in(content: &str) -> bool {
    let content = content.trim_end();
    content.ends_with(':')
        && content
            .split(|c: char| !(c.is_ascii_alphabetic() || c == '\''))
            .any(|word| {
                let word = word.to_ascii_lowercase();
                word.ends_with("n't")
                    || matches!(
                        word.as_str(),
                        "not"
                            | "no"
                            | "never"
                            | "nor"
                            | "neither"
                            | "none"
                            | "nothing"
                            | "without"
                            | "except"
                            | "excluding"
                            | "exclude"
                            | "unless"
                            | "avoid"
                            | "refrain"
                            | "forbidden"
                            | "prohibited"
                            | "disallowed"
                            | "only"
                            | "instead"
                            | "stop"
                            | "if"
                            | "when"
                            | "whenever"
                            | "once"
                            | "while"
                            | "until"
                            | "case"
                            | "failure"
                            | "fails"
                            | "error"
                            | "otherwise"
                    )
            })
}

/// Columns of indentation: four or more before a line of text would make it a code block.
fn indent_width(indent: &str) -> usize {
    indent.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum()
}
