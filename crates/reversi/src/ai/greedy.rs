//! The baseline: the move that flips the most pieces (so leaves player 1 the most), ties to the
//! first in row-major order. It ignores the opponents entirely.

use super::{BuiltinPlayer, Clock, Player};
use crate::rules::{Board, Cell};

pub struct GreedyPlayer;

/// The most-flips move of player 1 on `board`, if it has one.
pub fn most_flips(board: &Board) -> Option<Cell> {
    let mut best: Option<(Cell, u32)> = None;
    for cell in board.legal_moves(1) {
        let flips = board.for_each_flip(1, cell, |_| {});
        if best.is_none_or(|(_, most)| flips > most) {
            best = Some((cell, flips));
        }
    }
    best.map(|(cell, _)| cell)
}

impl Player for GreedyPlayer {
    type Observation = Board;
    type Action = Cell;

    fn choose(&mut self, board: &Board, _clock: &Clock) -> Cell {
        most_flips(board).expect("player 1 has a legal move")
    }
}

impl BuiltinPlayer for GreedyPlayer {}
