//! The stages, one file each; each takes sealed text and returns sealed text.

use crate::options::Mode;

/// Rule-based rewriting: cleanup, preamble pruning and (balanced and up) phrase rewriting.
pub fn deterministic(text: &str, mode: Mode, english: bool) -> String {
    let _ = (mode, english);
    text.to_string()
}

/// Density pruning: function words (balanced and up), sentences and telegraphic style (aggressive).
pub fn density(text: &str, mode: Mode, english: bool) -> String {
    let _ = (mode, english);
    text.to_string()
}
