//! Color Lines on a 9x9 board (TopCoder Marathon Match 5, "Linez").
//!
//! `rules` knows the game and nothing else; `generator` deals cases from a seed exactly as
//! marathon defines it; `protocol` reads and writes the contest's text; `env` is a case in play,
//! stepped by moves (what the judge and everything else drives); `spec` gives the contest's
//! facts and scoring; `ai` holds the built-in players; `vis` draws replays.

pub mod ai;
pub mod env;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod space;
pub mod spec;
pub mod vis;

pub use spec::{LINEZ, Linez};
