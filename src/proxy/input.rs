//! The input stage shared by both protocol adapters: compress each prompt text on its own, count
//! tokens with the model's tokenizer, and decide the vault status of the request.
//!
//! Texts are compressed independently and deterministically, so the same message compresses to
//! the same bytes on every turn of a conversation and provider prompt caches keep hitting.

use super::cache::CompressionCache;
use super::splice::Edits;
use filters::{BrevityLevel, Mode, Options, Tokenizer};
use std::fmt;
use std::str::FromStr;

/// What the caller asked the proxy to do with the prompt text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum ProxyMode {
    /// Forward the text unchanged (the brevity directive is still added unless brevity is off).
    Off,
    Compress(Mode),
}

impl FromStr for ProxyMode {
    type Err = filters::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "off" {
            return Ok(ProxyMode::Off);
        }
        s.parse::<Mode>()
            .map(ProxyMode::Compress)
            .map_err(|_| filters::UnknownName {
                what: "mode",
                given: s.to_string(),
                expected: "off, conservative, balanced, aggressive",
            })
    }
}

impl TryFrom<String> for ProxyMode {
    type Error = filters::UnknownName;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ProxyMode> for String {
    fn from(mode: ProxyMode) -> String {
        mode.to_string()
    }
}

impl fmt::Display for ProxyMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyMode::Off => f.write_str("off"),
            ProxyMode::Compress(mode) => mode.fmt(f),
        }
    }
}

/// The settings of one request's input and output stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub mode: ProxyMode,
    pub brevity: BrevityLevel,
}

impl Plan {
    /// The input stage's work on a body of `body_len` bytes, in bytes of compression it costs
    /// as much as: the whole body when its texts are compressed; with mode `off`, only parsing
    /// and splicing, which run at about a gigabyte a second, some 32 times the engine's pace.
    pub fn work_bytes(&self, body_len: usize) -> usize {
        match self.mode {
            ProxyMode::Off => body_len / 32,
            ProxyMode::Compress(_) => body_len,
        }
    }
}

/// Whether the prompt went through the engine's vault, as `X-Service-Vault-Status` reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VaultStatus {
    /// Every text the proxy compressed passed the engine's integrity check: code, JSON and
    /// template variables were restored byte-identical.
    Intact,
    /// No text went through the engine: the body is not JSON of the protocol's shape, the mode
    /// is `off`, there was no prompt text to compress, or the request was refused before its
    /// body was read. The prompt text was forwarded as sent.
    #[default]
    Bypassed,
    /// At least one text failed the integrity check; that text was forwarded unchanged (the
    /// others may be compressed).
    Fallback,
}

impl VaultStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            VaultStatus::Intact => "intact",
            VaultStatus::Bypassed => "bypassed",
            VaultStatus::Fallback => "fallback",
        }
    }
}

/// Token accounting of one request's prompt text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestStats {
    /// Tokens of the prompt texts the proxy handles (system, developer and user text) as sent.
    pub original_tokens: usize,
    /// Tokens of the same texts as forwarded, the brevity directive included.
    pub input_tokens: usize,
    pub vault: VaultStatus,
    pub tokenizer: Tokenizer,
    /// The request's `model`, when the body had one.
    pub model: Option<String>,
    /// The brevity level that was actually injected (`off` when the body could not take it).
    pub brevity_applied: BrevityLevel,
    /// With mode `off`, texts whose tokens are not counted yet: the handler counts them on
    /// another thread while the upstream works (see [`RequestStats::count_deferred`]).
    pub deferred: Vec<String>,
}

impl RequestStats {
    /// Counts the deferred texts (forwarded unchanged, so they add to both totals).
    pub fn count_deferred(texts: &[String], tokenizer: Tokenizer) -> usize {
        let cache = CompressionCache::global();
        texts.iter().map(|text| cache.count(text, tokenizer)).sum()
    }

    /// Adds the count of the deferred texts once it is known.
    pub fn add_deferred_count(&mut self, tokens: usize) {
        self.original_tokens += tokens;
        self.input_tokens += tokens;
    }

    /// Input tokens saved; negative when the directive cost more than compression saved.
    pub fn input_saved(&self) -> i64 {
        self.original_tokens as i64 - self.input_tokens as i64
    }
}

/// The result of an adapter's input stage.
#[derive(Debug)]
pub struct Rewritten {
    /// The body to forward, or `None` to forward the original bytes.
    pub body: Option<Vec<u8>>,
    pub stats: RequestStats,
}

impl Rewritten {
    /// The original body goes on untouched (not JSON, not the protocol's shape).
    pub fn bypassed() -> Self {
        Rewritten {
            body: None,
            stats: RequestStats::default(),
        }
    }
}

/// The tokenizer for a model name. OpenAI publishes o200k_base for GPT-4o, GPT-4.1, GPT-4.5,
/// GPT-5, the o-series and their chat aliases, and cl100k_base for GPT-4, GPT-3.5 and older.
/// Other vendors (Claude, Llama, Mistral, Gemini, ...) use private or different vocabularies;
/// o200k_base is used as the closest available estimate for them. An aggregator's
/// `vendor/model` name is judged by the part after the slash.
pub fn tokenizer_for_model(model: &str) -> Tokenizer {
    let name = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_ascii_lowercase();
    const O200K: [&str; 7] = [
        "gpt-4o",
        "gpt-4.1",
        "gpt-4.5",
        "gpt-5",
        "chatgpt-4o",
        "gpt-oss",
        "codex",
    ];
    if O200K.iter().any(|prefix| name.starts_with(prefix)) {
        return Tokenizer::O200kBase;
    }
    let o_series = name.starts_with('o') && name[1..].starts_with(|c: char| c.is_ascii_digit());
    if o_series {
        return Tokenizer::O200kBase;
    }
    const CL100K: [&str; 5] = ["gpt-4", "gpt-3.5", "gpt-35", "text-embedding-", "davinci"];
    if CL100K.iter().any(|prefix| name.starts_with(prefix)) {
        return Tokenizer::Cl100kBase;
    }
    Tokenizer::O200kBase
}

/// The body as text and deserialized as `T`, or `None` when it is not UTF-8 JSON of that shape.
pub fn parse_body<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Option<(&'a str, T)> {
    let body = std::str::from_utf8(bytes).ok()?;
    let parsed = serde_json::from_str::<T>(body).ok()?;
    Some((body, parsed))
}

/// Compresses the texts of one request and keeps the running accounting.
pub struct TextRewriter {
    options: Option<Options>,
    tokenizer: Tokenizer,
    original_tokens: usize,
    input_tokens: usize,
    engine_ran: bool,
    fallback: bool,
    deferred: Vec<String>,
}

impl TextRewriter {
    pub fn new(mode: ProxyMode, tokenizer: Tokenizer) -> Self {
        let options = match mode {
            ProxyMode::Off => None,
            ProxyMode::Compress(mode) => Some(Options {
                tokenizer,
                ..Options::with_mode(mode)
            }),
        };
        TextRewriter {
            options,
            tokenizer,
            original_tokens: 0,
            input_tokens: 0,
            engine_ran: false,
            fallback: false,
            deferred: Vec::new(),
        }
    }

    /// A rewriter counting with the tokenizer of `model`.
    pub fn for_model(mode: ProxyMode, model: Option<&str>) -> Self {
        Self::new(mode, tokenizer_for_model(model.unwrap_or("")))
    }

    /// The text to forward in place of `text`, or `None` when it stays as sent.
    pub fn rewrite(&mut self, text: &str) -> Option<String> {
        let Some(options) = &self.options else {
            // Mode off: counting only feeds telemetry, so a text not counted before is left
            // off the request path.
            match CompressionCache::global().known_count(text, self.tokenizer) {
                Some(tokens) => {
                    self.original_tokens += tokens;
                    self.input_tokens += tokens;
                }
                None => self.deferred.push(text.to_string()),
            }
            return None;
        };
        let shortened = CompressionCache::global().shorten(text, options);
        self.engine_ran = true;
        self.original_tokens += shortened.original_tokens;
        self.input_tokens += shortened.final_tokens;
        if !shortened.integrity_passed {
            self.fallback = true;
        }
        (shortened.text != text).then_some(shortened.text)
    }

    /// Counts text the proxy adds (the brevity directive) as forwarded input.
    pub fn add_injected(&mut self, text: &str) {
        self.input_tokens += filters::count_tokens(text, self.tokenizer);
    }

    /// The adapter's result: `body` with `edits` applied (or untouched), and the accounting.
    /// `brevity` counts as applied only when the directive was placed.
    pub fn into_rewritten(
        self,
        body: &str,
        edits: Edits,
        model: Option<String>,
        brevity: BrevityLevel,
        directive_placed: bool,
    ) -> Rewritten {
        let applied = if directive_placed {
            brevity
        } else {
            BrevityLevel::Off
        };
        let stats = self.finish(model, applied);
        let body = (!edits.is_empty()).then(|| edits.apply(body).into_bytes());
        Rewritten { body, stats }
    }

    pub fn finish(self, model: Option<String>, brevity_applied: BrevityLevel) -> RequestStats {
        let vault = if self.fallback {
            VaultStatus::Fallback
        } else if self.engine_ran {
            VaultStatus::Intact
        } else {
            VaultStatus::Bypassed
        };
        RequestStats {
            original_tokens: self.original_tokens,
            input_tokens: self.input_tokens,
            vault,
            tokenizer: self.tokenizer,
            model,
            brevity_applied,
            deferred: self.deferred,
        }
    }
}

/// `text` with the brevity directive appended after a blank line.
pub fn with_directive(text: &str, directive: &str) -> String {
    if text.is_empty() {
        directive.to_string()
    } else {
        format!("{text}\n\n{directive}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_follows_the_model_family() {
        for model in [
            "gpt-4o",
            "gpt-4o-mini-2024-07-18",
            "gpt-4.1-nano",
            "gpt-5",
            "o1-preview",
            "o3-mini",
            "o4-mini",
            "chatgpt-4o-latest",
            "openai/gpt-4o",
            "claude-sonnet-4-5",
            "meta-llama/llama-3.1-70b",
        ] {
            assert_eq!(tokenizer_for_model(model), Tokenizer::O200kBase, "{model}");
        }
        for model in [
            "gpt-4",
            "gpt-4-turbo",
            "gpt-4-0613",
            "gpt-3.5-turbo",
            "openai/gpt-4",
        ] {
            assert_eq!(tokenizer_for_model(model), Tokenizer::Cl100kBase, "{model}");
        }
    }

    #[test]
    fn modes_parse_with_off() {
        assert_eq!("off".parse::<ProxyMode>().unwrap(), ProxyMode::Off);
        assert_eq!(
            "aggressive".parse::<ProxyMode>().unwrap(),
            ProxyMode::Compress(Mode::Aggressive)
        );
        assert!("max".parse::<ProxyMode>().is_err());
    }

    #[test]
    fn mode_off_counts_but_never_runs_the_engine() {
        // A short text is counted at once; a long one not seen before is deferred, and once
        // counted it is remembered.
        let long = "A long text for the deferred count, seen here first. ".repeat(9);
        let short = "Hello there, world.";
        let count = |text| filters::count_tokens(text, Tokenizer::O200kBase);
        let mut rewriter = TextRewriter::new(ProxyMode::Off, Tokenizer::O200kBase);
        assert_eq!(rewriter.rewrite(short), None);
        assert_eq!(rewriter.rewrite(&long), None);
        let mut stats = rewriter.finish(None, BrevityLevel::Off);
        assert_eq!(stats.vault, VaultStatus::Bypassed);
        assert_eq!(stats.original_tokens, count(short));
        assert_eq!(stats.deferred, std::slice::from_ref(&long));
        let counted = RequestStats::count_deferred(&stats.deferred, stats.tokenizer);
        stats.add_deferred_count(counted);
        assert_eq!(stats.original_tokens, count(short) + count(&long));
        assert_eq!(stats.original_tokens, stats.input_tokens);

        let mut again = TextRewriter::new(ProxyMode::Off, Tokenizer::O200kBase);
        again.rewrite(&long);
        let stats = again.finish(None, BrevityLevel::Off);
        assert!(stats.deferred.is_empty());
        assert_eq!(stats.original_tokens, count(&long));
    }

    #[test]
    fn compression_counts_tokens_and_reports_intact() {
        let mut rewriter =
            TextRewriter::new(ProxyMode::Compress(Mode::Balanced), Tokenizer::O200kBase);
        let text = "Please could you kindly help me: run `cargo test` with {{name}}.";
        let out = rewriter.rewrite(text);
        if let Some(new) = &out {
            assert!(new.contains("`cargo test`") && new.contains("{{name}}"));
        }
        let stats = rewriter.finish(Some("gpt-4o".into()), BrevityLevel::Off);
        assert_eq!(stats.vault, VaultStatus::Intact);
        assert!(stats.input_tokens <= stats.original_tokens);
    }
}
