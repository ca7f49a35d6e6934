//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod fuzz;
mod generator;
#[path = "../../../../testing/hostile.rs"]
mod hostile;
mod infer;
mod judge;
mod props;
mod protocol;
mod rules;
mod search;
mod strategy;
