//! The computer players' move choice (RULES.md, MultiplayerReversi, "Opponent strategy"): each
//! has a weight per cell and plays the legal move with the best ratio of the weight of its own
//! cells to the weight of the other players' cells after the move.
//!
//! The value is a function of the board alone: before the moves are tried, the weights of the
//! mover's cells and of the other players' cells are summed in row-major order (`mine`,
//! `theirs`); a move on `c` flipping cells `F` (summed in [`DIRECTIONS`](crate::rules::DIRECTIONS)
//! order, nearest first) then has the value `(mine + (w[c] + sum F)) / (theirs - sum F)` in IEEE
//! f64. Moves are tried in row-major order; the first strictly greatest value wins; NaN never
//! wins; if none wins (every value NaN) the first legal move is played.

use crate::rules::{Bits, Board, CELL_SLOTS, Cell, Player};

/// A strategy: one weight per cell number (cells off the board keep weight 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights(pub [f64; CELL_SLOTS]);

impl Default for Weights {
    fn default() -> Self {
        Weights([0.0; CELL_SLOTS])
    }
}

impl Weights {
    #[inline]
    pub fn get(&self, cell: Cell) -> f64 {
        self.0[cell.index()]
    }

    #[inline]
    pub fn set(&mut self, cell: Cell, weight: f64) {
        self.0[cell.index()] = weight;
    }
}

/// The sums of the weights of `mover`'s cells and of the other players' cells, row-major.
#[inline]
pub fn weight_sums(board: &Board, mover: Player, weights: &Weights) -> (f64, f64) {
    let own = board.pieces(mover);
    let mut mine = 0.0;
    for cell in own {
        mine += weights.get(cell);
    }
    let mut theirs = 0.0;
    for cell in board.occupied() - own {
        theirs += weights.get(cell);
    }
    (mine, theirs)
}

/// Whether `value` beats the best so far under RULES.md: strictly greater, NaN never.
#[inline]
pub fn beats(value: f64, best: Option<f64>) -> bool {
    match best {
        _ if value.is_nan() => false,
        None => true,
        Some(best) => value > best,
    }
}

/// The value of each legal move of `mover`, row-major, passed to `visit(cell, value)`.
#[inline]
pub fn for_each_value(
    board: &Board,
    mover: Player,
    weights: &Weights,
    visit: impl FnMut(Cell, f64),
) {
    values_of(board, mover, weights, board.legal_moves(mover), visit);
}

#[inline]
fn values_of(
    board: &Board,
    mover: Player,
    weights: &Weights,
    legal: Bits,
    mut visit: impl FnMut(Cell, f64),
) {
    let (mine, theirs) = weight_sums(board, mover, weights);
    for cell in legal {
        let mut flipped = 0.0;
        board.for_each_flip(mover, cell, |c| flipped += weights.get(c));
        let value = (mine + (weights.get(cell) + flipped)) / (theirs - flipped);
        visit(cell, value);
    }
}

/// The move `mover` plays with `weights` (RULES.md); `None` only when it has no legal move.
pub fn choose(board: &Board, mover: Player, weights: &Weights) -> Option<Cell> {
    let legal = board.legal_moves(mover);
    if legal.count() <= 1 {
        // A lone move is played whatever its value (even NaN).
        return legal.first();
    }
    let mut first = None;
    let mut best: Option<(Cell, f64)> = None;
    values_of(board, mover, weights, legal, |cell, value| {
        first.get_or_insert(cell);
        if beats(value, best.map(|b| b.1)) {
            best = Some((cell, value));
        }
    });
    best.map(|b| b.0).or(first)
}
