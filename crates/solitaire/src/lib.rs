//! Solitaire chess (Kattis `solitarschack`, PO final 2016): remove pieces from a 6x6 board of
//! three-piece stacks, each removal limited by the type of the last removed piece, for points
//! per removal and bonuses for runs, sets and alternating sets.
//!
//! `rules` knows the game and nothing else; `generator` deals cases from (alphabet, seed) with
//! Python's `random` exactly as the official tests were made; `protocol` reads and writes the
//! Kattis text; `env` is a case in play, stepped by removals (what the judge and everything else
//! drives); `follow` is the player's side of it, for programs that choose by the
//! environment's observation; `spec` gives the contest's facts and scoring; `ai` holds the built-in players; `vis`
//! draws replays.

pub mod ai;
pub mod env;
pub mod follow;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod space;
pub mod spec;
pub mod vis;

pub use spec::{SOLITAIRE, Solitaire};
