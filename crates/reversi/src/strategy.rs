//! The computer players' move choice (docs/rules.md#reversi-opponent-strategy): each
//! has a weight per cell and plays the legal move with the best ratio of the weight of its own
//! cells to the weight of the other players' cells after the move.
//!
//! The value is a function of the board alone: before the moves are tried, the weights of the
//! mover's cells and of the other players' cells are summed in row-major order (`mine`,
//! `theirs`); a move on `c` flipping cells `F` (summed in [`crate::rules::DIRECTIONS`]
//! order, nearest first) then has the value `(mine + (w[c] + sum F)) / (theirs - sum F)` in IEEE
//! f64. Moves are tried in row-major order; the first strictly greatest value wins; NaN never
//! wins; if none wins (every value NaN) the first legal move is played.

use crate::rules::{Bits, Board, CELL_SLOTS, CaptureRuns, Cell, DIRECTIONS, Player};

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
    (
        sum_row_major(own, weights),
        sum_row_major(board.occupied() - own, weights),
    )
}

/// The weights of `cells` added in row-major order (bit order), starting from +0.
#[inline]
fn sum_row_major(cells: Bits, weights: &Weights) -> f64 {
    let mut sum = 0.0;
    for (base, mut word) in (0..).step_by(64).zip(cells.words()) {
        while word != 0 {
            sum += weights.0[base + word.trailing_zeros() as usize];
            word &= word - 1;
        }
    }
    sum
}

/// Whether `value` beats the best so far (docs/rules.md#reversi-opponent-strategy): strictly
/// greater, NaN never.
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
    mut visit: impl FnMut(Cell, f64),
) {
    let mut runs = FlipSums::empty(weights);
    board.for_each_capture_run(mover, &mut runs);
    values_of(board, mover, weights, &runs, |cell, _, value| {
        visit(cell, value)
    });
}

/// Calls `visit(cell, directions, value)` for each legal move, row-major (`directions`: the
/// mask of [`Board::for_each_flip_along`]).
#[inline]
fn values_of(
    board: &Board,
    mover: Player,
    weights: &Weights,
    runs: &FlipSums,
    mut visit: impl FnMut(Cell, u8, f64),
) {
    let (mine, theirs) = weight_sums(board, mover, weights);
    for cell in runs.legal {
        let i = cell.index();
        let flipped = runs.flipped[i];
        let value = (mine + (weights.0[i] + flipped)) / (theirs - flipped);
        visit(cell, runs.directions[i], value);
    }
}

/// Each legal move's flipped weight, added direction by direction in DIRECTIONS order, nearest
/// first: the runs come sorted by direction with their lengths known, so no walk looks for its
/// end and no mailbox is read.
struct FlipSums<'a> {
    weights: &'a Weights,
    flipped: [f64; CELL_SLOTS],
    /// The directions in which each move captures (a mask of [`Board::for_each_flip_along`]).
    directions: [u8; CELL_SLOTS],
    legal: Bits,
}

impl<'a> FlipSums<'a> {
    #[inline(always)]
    fn empty(weights: &'a Weights) -> Self {
        FlipSums {
            weights,
            flipped: [0.0; CELL_SLOTS],
            directions: [0; CELL_SLOTS],
            legal: Bits::NONE,
        }
    }
}

impl CaptureRuns for FlipSums<'_> {
    #[inline(always)]
    fn run(&mut self, d: usize, length: u32, moves: Bits) {
        self.legal |= moves;
        let step = DIRECTIONS[d];
        for cell in moves {
            let i = cell.index();
            self.directions[i] |= 1 << d;
            let mut at = i;
            for _ in 0..length {
                at = at.wrapping_add_signed(step);
                self.flipped[i] += self.weights.0[at];
            }
        }
    }
}

/// The move `mover` plays with `weights` (docs/rules.md#reversi-opponent-strategy); `None` only
/// when it has no legal move.
pub fn choose(board: &Board, mover: Player, weights: &Weights) -> Option<Cell> {
    best_move(board, mover, weights).map(|(cell, _)| cell)
}

/// Plays the move of [`choose`] on `board` and returns it; `None` (the board unchanged) when
/// `mover` has no legal move.
pub fn choose_and_play(board: &mut Board, mover: Player, weights: &Weights) -> Option<Cell> {
    let (cell, directions) = best_move(board, mover, weights)?;
    board.play_along(mover, cell, directions);
    Some(cell)
}

/// The chosen move and the directions in which it captures.
#[inline]
fn best_move(board: &Board, mover: Player, weights: &Weights) -> Option<(Cell, u8)> {
    let mut runs = FlipSums::empty(weights);
    board.for_each_capture_run(mover, &mut runs);
    let first = runs.legal.first()?;
    let first = (first, runs.directions[first.index()]);
    if runs.legal.count() == 1 {
        // A lone move is played whatever its value (even NaN): no need to know it.
        return Some(first);
    }
    let mut best: Option<(Cell, u8, f64)> = None;
    values_of(board, mover, weights, &runs, |cell, along, value| {
        if beats(value, best.map(|b| b.2)) {
            best = Some((cell, along, value));
        }
    });
    Some(best.map_or(first, |(cell, along, _)| (cell, along)))
}

/// The move choice written plainly, as docs/rules.md#reversi-opponent-strategy reads: the reference
/// that the fast path above is tested and benched against (same values bit for bit, same choices).
pub mod plain {
    use super::{Weights, beats};
    use crate::rules::{Board, Cell, Player};

    /// [`super::choose`], cell by cell: sums over the board's cells in row-major order, then
    /// for each legal move a walk of the 8 directions.
    pub fn choose(board: &Board, mover: Player, weights: &Weights) -> Option<Cell> {
        let (mut mine, mut theirs) = (0.0, 0.0);
        for cell in board.occupied() {
            if board.get(cell) == Some(mover) {
                mine += weights.get(cell);
            } else {
                theirs += weights.get(cell);
            }
        }
        let mut first = None;
        let mut best: Option<(Cell, f64)> = None;
        for cell in board.legal_moves(mover) {
            let mut flipped = 0.0;
            board.for_each_flip(mover, cell, |c| flipped += weights.get(c));
            let value = (mine + (weights.get(cell) + flipped)) / (theirs - flipped);
            first.get_or_insert(cell);
            if beats(value, best.map(|b| b.1)) {
                best = Some((cell, value));
            }
        }
        best.map(|b| b.0).or(first)
    }

    /// [`super::choose_and_play`] with [`choose`] and [`Board::play_unchecked`].
    pub fn choose_and_play(board: &mut Board, mover: Player, weights: &Weights) -> Option<Cell> {
        let cell = choose(board, mover, weights)?;
        board.play_unchecked(mover, cell);
        Some(cell)
    }
}
