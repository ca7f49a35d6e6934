//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod fuzz;
mod generator;
mod judge;
mod players;
mod positions;
mod props;
mod protocol;
mod rules;

use marathon_testing::{hostile, judged};
