//! The OpenAI chat-completions adapter: which texts to compress, where the brevity directive
//! goes, and the protocol's error shape.
//!
//! Compressed: the text of `system`, `developer` and `user` messages (string content and
//! `type: "text"` parts). Untouched: assistant messages and their tool calls, tool messages,
//! tool definitions, images, audio, files, and every other field, byte for byte.
//!
//! The directive goes at the end of the leading block of system/developer messages: appended to
//! the last one's text (string content) or as a final text part (array content). When the
//! conversation has no leading system message, one system message holding only the directive
//! is inserted first; that is the only case where the message count changes, and it happens
//! identically on every turn, so the cached prefix stays byte-stable. Appending to the leading
//! block rather than to the last system message anywhere keeps the directive in place when a
//! later turn adds system messages further down.

use super::input::{Plan, Rewritten, TextRewriter, parse_body, with_directive};
use super::splice::{Edits, array_end, json_string, span_of};

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::ops::Range;

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow)]
    messages: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    role: Cow<'a, str>,
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(borrow, rename = "type")]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
}

fn is_instruction(role: &str) -> bool {
    role == "system" || role == "developer"
}

fn is_compressible(role: &str) -> bool {
    is_instruction(role) || role == "user"
}

/// One JSON string of prompt text inside the body.
struct Slot {
    span: Range<usize>,
    text: String,
}

/// The text slots of a message's content: the string itself, or its text parts.
fn text_slots(body: &str, content: &RawValue) -> Vec<Slot> {
    let raw = content.get();
    if raw.starts_with('"') {
        return serde_json::from_str::<String>(raw)
            .map(|text| {
                vec![Slot {
                    span: span_of(body, content),
                    text,
                }]
            })
            .unwrap_or_default();
    }
    let Ok(parts) = serde_json::from_str::<Vec<&RawValue>>(raw) else {
        return Vec::new();
    };
    parts
        .into_iter()
        .filter_map(|part| serde_json::from_str::<Part>(part.get()).ok())
        .filter(|part| part.kind == "text")
        .filter_map(|part| {
            let raw_text = part.text?;
            let text = serde_json::from_str::<String>(raw_text.get()).ok()?;
            Some(Slot {
                span: span_of(body, raw_text),
                text,
            })
        })
        .collect()
}

/// Compresses the prompt texts of a chat-completions body and injects the brevity directive.
pub fn rewrite(body: &[u8], plan: &Plan) -> Rewritten {
    let Some((body, request)) = parse_body::<Request>(body) else {
        return Rewritten::bypassed();
    };
    let model = request.model.map(Cow::into_owned);
    let mut rewriter = TextRewriter::for_model(plan.mode, model.as_deref());
    let messages: Vec<(&RawValue, Option<Message>)> = request
        .messages
        .iter()
        .map(|raw| (*raw, serde_json::from_str::<Message>(raw.get()).ok()))
        .collect();
    let leading = messages
        .iter()
        .take_while(|(_, m)| m.as_ref().is_some_and(|m| is_instruction(&m.role)))
        .count();
    let directive = plan.brevity.directive();
    let mut edits = Edits::default();
    let mut directive_placed = false;

    for (index, (raw, message)) in messages.iter().enumerate() {
        let Some(message) = message else { continue };
        if !is_compressible(&message.role) {
            continue;
        }
        let Some(content) = message.content else {
            continue;
        };
        let directive_here = directive.filter(|_| leading > 0 && index == leading - 1);
        let content_is_string = content.get().starts_with('"');
        for slot in text_slots(body, content) {
            let new = rewriter.rewrite(&slot.text);
            match (directive_here, content_is_string) {
                (Some(directive), true) => {
                    let base = new.as_deref().unwrap_or(&slot.text);
                    edits.replace(slot.span, json_string(&with_directive(base, directive)));
                    rewriter.add_injected(directive);
                    directive_placed = true;
                }
                _ => {
                    if let Some(new) = new {
                        edits.replace(slot.span, json_string(&new));
                    }
                }
            }
        }
        if let Some(directive) = directive_here.filter(|_| !directive_placed) {
            let part = format!("{{\"type\":\"text\",\"text\":{}}}", json_string(directive));
            if content.get().starts_with('[') {
                let (at, empty) = array_end(body, &span_of(body, content));
                edits.insert(at, if empty { part } else { format!(",{part}") });
            } else {
                let after = span_of(body, raw).end;
                edits.insert(after, format!(",{}", system_message(directive)));
            }
            rewriter.add_injected(directive);
            directive_placed = true;
        }
    }
    // A leading system message whose content is null or absent never reached the loop above.
    if let (Some(directive), false, true) = (directive, directive_placed, leading > 0) {
        let after = span_of(body, messages[leading - 1].0).end;
        edits.insert(after, format!(",{}", system_message(directive)));
        rewriter.add_injected(directive);
        directive_placed = true;
    }
    if let (Some(directive), false, Some((first, _))) =
        (directive, directive_placed, messages.first())
    {
        edits.insert(
            span_of(body, first).start,
            format!("{},", system_message(directive)),
        );
        rewriter.add_injected(directive);
        directive_placed = true;
    }

    rewriter.into_rewritten(body, edits, model, plan.brevity, directive_placed)
}

fn system_message(text: &str) -> String {
    format!("{{\"role\":\"system\",\"content\":{}}}", json_string(text))
}

/// The error `type` OpenAI uses for a status.
fn error_type(status: u16) -> &'static str {
    match status {
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        500..=599 => "server_error",
        _ => "invalid_request_error",
    }
}

/// An error body in OpenAI's shape. The `openai` SDKs pick the exception class by status
/// (400 BadRequestError, 401 AuthenticationError, 403 PermissionDeniedError, 404 NotFoundError,
/// 429 RateLimitError, 5xx InternalServerError) and read `message`, `type` and `code` from here.
pub fn error_body(status: u16, code: &str, message: &str) -> Vec<u8> {
    serde_json::json!({
        "error": {
            "message": message,
            "type": error_type(status),
            "param": null,
            "code": code,
        }
    })
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::fixtures::{WORDY, keeps_protected, parse, plan};
    use crate::proxy::input::{ProxyMode, VaultStatus};
    use filters::BrevityLevel;

    #[test]
    fn untouched_fields_stay_byte_identical() {
        let tools = r#"[{"type":"function","function":{"name":"f","description":"Please kindly   do it","parameters":{"type":"object","properties":{}}}}]"#;
        let assistant = r#"{"role":"assistant","content":"I would really like to basically help.","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}"#;
        let tool =
            r#"{"role":"tool","tool_call_id":"c1","content":"I would really basically like it"}"#;
        let body = format!(
            r#"{{"model":"gpt-4o","temperature":1.50e0,"tools":{tools},"messages":[{{"role":"system","content":"You are helpful."}},{{"role":"user","content":{user}}},{assistant},{tool},{{"role":"user","content":[{{"type":"image_url","image_url":{{"url":"data:x"}}}},{{"type":"text","text":{user}}}]}}],"future_field":{{"x":[1,2.0]}}}}"#,
            user = json_string(WORDY)
        );
        let out = rewrite(body.as_bytes(), &plan(BrevityLevel::Full));
        let new = String::from_utf8(out.body.expect("rewritten")).unwrap();
        for kept in [
            tools,
            assistant,
            tool,
            "\"temperature\":1.50e0",
            "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:x\"}}",
            "\"future_field\":{\"x\":[1,2.0]}",
        ] {
            assert!(new.contains(kept), "{kept} changed in {new}");
        }
        let value = parse(new.as_bytes());
        let messages = value["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 5);
        let system = messages[0]["content"].as_str().unwrap();
        assert!(system.ends_with(BrevityLevel::Full.directive().unwrap()));
        assert_eq!(out.stats.vault, VaultStatus::Intact);
        assert_eq!(out.stats.brevity_applied, BrevityLevel::Full);
        for text in [
            messages[1]["content"].as_str().unwrap(),
            messages[4]["content"][1]["text"].as_str().unwrap(),
        ] {
            assert!(keeps_protected(text), "{text}");
        }
    }

    #[test]
    fn directive_goes_after_the_leading_system_block() {
        let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"system","content":"late"}]}"#;
        let out = rewrite(body.as_bytes(), &plan(BrevityLevel::Lite));
        let value = parse(&out.body.unwrap());
        let messages = value["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[0]["role"], "system");
        assert_eq!(
            messages[0]["content"],
            BrevityLevel::Lite.directive().unwrap()
        );
        assert_eq!(messages[2]["content"], "late");

        let parts = r#"{"messages":[{"role":"developer","content":[{"type":"text","text":"Rules."}]},{"role":"user","content":"hi"}]}"#;
        let value = parse(
            &rewrite(parts.as_bytes(), &plan(BrevityLevel::Ultra))
                .body
                .unwrap(),
        );
        let content = value["messages"][0]["content"].as_array().unwrap();
        assert_eq!(content.len(), 2);
        assert_eq!(content[1]["text"], BrevityLevel::Ultra.directive().unwrap());
    }

    #[test]
    fn compressed_prefix_is_byte_stable_across_turns() {
        let turn1 = format!(
            r#"{{"model":"gpt-4o","messages":[{{"role":"system","content":{s}}},{{"role":"user","content":{s}}}]}}"#,
            s = json_string(WORDY)
        );
        let turn2 = format!(
            r#"{{"model":"gpt-4o","messages":[{{"role":"system","content":{s}}},{{"role":"user","content":{s}}},{{"role":"assistant","content":"ok"}},{{"role":"user","content":"more"}}]}}"#,
            s = json_string(WORDY)
        );
        let a = rewrite(turn1.as_bytes(), &plan(BrevityLevel::Full))
            .body
            .unwrap();
        let b = rewrite(turn2.as_bytes(), &plan(BrevityLevel::Full))
            .body
            .unwrap();
        let prefix = &a[..a.len() - 2]; // without the closing `]}`
        assert!(b.starts_with(prefix));
    }

    #[test]
    fn not_json_or_off_is_bypassed() {
        let out = rewrite(b"{not json", &plan(BrevityLevel::Full));
        assert!(out.body.is_none());
        assert_eq!(out.stats.vault, VaultStatus::Bypassed);

        let body =
            r#"{"model":"gpt-4o","messages":[{"role":"user","content":"Please kindly help."}]}"#;
        let off = Plan {
            mode: ProxyMode::Off,
            brevity: BrevityLevel::Off,
        };
        let out = rewrite(body.as_bytes(), &off);
        assert!(out.body.is_none());
        assert_eq!(out.stats.vault, VaultStatus::Bypassed);
        assert!(out.stats.original_tokens > 0);
        assert_eq!(out.stats.input_saved(), 0);
    }

    #[test]
    fn error_shape_matches_the_sdk() {
        let value = parse(&error_body(401, "invalid_api_key", "bad key"));
        assert_eq!(value["error"]["message"], "bad key");
        assert_eq!(value["error"]["type"], "authentication_error");
        assert_eq!(value["error"]["code"], "invalid_api_key");
        assert!(value["error"]["param"].is_null());
    }
}
