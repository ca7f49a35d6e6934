//! One-move greedy: the legal move with the best static worth, spawns ignored. The baseline the
//! search is measured against, and fast enough to tune the evaluation's weights on.

use super::eval::{MoveScorer, Weights};
use super::{Clock, Observation, Player, TURN_HAS_A_MOVE};
use crate::rules::{Board, Move};

pub struct GreedyPlayer {
    weights: Weights,
}

impl GreedyPlayer {
    pub fn new(weights: Weights) -> Self {
        Self { weights }
    }
}

/// The best move by one-move worth, with its worth and the balls it removes; ties go to the
/// first in move-generation order.
pub fn best_move(weights: &Weights, board: &Board) -> Option<(Move, f32, u32)> {
    MoveScorer::new(weights, board).best_move()
}

impl Player for GreedyPlayer {
    type Observation = Observation;
    type Action = Move;

    fn choose(&mut self, seen: &Observation, _clock: &Clock) -> Move {
        let (mv, _, _) = best_move(&self.weights, &seen.board).expect(TURN_HAS_A_MOVE);
        mv
    }
}
