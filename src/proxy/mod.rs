//! The drop-in provider proxy: `POST /v1/chat/completions` (OpenAI) and `POST /v1/messages`
//! (Anthropic), read in the order a request travels:
//!
//! 1. `route`     which key the client presented, and which target the request goes to;
//! 2. `openai` / `anthropic`  the input stage per protocol: compress the prompt texts
//!    (`input`, byte-exact edits through `splice`, repeated texts from `cache`) and append the
//!    brevity directive;
//! 3. `telemetry` the `X-Service-*` headers on the response;
//! 4. `estimate`  the output tokens the directive saved (an estimate from measured usage),
//!    and `prices` to turn saved tokens into USD.

pub mod anthropic;
pub mod cache;
pub mod config;
pub mod estimate;
#[cfg(test)]
mod fixtures;
pub mod forward;
pub mod handler;
pub mod input;
pub mod openai;
pub mod prices;
pub mod route;
pub mod splice;
pub mod telemetry;
