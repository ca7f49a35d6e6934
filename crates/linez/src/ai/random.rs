//! Uniformly random legal moves: the floor every other player is measured against.

use marathon_core::rng::FastRng;

use super::{Clock, Player};
use crate::rules::{Board, Color, Move};

pub struct RandomPlayer {
    rng: FastRng,
}

impl RandomPlayer {
    pub fn new(rng: FastRng) -> Self {
        Self { rng }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, board: &Board, _preview: [Color; 3], _clock: &Clock) -> Option<Move> {
        // Reservoir sampling keeps move generation allocation-free.
        let mut chosen = None;
        let mut seen = 0u32;
        board.for_each_legal_move(|mv| {
            seen += 1;
            if self.rng.below(seen) == 0 {
                chosen = Some(mv);
            }
        });
        chosen
    }
}
