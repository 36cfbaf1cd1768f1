//! Output schemas of the two tools: what their structured content holds, field by field.
//!
//! Written by hand because the engine's `Stats` has no schema derive (the engine crate stays free
//! of protocol dependencies); tests below check that each schema names exactly the fields that
//! the serialized value carries, so the two cannot drift apart.

use filters::{Mode, Tokenizer};
use rmcp::model::JsonObject;
use serde_json::{Value, json};

/// A JSON object from a `json!` object literal (anything else gives an empty object).
pub fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

fn count(description: &str) -> Value {
    json!({"type": "integer", "minimum": 0, "description": description})
}

fn number(description: &str) -> Value {
    json!({"type": "number", "description": description})
}

/// The structured content of `service_compress`: SPEC 2.2's `stats`.
pub fn compress_output_schema() -> JsonObject {
    let modes: Vec<&str> = Mode::ALL.iter().map(|m| m.as_str()).collect();
    let tokenizers: Vec<&str> = Tokenizer::ALL.iter().map(|t| t.as_str()).collect();
    object(json!({
        "type": "object",
        "description": "Statistics of the compression (SPEC 2.2 `stats`).",
        "properties": {
            "mode": {"type": "string", "enum": modes, "description": "Mode applied."},
            "originalTokens": count("Tokens of the prompt."),
            "finalTokens": count("Tokens of the compressed text."),
            "savedTokens": count("originalTokens - finalTokens."),
            "savedPercent": number("Percent of the prompt's tokens saved."),
            "latencyMs": number("In-memory processing time of the service, in milliseconds."),
            "tokenizerUsed": {"type": "string", "enum": tokenizers, "description": "Tokenizer that counted the tokens."},
            "integrityPassed": {"type": "boolean", "description": "True when every protected item was restored byte-identical."},
            "stageBreakdown": {
                "type": "object",
                "properties": {
                    "deterministicSaved": count("Tokens saved by the rule-based stages."),
                    "densitySaved": count("Tokens saved by the density stages."),
                    "protectedItemsCount": count("Protected items held in the vault."),
                },
                "required": ["deterministicSaved", "densitySaved", "protectedItemsCount"],
            },
            "protectedItems": {
                "type": "object",
                "properties": {
                    "codeBlocks": count("Fenced code blocks and inline code spans kept intact."),
                    "jsonBlocks": count("JSON objects and arrays kept intact."),
                    "variables": count("Template variables kept intact."),
                },
                "required": ["codeBlocks", "jsonBlocks", "variables"],
            },
        },
        "required": ["mode", "originalTokens", "finalTokens", "savedTokens", "savedPercent",
            "latencyMs", "tokenizerUsed", "integrityPassed", "stageBreakdown", "protectedItems"],
    }))
}

/// The `session` object of `service_get_metrics` (see `session::SessionMetrics`).
fn session_schema() -> Value {
    json!({
        "type": "object",
        "description": "This session's telemetry, since the assistant started the server.",
        "properties": {
            "uptimeSeconds": number("Seconds since the server started."),
            "toolCalls": count("Calls of either tool in this session, this one included."),
            "compressCalls": count("Successful service_compress calls."),
            "failedCalls": count("Calls that returned isError: true."),
            "originalTokens": count("Tokens of the prompts compressed (measured by the service)."),
            "finalTokens": count("Tokens of the compressed texts (measured by the service)."),
            "inputTokensSaved": count("originalTokens - finalTokens: input tokens saved (measured)."),
            "inputSavedPercent": number("Percent of originalTokens saved."),
            "brevityLevel": {"type": "string", "enum": ["off", "lite", "full", "ultra"], "description": "SERVICE_PONYTAIL: the brevity directive in the server's instructions."},
            "outputSavingShare": number("Prior share of output tokens the brevity level is expected to save (0 at off)."),
            "outputTokensSavedEst": count("ESTIMATE: finalTokens x 1.0 (assumed answer tokens per prompt token) x outputSavingShare."),
            "priceModel": {"type": "string", "description": "Model whose prices value the savings (SERVICE_PRICE_MODEL, else the table's default)."},
            "inputUsdPerMtok": number("Input price of priceModel, USD per million tokens."),
            "outputUsdPerMtok": number("Output price of priceModel, USD per million tokens."),
            "inputUsdSaved": number("inputTokensSaved x inputUsdPerMtok / 1e6."),
            "outputUsdSavedEst": number("ESTIMATE: outputTokensSavedEst x outputUsdPerMtok / 1e6."),
            "netUsdSaved": number("inputUsdSaved + outputUsdSavedEst, in USD (partly an estimate)."),
        },
        "required": ["uptimeSeconds", "toolCalls", "compressCalls", "failedCalls", "originalTokens",
            "finalTokens", "inputTokensSaved", "inputSavedPercent", "brevityLevel",
            "outputSavingShare", "outputTokensSavedEst", "priceModel", "inputUsdPerMtok",
            "outputUsdPerMtok", "inputUsdSaved", "outputUsdSavedEst", "netUsdSaved"],
    })
}

/// The structured content of `service_get_metrics`.
pub fn metrics_output_schema() -> JsonObject {
    object(json!({
        "type": "object",
        "properties": {
            "session": session_schema(),
            "month": {
                "type": "object",
                "description": "The key's usage this calendar month (UTC), from the service's GET /api/v1/usage (its body without `success`).",
                "properties": {
                    "keyId": {"type": "string", "description": "Id of the key (never its secret)."},
                    "month": {"type": "string", "description": "The month, YYYY-MM (UTC)."},
                    "totals": {"type": "object", "description": "requests, originalTokens, finalTokens, savedTokens, outputSavedEst (proxy estimate), usdSaved, summed over the month."},
                    "daily": {"type": "array", "description": "The same totals per day with usage (`day`: YYYY-MM-DD), oldest first."},
                    "topModels": {"type": "array", "description": "The same totals per model (compress calls are the model \"\"), largest first."},
                    "quota": {"type": "object", "description": "monthlyTokens (0 = unlimited), usedTokens, remainingTokens (null when unlimited)."},
                    "rateLimit": {"type": "object", "description": "requestsPerMinute of the key (0 = unlimited)."},
                },
            },
        },
        "required": ["session", "month"],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::prices::PriceTable;
    use crate::mcp::session::SessionTelemetry;
    use filters::{BrevityLevel, Options};

    /// The property names of a schema object, and the keys of a value, must be the same sets.
    fn assert_same_fields(schema: &Value, value: &Value) {
        let mut declared: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let mut present: Vec<&String> = value.as_object().unwrap().keys().collect();
        declared.sort();
        present.sort();
        assert_eq!(declared, present);
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| name.as_str().unwrap())
            .collect();
        required.sort();
        assert_eq!(
            required,
            present.iter().map(|s| s.as_str()).collect::<Vec<_>>()
        );
        for (name, sub) in schema["properties"].as_object().unwrap() {
            if sub.get("properties").is_some() {
                assert_same_fields(sub, &value[name]);
            }
        }
    }

    #[test]
    fn the_compress_schema_names_every_field_of_the_stats() {
        let stats = filters::compress("Hello `code` {{name}}", &Options::default()).stats;
        let schema = Value::Object(compress_output_schema());
        assert_same_fields(&schema, &serde_json::to_value(stats).unwrap());
    }

    #[test]
    fn the_metrics_schema_names_every_field_of_the_session() {
        let price = PriceTable::load(None).unwrap().for_session(None).unwrap();
        let session = SessionTelemetry::new(BrevityLevel::Ultra, price).snapshot();
        let schema = Value::Object(metrics_output_schema());
        assert_same_fields(
            &schema["properties"]["session"],
            &serde_json::to_value(session).unwrap(),
        );
    }
}
