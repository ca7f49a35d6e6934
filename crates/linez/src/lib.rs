//! Color Lines on a 9x9 board (TopCoder Marathon Match 5, "Linez").
//!
//! `rules` knows the game and nothing else; `generator` deals cases from a seed exactly as
//! marathon defines it; `protocol` reads and writes the contest's text; `judge` drives a player
//! through a case; `ai` holds the built-in players; `vis` draws replays.

pub mod ai;
pub mod generator;
pub mod judge;
pub mod protocol;
pub mod rules;
pub mod vis;

pub use judge::{LINEZ, Linez};
