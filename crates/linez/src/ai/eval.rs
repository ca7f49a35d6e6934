//! The static evaluation of a position with the player to move: the line potential of every
//! window of five, and free space. Survival is everything in Linez (about 3.2 points per move
//! survived), so the terms measure how soon lines can be completed and how much room is left.
//!
//! Evaluating every legal move (often over a thousand) is the inner loop of the search, so
//! [`MoveScorer`] keeps the worth of each window of a base board and scores a move by the
//! change of the windows through its two cells only.

use super::windows::{COUNT, WINDOWS, WINDOWS_OF_CELL};
use crate::rules::{Board, Cell, Move, PREVIEW_LEN, line_points};

/// Weights of the evaluation terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of a window holding `n` balls of one colour and nothing else, for n = 0..=4.
    pub line: [f32; 5],
    /// Worth of a point scored.
    pub points: f32,
    /// Worth of an empty cell.
    pub empty: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            line: [0.0, 0.5, 2.0, 6.0, 16.0],
            points: 3.0,
            empty: 6.0,
        }
    }
}

impl Weights {
    /// The static worth of `board` with the player to move.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let mut value = self.empty * board.empty_cells().count() as f32;
        for window in 0..COUNT {
            value += self.window_worth(board, window);
        }
        value
    }

    fn window_worth(&self, board: &Board, window: usize) -> f32 {
        let mask = WINDOWS[window];
        let balls = board.occupied().raw() & mask;
        let n = balls.count_ones();
        if n == 0 {
            return self.line[0];
        }
        let color = board
            .get(Cell::from_index(balls.trailing_zeros() as usize))
            .expect("an occupied cell");
        if (board.color_bits(color).raw() & mask).count_ones() == n {
            self.line.get(n as usize).copied().unwrap_or(0.0)
        } else {
            0.0
        }
    }

    /// The worth of the points a clear of `removed` balls scores.
    pub fn clear_value(&self, removed: u32) -> f32 {
        self.points * line_points(removed) as f32
    }

    /// The one-move worth of `mv`: the position after it, the points it scores, and, when it
    /// clears nothing, the cost of the spawn it lets in. Returns the worth and the balls
    /// removed.
    pub fn move_value(&self, board: &Board, mv: Move) -> (f32, u32) {
        let mut after = *board;
        let removed = after.move_ball(mv);
        let mut value = self.evaluate(&after) + self.clear_value(removed);
        if removed == 0 {
            value -= self.spawn_cost();
        }
        (value, removed)
    }

    /// What letting a spawn in costs: the cells it fills.
    fn spawn_cost(&self) -> f32 {
        self.empty * PREVIEW_LEN as f32
    }
}

/// Scores every move from one board quickly: `score(mv)` equals `weights.move_value(board,
/// mv)` (up to float rounding).
pub struct MoveScorer<'a> {
    weights: &'a Weights,
    board: &'a Board,
    window_worth: [f32; COUNT],
    base: f32,
}

impl<'a> MoveScorer<'a> {
    pub fn new(weights: &'a Weights, board: &'a Board) -> Self {
        let mut window_worth = [0.0; COUNT];
        for (window, worth) in window_worth.iter_mut().enumerate() {
            *worth = weights.window_worth(board, window);
        }
        let base =
            window_worth.iter().sum::<f32>() + weights.empty * board.empty_cells().count() as f32;
        Self {
            weights,
            board,
            window_worth,
            base,
        }
    }

    /// The one-move worth of a legal move and the balls it removes.
    #[inline]
    pub fn score(&self, mv: Move) -> (f32, u32) {
        let from = 1u128 << mv.from.index();
        let to = 1u128 << mv.to.index();
        let color = self.board.get(mv.from).expect("a ball to move");
        let occupied = self.board.occupied().raw() ^ from ^ to;
        let same = self.board.color_bits(color).raw() ^ from ^ to;
        let mut delta = 0.0;
        for &window in windows_of(mv.from) {
            delta += self.worth_after(window, occupied, same) - self.window_worth[window as usize];
        }
        for &window in windows_of(mv.to) {
            let mask = WINDOWS[window as usize];
            if mask & from != 0 {
                continue; // counted with the source's windows
            }
            if same & mask == mask {
                // A line of five through the target: the move clears, which changes windows
                // far from the two cells.
                return self.weights.move_value(self.board, mv);
            }
            delta += self.worth_after(window, occupied, same) - self.window_worth[window as usize];
        }
        (self.base + delta - self.weights.spawn_cost(), 0)
    }

    /// The worth of a window after the move, given the board's occupancy and the moved colour's
    /// cells after it.
    #[inline]
    fn worth_after(&self, window: u8, occupied: u128, same: u128) -> f32 {
        let mask = WINDOWS[window as usize];
        let balls = occupied & mask;
        let n = balls.count_ones();
        let moved_colour = (same & mask).count_ones();
        if n == 0 || moved_colour == n {
            return self.weights.line.get(n as usize).copied().unwrap_or(0.0);
        }
        if moved_colour > 0 {
            return 0.0;
        }
        // No ball of the moved colour here: the others are as on the board.
        let color = self
            .board
            .get(Cell::from_index(balls.trailing_zeros() as usize))
            .expect("an occupied cell");
        if (self.board.color_bits(color).raw() & mask).count_ones() == n {
            self.weights.line[n as usize]
        } else {
            0.0
        }
    }
}

#[inline]
fn windows_of(cell: Cell) -> &'static [u8] {
    let list = &WINDOWS_OF_CELL[cell.index()];
    let len = list
        .iter()
        .position(|&w| w == u8::MAX)
        .unwrap_or(list.len());
    &list[..len]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_board;
    use crate::rules::Cell;

    fn board(rows: &[&str]) -> Board {
        parse_board(rows).expect("a valid board")
    }

    #[test]
    fn scorer_agrees_with_full_evaluation_on_every_move() {
        let boards = [
            board(&[
                "11.1.2..3",
                "..2..2...",
                ".3.4..5..",
                "1...1...7",
                "..6..6...",
                ".....1...",
                "2.2.2....",
                "...77.7..",
                "4....4..4",
            ]),
            board(&[
                "1111.2233",
                "2..2.2..3",
                "33344.5..",
                "1.5.1..77",
                "..6..6..6",
                ".1.1.1.1.",
                "2.2.2.3.3",
                "5..77.7..",
                "4444.4..4",
            ]),
        ];
        let weights = Weights {
            line: [0.3, 0.7, 2.5, 7.0, 19.0],
            points: 2.0,
            empty: 5.0,
        };
        let mut checked = 0;
        for b in &boards {
            let scorer = MoveScorer::new(&weights, b);
            b.for_each_legal_move(|mv| {
                let (fast, fast_removed) = scorer.score(mv);
                let (slow, slow_removed) = weights.move_value(b, mv);
                assert_eq!(fast_removed, slow_removed, "{mv}");
                assert!((fast - slow).abs() < 1e-2, "{mv}: {fast} vs {slow}");
                checked += 1;
            });
        }
        assert!(checked > 500, "only {checked} moves");
    }

    #[test]
    fn a_line_of_four_of_one_colour_outweighs_four_scattered_balls() {
        let weights = Weights::default();
        let line = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "1111.....",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let scattered = board(&[
            "1........",
            ".........",
            "......1..",
            ".........",
            ".........",
            ".........",
            "...1.....",
            ".........",
            "........1",
        ]);
        assert!(weights.evaluate(&line) > weights.evaluate(&scattered));
        let _ = Cell::new(0, 0);
    }
}
