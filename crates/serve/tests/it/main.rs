//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

mod api;
#[path = "../../../../testing/browser.rs"]
mod browser;
mod common;
mod limits;
mod play_page;
