//! MultiplayerReversi (TopCoder Marathon Match 31): rules, evolved opponents, judge and AI.
//!
//! `rules` knows the game and nothing else; `strategy` is the computer players' move choice;
//! `generator` deals a case from a seed (the board size and the opponents' strategies, evolved
//! by the genetic algorithm of docs/rules.md#reversi-generation); `protocol` reads and writes
//! the contest's text; `env` is a case in play, player 1 stepping it and the opponents moving by
//! themselves (what the judge and everything else drives); `spec` gives the contest's facts and
//! scoring; `ai` holds the built-in players, among them the AI that infers the opponents'
//! weights from their moves; `vis` draws replays.

pub mod ai;
pub mod env;
pub mod generator;
pub mod protocol;
pub mod rules;
pub mod space;
pub mod spec;
pub mod strategy;
pub mod vis;

pub use spec::{REVERSI, Reversi};
