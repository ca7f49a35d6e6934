//! A uniformly random legal reply (placements and `DISCARD` alike); `GIVE UP` only when nothing
//! else is legal. For tests of the judge and the rules.

use marathon_core::rng::FastRng;

use super::{Clock, Observation, Player};
use crate::rules::Move;

pub struct RandomPlayer {
    rng: FastRng,
}

impl RandomPlayer {
    pub fn new(rng: FastRng) -> Self {
        Self { rng }
    }
}

impl Player for RandomPlayer {
    type Observation = Observation;
    type Action = Move;

    fn choose(&mut self, seen: &Observation, _clock: &Clock) -> Move {
        let moves = seen.state.legal_moves(seen.tile);
        if moves.is_empty() {
            Move::GiveUp
        } else {
            moves[self.rng.below(moves.len() as u32) as usize]
        }
    }
}
