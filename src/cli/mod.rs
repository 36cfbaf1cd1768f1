pub mod compress;
pub mod eval;
pub mod keys;
pub mod mcp;
mod progress;
pub mod serve;
