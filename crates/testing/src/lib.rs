//! What the tests of several crates share, as a dev-dependency: hostile text and the judge
//! against a scripted player for the games' fuzz tests, and finding the headless browser for
//! the page tests.

pub mod browser;
pub mod hostile;
