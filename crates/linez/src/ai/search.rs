//! The built-in AI: a one-move expectimax over sampled spawns with a greedy reply.
//!
//! The spawn cells are hidden and uniform, so a move's worth is an expectation. The AI picks the
//! most promising moves by static worth, then estimates for each the expected worth of the best
//! reply after a random spawn of the known preview colours. Every candidate sees the same
//! sampled spawns in a round (common random numbers), so differences between candidates are not
//! drowned in sampling noise.

use std::time::{Duration, Instant};

use marathon_core::rng::FastRng;

use super::eval::{MoveScorer, Weights};
use super::greedy::best_move;
use super::{Clock, Player};
use crate::rules::{Board, Color, Move, State};

/// How many moves, best by static worth, get the sampled evaluation.
const CANDIDATES: usize = 10;

/// The share of the remaining time one move may use: the time spreads over the game in a
/// geometric series, so a long game never runs out.
const TIME_SHARE: f64 = 1.0 / 250.0;

/// Below this much time left, moves are chosen greedily (no sampling): safety before the limit.
const TIME_RESERVE: Duration = Duration::from_millis(300);

/// Worth of losing the game (a spawn filled the board).
const GAME_OVER: f32 = -1.0e6;

pub struct SearchPlayer {
    weights: Weights,
    rng: FastRng,
    /// Spawn samples per candidate; `None` means: as many as the time allows.
    effort: Option<u64>,
}

impl SearchPlayer {
    pub fn new(weights: Weights, rng: FastRng, effort: Option<u64>) -> Self {
        Self {
            weights,
            rng,
            effort,
        }
    }

    /// The worth of the best reply on `board` (the player to move, no spawn pending).
    fn reply_value(&self, board: &Board) -> f32 {
        match best_move(&self.weights, board) {
            Some((_, value, _)) => value,
            None => self.weights.evaluate(board),
        }
    }

    /// One sampled outcome of `mv`: the spawn drawn from `spawn_seed`, then the best reply.
    fn sample(&self, board: &Board, mv: Move, preview: [Color; 3], spawn_seed: u64) -> f32 {
        let mut after = *board;
        let removed = after.move_ball(mv);
        debug_assert_eq!(removed, 0, "clearing moves are not sampled");
        let mut state = State::new(after, preview);
        let mut rng = FastRng::new(spawn_seed);
        let spawn_removed = state.spawn(|n| rng.below(n));
        if state.is_over() {
            return GAME_OVER;
        }
        self.weights.clear_value(spawn_removed) + self.reply_value(&state.board)
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

impl Player for SearchPlayer {
    fn choose(&mut self, board: &Board, preview: [Color; 3], clock: &Clock) -> Option<Move> {
        let mut scored: Vec<(f32, Move, u32)> = Vec::new();
        let scorer = MoveScorer::new(&self.weights, board);
        board.for_each_legal_move(|mv| {
            let (value, removed) = scorer.score(mv);
            scored.push((value, mv, removed));
        });
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored.truncate(CANDIDATES);
        if scored.len() <= 1 || (self.effort.is_none() && clock.remaining() < TIME_RESERVE) {
            return scored.first().map(|&(_, mv, _)| mv);
        }

        let mut candidates: Vec<Candidate> = scored
            .iter()
            .map(|&(_, mv, removed)| {
                let exact = removed > 0;
                let total = if exact {
                    let mut after = *board;
                    after.move_ball(mv);
                    self.weights.clear_value(removed) + self.reply_value(&after)
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

        let deadline = self
            .effort
            .is_none()
            .then(|| Instant::now() + clock.remaining().mul_f64(TIME_SHARE));
        let rounds = self.effort.unwrap_or(u64::MAX);
        let mut round = 0;
        while round < rounds {
            let spawn_seed = self.rng.next_u64();
            for candidate in candidates.iter_mut().filter(|c| !c.exact) {
                candidate.total += self.sample(board, candidate.mv, preview, spawn_seed);
                candidate.samples += 1;
            }
            round += 1;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        candidates
            .iter()
            .max_by(|a, b| a.mean().total_cmp(&b.mean()))
            .map(|c| c.mv)
    }
}
