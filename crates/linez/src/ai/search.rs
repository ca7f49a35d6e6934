//! The built-in AI: a one-move expectimax over sampled spawns with a greedy reply.
//!
//! The spawn cells are hidden and uniform, so a move's worth is an expectation. The AI picks the
//! most promising moves by an evaluation's one-move worth, then estimates for each the expected
//! worth of the best reply after a random spawn of the known preview colours. Every candidate
//! sees the same sampled spawns in a round (common random numbers), so differences between
//! candidates are not drowned in sampling noise, and successive halving spends the later rounds
//! on the close contenders. The evaluation is either the hand-made one ([`Weights`]), which
//! always clears a line it can (waiting lets a spawn block it), or the learned one
//! ([`Network`]), whose values decide that too.

use std::time::{Duration, Instant};

use marathon_core::rng::FastRng;

use super::eval::{MoveScorer, Weights};
use super::greedy::best_move;
use super::ntuple::Network;
use super::{Clock, Player};
use crate::rules::{Board, CELLS, Color, Move, State, line_points};

/// How many moves, best by one-move worth, get the sampled evaluation.
const CANDIDATES: usize = 10;

/// Successive halving starts after this many rounds and repeats at every power of two.
const HALVING_START: u64 = 4;

/// What the search needs of an evaluation.
pub trait Evaluator {
    /// Whether a move that clears is always played (for an evaluation that prices the risk of
    /// waiting poorly).
    const CLEAR_FIRST: bool;

    /// The best `n` moves by one-move worth, best first: move, worth, balls removed.
    fn candidates(&self, board: &Board, n: usize) -> Vec<(Move, f32, u32)>;

    /// The worth of `board` with the player to move and no spawn pending: its best move's.
    fn reply_value(&self, board: &Board) -> f32;

    /// The exact worth of a candidate `mv` that clears `removed` balls, whose one-move worth
    /// is `worth`: there is no spawn to sample.
    fn clearing_worth(&self, board: &Board, mv: Move, removed: u32, worth: f32) -> f32;

    /// The worth of the points a clear of `removed` balls scores.
    fn clear_value(&self, removed: u32) -> f32;

    /// The worth of a lost game.
    fn game_over(&self) -> f32;
}

impl Evaluator for Weights {
    const CLEAR_FIRST: bool = true;

    fn candidates(&self, board: &Board, n: usize) -> Vec<(Move, f32, u32)> {
        let mut scored: Vec<(Move, f32, u32)> = Vec::new();
        let scorer = MoveScorer::new(self, board);
        scorer.for_each_scored(|mv, value, removed| scored.push((mv, value, removed)));
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(RESCORED);
        for (mv, value, removed) in scored.iter_mut() {
            *value = scorer.exact(*mv, *value, *removed);
        }
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(n);
        scored
    }

    fn reply_value(&self, board: &Board) -> f32 {
        match best_move(self, board) {
            Some((_, value, _)) => value,
            None => self.evaluate(board),
        }
    }

    /// The points plus the best reply: the one-move worth prices the position, not the
    /// move the clear gives.
    fn clearing_worth(&self, board: &Board, mv: Move, removed: u32, _worth: f32) -> f32 {
        let mut after = *board;
        after.move_ball(mv);
        self.clear_value(removed) + self.reply_value(&after)
    }

    fn clear_value(&self, removed: u32) -> f32 {
        Weights::clear_value(self, removed)
    }

    fn game_over(&self) -> f32 {
        GAME_OVER
    }
}

/// The learned values are points still to come: a clear is worth its points, a lost game
/// nothing more.
impl Evaluator for Network {
    const CLEAR_FIRST: bool = false;

    fn candidates(&self, board: &Board, n: usize) -> Vec<(Move, f32, u32)> {
        self.best_moves(board, n)
    }

    fn reply_value(&self, board: &Board) -> f32 {
        self.continuation(board)
    }

    /// A clearing move's worth already holds the move after it.
    fn clearing_worth(&self, _board: &Board, _mv: Move, _removed: u32, worth: f32) -> f32 {
        worth
    }

    fn clear_value(&self, removed: u32) -> f32 {
        line_points(removed) as f32
    }

    fn game_over(&self) -> f32 {
        0.0
    }
}

/// How many moves, best by fast score, get their exact static worth before the candidates are
/// picked.
const RESCORED: usize = 40;

/// The game length the time is planned for. The mean score is made by the long games, so the
/// time must last into them: a share that spreads the time geometrically over ~150 moves
/// starves every move after the 300th.
const PLANNED_MOVES: u32 = 800;

/// Past the planned length, the remaining time still spreads over at least this many moves
/// (geometrically from there on, so a game of any length never runs out).
const MIN_HORIZON: u32 = 250;

/// The share of the remaining time for a move on a board with `balls` balls, `played` moves
/// into the game: the remaining time spread over the moves still planned, weighted by danger
/// (little while the board is open and any sensible move will do, more as it fills and one bad
/// move can end it).
fn time_share(balls: u32, played: u32) -> f64 {
    let horizon = PLANNED_MOVES.saturating_sub(played).max(MIN_HORIZON);
    ((balls as f64 - 10.0) / 30.0).clamp(0.2, 2.5) / horizon as f64
}

/// Below this much time left, moves are chosen greedily (no sampling): safety before the limit.
const TIME_RESERVE: Duration = Duration::from_millis(300);

/// Worth of losing the game (a spawn filled the board).
const GAME_OVER: f32 = -1.0e6;

pub struct SearchPlayer<E> {
    evaluator: E,
    rng: FastRng,
    /// Sampling rounds (one spawn for every candidate still in the race); `None` means: as
    /// many as the time allows.
    effort: Option<u64>,
    /// Moves chosen so far in this game.
    played: u32,
}

impl<E: Evaluator> SearchPlayer<E> {
    pub fn new(evaluator: E, rng: FastRng, effort: Option<u64>) -> Self {
        Self {
            evaluator,
            rng,
            effort,
            played: 0,
        }
    }

    /// One sampled outcome of `mv`: the spawn given by `order`, then the best reply.
    fn sample(&self, board: &Board, mv: Move, preview: [Color; 3], order: &SpawnOrder) -> f32 {
        let mut after = *board;
        let removed = after.move_ball(mv);
        debug_assert_eq!(removed, 0, "clearing moves are not sampled");
        let mut state = State::new(after, preview);
        let mut empty = after.empty_cells().raw();
        let spawn_removed = state.spawn(|_| order.take_first(&mut empty));
        if state.is_over() {
            return self.evaluator.game_over();
        }
        self.evaluator.clear_value(spawn_removed) + self.evaluator.reply_value(&state.board)
    }
}

/// A sampled spawn that fits every candidate move: a random order of all cells, and each
/// spawned ball lands on the first empty cell in it. For one board that is the uniform spawn of
/// the rules; across candidates, which differ in a cell or two, the spawns mostly coincide, so
/// the candidates are compared on the same luck.
struct SpawnOrder([u8; CELLS]);

impl SpawnOrder {
    fn random(rng: &mut FastRng) -> Self {
        let mut cells = [0u8; CELLS];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = i as u8;
        }
        for i in (1..CELLS).rev() {
            cells.swap(i, rng.below(i as u32 + 1) as usize);
        }
        SpawnOrder(cells)
    }

    /// Takes the first cell of the order that is in `empty` out of it, and returns its index
    /// among the cells of `empty` in row-major order (what [`State::spawn`] asks for).
    fn take_first(&self, empty: &mut u128) -> u32 {
        let cell = self
            .0
            .iter()
            .map(|&c| 1u128 << c)
            .find(|&bit| *empty & bit != 0)
            .expect("spawn asks only while a cell is empty");
        let rank = (*empty & (cell - 1)).count_ones();
        *empty &= !cell;
        rank
    }
}

struct Candidate {
    mv: Move,
    total: f32,
    samples: u32,
    /// Clearing moves have no spawn: their worth is exact after one evaluation.
    exact: bool,
}

impl Candidate {
    fn mean(&self) -> f32 {
        self.total / self.samples.max(1) as f32
    }
}

impl<E: Evaluator> Player for SearchPlayer<E> {
    fn choose(&mut self, board: &Board, preview: [Color; 3], clock: &Clock) -> Option<Move> {
        self.played += 1;
        let mut scored = self.evaluator.candidates(board, CANDIDATES);
        if E::CLEAR_FIRST && scored.iter().any(|&(_, _, removed)| removed > 0) {
            scored.retain(|&(_, _, removed)| removed > 0);
        }
        if scored.len() <= 1 || (self.effort.is_none() && clock.remaining() < TIME_RESERVE) {
            return scored.first().map(|&(mv, _, _)| mv);
        }

        let mut candidates: Vec<Candidate> = scored
            .iter()
            .map(|&(mv, worth, removed)| {
                let exact = removed > 0;
                let total = if exact {
                    self.evaluator.clearing_worth(board, mv, removed, worth)
                } else {
                    0.0
                };
                Candidate {
                    mv,
                    total,
                    samples: u32::from(exact),
                    exact,
                }
            })
            .collect();

        let deadline = self.effort.is_none().then(|| {
            Instant::now()
                + clock
                    .remaining()
                    .mul_f64(time_share(board.ball_count(), self.played))
        });
        let rounds = self.effort.unwrap_or(u64::MAX);
        let mut round = 0;
        while round < rounds {
            let order = SpawnOrder::random(&mut self.rng);
            for candidate in candidates.iter_mut().filter(|c| !c.exact) {
                candidate.total += self.sample(board, candidate.mv, preview, &order);
                candidate.samples += 1;
            }
            round += 1;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if round >= HALVING_START && round.is_power_of_two() {
                // Successive halving: the worse half has had its chance.
                candidates.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
                let keep = (candidates.len() / 2).max(2);
                candidates.truncate(keep);
            }
        }
        candidates
            .iter()
            .max_by(|a, b| a.mean().total_cmp(&b.mean()))
            .map(|c| c.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The share of the remaining time left after `moves` moves on a board of `balls` balls.
    fn left_after(moves: u32, balls: u32) -> f64 {
        (1..=moves).fold(1.0, |left, played| left * (1.0 - time_share(balls, played)))
    }

    #[test]
    fn time_lasts_into_long_games() {
        // A typical board of 45 balls: the 500th move still has a sixth of the time left and
        // gets as much as an average move of a 600-move game, and the time never runs out.
        let left = left_after(500, 45);
        assert!(left > 1.0 / 6.0, "{left}");
        assert!(left * time_share(45, 501) > 1.0 / 600.0 / 2.0);
        assert!(left_after(5000, 45) > 0.0);
        // A nearly full board gets more of the time than an open one.
        assert!(time_share(70, 100) > 3.0 * time_share(20, 100));
    }
}
