//! The `ai` player: a one-ply scan then an expectimax over the next tile.
//!
//! 1. Every legal reply is scored one ply deep: its immediate points plus the evaluation of the
//!    board it leaves ([`super::eval`]).
//! 2. The best few replies (the effort, or as many as the time budget allows) are scored again
//!    as their points plus the expectation, over the next tile, of the best one-ply worth of
//!    the reply to that tile. The next tile's law is known exactly: `W` and `R` each with
//!    probability `1/(32-N)`, each of the `N^2` regular kinds with the rest shared evenly. A
//!    next tile with no home costs a discard, or, with the counter at `D`, the game
//!    ([`Weights::death`]).
//!
//! With a fixed effort the player never reads the clock; with a time limit it spends a share of
//! what is left per move and keeps [`RESERVE`] of the limit untouched.

use std::time::{Duration, Instant};

use super::eval::{Evaluator, Weights};
use super::{Clock, Player};
use crate::generator::TILE_TYPE_BOUND;
use crate::rules::{
    Board, EMPTY, MAX_MOVES, Move, Params, Pos, REGULAR_BASE, State, Tile, WILD, clear_bonus,
};

/// The share of the time limit never planned for (scheduling noise, the judge's pipes).
pub const RESERVE: f64 = 0.2;

/// The weights for a case's parameters, tuned with `examples/tiles_tune.rs` on seeds above 100
/// (the reported figures are on seeds 1-100): first one ply deep (effort 1) by coordinate
/// search, then the discard cost and the breadth of the lookahead at its own effort.
pub fn tuned_weights(params: Params) -> Weights {
    let base = Weights::default();
    match params.n {
        // Few kinds: the game is safe, so the points are in double clears.
        ..=4 => Weights { cross: 1.5, ..base },
        // A discard costs a move: with the wider lookahead it finds a home for more tiles
        // (N=5 effort 6, seeds 101-400: 19,569 at effort 3 without it -> 20,156; N=6
        // seeds 401-700: 16,036 -> 17,410; N=7 seeds 101-400: 10,185 with the many-kinds
        // weights at effort 4 -> 12,829, discards 3,720 -> 1,227 a game).
        5 => Weights {
            cross: 1.5,
            discard: 1.0,
            ..base
        },
        6 | 7 => Weights {
            discard: 1.0,
            ..base
        },
        // Many kinds: keeping every kind a home and the frontier flexible is all. N=8 also
        // charges a discard and looks wider (effort 8 vs 4: seeds 101-300 7,225 -> 7,737,
        // seeds 301-500 6,702 -> 7,475); N=9-10 did not gain from either (4,857 -> 4,591).
        8.. => Weights {
            homeless: 60.0,
            single: 5.0,
            flex: 2.0,
            dead: 1.5,
            dead_line: 3.0,
            line: 20.0,
            crowd: 20.0,
            counter: 20.0,
            discard: if params.n == 8 { 1.0 } else { 0.0 },
            ..base
        },
    }
}

/// The most replies the time budget may look ahead on. With a discard cost (see
/// [`tuned_weights`]) a wider lookahead pays for N = 5-7; without one it discards more
/// (N = 6 effort 6 without it: 2,023 discards a game against 1,255 at effort 3). Earlier
/// measurements at fixed effort with the weights for many kinds: N = 4 (seeds 4, 11, 15, 25)
/// 19,254 at 3 vs 18,484 at 15; N >= 7 (seeds 2, 3, 5-8, 12, 13) 6,046 at 4 vs 3,587 at 12.
pub fn max_expansions(params: Params) -> usize {
    match params.n {
        ..=4 => 3,
        5..=7 => 6,
        8 => 8,
        _ => 4,
    }
}

/// A reply with the board it leaves.
#[derive(Clone)]
struct Candidate {
    mv: Move,
    points: u32,
    board: Board,
    counter: u8,
    worth: f32,
}

pub struct SearchPlayer {
    eval: Evaluator,
    effort: Option<u64>,
    candidates: Vec<Candidate>,
    /// What one lookahead has cost lately (time budget only).
    expansion_cost: Duration,
}

impl SearchPlayer {
    pub fn new(params: Params, weights: Weights, effort: Option<u64>) -> Self {
        SearchPlayer {
            eval: Evaluator::new(params, weights),
            effort,
            candidates: Vec::new(),
            expansion_cost: Duration::ZERO,
        }
    }

    /// The mask of kinds `code` stands for: one bit for a regular tile, all for `W`.
    fn code_bits(&self, code: u8) -> u128 {
        if code == WILD {
            self.eval.masks.all
        } else {
            1u128 << (code - REGULAR_BASE)
        }
    }

    /// Whether `code` may go at the empty cell `index`.
    #[inline]
    fn fits(&self, board: &Board, index: usize, code: u8) -> bool {
        if board.is_empty() {
            return code == WILD;
        }
        let (mask, any) = self.eval.masks.cell(board, index);
        any && (code == WILD || mask & self.code_bits(code) != 0)
    }

    /// Every placement (or removal) of `tile` on `board`, with its points and the board after.
    fn for_each_placement(
        &self,
        board: &Board,
        tile: Tile,
        mut visit: impl FnMut(usize, u32, &Board),
    ) {
        let params = self.eval.masks.params;
        match tile.code(params.n) {
            None => {
                for index in board.indices().filter(|&i| board.at(i) != EMPTY) {
                    let mut next = board.clone();
                    next.take(index);
                    visit(index, 1, &next);
                }
            }
            Some(code) => {
                for index in board.indices() {
                    if board.at(index) != EMPTY || !self.fits(board, index, code) {
                        continue;
                    }
                    let mut next = board.clone();
                    let (row, col) = next.place_unchecked(index, code);
                    visit(index, 1 + clear_bonus(params.s, row, col), &next);
                }
            }
        }
    }

    /// The one-ply candidates for `tile`, best first.
    fn scan(&mut self, state: &State, tile: Tile) {
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let used = state.counter.saturating_sub(1);
        self.for_each_placement(&state.board, tile, |index, points, next| {
            candidates.push(Candidate {
                mv: Move::Place(Pos::from_index(index)),
                points,
                board: next.clone(),
                counter: used,
                worth: points as f32 + self.eval.value(next, used),
            });
        });
        if state.can_discard() {
            candidates.push(Candidate {
                mv: Move::Discard,
                points: 0,
                board: state.board.clone(),
                counter: state.counter + 1,
                worth: self.eval.value(&state.board, state.counter + 1) - self.eval.weights.discard,
            });
        }
        candidates.sort_by(|a, b| b.worth.total_cmp(&a.worth));
        self.candidates = candidates;
    }

    /// The expected one-ply worth of the best reply to the next tile on `board`.
    fn expectation(&self, board: &Board, counter: u8) -> f32 {
        let params = self.eval.masks.params;
        let w = &self.eval.weights;
        let special = 1.0 / (TILE_TYPE_BOUND - params.n as i32) as f32;
        let regular = (1.0 - 2.0 * special) / params.kinds() as f32;
        let used = counter.saturating_sub(1);
        if board.is_empty() {
            // The next tile is surely `W`, and it may go anywhere (RULES.md).
            return board
                .indices()
                .map(|index| {
                    let mut next = board.clone();
                    next.put(index, WILD);
                    1.0 + self.eval.value(&next, used)
                })
                .fold(f32::NEG_INFINITY, f32::max);
        }
        // What a tile with no home costs.
        let homeless = if counter < params.d {
            self.eval.value(board, counter + 1) - w.discard
        } else {
            -w.death
        };
        // Best worth per kind (and for W), over every cell.
        let mut best = [f32::NEG_INFINITY; 128];
        let mut best_wild = f32::NEG_INFINITY;
        let analysis = self.eval.analyse(board);
        let size = params.s;
        for (index, mask) in analysis.frontier(board) {
            let pos = Pos::from_index(index);
            let clears = board.row_fill(pos.row as usize) + 1 == size
                || board.col_fill(pos.col as usize) + 1 == size;
            if clears {
                let worth_of = |code: u8| {
                    let mut next = board.clone();
                    let (row, col) = next.place_unchecked(index, code);
                    (1 + clear_bonus(size, row, col)) as f32 + self.eval.value(&next, used)
                };
                for_each_kind(mask, |kind| {
                    best[kind] = best[kind].max(worth_of(REGULAR_BASE + kind as u8));
                });
                best_wild = best_wild.max(worth_of(WILD));
            } else {
                let placements = self.eval.placements(&analysis, board, index);
                for_each_kind(mask, |kind| {
                    let worth = 1.0 + placements.value(REGULAR_BASE + kind as u8, used);
                    best[kind] = best[kind].max(worth);
                });
                best_wild = best_wild.max(1.0 + placements.value(WILD, used));
            }
        }
        let mut total = 0.0;
        for &worth in &best[..params.kinds()] {
            total += regular * worth.max(homeless);
        }
        // R: its worth is approximated as a free point on the same board (or a discard).
        let remove = (1.0 + self.eval.value(board, used)).max(homeless);
        total + special * (best_wild.max(homeless) + remove)
    }

    /// How many candidates to look ahead on, from the effort or the clock.
    fn budget(&self, state: &State, clock: &Clock) -> Budget {
        match self.effort {
            Some(effort) => Budget::Count(effort as usize),
            None => {
                let usable = clock
                    .limit
                    .mul_f64(1.0 - RESERVE)
                    .saturating_sub(clock.used + clock.started.elapsed());
                let moves_left = MAX_MOVES.saturating_sub(state.moves).max(1);
                Budget::Time(usable / moves_left)
            }
        }
    }
}

/// Calls `visit` with each kind in `mask`.
#[inline]
fn for_each_kind(mask: u128, mut visit: impl FnMut(usize)) {
    let mut bits = mask;
    while bits != 0 {
        visit(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

enum Budget {
    Count(usize),
    Time(Duration),
}

impl Player for SearchPlayer {
    fn choose(&mut self, state: &State, tile: Tile, clock: &Clock) -> Move {
        self.scan(state, tile);
        let Some(first) = self.candidates.first() else {
            return Move::GiveUp;
        };
        if self.candidates.len() == 1 {
            return first.mv;
        }
        let budget = self.budget(state, clock);
        if let Budget::Count(0..=1) = budget {
            return first.mv;
        }
        let mut best = (first.mv, f32::NEG_INFINITY);
        for rank in 0..self.candidates.len() {
            let more = match budget {
                Budget::Count(count) => rank < count,
                // Only start what fits, and only if a second expansion fits too (one alone
                // decides nothing).
                Budget::Time(share) => {
                    let needed = if rank == 0 { 2 } else { 1 };
                    rank < max_expansions(state.params)
                        && clock.started.elapsed() + self.expansion_cost * needed < share
                }
            };
            if !more {
                break;
            }
            let expansion_started = Instant::now();
            let candidate = &self.candidates[rank];
            let penalty = if candidate.mv == Move::Discard {
                self.eval.weights.discard
            } else {
                0.0
            };
            let worth = candidate.points as f32 - penalty
                + self.expectation(&candidate.board, candidate.counter);
            if worth > best.1 {
                best = (candidate.mv, worth);
            }
            if let Budget::Time(_) = budget {
                // A running mean of what one expansion costs.
                let cost = expansion_started.elapsed();
                self.expansion_cost = (self.expansion_cost * 7 + cost) / 8;
            }
        }
        best.0
    }
}
