pub mod compress;
pub mod eval;
mod progress;
