//! The naive baseline. `W` and regular tiles go on the first legal cell (row-major) with the
//! most placed neighbours; `R` removes the first tile in row-major order; with no legal cell
//! the tile is discarded, and the player gives up only when discarding is not allowed either.

use super::{Clock, Observation, Player};
use crate::rules::{EMPTY, Move, Pos};

pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    type Observation = Observation;
    type Action = Move;

    fn choose(&mut self, seen: &Observation, _clock: &Clock) -> Move {
        let (state, tile) = (&seen.state, seen.tile);
        let board = &state.board;
        let best = match tile.code(state.params.n) {
            None => board.indices().find(|&i| board.at(i) != EMPTY),
            Some(code) => {
                let mut best: Option<(usize, usize)> = None;
                for i in board.indices().filter(|&i| board.can_place(i, code)) {
                    let neighbours = crate::rules::NEIGHBOURS
                        .iter()
                        .filter(|&&d| board.at(i.wrapping_add_signed(d)) != EMPTY)
                        .count();
                    if best.is_none_or(|(_, n)| neighbours > n) {
                        best = Some((i, neighbours));
                    }
                }
                best.map(|(i, _)| i)
            }
        };
        match best {
            Some(index) => Move::Place(Pos::from_index(index)),
            None if state.can_discard() => Move::Discard,
            None => Move::GiveUp,
        }
    }
}
