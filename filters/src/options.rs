//! What a caller can ask of the engine.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How hard the engine compresses (SPEC 2.1).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Formatting cleanup, preamble and politeness pruning, a line said twice in a row,
    /// articles, intensifiers and copulas where the sense allows.
    Conservative,
    /// Conservative plus phrase rewriting, hedges and low-information function words.
    #[default]
    Balanced,
    /// Balanced plus sentence-level pruning of repeats and telegraphic style.
    Aggressive,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Conservative, Mode::Balanced, Mode::Aggressive];

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Conservative => "conservative",
            Mode::Balanced => "balanced",
            Mode::Aggressive => "aggressive",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for a name that is not one of the known values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    pub what: &'static str,
    pub given: String,
    pub expected: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?}: expected one of {}",
            self.what, self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Mode {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "conservative" => Ok(Mode::Conservative),
            "balanced" => Ok(Mode::Balanced),
            "aggressive" => Ok(Mode::Aggressive),
            _ => Err(UnknownName {
                what: "mode",
                given: s.to_string(),
                expected: "conservative, balanced, aggressive",
            }),
        }
    }
}

/// The byte-pair encoding used to count tokens.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Tokenizer {
    /// GPT-4o, GPT-4.1, GPT-5 and the o-series.
    #[default]
    #[serde(rename = "o200k_base")]
    O200kBase,
    /// GPT-4, GPT-3.5 and older OpenAI models.
    #[serde(rename = "cl100k_base")]
    Cl100kBase,
}

impl Tokenizer {
    pub const ALL: [Tokenizer; 2] = [Tokenizer::O200kBase, Tokenizer::Cl100kBase];

    pub fn as_str(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
        }
    }
}

impl fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tokenizer {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "o200k_base" => Ok(Tokenizer::O200kBase),
            "cl100k_base" => Ok(Tokenizer::Cl100kBase),
            _ => Err(UnknownName {
                what: "tokenizer",
                given: s.to_string(),
                expected: "o200k_base, cl100k_base",
            }),
        }
    }
}

/// Options of one compression. The protect flags default to true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub mode: Mode,
    /// Fenced code blocks and inline code spans are kept byte-identical.
    pub protect_code_blocks: bool,
    /// Valid JSON objects and arrays are kept byte-identical.
    pub protect_json: bool,
    /// Template variables (`{{x}}`, `{% %}`, `${x}`, ...) are kept byte-identical.
    pub protect_variables: bool,
    pub tokenizer: Tokenizer,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Balanced,
            protect_code_blocks: true,
            protect_json: true,
            protect_variables: true,
            tokenizer: Tokenizer::O200kBase,
        }
    }
}

impl Options {
    pub fn with_mode(mode: Mode) -> Self {
        Options {
            mode,
            ..Options::default()
        }
    }
}
