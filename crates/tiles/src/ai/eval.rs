//! The static evaluation of a board, the heart of every TilesMatching player but `random`.
//!
//! What it measures, for the board after a move (all figures from one pass over the empty
//! cells, each cell's set of accepted tile kinds being the AND of its neighbours' masks):
//! - **homeless kinds**: regular kinds no frontier cell accepts (such a tile is a forced
//!   discard), and kinds only one cell accepts;
//! - **flexibility**: how many kinds the frontier cells accept in total (log-damped per cell);
//! - **dead cells**: empty frontier cells no regular tile fits (only `W` fills them), worse in
//!   fuller lines, since they block the line's clear;
//! - **line progress**: how full each row and column is (a clear scores `S` and frees space);
//! - **line rate**: how soon each line may clear, from the tiles its empty cells wait for (a
//!   gap few kinds fit holds its whole line back);
//! - **crowding**: tiles on the board;
//! - the **discard counter** (close to `D` means close to a forced `GIVE UP`).

use crate::rules::{Board, EMPTY, NEIGHBOURS, PADDED, Params, Pos, REGULAR_BASE, STRIDE};

/// Evaluation weights (per unit of each feature); the defaults are tuned with the runner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per homeless kind, as a fraction of all kinds.
    pub homeless: f32,
    /// Per kind only one cell accepts, as a fraction of all kinds.
    pub single: f32,
    /// Per unit of flexibility (sum over frontier cells of log2(1 + accepted kinds)).
    pub flex: f32,
    /// Per dead cell.
    pub dead: f32,
    /// Per dead cell, times the fill fraction of its row plus that of its column.
    pub dead_line: f32,
    /// Per line, times (fill / S)^2.
    pub line: f32,
    /// Per tile on the board, as a fraction of the cells.
    pub crowd: f32,
    /// Per unit of `Features::cross` times `S`: a line one tile short of clearing whose gap
    /// also lies in a full crossing line clears both at once for `3S` instead of `S`.
    pub cross: f32,
    /// Per unit of `Features::cross_sum` times `S`: every such setup, not only the best, so
    /// the player builds the next while it waits for a tile to cash the first. Too much of it
    /// and the player hoards setups until the board fills.
    pub cross_sum: f32,
    /// Per unit of (counter / D)^2.
    pub counter: f32,
    /// What the lookahead charges for a next tile that would force `GIVE UP`.
    pub death: f32,
    /// What a discard costs besides its counter: the move it spends of the 10,000.
    pub discard: f32,
    /// Per unit of the chance that the game ends within [`Weights::horizon`] moves if every
    /// homeless tile were discarded and every other one placed (the counter's random walk).
    pub risk: f32,
    /// The moves [`Weights::risk`] looks at.
    pub horizon: u32,
    /// Per unit of `Features::line_rate` times `S`.
    pub line_rate: f32,
    /// How many of the best replies (by the one-tile lookahead) are scored two tiles deep,
    /// time allowing (below 2: none).
    pub deep_replies: usize,
    /// How many regular kinds of the next tile such a score draws to look deeper on (0: all).
    pub deep_kinds: usize,
}

marathon_core::tunable!(Weights {
    homeless: "per regular kind no cell accepts, as a share of the kinds",
    single: "per regular kind only one cell accepts, as a share of the kinds",
    flex: "per unit of flexibility: log2(1 + kinds accepted) summed over the frontier's cells",
    dead: "per dead cell (a frontier cell only a W fills)",
    dead_line: "per dead cell, times the fill of its row plus that of its column",
    line: "per line, times (fill / S)^2",
    crowd: "per tile on the board, as a share of the cells",
    cross: "per S of the best setup that would clear a row and a column at once",
    cross_sum: "per S of every such setup",
    counter: "per unit of (discard counter / D)^2",
    death: "what the lookahead charges for a next tile that would force GIVE UP",
    discard: "what a discard costs besides its count",
    risk: "per unit of the chance that the game ends within horizon moves",
    horizon: "the moves risk looks ahead",
    line_rate: "per unit of line rate (how soon lines can clear) times S",
    deep_replies: "the best replies scored two tiles deep, time allowing (below 2: none)",
    deep_kinds: "the next tile's regular kinds such a score draws (0: all)",
} check = Weights::check);

impl Weights {
    /// Refuses a risk horizon longer than a game (its table is built per case, move by move).
    pub fn check(&self) -> Result<(), String> {
        if self.horizon > crate::rules::MAX_MOVES {
            return Err(format!(
                "horizon={}: expected at most {}",
                self.horizon,
                crate::rules::MAX_MOVES
            ));
        }
        Ok(())
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            homeless: 60.0,
            single: 10.0,
            flex: 0.6,
            dead: 3.0,
            dead_line: 3.0,
            line: 6.0,
            crowd: 10.0,
            cross: 0.0,
            cross_sum: 0.0,
            counter: 20.0,
            death: 300.0,
            discard: 0.0,
            risk: 0.0,
            horizon: 30,
            line_rate: 0.0,
            // Two tiles deep it places tiles the one-tile lookahead discards, for every N
            // (docs/results.md#two-tiles-deep).
            deep_replies: 2,
            deep_kinds: 8,
        }
    }
}

/// Per case tables: the mask of kinds accepted next to each cell byte.
#[derive(Clone, Debug)]
pub struct Masks {
    pub params: Params,
    /// `accept[code]`: kinds (bit `color * N + shape`) that may sit next to a cell holding
    /// `code`; all kinds for `EMPTY` and `WILD`.
    pub accept: Vec<u128>,
    /// All `N * N` kinds.
    pub all: u128,
}

impl Masks {
    pub fn new(params: Params) -> Self {
        let n = params.n as usize;
        let kinds = n * n;
        let all = if kinds == 128 {
            u128::MAX
        } else {
            (1u128 << kinds) - 1
        };
        let mut accept = vec![all; REGULAR_BASE as usize + kinds];
        for color in 0..n {
            for shape in 0..n {
                let mut mask = 0u128;
                for other in 0..n {
                    mask |= 1 << (color * n + other);
                    mask |= 1 << (other * n + shape);
                }
                accept[REGULAR_BASE as usize + color * n + shape] = mask;
            }
        }
        Masks {
            params,
            accept,
            all,
        }
    }

    /// The kinds the empty cell at `index` accepts given its neighbours, and whether it has any.
    #[inline]
    pub fn cell(&self, board: &Board, index: usize) -> (u128, bool) {
        let cells = board.cells();
        let mut mask = self.all;
        let mut any = false;
        for d in NEIGHBOURS {
            let code = cells[index.wrapping_add_signed(d)];
            if code != EMPTY {
                any = true;
                mask &= self.accept[code as usize];
            }
        }
        (mask, any)
    }
}

/// The figures the evaluation weighs, for tools and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    pub homeless: u32,
    pub single: u32,
    pub flex: f32,
    pub dead: u32,
    pub dead_line: f32,
    pub line: f32,
    pub tiles: u32,
    /// The best, over lines one tile short of clearing, of (fill of the crossing line through
    /// the gap / (S - 1))^2: 1 for a gap that would clear a row and a column at once.
    pub cross: f32,
    /// The sum, over the gaps of lines one tile short of clearing (each gap once), of (fill
    /// of the crossing line through the gap / (S - 1))^2.
    pub cross_sum: f32,
    /// The sum over lines of 1 / (the tiles its empty cells wait for, summed): how soon each
    /// line may clear, where a gap that few kinds fit holds its line back.
    pub line_rate: f32,
}

/// log2(1 + k) for k accepted kinds, k <= 100.
fn log_table() -> [f32; 129] {
    std::array::from_fn(|k| ((1 + k) as f32).log2())
}

/// Computes [`Features`] and weighs them.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub masks: Masks,
    pub weights: Weights,
    log: [f32; 129],
    /// `risk[homeless * (D + 1) + counter]`: [`Weights::risk`] times the chance of ruin.
    risk: Vec<f32>,
    /// The terms of [`Evaluator::weigh`] that divide, per value of their integer feature:
    /// computed as `weigh` would, so the sum is the same to the bit, without a division per
    /// placement (`weigh` took a third of the lookahead's time with them).
    homeless_term: Vec<f32>,
    single_term: Vec<f32>,
    crowd_term: Vec<f32>,
    counter_term: Vec<f32>,
    /// `wait[k]`: the tiles a frontier cell accepting `k` kinds waits for (1 / the chance
    /// that the next tile fits it, a `W` always does), for [`Features::line_rate`].
    wait: Vec<f32>,
}

/// The chance that the counter, starting at `counter`, must pass `d` within `horizon` moves
/// when each move independently brings a tile with no home with probability `hazard` (a
/// discard) and otherwise a tile that is used (the counter drops, not below 0).
pub fn ruin_chance(hazard: f64, counter: u8, d: u8, horizon: u32) -> f64 {
    let d = d as usize;
    let mut chance = vec![0.0f64; d + 1];
    for _ in 0..horizon {
        let next: Vec<f64> = (0..=d)
            .map(|c| {
                let up = if c == d { 1.0 } else { chance[c + 1] };
                hazard * up + (1.0 - hazard) * chance[c.saturating_sub(1)]
            })
            .collect();
        chance = next;
    }
    chance[counter as usize]
}

impl Evaluator {
    pub fn new(params: Params, weights: Weights) -> Self {
        let kinds = params.kinds();
        let kinds_f = kinds as f32;
        let cells = params.s as usize * params.s as usize;
        let regular = 1.0 - 2.0 / (crate::generator::TILE_TYPE_BOUND - params.n as i32) as f64;
        let mut risk = Vec::with_capacity((kinds + 1) * (params.d as usize + 1));
        for homeless in 0..=kinds {
            let hazard = regular * homeless as f64 / kinds as f64;
            for counter in 0..=params.d {
                let chance = if weights.risk == 0.0 {
                    0.0
                } else {
                    ruin_chance(hazard, counter, params.d, weights.horizon)
                };
                risk.push(weights.risk * chance as f32);
            }
        }
        Evaluator {
            masks: Masks::new(params),
            weights,
            log: log_table(),
            risk,
            homeless_term: (0..=kinds)
                .map(|h| -weights.homeless * h as f32 / kinds_f)
                .collect(),
            single_term: (0..=kinds)
                .map(|k| weights.single * k as f32 / kinds_f)
                .collect(),
            crowd_term: (0..=cells)
                .map(|t| weights.crowd * t as f32 / cells as f32)
                .collect(),
            wait: {
                let special = 1.0 / (crate::generator::TILE_TYPE_BOUND - params.n as i32) as f32;
                let regular = (1.0 - 2.0 * special) / kinds_f;
                (0..=kinds)
                    .map(|k| 1.0 / (special + regular * k as f32))
                    .collect()
            },
            counter_term: (0..=params.d + 1)
                .map(|counter| {
                    let c = counter as f32 / params.d as f32;
                    weights.counter * c * c
                })
                .collect(),
        }
    }

    pub fn features(&self, board: &Board) -> Features {
        let size = board.size() as usize;
        let cells = board.cells();
        let mut cover = 0u128;
        let mut cover2 = 0u128;
        let mut flex = 0.0f32;
        let mut dead = 0u32;
        let mut dead_line = 0.0f32;
        let inv = 1.0 / size as f32;
        for r in 0..size {
            let base = (r + 1) * STRIDE + 1;
            for c in 0..size {
                let index = base + c;
                if cells[index] != EMPTY {
                    continue;
                }
                let (mask, any) = self.masks.cell(board, index);
                if !any {
                    continue;
                }
                if mask == 0 {
                    dead += 1;
                    dead_line += (board.row_fill(r) as f32 + board.col_fill(c) as f32) * inv;
                    continue;
                }
                cover2 |= cover & mask;
                cover |= mask;
                flex += self.log[mask.count_ones() as usize];
            }
        }
        let all = self.masks.all;
        let mut line = 0.0f32;
        for i in 0..size {
            let fr = board.row_fill(i) as f32 * inv;
            let fc = board.col_fill(i) as f32 * inv;
            line += fr * fr + fc * fc;
        }
        let (cross, cross_sum) = cross(board, None);
        let line_rate = if self.weights.line_rate == 0.0 {
            0.0
        } else {
            self.line_rate(board)
        };
        let (homeless, single) = if board.is_empty() {
            (0, 0)
        } else {
            ((all & !cover).count_ones(), (cover & !cover2).count_ones())
        };
        Features {
            homeless,
            single,
            flex,
            dead,
            dead_line,
            line,
            tiles: board.tile_count(),
            cross,
            cross_sum,
            line_rate,
        }
    }

    /// [`Features::line_rate`] of `board`.
    pub fn line_rate(&self, board: &Board) -> f32 {
        let size = board.size() as usize;
        let mut waits = LineWaits::default();
        for r in 0..size {
            for c in 0..size {
                let index = (r + 1) * STRIDE + c + 1;
                if board.at(index) != EMPTY {
                    continue;
                }
                let (mask, any) = self.masks.cell(board, index);
                waits.add(r, c, self.cell_wait(any, mask));
            }
        }
        waits.rate(size)
    }

    /// What an empty cell waits for: an empty cell with no neighbour one tile (it gets one
    /// as the lines around it fill), a frontier cell [`Evaluator::wait`] of its kinds.
    #[inline]
    fn cell_wait(&self, frontier: bool, mask: u128) -> f32 {
        if frontier {
            self.wait[mask.count_ones() as usize]
        } else {
            1.0
        }
    }

    /// The worth of `board` with the discard counter at `counter` (higher is better).
    pub fn value(&self, board: &Board, counter: u8) -> f32 {
        self.weigh(&self.features(board), counter)
    }

    /// [`cross`] for a placement's features, or nothing where the weights ignore it (N >= 6):
    /// it scans every line, per placement.
    fn cross(&self, board: &Board, extra: Option<Pos>) -> (f32, f32) {
        if self.weights.cross == 0.0 && self.weights.cross_sum == 0.0 {
            (0.0, 0.0)
        } else {
            cross(board, extra)
        }
    }
}

/// [`Features::cross`] and [`Features::cross_sum`] of `board`, with the empty cell `extra`
/// counted as filled if given (a placement that clears nothing).
fn cross(board: &Board, extra: Option<Pos>) -> (f32, f32) {
    let size = board.size() as usize;
    let (extra_row, extra_col) = extra.map_or((usize::MAX, usize::MAX), |p| {
        (p.row as usize, p.col as usize)
    });
    let row_fill = |r: usize| board.row_fill(r) as usize + usize::from(r == extra_row);
    let col_fill = |c: usize| board.col_fill(c) as usize + usize::from(c == extra_col);
    let empty = |r: usize, c: usize| {
        board.at((r + 1) * STRIDE + c + 1) == EMPTY && (r, c) != (extra_row, extra_col)
    };
    let short = (size - 1) as f32;
    let mut best = 0.0f32;
    let mut sum = 0.0f32;
    for line in 0..size {
        if row_fill(line) + 1 == size
            && let Some(c) = (0..size).find(|&c| empty(line, c))
        {
            let x = col_fill(c) as f32 / short;
            best = best.max(x);
            sum += x * x;
        }
        if col_fill(line) + 1 == size
            && let Some(r) = (0..size).find(|&r| empty(r, line))
        {
            let x = row_fill(r) as f32 / short;
            best = best.max(x);
            // A gap short in its row as well was counted with the row.
            if row_fill(r) + 1 != size {
                sum += x * x;
            }
        }
    }
    (best * best, sum)
}

/// The tiles each row and column waits for, summed over its empty cells.
#[derive(Clone, Copy, Default)]
struct LineWaits {
    rows: [f32; 12],
    cols: [f32; 12],
}

impl LineWaits {
    #[inline]
    fn add(&mut self, row: usize, col: usize, wait: f32) {
        self.rows[row] += wait;
        self.cols[col] += wait;
    }

    /// [`Features::line_rate`]: every line of a board holds an empty cell (a full one clears).
    fn rate(&self, size: usize) -> f32 {
        let mut rate = 0.0;
        for i in 0..size {
            rate += 1.0 / self.rows[i] + 1.0 / self.cols[i];
        }
        rate
    }
}

/// Levels of home counts the incremental evaluation tells apart: a placement takes at most one
/// home from each kind per changed cell (the cell itself and its at most three empty
/// neighbours), so counts up to 5 decide which kinds end with no home or one home.
const LEVELS: usize = 6;

/// A board taken apart once, so that the worth of many one-tile placements on it can be had
/// without a full pass each ([`Evaluator::placed_value`], [`Placements`]).
#[derive(Clone)]
pub struct Analysis {
    /// Accepted kinds of each empty frontier cell (padded index).
    mask: [u128; PADDED],
    frontier: [bool; PADDED],
    /// `level[c]`: the kinds exactly `c` frontier cells accept (`c < LEVELS`).
    level: [u128; LEVELS],
    homeless: i32,
    single: i32,
    flex: f32,
    dead: i32,
    dead_row: [i32; 12],
    dead_col: [i32; 12],
    line: f32,
    /// Computed only where [`Weights::line_rate`] is not 0.
    waits: LineWaits,
    line_rate: f32,
}

impl Analysis {
    /// The kinds the empty frontier cell at `index` accepts.
    #[inline]
    pub fn mask(&self, index: usize) -> u128 {
        self.mask[index]
    }

    /// The empty frontier cells with their accepted kinds, row-major.
    pub fn frontier(&self, board: &Board) -> impl Iterator<Item = (usize, u128)> {
        board
            .indices()
            .filter(|&i| self.frontier[i])
            .map(|i| (i, self.mask[i]))
    }
}

impl Evaluator {
    pub fn analyse(&self, board: &Board) -> Analysis {
        let size = board.size() as usize;
        let mut a = Analysis {
            mask: [0; PADDED],
            frontier: [false; PADDED],
            level: [0; LEVELS],
            homeless: 0,
            single: 0,
            flex: 0.0,
            dead: 0,
            dead_row: [0; 12],
            dead_col: [0; 12],
            line: 0.0,
            waits: LineWaits::default(),
            line_rate: 0.0,
        };
        let rates = self.weights.line_rate != 0.0;
        let mut count = [0u8; 128];
        let inv = 1.0 / size as f32;
        for index in board.indices() {
            if board.at(index) != EMPTY {
                continue;
            }
            let (mask, any) = self.masks.cell(board, index);
            if rates {
                let pos = Pos::from_index(index);
                a.waits.add(
                    pos.row as usize,
                    pos.col as usize,
                    self.cell_wait(any, mask),
                );
            }
            if !any {
                continue;
            }
            a.frontier[index] = true;
            a.mask[index] = mask;
            if mask == 0 {
                let pos = Pos::from_index(index);
                a.dead += 1;
                a.dead_row[pos.row as usize] += 1;
                a.dead_col[pos.col as usize] += 1;
            } else {
                a.flex += self.log[mask.count_ones() as usize];
                let mut bits = mask;
                while bits != 0 {
                    count[bits.trailing_zeros() as usize] += 1;
                    bits &= bits - 1;
                }
            }
        }
        for (kind, &c) in count[..self.masks.params.kinds()].iter().enumerate() {
            if (c as usize) < LEVELS {
                a.level[c as usize] |= 1 << kind;
            }
        }
        a.homeless = a.level[0].count_ones() as i32;
        a.single = a.level[1].count_ones() as i32;
        if board.is_empty() {
            a.homeless = 0;
        }
        for i in 0..size {
            let fr = board.row_fill(i) as f32 * inv;
            let fc = board.col_fill(i) as f32 * inv;
            a.line += fr * fr + fc * fc;
        }
        if rates {
            a.line_rate = a.waits.rate(size);
        }
        a
    }

    /// The placements of any tile on the empty frontier cell `index` of `board` (analysed as
    /// `a`), for a placement that completes no line (the caller checks) on a board that is
    /// not empty.
    pub fn placements<'a>(
        &'a self,
        a: &'a Analysis,
        board: &Board,
        index: usize,
    ) -> Placements<'a> {
        let pos = Pos::from_index(index);
        let size = board.size() as usize;
        let inv = 1.0 / size as f32;
        let own = a.mask[index];
        let mut dead_row = a.dead_row;
        let mut dead_col = a.dead_col;
        let mut flex = a.flex;
        let mut dead = a.dead;
        if own == 0 {
            dead -= 1;
            dead_row[pos.row as usize] -= 1;
            dead_col[pos.col as usize] -= 1;
        } else {
            flex -= self.log[own.count_ones() as usize];
        }
        // Line fills after the placement, and the dead cells' share of them.
        let fill_row = |r: usize| board.row_fill(r) as i32 + i32::from(r == pos.row as usize);
        let fill_col = |c: usize| board.col_fill(c) as i32 + i32::from(c == pos.col as usize);
        let mut dead_line = 0i32;
        for i in 0..size {
            dead_line += dead_row[i] * fill_row(i) + dead_col[i] * fill_col(i);
        }
        // The lines the placement touches, rows r-1..=r+1 (slots 0-2), then columns c-1..=c+1
        // (slots 3-5), with the cell's own wait gone (infinite outside the board), and the
        // rate of the lines it does not touch.
        let mut line_waits = [f32::INFINITY; 6];
        let mut line_rate = a.line_rate;
        if self.weights.line_rate != 0.0 {
            for k in 0..3 {
                let line = (pos.row as usize + k).wrapping_sub(1);
                if line < size {
                    line_waits[k] = a.waits.rows[line];
                    line_rate -= 1.0 / line_waits[k];
                }
                let line = (pos.col as usize + k).wrapping_sub(1);
                if line < size {
                    line_waits[3 + k] = a.waits.cols[line];
                    line_rate -= 1.0 / line_waits[3 + k];
                }
            }
            let own_wait = self.cell_wait(true, own);
            line_waits[1] -= own_wait;
            line_waits[4] -= own_wait;
        }
        let mut neighbours = [Neighbour::default(); 4];
        let mut count = 0;
        for d in NEIGHBOURS {
            let j = index.wrapping_add_signed(d);
            if board.at(j) != EMPTY {
                continue;
            }
            // Border cells are outside the board.
            let (row, col) = (j / STRIDE, j % STRIDE);
            if row == 0 || col == 0 || row > size || col > size {
                continue;
            }
            let at = Pos::from_index(j);
            neighbours[count] = Neighbour {
                mask: a.mask[j],
                frontier: a.frontier[j],
                line_share: fill_row(at.row as usize) + fill_col(at.col as usize),
                wait: self.cell_wait(a.frontier[j], a.mask[j]),
                row_slot: at.row + 1 - pos.row,
                col_slot: 3 + at.col + 1 - pos.col,
            };
            count += 1;
        }
        let fr = board.row_fill(pos.row as usize) as f32;
        let fc = board.col_fill(pos.col as usize) as f32;
        let (cross, cross_sum) = self.cross(board, Some(pos));
        Placements {
            eval: self,
            a,
            own,
            neighbours,
            count,
            base: Features {
                homeless: 0,
                single: 0,
                flex,
                dead: dead as u32,
                dead_line: dead_line as f32 * inv,
                line: a.line + ((2.0 * fr + 1.0) + (2.0 * fc + 1.0)) * inv * inv,
                tiles: board.tile_count() + 1,
                cross,
                cross_sum,
                line_rate,
            },
            line_waits,
            inv,
        }
    }

    /// The weighted sum of the figures.
    #[inline(always)]
    fn weigh(&self, f: &Features, counter: u8) -> f32 {
        let w = &self.weights;
        let p = self.masks.params;
        self.homeless_term[f.homeless as usize] - self.single_term[f.single as usize]
            + w.flex * f.flex
            - w.dead * f.dead as f32
            - w.dead_line * f.dead_line
            + w.line * f.line
            - self.crowd_term[f.tiles as usize]
            + w.cross * p.s as f32 * f.cross
            + w.cross_sum * p.s as f32 * f.cross_sum
            - self.counter_term[counter as usize]
            + w.line_rate * p.s as f32 * f.line_rate
            - self.risk[f.homeless as usize * (p.d as usize + 1) + counter.min(p.d) as usize]
    }

    /// [`Evaluator::value`] of `board` after `code` goes on the empty frontier cell `index`,
    /// where the placement completes no line (the caller checks), from `board`'s analysis.
    // The search values placements in batches (`Placements`); this one-at-a-time form is for
    // its test and the bench.
    #[cfg(any(test, feature = "lab"))]
    pub fn placed_value(
        &self,
        a: &Analysis,
        board: &Board,
        index: usize,
        code: u8,
        counter: u8,
    ) -> f32 {
        if board.is_empty() {
            // No coverage to update from: the full pass.
            let mut next = board.clone();
            next.put(index, code);
            return self.value(&next, counter);
        }
        self.placements(a, board, index).value(code, counter)
    }
}

/// An empty neighbour of the cell a placement goes on.
#[derive(Clone, Copy, Default)]
struct Neighbour {
    /// Its accepted kinds before the placement (0 if it was not on the frontier).
    mask: u128,
    frontier: bool,
    /// The fills of its row and column after the placement, which a dead cell is charged.
    line_share: i32,
    /// What it waits for before the placement, and the slots of its row and column among
    /// [`Placements::line_waits`].
    wait: f32,
    row_slot: u8,
    col_slot: u8,
}

/// Everything about placements on one cell that does not depend on the tile, so that the
/// worth of each tile there costs a few bitwise operations ([`Evaluator::placements`]).
pub struct Placements<'a> {
    eval: &'a Evaluator,
    a: &'a Analysis,
    /// The cell's own accepted kinds, which lose this home.
    own: u128,
    neighbours: [Neighbour; 4],
    count: usize,
    /// The features after the placement but for the tile's effect on the neighbours (and
    /// the homeless and single counts; `line_rate` holds the untouched lines' share).
    base: Features,
    /// The waits of the lines the placement touches but for its effect on the neighbours.
    line_waits: [f32; 6],
    inv: f32,
}

impl Placements<'_> {
    /// [`Evaluator::value`] after the tile `code` (`W` or regular) goes on the cell.
    ///
    /// A `W` is worth at least what any regular tile is worth on the same cell, whatever the
    /// board, as long as every weight is 0 or above (`line` and the `cross` pair, which a
    /// tile's kind does not move, may be anything) and `homeless` is at least `single`:
    /// every neighbour keeps all its kinds (flex, dead cells and the lines' waits as before),
    /// and new frontier cells accept every kind, so each kind keeps at least as many homes
    /// (with no home costing more than one, more homes never cost more).
    pub fn value(&self, code: u8, counter: u8) -> f32 {
        let eval = self.eval;
        let all = eval.masks.all;
        let accept = eval.masks.accept[code as usize] & all;
        let log = &eval.log;
        let mut f = self.base;
        // Bit-sliced count of the homes each kind loses: the cell, then each frontier
        // neighbour's kinds the tile rules out (at most 4 in all).
        let (mut d0, mut d1, mut d2) = (self.own, 0u128, 0u128);
        let mut gained = 0u32;
        let mut dead_share = 0i32;
        for n in &self.neighbours[..self.count] {
            if !n.frontier {
                // A new frontier cell, accepting what the tile accepts.
                gained += 1;
                f.flex += log[accept.count_ones() as usize];
                continue;
            }
            if n.mask == 0 {
                continue;
            }
            let kept = n.mask & accept;
            let lost = n.mask & !accept;
            f.flex += log[kept.count_ones() as usize] - log[n.mask.count_ones() as usize];
            if kept == 0 {
                f.dead += 1;
                dead_share += n.line_share;
            }
            let carry0 = d0 & lost;
            d0 ^= lost;
            let carry1 = d1 & carry0;
            d1 ^= carry0;
            d2 |= carry1;
        }
        f.dead_line += dead_share as f32 * self.inv;
        // Kinds losing exactly v homes, v = 0..=4.
        let lose = [
            !d0 & !d1 & !d2,
            d0 & !d1 & !d2,
            !d0 & d1 & !d2,
            d0 & d1 & !d2,
            d2,
        ];
        let level = &self.a.level;
        // Kinds whose count ends at `target`: count - lost (+ gained, on `accept`) = target.
        let ending_at = |target: usize| {
            let mut plain = 0u128;
            let mut boosted = 0u128;
            for (v, &set) in lose.iter().enumerate() {
                if let Some(&l) = level.get(v + target) {
                    plain |= set & l;
                }
                if let Some(&l) = (v + target)
                    .checked_sub(gained as usize)
                    .and_then(|c| level.get(c))
                {
                    boosted |= set & l;
                }
            }
            if gained == 0 {
                plain & all
            } else {
                (plain & !accept | boosted & accept) & all
            }
        };
        f.homeless = ending_at(0).count_ones();
        f.single = ending_at(1).count_ones();
        if eval.weights.line_rate != 0.0 {
            let mut waits = self.line_waits;
            for n in &self.neighbours[..self.count] {
                let kinds = if !n.frontier {
                    accept.count_ones()
                } else if n.mask == 0 {
                    continue;
                } else {
                    (n.mask & accept).count_ones()
                };
                let change = eval.wait[kinds as usize] - n.wait;
                waits[n.row_slot as usize] += change;
                waits[n.col_slot as usize] += change;
            }
            f.line_rate += waits.iter().map(|w| 1.0 / w).sum::<f32>();
        }
        eval.weigh(&f, counter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::TilesCase;
    use crate::rules::{Move, State, WILD};
    use marathon_core::rng::FastRng;

    /// The ruin chance: a walk needs `D + 1 - counter` homeless tiles in a row at the least,
    /// and it is certain when every tile is homeless.
    #[test]
    fn ruin_chance_follows_the_counter_walk() {
        assert_eq!(ruin_chance(0.3, 0, 2, 2), 0.0);
        assert!((ruin_chance(0.3, 0, 2, 3) - 0.3f64.powi(3)).abs() < 1e-12);
        assert!((ruin_chance(0.3, 2, 2, 1) - 0.3).abs() < 1e-12);
        assert_eq!(ruin_chance(1.0, 1, 4, 4), 1.0);
        assert_eq!(ruin_chance(0.0, 4, 4, 100), 0.0);
        // More moves, more ruin; a higher counter, more ruin.
        assert!(ruin_chance(0.2, 1, 3, 50) > ruin_chance(0.2, 1, 3, 20));
        assert!(ruin_chance(0.2, 2, 3, 20) > ruin_chance(0.2, 1, 3, 20));
    }

    /// Two setups on an 8x8 board: row 0 and column 3 short of the same gap (0,3), a double
    /// clear waiting, and row 7 short of (7,5), whose column holds 3 of 7. The best setup is
    /// the double; the sum counts each gap once, the double's too.
    #[test]
    fn cross_features_count_every_setup_once() {
        let params = Params::new(4, 8, 2).unwrap();
        let mut board = State::new(params).board;
        let mut fill = |row: u8, col: u8| board.put(Pos::new(row, col).index(), WILD);
        for col in (0..8).filter(|&c| c != 3) {
            fill(0, col);
        }
        for row in 1..8 {
            fill(row, 3);
        }
        for col in (0..8).filter(|&c| c != 3 && c != 5) {
            fill(7, col);
        }
        fill(1, 5);
        fill(2, 5);
        let features = Evaluator::new(params, Weights::default()).features(&board);
        assert_eq!(features.cross, 1.0);
        assert!((features.cross_sum - (1.0 + 9.0 / 49.0)).abs() < 1e-6);
        // Filling (2,4) changes no short line: the same figures from the placement's view.
        assert_eq!(cross(&board, Some(Pos::new(2, 4))), (1.0, 1.0 + 9.0 / 49.0));
        // Filling (3,5) brings column 5 to 4 of 7.
        let (_, sum) = cross(&board, Some(Pos::new(3, 5)));
        assert!((sum - (1.0 + 16.0 / 49.0)).abs() < 1e-6);
    }

    /// On every cell a `W` is worth at least any regular tile (the bound the search prunes
    /// with), under each N's tuned weights with the line rate weighed, on boards from random
    /// play.
    #[test]
    fn a_wildcard_bounds_every_tile_on_its_cell() {
        let mut compared = 0;
        for seed in 1..=12u64 {
            let mut case = TilesCase::new(seed);
            let mut state = State::new(case.params);
            let weights = Weights {
                line_rate: 2.0,
                ..crate::ai::search::tuned_weights(case.params)
            };
            let eval = Evaluator::new(case.params, weights);
            let mut rng = FastRng::new(seed);
            while state.moves < 200 && !state.is_over() {
                let tile = case.next_tile(state.board.is_empty());
                let board = &state.board;
                let analysis = eval.analyse(board);
                let size = board.size();
                let clears = |index: usize| {
                    let pos = Pos::from_index(index);
                    board.row_fill(pos.row as usize) + 1 == size
                        || board.col_fill(pos.col as usize) + 1 == size
                };
                let cells = analysis.frontier(board).filter(|&(i, _)| !clears(i));
                for (index, mask) in cells.filter(|_| !board.is_empty()) {
                    let placements = eval.placements(&analysis, board, index);
                    let wild = placements.value(WILD, 1);
                    for kind in (0..case.params.kinds() as u8).filter(|&k| mask >> k & 1 == 1) {
                        let worth = placements.value(REGULAR_BASE + kind, 1);
                        assert!(worth <= wild, "seed {seed}: {worth} > {wild}");
                        compared += 1;
                    }
                }
                let moves = state.legal_moves(tile);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u32) as usize];
                state.play(tile, mv).unwrap();
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    /// The incremental worth of a placement equals the full pass on the board after it.
    #[test]
    fn placed_value_agrees_with_the_full_evaluation() {
        for seed in 1..=12u64 {
            let mut case = TilesCase::new(seed);
            let mut state = State::new(case.params);
            let weights = Weights {
                cross: 1.0,
                cross_sum: 0.5,
                line_rate: 2.0,
                ..Weights::default()
            };
            let eval = Evaluator::new(case.params, weights);
            let mut rng = FastRng::new(seed);
            let mut checked = 0;
            for _ in 0..300 {
                if state.is_over() {
                    break;
                }
                let tile = case.next_tile(state.board.is_empty());
                let board = &state.board;
                let analysis = eval.analyse(board);
                for (index, mask) in analysis.frontier(board) {
                    let pos = Pos::from_index(index);
                    let s = board.size();
                    if board.row_fill(pos.row as usize) + 1 == s
                        || board.col_fill(pos.col as usize) + 1 == s
                    {
                        continue;
                    }
                    let kinds = (0..case.params.kinds() as u8).filter(|&k| mask >> k & 1 == 1);
                    for code in kinds.map(|k| REGULAR_BASE + k).chain([WILD]) {
                        let mut next = board.clone();
                        next.put(index, code);
                        let full = eval.value(&next, 1);
                        let fast = eval.placed_value(&analysis, board, index, code, 1);
                        assert!((full - fast).abs() < 1e-3, "{full} vs {fast}");
                        checked += 1;
                    }
                }
                let moves = state.legal_moves(tile);
                let mv = if moves.is_empty() {
                    Move::GiveUp
                } else {
                    moves[rng.below(moves.len() as u32) as usize]
                };
                state.play(tile, mv).unwrap();
            }
            assert!(checked > 100, "seed {seed}: {checked}");
        }
    }
}
