//! Who moves in a lab's Linez game: a built-in search at a fixed effort, or a network's greedy
//! choice. `linez-hazard` and `linez-train` play through it, so that their games are played
//! alike.

use std::time::Duration;

use marathon_core::Clock;
use marathon_linez::ai::{BuiltinPlayer, Observation, ntuple::Network};
use marathon_linez::rules::{Board, Color, Move};

/// The player of one move.
pub enum Mover<'a> {
    /// A built-in player at a fixed effort (which never reads its clock).
    Search(&'a mut BuiltinPlayer),
    /// The network's best move, no search; `clear_first` takes a move that clears whenever
    /// there is one (as `ai` does), else the values decide.
    Greedy {
        network: &'a Network,
        clear_first: bool,
    },
}

impl Mover<'_> {
    /// The move on `board` with `preview` coming; the turn must have one.
    pub fn choose(&mut self, board: &Board, preview: [Color; 3]) -> Move {
        match self {
            Mover::Search(player) => {
                // Fixed effort never reads the clock; a stopped one says so.
                let clock = Clock::stopped(Duration::from_secs(1000), Duration::ZERO);
                let observation = Observation {
                    board: *board,
                    preview,
                };
                player.choose(&observation, &clock)
            }
            Mover::Greedy {
                network,
                clear_first,
            } => {
                network
                    .greedy_move(board, *clear_first)
                    .expect("a player's turn has a move")
                    .0
            }
        }
    }
}
