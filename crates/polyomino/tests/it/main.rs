//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod bits;
mod fuzz;
mod generator;
#[path = "../../../../testing/hostile.rs"]
mod hostile;
mod judge;
mod players;
mod protocol;
mod rules;
