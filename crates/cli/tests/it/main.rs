//! The crate's integration tests, one module a file, built as one test binary (one link
//! instead of one per file).

#[path = "../../../../testing/browser.rs"]
mod browser;
mod cli;
mod limits;
mod replay;
mod sandbox;
mod trust;
