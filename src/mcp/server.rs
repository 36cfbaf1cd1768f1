//! The MCP server: its instructions and its two tools, `service_compress` and
//! `service_get_metrics`. Every failure is a tool result with `isError: true`, never a crash.

use super::args::{compress_input_schema, parse_compress_args};
use super::client::ServiceClient;
use super::config::McpConfig;
use super::schema::{compress_output_schema, metrics_output_schema};
use super::session::SessionTelemetry;
use filters::{BrevityLevel, Mode};
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, JsonObject, ServerCapabilities, ServerConfig,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::json;
use std::sync::Arc;

/// The one-line description of the tools that follows the brevity directive in `instructions`.
pub const TOOLS_LINE: &str = "Tools: service_compress shortens a prompt or context through the \
terse service, keeping code, JSON and template variables byte-identical, and returns the shorter \
text with token statistics; service_get_metrics reports the tokens and US dollars saved in this \
session and the key's usage this month.";

/// The server's `instructions`: the brevity directive the proxy injects at this level (none at
/// `off`), then the description of the tools.
pub fn instructions(level: BrevityLevel) -> String {
    match level.directive() {
        Some(directive) => format!("{directive}\n\n{TOOLS_LINE}"),
        None => TOOLS_LINE.to_string(),
    }
}

#[derive(Clone)]
pub struct TerseMcp {
    client: ServiceClient,
    telemetry: Arc<SessionTelemetry>,
    default_mode: Mode,
    brevity: BrevityLevel,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl TerseMcp {
    pub fn new(config: &McpConfig, telemetry: SessionTelemetry) -> Self {
        let mut tool_router = Self::tool_router();
        // The schema's `mode` default is SERVICE_MODE, known only now, not when the macro ran.
        if let Some(route) = tool_router.map.get_mut("service_compress") {
            route.attr.input_schema = Arc::new(compress_input_schema(config.default_mode));
        }
        TerseMcp {
            client: ServiceClient::new(config),
            telemetry: Arc::new(telemetry),
            default_mode: config.default_mode,
            brevity: config.brevity,
            tool_router,
        }
    }

    /// Compresses a prompt through the terse service.
    #[tool(
        description = "Compress a prompt or context before sending it to a model: returns the \
            shorter text (same meaning, fewer tokens) as text, and the token statistics as \
            structured content. Fenced code, inline code and JSON stay byte-identical unless \
            their protection is turned off.",
        output_schema = Arc::new(compress_output_schema()),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn service_compress(&self, Parameters(args): Parameters<JsonObject>) -> CallToolResult {
        self.telemetry.record_call();
        let request = match parse_compress_args(&args, self.default_mode) {
            Ok(request) => request,
            Err(message) => return self.failure(format!("bad argument: {message}")),
        };
        let mode = request.mode;
        match self.client.compress(request).await {
            Ok(answer) => {
                self.telemetry.record_compression(&answer.stats);
                tracing::info!(
                    tool = "service_compress",
                    %mode,
                    original_tokens = answer.stats.original_tokens,
                    final_tokens = answer.stats.final_tokens,
                    "compressed"
                );
                let stats = serde_json::to_value(&answer.stats).unwrap_or_default();
                let mut result = CallToolResult::success(vec![
                    ContentBlock::text(answer.compressed),
                    // Clients that do not read structured content still get the statistics.
                    ContentBlock::text(stats.to_string()),
                ]);
                result.structured_content = Some(stats);
                result
            }
            Err(err) => {
                tracing::warn!(tool = "service_compress", error = %err, "service call failed");
                self.failure(err.advice())
            }
        }
    }

    /// Reports this session's savings and the key's usage this month.
    #[tool(
        description = "Savings telemetry: this session's tool calls, input tokens saved \
            (measured), output tokens saved (an estimate from the brevity level), net US dollars \
            saved at the configured model's prices, and the API key's totals for this month from \
            the service.",
        output_schema = Arc::new(metrics_output_schema()),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn service_get_metrics(&self) -> CallToolResult {
        self.telemetry.record_call();
        match self.client.usage().await {
            Ok(mut month) => {
                // `success` is the HTTP envelope; the tool's own `isError` already says it.
                if let Some(fields) = month.as_object_mut() {
                    fields.remove("success");
                }
                let session = self.telemetry.snapshot();
                let metrics = json!({"session": session, "month": month});
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(metrics.to_string())]);
                result.structured_content = Some(metrics);
                result
            }
            Err(err) => {
                tracing::warn!(tool = "service_get_metrics", error = %err, "usage call failed");
                self.telemetry.record_failure();
                let session = self.telemetry.snapshot();
                CallToolResult::error(vec![
                    ContentBlock::text(format!(
                        "this month's usage could not be read from the service: {}",
                        err.advice()
                    )),
                    ContentBlock::text(format!(
                        "This session so far: {}",
                        serde_json::to_value(&session).unwrap_or_default()
                    )),
                ])
            }
        }
    }

    fn failure(&self, message: String) -> CallToolResult {
        self.telemetry.record_failure();
        CallToolResult::error(vec![ContentBlock::text(message)])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TerseMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("terse", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions(self.brevity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_carry_the_directive_of_each_level() {
        assert_eq!(instructions(BrevityLevel::Off), TOOLS_LINE);
        for level in [BrevityLevel::Lite, BrevityLevel::Full, BrevityLevel::Ultra] {
            let text = instructions(level);
            assert!(text.starts_with(level.directive().unwrap()), "{level}");
            assert!(text.ends_with(TOOLS_LINE));
        }
    }
}
