//! The static evaluation of a position with the player to move: line potential per window of
//! five, free space, and how connected the free space is. Survival is everything in Linez
//! (about 3.2 points per move survived), so the terms measure how soon lines can be completed
//! and how much room is left to do it.

use super::windows::WINDOWS;
use crate::rules::{Bits, Board, Cell, Move, PREVIEW_LEN, line_points};

/// Weights of the evaluation terms, in units where a cleared line of five is worth `points`
/// times 10.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of a window holding `n` balls of one colour and nothing else, for n = 0..=4.
    pub line: [f32; 5],
    /// Worth of a point scored.
    pub points: f32,
    /// Worth of an empty cell.
    pub empty: f32,
    /// Cost of an empty cell outside the largest empty region (hard to reach, easily walled
    /// off).
    pub cut_off: f32,
    /// Worth of a window with four of a colour whose gap a fifth ball of that colour can reach
    /// now: a clear on the next move unless a spawn blocks it.
    pub ready: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            line: [0.0, 0.5, 2.0, 6.0, 16.0],
            points: 3.0,
            empty: 6.0,
            cut_off: 2.0,
            ready: 20.0,
        }
    }
}

impl Weights {
    /// The static worth of `board` with the player to move.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let occupied = board.occupied().raw();
        let empty = board.empty_cells();
        let mut value = self.empty * empty.count() as f32;
        let mut ready_windows = 0u32;
        let regions = RegionMap::new(board);
        for &window in WINDOWS.iter() {
            let balls = occupied & window;
            let n = balls.count_ones();
            if n == 0 {
                value += self.line[0];
                continue;
            }
            let color = board
                .get(Cell::from_index(balls.trailing_zeros() as usize))
                .expect("an occupied cell");
            let same = board.color_bits(color).raw();
            if (same & window).count_ones() != n {
                continue;
            }
            value += self.line[n as usize];
            if n == 4 {
                let gap = Cell::from_index((window & !occupied).trailing_zeros() as usize);
                let fillers = Bits::from_raw(same & !window);
                if regions.movers_into(gap) & fillers != Bits::NONE {
                    ready_windows += 1;
                }
            }
        }
        value += self.ready * ready_windows as f32;
        value -= self.cut_off * regions.cut_off as f32;
        value
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
            value -= self.empty * PREVIEW_LEN as f32;
        }
        (value, removed)
    }
}

/// The empty regions of a board with, for each, the balls that can move into it.
struct RegionMap {
    regions: [(Bits, Bits); 41],
    len: usize,
    /// Empty cells outside the largest region.
    cut_off: u32,
}

impl RegionMap {
    fn new(board: &Board) -> Self {
        let mut map = RegionMap {
            regions: [(Bits::NONE, Bits::NONE); 41],
            len: 0,
            cut_off: 0,
        };
        let mut largest = 0;
        let mut total = 0;
        for region in board.regions() {
            let size = region.cells.count();
            largest = largest.max(size);
            total += size;
            map.regions[map.len] = (region.cells, region.movers);
            map.len += 1;
        }
        map.cut_off = total - largest;
        map
    }

    fn movers_into(&self, cell: Cell) -> Bits {
        self.regions[..self.len]
            .iter()
            .find(|(cells, _)| cells.contains(cell))
            .map_or(Bits::NONE, |&(_, movers)| movers)
    }
}
