//! TilesMatching (TopCoder Marathon Match 53): place a stream of random tiles on an `S` x `S`
//! board so that every tile matches its neighbours in colour or shape, clear full rows and
//! columns, and survive up to 10,000 moves.
//!
//! `rules` knows the game and nothing else; `generator` deals a case's parameters and tile
//! stream from a seed exactly as docs/rules.md#tiles-generation defines them; `protocol` reads
//! and writes the contest's text; `env` is a case in play, stepped by replies (what the judge
//! and everything else drives); `follow` is the player's side of it, for programs that choose by
//! the environment's observation; `spec` gives the contest's facts and scoring; `ai` holds the
//! built-in players; `vis` draws replays.

pub mod ai;
pub mod env;
pub mod follow;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod space;
pub mod spec;
pub mod vis;

pub use spec::{TILES, Tiles};
