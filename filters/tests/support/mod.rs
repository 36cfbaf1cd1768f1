//! Helpers shared by the integration tests (and, through `#[path]`, the benchmark and the fuzz
//! target). Each test binary uses only part of them.
#![allow(dead_code)]

pub mod corpus;
pub mod invariants;
