//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod cli;
mod limits;
mod replay;
mod sandbox;
mod trust;

use marathon_testing::browser;
