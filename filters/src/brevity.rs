//! Output-brevity directives: the text appended to a system prompt so the model answers tersely.
//!
//! The proxy appends it at the end of the system prompt (so a cached prefix is unchanged) and the
//! MCP tool server sends it as its `instructions`. Every level keeps what must not be paraphrased:
//! negations, numbers and units, code, error text and safety warnings.

use crate::options::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrevityLevel {
    /// No directive.
    #[default]
    Off,
    /// Drop filler and pleasantries, keep full sentences.
    Lite,
    /// Short, direct answers; fragments are fine.
    Full,
    /// Telegraphic: the fewest words that carry the answer.
    Ultra,
}

#[cfg(test)]
const KEEP_EXACT: &str = "Keep exact and unabridged: negations (not, never, no, unless, except), numbers and units, \
names, code, commands, file paths, error messages, and safety warnings.";

impl BrevityLevel {
    pub const ALL: [BrevityLevel; 4] = [
        BrevityLevel::Off,
        BrevityLevel::Lite,
        BrevityLevel::Full,
        BrevityLevel::Ultra,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BrevityLevel::Off => "off",
            BrevityLevel::Lite => "lite",
            BrevityLevel::Full => "full",
            BrevityLevel::Ultra => "ultra",
        }
    }

    /// The directive for this level, or `None` for `off`.
    pub fn directive(self) -> Option<&'static str> {
        match self {
            BrevityLevel::Off => None,
            BrevityLevel::Lite => Some(LITE),
            BrevityLevel::Full => Some(FULL),
            BrevityLevel::Ultra => Some(ULTRA),
        }
    }

    /// The share of output tokens this level is expected to save, before any measured data exists.
    /// The proxy replaces it with the ratio it measures on earlier responses.
    pub fn prior_output_saving(self) -> f64 {
        match self {
            BrevityLevel::Off => 0.0,
            BrevityLevel::Lite => 0.15,
            BrevityLevel::Full => 0.30,
            BrevityLevel::Ultra => 0.45,
        }
    }
}

const LITE: &str = concat!(
    "Answer concisely: no preamble, no restating the question, no pleasantries or closing offers. ",
    "Keep exact and unabridged: negations (not, never, no, unless, except), numbers and units, ",
    "names, code, commands, file paths, error messages, and safety warnings."
);

const FULL: &str = concat!(
    "Be brief and direct. Lead with the answer; skip preamble, filler, hedging, restatement and summaries. ",
    "Prefer short sentences or bullet fragments. Show code or commands instead of describing them. ",
    "Keep exact and unabridged: negations (not, never, no, unless, except), numbers and units, ",
    "names, code, commands, file paths, error messages, and safety warnings."
);

const ULTRA: &str = concat!(
    "Maximum brevity: telegraphic fragments, no articles or filler, no preamble or recap, ",
    "abbreviate where unambiguous, one line per point. Code and commands only when asked. ",
    "Keep exact and unabridged: negations (not, never, no, unless, except), numbers and units, ",
    "names, code, commands, file paths, error messages, and safety warnings."
);

impl fmt::Display for BrevityLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BrevityLevel {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "off" => Ok(BrevityLevel::Off),
            "lite" => Ok(BrevityLevel::Lite),
            "full" => Ok(BrevityLevel::Full),
            "ultra" => Ok(BrevityLevel::Ultra),
            _ => Err(UnknownName {
                what: "brevity level",
                given: s.to_string(),
                expected: "off, lite, full, ultra",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_directive_keeps_the_exact_items() {
        for level in [BrevityLevel::Lite, BrevityLevel::Full, BrevityLevel::Ultra] {
            let text = level.directive().unwrap();
            assert!(text.ends_with(KEEP_EXACT), "{level}");
        }
        assert_eq!(BrevityLevel::Off.directive(), None);
    }

    #[test]
    fn names_round_trip() {
        for level in BrevityLevel::ALL {
            assert_eq!(level.as_str().parse::<BrevityLevel>().unwrap(), level);
        }
        assert!("max".parse::<BrevityLevel>().is_err());
    }
}
