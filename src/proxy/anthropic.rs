//! The Anthropic messages adapter: which texts to compress, where the brevity directive goes,
//! and the protocol's error shape.
//!
//! Compressed: the top-level `system` (a string, or its `type: "text"` blocks) and the text
//! blocks (or string content) of `user` messages. Untouched: assistant turns, `tool_use` and
//! `tool_result` blocks (including the text inside a tool result), images, documents, tool
//! definitions, `cache_control` markers and every other field, byte for byte.
//!
//! The directive is appended at the end of `system`: to the string after a blank line (a string
//! stays a string), or as one more text block after the existing blocks, so every block and
//! its `cache_control` breakpoint keeps its place. A request without `system` gets one holding
//! only the directive. Messages are never added, removed or reordered.

use super::input::{Plan, Rewritten, TextRewriter, parse_body, with_directive};
use super::splice::{Edits, array_end, json_string, span_of};

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    system: Option<&'a RawValue>,
    #[serde(borrow)]
    messages: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    role: Cow<'a, str>,
    #[serde(borrow)]
    content: &'a RawValue,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(borrow, rename = "type")]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
}

/// Compresses a JSON string value: its text as sent, and its new text (`None` when unchanged).
fn compress_string(
    raw: &RawValue,
    rewriter: &mut TextRewriter,
) -> Option<(String, Option<String>)> {
    let text = serde_json::from_str::<String>(raw.get()).ok()?;
    let new = rewriter.rewrite(&text);
    Some((text, new))
}

/// Compresses the text blocks of a content array, recording an edit for each changed text.
fn compress_blocks(body: &str, raw: &RawValue, rewriter: &mut TextRewriter, edits: &mut Edits) {
    let Ok(blocks) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
        return;
    };
    for block in blocks {
        let Ok(block) = serde_json::from_str::<Block>(block.get()) else {
            continue;
        };
        if block.kind != "text" {
            continue;
        }
        let Some(text) = block.text.filter(|t| t.get().starts_with('"')) else {
            continue;
        };
        if let Some((_, Some(new))) = compress_string(text, rewriter) {
            edits.replace(span_of(body, text), json_string(&new));
        }
    }
}

/// Compresses the prompt texts of a messages body and injects the brevity directive.
pub fn rewrite(body: &[u8], plan: &Plan) -> Rewritten {
    let Some((body, request)) = parse_body::<Request>(body) else {
        return Rewritten::bypassed();
    };
    let model = request.model.map(Cow::into_owned);
    let mut rewriter = TextRewriter::for_model(plan.mode, model.as_deref());
    let mut edits = Edits::default();
    let directive = plan.brevity.directive();
    let mut directive_placed = false;

    match request.system {
        Some(system) if system.get().starts_with('"') => {
            if let Some((text, new)) = compress_string(system, &mut rewriter) {
                let base = new.as_deref().unwrap_or(&text);
                match directive {
                    Some(directive) => {
                        let joined = with_directive(base, directive);
                        edits.replace(span_of(body, system), json_string(&joined));
                        rewriter.add_injected(directive);
                        directive_placed = true;
                    }
                    None if new.is_some() => {
                        edits.replace(span_of(body, system), json_string(base));
                    }
                    None => {}
                }
            }
        }
        Some(system) if system.get().starts_with('[') => {
            compress_blocks(body, system, &mut rewriter, &mut edits);
            if let Some(directive) = directive {
                let block = format!("{{\"type\":\"text\",\"text\":{}}}", json_string(directive));
                let (at, empty) = array_end(body, &span_of(body, system));
                edits.insert(at, if empty { block } else { format!(",{block}") });
                rewriter.add_injected(directive);
                directive_placed = true;
            }
        }
        Some(system) if system.get() == "null" => {
            if let Some(directive) = directive {
                edits.replace(span_of(body, system), json_string(directive));
                rewriter.add_injected(directive);
                directive_placed = true;
            }
        }
        Some(_) => {}
        None => {
            if let (Some(directive), Some(open)) = (directive, body.find('{')) {
                edits.insert(open + 1, format!("\"system\":{},", json_string(directive)));
                rewriter.add_injected(directive);
                directive_placed = true;
            }
        }
    }

    for raw in &request.messages {
        let Ok(message) = serde_json::from_str::<Message>(raw.get()) else {
            continue;
        };
        if message.role != "user" {
            continue;
        }
        let content = message.content;
        if content.get().starts_with('"') {
            if let Some((_, Some(new))) = compress_string(content, &mut rewriter) {
                edits.replace(span_of(body, content), json_string(&new));
            }
        } else {
            compress_blocks(body, content, &mut rewriter, &mut edits);
        }
    }

    rewriter.into_rewritten(body, edits, model, plan.brevity, directive_placed)
}

/// The error `type` Anthropic's API documents for a status.
fn error_type(status: u16) -> &'static str {
    match status {
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        504 => "timeout_error",
        529 => "overloaded_error",
        500..=599 => "api_error",
        _ => "invalid_request_error",
    }
}

/// An error body in Anthropic's shape. The `anthropic` SDKs pick the exception class by status
/// (400 BadRequestError, 401 AuthenticationError, 403 PermissionDeniedError, 404 NotFoundError,
/// 413 RequestTooLargeError, 429 RateLimitError, 5xx InternalServerError). `code` is this
/// service's stable error code, carried in the message because the shape has no code field.
pub fn error_body(status: u16, code: &str, message: &str) -> Vec<u8> {
    serde_json::json!({
        "type": "error",
        "error": {
            "type": error_type(status),
            "message": format!("{message} ({code})"),
        }
    })
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::fixtures::{WORDY, keeps_protected, parse, plan};
    use crate::proxy::input::ProxyMode;

    /// Text forwarded as sent, so only the directive changes it.
    fn directive_only(brevity: BrevityLevel) -> Plan {
        Plan {
            mode: ProxyMode::Off,
            brevity,
        }
    }
    use crate::proxy::input::VaultStatus;
    use filters::BrevityLevel;

    #[test]
    fn system_blocks_keep_cache_control_and_get_the_directive_last() {
        let system = format!(
            r#"[{{"type":"text","text":{w},"cache_control":{{"type":"ephemeral"}}}}]"#,
            w = json_string(WORDY)
        );
        let tool_result = r#"{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"I would really basically like it"}]}"#;
        let assistant = r#"{"role":"assistant","content":[{"type":"text","text":"I would basically say."},{"type":"tool_use","id":"t1","name":"f","input":{"q":1.0}}]}"#;
        let body = format!(
            r#"{{"model":"claude-sonnet-4-5","max_tokens":1024,"system":{system},"messages":[{{"role":"user","content":{w}}},{assistant},{{"role":"user","content":[{tool_result},{{"type":"text","text":{w},"cache_control":{{"type":"ephemeral"}}}}]}}],"metadata":{{"user_id":"u"}}}}"#,
            w = json_string(WORDY)
        );
        let out = rewrite(body.as_bytes(), &plan(BrevityLevel::Full));
        let new = String::from_utf8(out.body.expect("rewritten")).unwrap();
        for kept in [assistant, tool_result, "\"metadata\":{\"user_id\":\"u\"}"] {
            assert!(new.contains(kept), "{kept} changed in {new}");
        }
        let value = parse(new.as_bytes());
        let blocks = value["system"].as_array().unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0]["cache_control"]["type"], "ephemeral");
        assert_eq!(blocks[1]["text"], BrevityLevel::Full.directive().unwrap());
        let messages = value["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(
            messages[2]["content"][1]["cache_control"]["type"],
            "ephemeral"
        );
        for text in [
            blocks[0]["text"].as_str().unwrap(),
            messages[0]["content"].as_str().unwrap(),
            messages[2]["content"][1]["text"].as_str().unwrap(),
        ] {
            assert!(keeps_protected(text), "{text}");
        }
        assert_eq!(out.stats.vault, VaultStatus::Intact);
    }

    #[test]
    fn string_system_stays_a_string_and_missing_system_is_added() {
        let body = r#"{"model":"claude-3-5-haiku","system":"Be kind.","messages":[{"role":"user","content":"hi"}]}"#;
        let value = parse(
            &rewrite(body.as_bytes(), &directive_only(BrevityLevel::Lite))
                .body
                .unwrap(),
        );
        let system = value["system"].as_str().unwrap();
        assert!(system.starts_with("Be kind.\n\n"));
        assert!(system.ends_with(BrevityLevel::Lite.directive().unwrap()));

        let body = r#"{"model":"claude-3-5-haiku","messages":[{"role":"user","content":"hi"}]}"#;
        let value = parse(
            &rewrite(body.as_bytes(), &directive_only(BrevityLevel::Lite))
                .body
                .unwrap(),
        );
        assert_eq!(value["system"], BrevityLevel::Lite.directive().unwrap());
        assert_eq!(value["messages"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn prefix_is_byte_stable_across_turns() {
        let turn = |extra: &str| {
            format!(
                r#"{{"model":"claude-sonnet-4-5","system":[{{"type":"text","text":{w},"cache_control":{{"type":"ephemeral"}}}}],"messages":[{{"role":"user","content":{w}}}{extra}]}}"#,
                w = json_string(WORDY)
            )
        };
        let a = rewrite(turn("").as_bytes(), &plan(BrevityLevel::Full))
            .body
            .unwrap();
        let b = rewrite(
            turn(r#",{"role":"assistant","content":"ok"},{"role":"user","content":"more"}"#)
                .as_bytes(),
            &plan(BrevityLevel::Full),
        )
        .body
        .unwrap();
        assert!(b.starts_with(&a[..a.len() - 2]));
    }

    #[test]
    fn error_shape_matches_the_sdk() {
        let value = parse(&error_body(429, "rate_limited", "slow down"));
        assert_eq!(value["type"], "error");
        assert_eq!(value["error"]["type"], "rate_limit_error");
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("slow down")
        );
        let value = parse(&error_body(504, "upstream_timeout", "late"));
        assert_eq!(value["error"]["type"], "timeout_error");
    }
}
