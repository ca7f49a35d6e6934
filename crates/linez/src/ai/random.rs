//! Uniformly random legal moves: the floor every other player is measured against.

use marathon_core::rng::FastRng;

use super::{Clock, Observation, Player, TURN_HAS_A_MOVE};
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

    fn choose(&mut self, observation: &Observation, _clock: &Clock) -> Move {
        // Reservoir sampling keeps move generation allocation-free.
        let mut chosen = None;
        let mut seen = 0u32;
        observation.board.for_each_legal_move(|mv| {
            seen += 1;
            if self.rng.below(seen) == 0 {
                chosen = Some(mv);
            }
        });
        chosen.expect(TURN_HAS_A_MOVE)
    }
}
