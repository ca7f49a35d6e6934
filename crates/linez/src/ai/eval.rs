//! The static evaluation of a position with the player to move: the line potential of every
//! window of five, and free space. Survival is everything in Linez (about 3.2 points per move
//! survived), so the terms measure how soon lines can be completed and how much room is left.
//!
//! Evaluating every legal move (often over a thousand) is the inner loop of the search, so
//! [`MoveScorer`] keeps the worth of each window of a base board and scores a move by the
//! change of the windows through its two cells only.

use super::top_moves::TopMoves;
use super::windows::{COUNT, WINDOWS, WINDOWS_OF_CELL};
use crate::rules::{
    Bits, Board, CELLS, COLORS, Cell, Color, LINE_LENGTH, Move, PREVIEW_LEN, Region, line_points,
};

/// Weights of the evaluation terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of a window holding `n` balls of one colour and nothing else, for n = 0..=4.
    pub line: [f32; 5],
    /// Worth of a point scored.
    pub points: f32,
    /// Worth of an empty cell.
    pub empty: f32,
    /// Cost of an empty cell with no empty neighbour: a hole only a spawn or a neighbour fills.
    pub hole: f32,
    /// Cost of an empty cell outside the largest empty region.
    pub cut_off: f32,
    /// Worth of a window with four balls of one colour whose gap another ball of that colour
    /// can reach: a clear on the next move unless a spawn lands in the way.
    pub ready: f32,
}

// The window weights (`line`) are an array, which one `--set NAME=VALUE` cannot name.
marathon_core::tunable!(Weights {
    points: "worth of a point scored",
    empty: "worth of an empty cell",
    hole: "cost of an empty cell with no empty neighbour",
    cut_off: "cost of an empty cell outside the largest empty region",
    ready: "worth of four of a colour in a line whose gap a ball of that colour can reach",
});

/// The search's weights, tuned with the `ai` player at fixed effort on seeds 1-120.
impl Default for Weights {
    fn default() -> Self {
        Weights {
            line: [0.3, 0.5, 2.0, 8.0, 30.0],
            points: 30.0,
            empty: 1.5,
            hole: 0.0,
            cut_off: 1.0,
            ready: 60.0,
        }
    }
}

impl Weights {
    /// The weights that suit the one-move greedy best (tuned with it on seeds 1-200: with one
    /// move of foresight, free space matters more than under the search).
    pub fn greedy() -> Self {
        Weights {
            empty: 6.0,
            cut_off: 2.0,
            ..Weights::default()
        }
    }

    /// The static worth of `board` with the player to move.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let mut value = self.empty * board.empty_cells().count() as f32;
        for window in 0..COUNT {
            value += self.window_worth(board, window);
        }
        value - self.global_cost(board)
    }

    fn has_global_terms(&self) -> bool {
        self.hole != 0.0 || self.cut_off != 0.0 || self.ready != 0.0
    }

    /// The terms that need the whole board (a flood fill): the cost of how the free space is
    /// broken up, less the worth of lines ready to clear.
    pub fn global_cost(&self, board: &Board) -> f32 {
        let mut cost = 0.0;
        let empty = board.empty_cells();
        if self.hole != 0.0 {
            let holes = empty
                .iter()
                .filter(|&c| (Bits::single(c).neighbours4() & empty).is_empty());
            cost += self.hole * holes.count() as f32;
        }
        if self.cut_off != 0.0 || self.ready != 0.0 {
            let moves = board.legal_moves();
            let regions = moves.regions();
            let largest = regions.iter().map(|r| r.cells.count()).max().unwrap_or(0);
            cost += self.cut_off * (empty.count() - largest) as f32;
            if self.ready != 0.0 {
                cost -= self.ready * ready_windows(board, regions) as f32;
            }
        }
        cost
    }

    fn window_worth(&self, board: &Board, window: usize) -> f32 {
        self.worth_of_balls(board, board.occupied().raw() & WINDOWS[window])
    }

    /// The worth of a window holding exactly the balls `balls`, coloured as on `board`: the
    /// line weight of their count if they are all of one colour, else nothing.
    #[inline]
    fn worth_of_balls(&self, board: &Board, balls: u128) -> f32 {
        let n = balls.count_ones();
        if n == 0 {
            return self.line[0];
        }
        let color = board
            .get(Cell::from_index(balls.trailing_zeros() as usize))
            .expect("an occupied cell");
        if (board.color_bits(color).raw() & balls).count_ones() == n {
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

/// Scores every move from one board quickly. `score(mv)` is `weights.move_value(board, mv)` (up
/// to float rounding) except that it takes the global terms as unchanged by the move (they need
/// a flood fill); `exact(mv)` corrects that, and `best_move` applies it to the few best moves.
pub struct MoveScorer<'a> {
    weights: &'a Weights,
    board: &'a Board,
    window_worth: [f32; COUNT],
    base: f32,
    /// The base board's [`Weights::global_cost`], which the fast scores assume unchanged.
    global_cost: f32,
}

impl<'a> MoveScorer<'a> {
    pub fn new(weights: &'a Weights, board: &'a Board) -> Self {
        let mut window_worth = [0.0; COUNT];
        for (window, worth) in window_worth.iter_mut().enumerate() {
            *worth = weights.window_worth(board, window);
        }
        let global_cost = weights.global_cost(board);
        let base = window_worth.iter().sum::<f32>()
            + weights.empty * board.empty_cells().count() as f32
            - global_cost;
        Self {
            weights,
            board,
            window_worth,
            base,
            global_cost,
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
        self.weights.worth_of_balls(self.board, balls)
    }
}

impl MoveScorer<'_> {
    /// The best legal move by one-move worth, clears first, with its worth and the balls it
    /// removes; ties go to the first in move-generation order.
    ///
    /// Faster than scoring every move: where the source and the target share no window, a
    /// move's change of worth is the change of taking the ball away plus the change of putting
    /// a ball of its colour on the target, each computed once per cell and colour. Pairs that
    /// share a window (and moves that clear) are scored exactly.
    pub fn best_move(&self) -> Option<(Move, f32, u32)> {
        let mut top = TopMoves::<EXACT_RESCORED>::new();
        let mut best_clear: Option<(Move, f32, u32)> = None;
        self.for_each_scored(|mv, value, removed| {
            if removed > 0 {
                if best_clear.is_none_or(|(_, v, _)| value > v) {
                    best_clear = Some((mv, value, removed));
                }
            } else {
                top.offer(mv, value, removed);
            }
        });
        if best_clear.is_some() {
            // The players always cash a line they can clear (a spawn could block it), so a
            // reply that could clear is worth the clear.
            return best_clear;
        }
        let mut best: Option<(Move, f32, u32)> = None;
        for &(mv, fast, removed) in top.moves() {
            let value = self.exact(mv, fast, removed);
            if best.is_none_or(|(_, v, _)| value > v) {
                best = Some((mv, value, removed));
            }
        }
        best
    }

    /// The full worth of a move from its fast score: clears were scored exactly already; other
    /// moves get the change of the global terms.
    pub fn exact(&self, mv: Move, fast: f32, removed: u32) -> f32 {
        if removed > 0 || !self.weights.has_global_terms() {
            return fast;
        }
        let mut after = *self.board;
        after.move_ball(mv);
        fast + self.global_cost - self.weights.global_cost(&after)
    }

    /// Calls `offer(move, fast score, balls removed)` for every legal move.
    pub fn for_each_scored(&self, mut offer: impl FnMut(Move, f32, u32)) {
        let spawn_cost = self.weights.spawn_cost();
        for region in self.board.regions() {
            let mut put_delta = [[0.0f32; CELLS]; COLORS as usize];
            let mut put_clears = [0u128; COLORS as usize];
            let mut colours_done = 0u8;
            for from in region.movers {
                let color = self.board.get(from).expect("a mover is a ball");
                let slot = color as usize - 1;
                if colours_done & (1 << slot) == 0 {
                    colours_done |= 1 << slot;
                    for to in region.cells {
                        let (delta, clears) = self.put_delta(to, color);
                        put_delta[slot][to.index()] = delta;
                        if clears {
                            put_clears[slot] |= 1 << to.index();
                        }
                    }
                }
                let take = self.take_delta(from);
                for to in region.cells {
                    let mv = Move { from, to };
                    if put_clears[slot] & (1 << to.index()) != 0 || shares_window(from, to) {
                        let (value, removed) = self.score(mv);
                        offer(mv, value, removed);
                    } else {
                        offer(
                            mv,
                            self.base + take + put_delta[slot][to.index()] - spawn_cost,
                            0,
                        );
                    }
                }
            }
        }
    }

    /// The change of worth from taking the ball off `cell`.
    fn take_delta(&self, cell: Cell) -> f32 {
        let bit = 1u128 << cell.index();
        let occupied = self.board.occupied().raw() & !bit;
        let mut delta = 0.0;
        for &window in windows_of(cell) {
            let mask = WINDOWS[window as usize];
            let worth = self.weights.worth_of_balls(self.board, occupied & mask);
            delta += worth - self.window_worth[window as usize];
        }
        delta
    }

    /// The change of worth from putting a ball of `color` on the empty `cell`, and whether that
    /// completes a line.
    fn put_delta(&self, cell: Cell, color: Color) -> (f32, bool) {
        let occupied = self.board.occupied().raw();
        let same = self.board.color_bits(color).raw();
        let mut delta = 0.0;
        for &window in windows_of(cell) {
            let mask = WINDOWS[window as usize];
            let n = (occupied & mask).count_ones();
            if (same & mask).count_ones() != n {
                // Another colour is here: the window is mixed after the move.
                delta -= self.window_worth[window as usize];
                continue;
            }
            if n + 1 == LINE_LENGTH {
                return (0.0, true);
            }
            delta += self.weights.line[n as usize + 1] - self.window_worth[window as usize];
        }
        (delta, false)
    }
}

/// Windows holding four balls of one colour whose gap a fifth ball of that colour (from
/// outside the window) can reach; `regions` are the board's empty regions with their movers.
pub fn ready_windows(board: &Board, regions: &[Region]) -> u32 {
    let occupied = board.occupied().raw();
    let mut ready = 0;
    for &mask in WINDOWS.iter() {
        let balls = occupied & mask;
        if balls.count_ones() != LINE_LENGTH - 1 {
            continue;
        }
        let color = board
            .get(Cell::from_index(balls.trailing_zeros() as usize))
            .expect("an occupied cell");
        let same = board.color_bits(color).raw();
        if same & mask != balls {
            continue;
        }
        let gap = Bits::from_raw(mask & !occupied);
        let fillers = regions
            .iter()
            .find(|region| !(region.cells & gap).is_empty())
            .map_or(0, |region| region.movers.raw() & same & !mask);
        if fillers != 0 {
            ready += 1;
        }
    }
    ready
}

/// How many of the best moves by fast score get the exact global terms.
const EXACT_RESCORED: usize = 24;

/// Whether some window of five holds both cells.
#[inline]
fn shares_window(a: Cell, b: Cell) -> bool {
    let dr = a.row().abs_diff(b.row());
    let dc = a.col().abs_diff(b.col());
    let near = |d: usize| d < LINE_LENGTH as usize;
    // Near the corners a diagonal may be too short to hold a window; scoring such a pair
    // exactly anyway is merely slower.
    (dr == 0 && near(dc)) || (dc == 0 && near(dr)) || (dr == dc && near(dr))
}

#[inline]
pub(crate) fn windows_of(cell: Cell) -> &'static [u8] {
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
    use crate::ai::test_boards::{READY_LINES, SCATTERED};
    use crate::protocol::parse_board;
    use crate::rules::Cell;

    fn board(rows: &[&str]) -> Board {
        parse_board(rows).expect("a valid board")
    }

    #[test]
    fn scorer_agrees_with_full_evaluation_on_every_move() {
        let boards = [board(&SCATTERED), board(&READY_LINES)];
        let weights = Weights {
            line: [0.3, 0.7, 2.5, 7.0, 19.0],
            points: 2.0,
            empty: 5.0,
            hole: 1.5,
            cut_off: 2.5,
            ready: 7.0,
        };
        let mut checked = 0;
        for b in &boards {
            let scorer = MoveScorer::new(&weights, b);
            b.for_each_legal_move(|mv| {
                let (fast, fast_removed) = scorer.score(mv);
                let fast = scorer.exact(mv, fast, fast_removed);
                let (slow, slow_removed) = weights.move_value(b, mv);
                assert_eq!(fast_removed, slow_removed, "{mv}");
                assert!((fast - slow).abs() < 1e-2, "{mv}: {fast} vs {slow}");
                checked += 1;
            });
        }
        // Without whole-board terms the fast scores are exact, so the best move is the true
        // best: among the clears when there are any.
        let local = Weights {
            hole: 0.0,
            cut_off: 0.0,
            ready: 0.0,
            ..weights
        };
        for b in &boards {
            let mut best_clear = f32::NEG_INFINITY;
            let mut best_other = f32::NEG_INFINITY;
            b.for_each_legal_move(|mv| match local.move_value(b, mv) {
                (value, 0) => best_other = best_other.max(value),
                (value, _) => best_clear = best_clear.max(value),
            });
            let (_, value, removed) = MoveScorer::new(&local, b).best_move().unwrap();
            let expected = if best_clear > f32::NEG_INFINITY {
                assert!(removed > 0);
                best_clear
            } else {
                best_other
            };
            assert!((value - expected).abs() < 1e-2, "{value} vs {expected}");
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
