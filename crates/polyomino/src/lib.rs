//! Polyomino (TopCoder Intel Multi-Threading Competition 9, 2006): cover a partly covered board
//! with random polyominoes of the sizes you ask for; each placed piece scores its size squared,
//! each unplaced one costs it, and every second costs 1%.
//!
//! `rules` knows the game and nothing else (the board, pieces, rotations, and the [`Session`]
//! that validates every `getNext`/`placeNext` call); `generator` deals boards and pieces from a
//! seed exactly as marathon defines it (docs/rules.md#polyomino-generation); `protocol` reads and
//! writes the contest's text; `env` is a case in play, stepped by the program's calls (what the
//! judge and everything else drives); `spec` gives the contest's facts and scoring; `ai` holds
//! the built-in players, which play against the [`Contest`] trait; `vis` draws replays.
//!
//! [`Session`]: rules::Session
//! [`Contest`]: rules::Contest

pub mod ai;
pub mod env;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod space;
pub mod spec;
pub mod vis;

pub use spec::{POLYOMINO, Polyomino};
