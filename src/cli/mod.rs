pub mod compress;
pub mod eval;
pub mod keys;
mod progress;
pub mod serve;
