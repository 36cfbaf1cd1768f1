//! The compress request and response bodies of SPEC 2.1 and 2.2, shared by `terse compress
//! --jsonl` and `POST /api/v1/compress` so that both accept and refuse exactly the same input.
//!
//! Every refusal has a stable `code` (the table of [`RequestError::code`]); all of them are the
//! caller's fault, so the HTTP endpoint answers each with status 400. Messages never quote the
//! prompt: prompts are private.

use filters::{Compressed, MAX_PROMPT_CHARS, Mode, Options, Tokenizer};
use serde_json::{Map, Value, json};
use std::fmt;

/// A validated request: the text to compress and how.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressRequest {
    pub prompt: String,
    pub options: Options,
}

/// Why a request body was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError {
    /// The body is not UTF-8, not JSON, or not a JSON object.
    InvalidJson(String),
    /// `prompt` is absent or null.
    MissingPrompt,
    /// `prompt` is present but not a string.
    PromptNotString,
    /// `prompt` has more than [`MAX_PROMPT_CHARS`] Unicode characters.
    PromptTooLong { chars: usize },
    /// `mode` is not one of the three mode names.
    InvalidMode(String),
    /// A protect flag is present but not a boolean.
    InvalidFlag { field: &'static str },
    /// `tokenizer` is not one of the supported encodings.
    InvalidTokenizer(String),
}

impl RequestError {
    /// The stable machine-readable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            RequestError::InvalidJson(_) => "invalid_json",
            RequestError::MissingPrompt => "missing_prompt",
            RequestError::PromptNotString => "prompt_not_string",
            RequestError::PromptTooLong { .. } => "prompt_too_long",
            RequestError::InvalidMode(_) => "invalid_mode",
            RequestError::InvalidFlag { .. } => "invalid_flag",
            RequestError::InvalidTokenizer(_) => "invalid_tokenizer",
        }
    }

    /// The error body: `{"success": false, "error": {"code": ..., "message": ...}}`.
    pub fn body(&self) -> Value {
        json!({
            "success": false,
            "error": { "code": self.code(), "message": self.to_string() },
        })
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::InvalidJson(why) => write!(f, "the request is not a JSON object: {why}"),
            RequestError::MissingPrompt => f.write_str("the field \"prompt\" is required"),
            RequestError::PromptNotString => f.write_str("the field \"prompt\" must be a string"),
            RequestError::PromptTooLong { chars } => write!(
                f,
                "the prompt has {chars} characters; the limit is {MAX_PROMPT_CHARS}"
            ),
            RequestError::InvalidMode(given) => write!(
                f,
                "unknown mode {}: expected conservative, balanced or aggressive",
                short(given)
            ),
            RequestError::InvalidFlag { field } => {
                write!(f, "the field {field:?} must be true or false")
            }
            RequestError::InvalidTokenizer(given) => write!(
                f,
                "unknown tokenizer {}: expected o200k_base or cl100k_base",
                short(given)
            ),
        }
    }
}

impl std::error::Error for RequestError {}

/// Parses a raw request body. `defaults` supplies what the body omits (the service's default
/// mode, say); the protect flags of `defaults` are normally all true.
pub fn parse_body(body: &[u8], defaults: &Options) -> Result<CompressRequest, RequestError> {
    let text = std::str::from_utf8(body).map_err(|err| {
        RequestError::InvalidJson(format!("invalid UTF-8 at byte {}", err.valid_up_to()))
    })?;
    let value: Value =
        serde_json::from_str(text).map_err(|err| RequestError::InvalidJson(err.to_string()))?;
    parse_value(value, defaults)
}

/// Validates an already parsed JSON value as a compress request.
pub fn parse_value(value: Value, defaults: &Options) -> Result<CompressRequest, RequestError> {
    let Value::Object(mut fields) = value else {
        return Err(RequestError::InvalidJson(format!(
            "expected an object, found {}",
            kind_of(&value)
        )));
    };
    let prompt = match fields.remove("prompt") {
        None | Some(Value::Null) => return Err(RequestError::MissingPrompt),
        Some(Value::String(prompt)) => prompt,
        Some(_) => return Err(RequestError::PromptNotString),
    };
    let chars = prompt.chars().count();
    if chars > MAX_PROMPT_CHARS {
        return Err(RequestError::PromptTooLong { chars });
    }
    let mut options = *defaults;
    if let Some(mode) = optional_string(&fields, "mode", RequestError::InvalidMode)? {
        options.mode = mode
            .parse::<Mode>()
            .map_err(|_| RequestError::InvalidMode(mode.to_string()))?;
    }
    if let Some(name) = optional_string(&fields, "tokenizer", RequestError::InvalidTokenizer)? {
        options.tokenizer = name
            .parse::<Tokenizer>()
            .map_err(|_| RequestError::InvalidTokenizer(name.to_string()))?;
    }
    if let Some(flag) = optional_flag(&fields, "protectCodeBlocks")? {
        options.protect_code_blocks = flag;
    }
    if let Some(flag) = optional_flag(&fields, "protectJson")? {
        options.protect_json = flag;
    }
    if let Some(flag) = optional_flag(&fields, "protectVariables")? {
        options.protect_variables = flag;
    }
    Ok(CompressRequest { prompt, options })
}

/// The success body of SPEC 2.2: `{"success": true, "compressed": ..., "stats": {...}}`.
pub fn response_body(compressed: &Compressed) -> Value {
    let stats = serde_json::to_value(&compressed.stats)
        .expect("Stats holds only numbers, booleans and names");
    json!({ "success": true, "compressed": compressed.text, "stats": stats })
}

/// A string field that may be absent or null; any other non-string is refused with `refuse`.
fn optional_string<'a>(
    fields: &'a Map<String, Value>,
    name: &str,
    refuse: fn(String) -> RequestError,
) -> Result<Option<&'a str>, RequestError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(refuse(other.to_string())),
    }
}

fn optional_flag(
    fields: &Map<String, Value>,
    name: &'static str,
) -> Result<Option<bool>, RequestError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(flag)) => Ok(Some(*flag)),
        Some(_) => Err(RequestError::InvalidFlag { field: name }),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Quotes a caller-supplied name, cut short so that a huge value cannot flood a message.
fn short(given: &str) -> String {
    const LIMIT: usize = 40;
    if given.chars().count() <= LIMIT {
        format!("{given:?}")
    } else {
        let head: String = given.chars().take(LIMIT).collect();
        format!("{head:?}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &str) -> Result<CompressRequest, RequestError> {
        parse_body(body.as_bytes(), &Options::default())
    }

    #[test]
    fn omitted_fields_take_the_defaults() {
        let request = parse(r#"{"prompt": "Hello there"}"#).unwrap();
        assert_eq!(request.prompt, "Hello there");
        assert_eq!(request.options, Options::default());
    }

    #[test]
    fn every_field_is_read() {
        let request = parse(
            r#"{"prompt": "x", "mode": "aggressive", "tokenizer": "cl100k_base",
                "protectCodeBlocks": false, "protectJson": false, "protectVariables": false}"#,
        )
        .unwrap();
        assert_eq!(
            request.options,
            Options {
                mode: Mode::Aggressive,
                protect_code_blocks: false,
                protect_json: false,
                protect_variables: false,
                tokenizer: Tokenizer::Cl100kBase,
            }
        );
    }

    #[test]
    fn defaults_given_by_the_caller_apply_to_omitted_fields_only() {
        let defaults = Options::with_mode(Mode::Conservative);
        let omitted = parse_body(br#"{"prompt": "x"}"#, &defaults).unwrap();
        assert_eq!(omitted.options.mode, Mode::Conservative);
        let given = parse_body(br#"{"prompt": "x", "mode": "balanced"}"#, &defaults).unwrap();
        assert_eq!(given.options.mode, Mode::Balanced);
    }

    #[test]
    fn each_refusal_has_its_code() {
        let cases = [
            ("{", "invalid_json"),
            ("[1, 2]", "invalid_json"),
            (r#""just a string""#, "invalid_json"),
            ("{}", "missing_prompt"),
            (r#"{"prompt": null}"#, "missing_prompt"),
            (r#"{"prompt": 42}"#, "prompt_not_string"),
            (r#"{"prompt": ["a"]}"#, "prompt_not_string"),
            (r#"{"prompt": "x", "mode": "extreme"}"#, "invalid_mode"),
            (r#"{"prompt": "x", "mode": 3}"#, "invalid_mode"),
            (r#"{"prompt": "x", "mode": "Balanced"}"#, "invalid_mode"),
            (r#"{"prompt": "x", "protectJson": "yes"}"#, "invalid_flag"),
            (r#"{"prompt": "x", "protectCodeBlocks": 1}"#, "invalid_flag"),
            (
                r#"{"prompt": "x", "protectVariables": "false"}"#,
                "invalid_flag",
            ),
            (
                r#"{"prompt": "x", "tokenizer": "p50k_base"}"#,
                "invalid_tokenizer",
            ),
        ];
        for (body, expected) in cases {
            let err = parse(body).expect_err(body);
            assert_eq!(err.code(), expected, "{body}");
        }
    }

    #[test]
    fn invalid_utf8_is_invalid_json() {
        let err = parse_body(b"{\"prompt\": \"\xff\"}", &Options::default()).unwrap_err();
        assert_eq!(err.code(), "invalid_json");
        assert!(err.to_string().contains("UTF-8"), "{err}");
    }

    #[test]
    fn the_limit_counts_characters_not_bytes() {
        // 'é' is two bytes: 50,000 of them are 100,000 bytes but exactly at the limit.
        let at_limit = "é".repeat(MAX_PROMPT_CHARS);
        let body = json!({ "prompt": at_limit }).to_string();
        assert!(parse(&body).is_ok());

        let over = "é".repeat(MAX_PROMPT_CHARS + 1);
        let err = parse(&json!({ "prompt": over }).to_string()).unwrap_err();
        assert_eq!(
            err,
            RequestError::PromptTooLong {
                chars: MAX_PROMPT_CHARS + 1
            }
        );
        assert!(err.to_string().contains("50000"), "{err}");
    }

    #[test]
    fn the_error_body_has_the_documented_shape_and_never_quotes_the_prompt() {
        let secret = "my private prompt".repeat(1000);
        let err = parse(&json!({ "prompt": secret, "protectJson": 0 }).to_string()).unwrap_err();
        let body = err.body();
        assert_eq!(body["success"], false);
        assert_eq!(body["error"]["code"], "invalid_flag");
        assert!(!body.to_string().contains("my private prompt"));

        let long_mode = "m".repeat(10_000);
        let err = parse(&json!({ "prompt": "x", "mode": long_mode }).to_string()).unwrap_err();
        assert!(err.to_string().len() < 200, "{err}");
    }

    #[test]
    fn the_response_body_carries_every_stats_field() {
        let compressed =
            filters::compress("Please note that the answer is 42.", &Options::default());
        let body = response_body(&compressed);
        assert_eq!(body["success"], true);
        assert_eq!(body["compressed"], compressed.text.as_str());
        for field in [
            "mode",
            "originalTokens",
            "finalTokens",
            "savedTokens",
            "savedPercent",
            "latencyMs",
            "tokenizerUsed",
            "integrityPassed",
            "stageBreakdown",
            "protectedItems",
        ] {
            assert!(body["stats"].get(field).is_some(), "stats lacks {field}");
        }
        assert_eq!(
            body["stats"],
            serde_json::to_value(&compressed.stats).unwrap()
        );
    }
}
