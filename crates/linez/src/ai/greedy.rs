//! One-move greedy: the legal move with the best static worth, spawns ignored. The baseline the
//! search is measured against, and fast enough to tune the evaluation's weights on.

use super::eval::{MoveScorer, Weights};
use super::{Clock, Player};
use crate::rules::{Board, Color, Move};

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
    fn choose(&mut self, board: &Board, _preview: [Color; 3], _clock: &Clock) -> Option<Move> {
        best_move(&self.weights, board).map(|(mv, _, _)| mv)
    }
}
