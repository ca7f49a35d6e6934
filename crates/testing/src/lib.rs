//! What the tests of several crates share, as a dev-dependency: hostile text for the games'
//! fuzz tests, games under the judge (a scripted player that turns hostile, a built-in player's
//! game recorded and replayed), finding the headless browser for the page tests, and scratch
//! directories of a test process's own.

pub mod browser;
pub mod hostile;
pub mod judged;
pub mod scratch;
