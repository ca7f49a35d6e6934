//! Dice, a game that exists to test marathon itself: a case starts with one roll of a die;
//! roll again to add to the total, stop whenever you like, and score the total, or nothing if it
//! goes over 100. It is registered only in test builds (`marathon-games`' `test-game` feature)
//! and changes nothing outside this crate and its registry line: every shared test that passes
//! for it shows that a game is a crate and one line.
//!
//! The layout is every game's: `rules` (no IO, no AI), `generator`, `protocol`, `env`, `ai`,
//! `vis`, `spec`.

pub mod ai;
pub mod env;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod spec;
pub mod vis;

pub use spec::{DICE, Dice};
