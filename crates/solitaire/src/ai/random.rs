//! Uniformly random legal removals until none is left: the floor every other player is
//! measured against.

use marathon_core::rng::FastRng;

use super::{Clock, Player};
use crate::protocol::Reply;
use crate::rules::{State, cells_of};

pub struct RandomPlayer {
    rng: FastRng,
}

impl RandomPlayer {
    pub fn new(rng: FastRng) -> Self {
        Self { rng }
    }
}

impl Player for RandomPlayer {
    type Observation = State;
    type Action = Reply;

    fn choose(&mut self, state: &State, _clock: &Clock) -> Reply {
        let legal = state.legal();
        if legal == 0 {
            return Reply::Stop;
        }
        let cell = cells_of(legal).nth(self.rng.below(legal.count_ones()) as usize);
        cell.map_or(Reply::Stop, Reply::Remove)
    }
}
