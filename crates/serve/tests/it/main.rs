//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod api;
mod common;
mod limits;
mod play_page;

use marathon_testing::browser;
