//! A uniformly random legal reply (placements and `DISCARD` alike); `GIVE UP` only when nothing
//! else is legal. For tests of the judge and the rules.

use marathon_core::rng::FastRng;

use super::{Clock, Player};
use crate::rules::{Move, State, Tile};

pub struct RandomPlayer {
    rng: FastRng,
}

impl RandomPlayer {
    pub fn new(rng: FastRng) -> Self {
        Self { rng }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, state: &State, tile: Tile, _clock: &Clock) -> Move {
        let moves = state.legal_moves(tile);
        if moves.is_empty() {
            Move::GiveUp
        } else {
            moves[self.rng.below(moves.len() as u32) as usize]
        }
    }
}
