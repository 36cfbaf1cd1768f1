pub mod compress;
pub mod eval;
