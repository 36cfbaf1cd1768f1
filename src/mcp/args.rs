//! The arguments of `service_compress`: their JSON schema, and their validation.
//!
//! The tool validates its own arguments instead of letting the SDK deserialize them, because a
//! deserialization failure is a protocol error, while a bad argument must come back as a tool
//! result with `isError: true` and a message the assistant can act on.

use super::client::CompressRequest;
use filters::{MAX_PROMPT_CHARS, Mode};
use rmcp::model::JsonObject;
use serde_json::{Value, json};

const ARGUMENT_NAMES: &str = "prompt, mode, protectCodeBlocks, protectJson";

/// The input schema of `service_compress`; `mode` defaults to the server's SERVICE_MODE.
pub fn compress_input_schema(default_mode: Mode) -> JsonObject {
    let modes: Vec<&str> = Mode::ALL.iter().map(|mode| mode.as_str()).collect();
    let schema = json!({
        "type": "object",
        "properties": {
            "prompt": {
                "type": "string",
                "description": format!(
                    "The text to compress (at most {MAX_PROMPT_CHARS} characters)."
                ),
                "maxLength": MAX_PROMPT_CHARS,
            },
            "mode": {
                "type": "string",
                "enum": modes,
                "default": default_mode.as_str(),
                "description": "How hard to compress: conservative (cleanup and preamble pruning, \
                    about 20-35% fewer tokens), balanced (about 40-55%), aggressive (about 55-75%). \
                    Defaults to the server's SERVICE_MODE, else balanced.",
            },
            "protectCodeBlocks": {
                "type": "boolean",
                "default": true,
                "description": "Keep fenced code blocks and inline code spans byte-identical.",
            },
            "protectJson": {
                "type": "boolean",
                "default": true,
                "description": "Keep valid JSON objects and arrays byte-identical.",
            },
        },
        "required": ["prompt"],
        "additionalProperties": false,
    });
    super::schema::object(schema)
}

/// Checks the arguments of one call and builds the service request, or says what is wrong.
pub fn parse_compress_args(
    args: &JsonObject,
    default_mode: Mode,
) -> Result<CompressRequest, String> {
    if let Some(unknown) = args
        .keys()
        .find(|name| !ARGUMENT_NAMES.split(", ").any(|n| n == *name))
    {
        return Err(format!(
            "unknown argument `{unknown}`: service_compress takes {ARGUMENT_NAMES}"
        ));
    }
    let prompt = match args.get("prompt") {
        None | Some(Value::Null) => {
            return Err("`prompt` is required: pass the text to compress as a string".to_string());
        }
        Some(Value::String(prompt)) => prompt,
        Some(other) => {
            return Err(format!(
                "`prompt` must be a string, not {}: pass the text to compress as a string",
                kind(other)
            ));
        }
    };
    let chars = prompt.chars().count();
    if chars > MAX_PROMPT_CHARS {
        return Err(format!(
            "`prompt` has {chars} characters; the service accepts at most {MAX_PROMPT_CHARS}: \
             split it and compress each part"
        ));
    }
    let mode = match args.get("mode") {
        None | Some(Value::Null) => default_mode,
        Some(Value::String(name)) => name
            .parse::<Mode>()
            .map_err(|err| format!("`mode`: {err}"))?,
        Some(other) => {
            return Err(format!(
                "`mode` must be one of conservative, balanced, aggressive, not {}",
                kind(other)
            ));
        }
    };
    Ok(CompressRequest {
        prompt: prompt.clone(),
        mode,
        protect_code_blocks: flag(args, "protectCodeBlocks")?,
        protect_json: flag(args, "protectJson")?,
    })
}

/// A protect flag: true when omitted (SPEC 4.1 rule 3), else it must be a JSON boolean.
fn flag(args: &JsonObject, name: &str) -> Result<bool, String> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(true),
        Some(Value::Bool(value)) => Ok(*value),
        Some(other) => Err(format!(
            "`{name}` must be true or false, not {}",
            kind(other)
        )),
    }
}

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: Value) -> Result<CompressRequest, String> {
        let Value::Object(args) = args else {
            panic!("not an object")
        };
        parse_compress_args(&args, Mode::Conservative)
    }

    #[test]
    fn omitted_arguments_take_their_defaults() {
        let request = parse(json!({"prompt": "hello"})).unwrap();
        assert_eq!(request.mode, Mode::Conservative);
        assert!(request.protect_code_blocks && request.protect_json);
        let request = parse(json!({"prompt": "x", "mode": null, "protectJson": null})).unwrap();
        assert_eq!(request.mode, Mode::Conservative);
        assert!(request.protect_json);
    }

    #[test]
    fn given_arguments_are_used() {
        let args = json!({"prompt": "p", "mode": "aggressive", "protectCodeBlocks": false, "protectJson": false});
        let request = parse(args).unwrap();
        assert_eq!(request.mode, Mode::Aggressive);
        assert!(!request.protect_code_blocks && !request.protect_json);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let cases = [
            (json!({}), "`prompt` is required"),
            (
                json!({"prompt": 3}),
                "`prompt` must be a string, not the number 3",
            ),
            (
                json!({"prompt": "p", "mode": "fast"}),
                "`mode`: unknown mode \"fast\"",
            ),
            (json!({"prompt": "p", "mode": 1}), "`mode` must be one of"),
            (
                json!({"prompt": "p", "protectJson": "yes"}),
                "`protectJson` must be true or false",
            ),
            (
                json!({"prompt": "p", "protect_json": true}),
                "unknown argument `protect_json`",
            ),
        ];
        for (args, expected) in cases {
            let err = parse(args.clone()).unwrap_err();
            assert!(err.starts_with(expected), "{args}: {err}");
        }
    }

    #[test]
    fn the_prompt_limit_counts_characters_not_bytes() {
        let at_limit = "é".repeat(MAX_PROMPT_CHARS);
        assert!(parse(json!({ "prompt": at_limit })).is_ok());
        let over = "a".repeat(MAX_PROMPT_CHARS + 1);
        let err = parse(json!({ "prompt": over })).unwrap_err();
        assert!(err.contains("50001 characters"), "{err}");
    }

    #[test]
    fn the_schema_states_the_enum_the_defaults_and_the_required_prompt() {
        let schema = compress_input_schema(Mode::Aggressive);
        let props = &schema["properties"];
        assert_eq!(
            props["mode"]["enum"],
            json!(["conservative", "balanced", "aggressive"])
        );
        assert_eq!(props["mode"]["default"], json!("aggressive"));
        assert_eq!(props["protectCodeBlocks"]["default"], json!(true));
        assert_eq!(props["protectJson"]["default"], json!(true));
        assert_eq!(schema["required"], json!(["prompt"]));
        let names: Vec<&String> = props.as_object().unwrap().keys().collect();
        assert_eq!(names.len(), ARGUMENT_NAMES.split(", ").count());
    }
}
