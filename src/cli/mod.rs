pub mod compress;
pub mod eval;
pub mod keys;
pub mod serve;
mod progress;
