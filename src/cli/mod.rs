pub mod compress;
pub mod eval;
pub mod mcp;
mod progress;
