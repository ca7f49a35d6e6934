//! Test cases from a seed (docs/rules.md#linez-generation): the contest's tester is lost, so the
//! draw order below is ours, on Java's SHA1PRNG as every TopCoder tester used it.

use marathon_core::rng::JavaSecureRandom;

use crate::rules::{Board, COLORS, Cell, Color, PREVIEW_LEN, State};

/// Balls on the board at the start.
pub const INITIAL_BALLS: usize = 3;

/// The chance side of one case: the initial position, every spawn's cells and every preview,
/// all drawn from one SHA1PRNG stream seeded with the case seed.
#[derive(Clone, Debug)]
pub struct LinezCase {
    rng: JavaSecureRandom,
}

impl LinezCase {
    /// The case for `seed`, read as Java's `long` (same bit pattern).
    pub fn new(seed: u64) -> Self {
        LinezCase {
            rng: JavaSecureRandom::new(seed as i64),
        }
    }

    /// The start: [`INITIAL_BALLS`] balls, each drawn as its colour and then its cell among the
    /// empty cells in row-major order; then the first preview. Call once, first.
    pub fn initial_state(&mut self) -> State {
        let mut board = Board::empty();
        for _ in 0..INITIAL_BALLS {
            let color = self.draw_color();
            let empty = board.empty_cells();
            let cell = empty
                .nth(self.draw_below(empty.count()))
                .expect("draw_below stays below the number of empty cells");
            board.put(cell, color);
        }
        State::new(board, self.draw_preview())
    }

    /// Spawns the preview on `state` (cells drawn with `nextInt(#empty)`), removes and scores the
    /// lines it completes, then draws the next preview.
    pub fn spawn(&mut self, state: &mut State) -> Spawn {
        let mut empty = state.board.empty_cells();
        let mut cells = [None; PREVIEW_LEN];
        let mut placed = 0;
        let removed = state.spawn(|free| {
            let pick = self.draw_below(free);
            let cell = empty
                .nth(pick)
                .expect("the pick is below the number of empty cells");
            empty.remove(cell);
            cells[placed] = Some(cell);
            placed += 1;
            pick
        });
        state.preview = self.draw_preview();
        Spawn { removed, cells }
    }

    fn draw_preview(&mut self) -> [Color; PREVIEW_LEN] {
        std::array::from_fn(|_| self.draw_color())
    }

    /// `nextInt(7) + 1`.
    fn draw_color(&mut self) -> Color {
        self.rng.next_int(i32::from(COLORS)) as Color + 1
    }

    /// `nextInt(bound)`; `bound` is at most 81.
    fn draw_below(&mut self, bound: u32) -> u32 {
        self.rng.next_int(bound as i32) as u32
    }
}

/// What a spawn did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    /// Balls removed by the lines the spawn completed.
    pub removed: u32,
    /// Where the preview balls went, in preview order; `None` for balls that found no room.
    pub cells: [Option<Cell>; PREVIEW_LEN],
}
