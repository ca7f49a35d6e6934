//! What the AI learns of the opponents from the boards it is sent.
//!
//! [`explain`] reads the opponents' moves off two successive boards (the board after player
//! 1's move and the next board it is sent) by replaying the rules: each opponent in turn must
//! have placed a piece on one of the newly occupied cells, legally, and the replay must end on
//! the board received.
//!
//! [`Fit`] searches for weights under which every observed decision is the move the
//! opponent's rule (RULES.md) picks. The value of a move is a ratio of two sums of weights, so
//! a decision is a set of inequalities between ratios; the fit keeps, per decision, the sums
//! of the weights of the mover's cells, of the other players' cells, and of each candidate's
//! placed and flipped cells, and climbs one weight at a time (random step, kept if the score
//! does not fall), re-scoring every decision from those sums in O(candidates). The score of a
//! decision is 1 if the rule picks the observed move under the weights, plus a bounded margin
//! that guides the climb on the decisions not yet explained.
//!
//! Generated strategies share nothing from one case to the next (the GA starts from random
//! weights every time), but a case's opponents come from one final population and are close
//! relatives, so one weight vector is fitted to all their decisions together.

use std::time::Instant;

use marathon_core::rng::FastRng;

use crate::rules::{Bits, Board, Cell, Player, State};
use crate::strategy::{self, Weights, beats};

/// One observed decision of a computer player.
#[derive(Clone, Debug)]
pub struct Decision {
    pub board: Board,
    pub mover: Player,
    pub chosen: Cell,
}

/// The opponents' moves that lead from `after_ours` (player 1 just moved) to `observed`
/// (player 1 to move again), in order; `None` if no sequence or more than one does.
pub fn explain(after_ours: &Board, observed: &Board) -> Option<Vec<Decision>> {
    let state = State::from_board(after_ours.clone(), 2);
    let mut found = Vec::new();
    let mut path = Vec::new();
    search_moves(&state, observed, &mut path, &mut found);
    if found.len() == 1 { found.pop() } else { None }
}

fn search_moves(
    state: &State,
    observed: &Board,
    path: &mut Vec<Decision>,
    found: &mut Vec<Vec<Decision>>,
) {
    if found.len() > 1 {
        return;
    }
    match state.to_move {
        Some(1) | None => {
            if state.board == *observed {
                found.push(path.clone());
            }
        }
        Some(player) => {
            let new_cells = observed.occupied() - state.board.occupied();
            for cell in state.board.legal_moves(player) & new_cells {
                let mut next = state.clone();
                next.play_unchecked(cell);
                path.push(Decision {
                    board: state.board.clone(),
                    mover: player,
                    chosen: cell,
                });
                search_moves(&next, observed, path, found);
                path.pop();
            }
        }
    }
}

/// A decision as the fit sees it.
#[derive(Clone, Debug)]
struct Sample {
    mine: Bits,
    theirs: Bits,
    /// The legal moves, row-major: the cell and the pieces it flips.
    cands: Vec<(Cell, Bits)>,
    chosen: usize,
    /// Weight sums under the current weights.
    m: f64,
    t: f64,
    /// Per candidate: weight of the placed cell plus the flipped ones, and of the flipped.
    g: Vec<f64>,
    f: Vec<f64>,
    score: f64,
}

/// Weight of the margin term in a decision's score (the hit counts 1).
const MARGIN_WEIGHT: f64 = 0.1;

impl Sample {
    fn new(decision: &Decision, weights: &Weights) -> Self {
        let board = &decision.board;
        let mine = board.pieces(decision.mover);
        let theirs = board.occupied() - mine;
        let cands: Vec<(Cell, Bits)> = board
            .legal_moves(decision.mover)
            .iter()
            .map(|c| (c, board.flips(decision.mover, c)))
            .collect();
        let chosen = cands
            .iter()
            .position(|&(c, _)| c == decision.chosen)
            .expect("the observed move is legal");
        let mut sample = Sample {
            mine,
            theirs,
            cands,
            chosen,
            m: 0.0,
            t: 0.0,
            g: Vec::new(),
            f: Vec::new(),
            score: 0.0,
        };
        sample.recompute(weights);
        sample
    }

    fn recompute(&mut self, w: &Weights) {
        let dot = |bits: Bits| bits.iter().map(|c| w.get(c)).sum::<f64>();
        self.m = dot(self.mine);
        self.t = dot(self.theirs);
        self.f = self.cands.iter().map(|&(_, flips)| dot(flips)).collect();
        self.g = self
            .cands
            .iter()
            .zip(&self.f)
            .map(|(&(c, _), f)| w.get(c) + f)
            .collect();
        self.score = self.score_with(self.m, self.t, |i| (self.g[i], self.f[i]));
    }

    /// The score with sums `m`, `t` and candidate sums `gf(i)`.
    #[inline]
    fn score_with(&self, m: f64, t: f64, gf: impl Fn(usize) -> (f64, f64)) -> f64 {
        let mut best: Option<f64> = None;
        let mut winner = 0;
        let mut chosen_value = f64::NAN;
        let mut other_max = f64::NEG_INFINITY;
        for i in 0..self.cands.len() {
            let (g, f) = gf(i);
            let value = (m + g) / (t - f);
            if beats(value, best) {
                best = Some(value);
                winner = i;
            }
            if i == self.chosen {
                chosen_value = value;
            } else if value > other_max {
                other_max = value;
            }
        }
        if self.cands.len() == 1 {
            return 1.0 + MARGIN_WEIGHT;
        }
        let hit = if winner == self.chosen && best.is_some() {
            1.0
        } else {
            0.0
        };
        let diff = chosen_value - other_max;
        let scale = chosen_value.abs() + other_max.abs() + 1e-9;
        let margin = if diff.is_nan() {
            -1.0
        } else {
            (diff / scale).clamp(-1.0, 1.0)
        };
        hit + MARGIN_WEIGHT * margin
    }

    /// The score if weight `k` changed by `delta`.
    #[inline]
    fn score_if(&self, k: Cell, delta: f64) -> f64 {
        let m = self.m + if self.mine.contains(k) { delta } else { 0.0 };
        let t = self.t + if self.theirs.contains(k) { delta } else { 0.0 };
        self.score_with(m, t, |i| {
            let (c, flips) = self.cands[i];
            let mut g = self.g[i];
            let mut f = self.f[i];
            if c == k {
                g += delta;
            }
            if flips.contains(k) {
                g += delta;
                f += delta;
            }
            (g, f)
        })
    }

    fn apply(&mut self, k: Cell, delta: f64, score: f64) {
        if self.mine.contains(k) {
            self.m += delta;
        }
        if self.theirs.contains(k) {
            self.t += delta;
        }
        for (i, &(c, flips)) in self.cands.iter().enumerate() {
            if c == k {
                self.g[i] += delta;
            }
            if flips.contains(k) {
                self.g[i] += delta;
                self.f[i] += delta;
            }
        }
        self.score = score;
    }

    /// The winner under the current sums (index into `cands`).
    fn winner(&self) -> usize {
        let mut best: Option<f64> = None;
        let mut winner = 0;
        for i in 0..self.cands.len() {
            let value = (self.m + self.g[i]) / (self.t - self.f[i]);
            if beats(value, best) {
                best = Some(value);
                winner = i;
            }
        }
        winner
    }

    /// d value(i) / d w[k].
    #[inline]
    fn value_gradient(&self, i: usize, k: Cell) -> f64 {
        let (c, flips) = self.cands[i];
        let num = self.m + self.g[i];
        let den = self.t - self.f[i];
        let in_flips = flips.contains(k);
        let d_num = (self.mine.contains(k) || c == k || in_flips) as u8 as f64;
        let d_den = self.theirs.contains(k) as u8 as f64 - in_flips as u8 as f64;
        (d_num * den - num * d_den) / (den * den)
    }

    fn hit(&self) -> bool {
        self.score >= 1.0 - MARGIN_WEIGHT
    }
}

/// The spread of the first weights and of the steps (RULES.md: weights start in [-50, 50]).
const WEIGHT_RANGE: f64 = 50.0;

/// A weight vector fitted to the observed decisions.
#[derive(Clone, Debug)]
pub struct Fit {
    size: usize,
    pub weights: Weights,
    samples: Vec<Sample>,
    cells: Vec<Cell>,
    total: f64,
}

impl Fit {
    /// Random weights in the GA's first range for an `n x n` board.
    pub fn new(size: usize, rng: &mut FastRng) -> Self {
        let cells: Vec<Cell> = (0..size)
            .flat_map(|r| (0..size).map(move |c| Cell::new(r, c)))
            .collect();
        let mut weights = Weights::default();
        for &cell in &cells {
            weights.set(cell, (rng.next_f64() * 2.0 - 1.0) * WEIGHT_RANGE);
        }
        Fit {
            size,
            weights,
            samples: Vec::new(),
            cells,
            total: 0.0,
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Adds an observed decision.
    pub fn observe(&mut self, decision: &Decision) {
        let sample = Sample::new(decision, &self.weights);
        self.total += sample.score;
        self.samples.push(sample);
    }

    /// Decisions observed.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Decisions the weights explain.
    pub fn hits(&self) -> usize {
        self.samples.iter().filter(|s| s.hit()).count()
    }

    /// The fit's score (higher is better).
    pub fn score(&self) -> f64 {
        self.total
    }

    /// Whether the weights pick the observed move of every decision.
    pub fn explains_all(&self) -> bool {
        self.hits() == self.samples.len()
    }

    /// A step on one weight: half the time random, half the time directed by a decision the
    /// weights get wrong (the weight that most raises the observed move's value over the
    /// winner's, moved that way).
    fn propose(&self, step: usize, rng: &mut FastRng) -> (Cell, f64) {
        let size = if step.is_multiple_of(4) { 30.0 } else { 6.0 };
        let magnitude = (rng.next_f64() + rng.next_f64() + rng.next_f64() - 1.5) * size;
        if step.is_multiple_of(2) {
            let misses: Vec<usize> = (0..self.samples.len())
                .filter(|&i| !self.samples[i].hit())
                .collect();
            if !misses.is_empty() {
                let sample = &self.samples[misses[rng.below(misses.len() as u32) as usize]];
                let winner = sample.winner();
                if winner != sample.chosen {
                    let gradient: Vec<f64> = self
                        .cells
                        .iter()
                        .map(|&k| {
                            let d = sample.value_gradient(sample.chosen, k)
                                - sample.value_gradient(winner, k);
                            if d.is_finite() { d } else { 0.0 }
                        })
                        .collect();
                    let total: f64 = gradient.iter().map(|d| d.abs()).sum();
                    if total > 0.0 {
                        let mut pick = rng.next_f64() * total;
                        for (i, d) in gradient.iter().enumerate() {
                            pick -= d.abs();
                            if pick <= 0.0 {
                                return (self.cells[i], magnitude.abs() * d.signum());
                            }
                        }
                    }
                }
            }
        }
        let k = self.cells[rng.below(self.cells.len() as u32) as usize];
        (k, magnitude)
    }

    /// `steps` hill-climbing steps, fewer if `deadline` passes first.
    pub fn climb(&mut self, steps: usize, deadline: Option<Instant>, rng: &mut FastRng) {
        if self.samples.is_empty() {
            return;
        }
        let mut new_scores = Vec::with_capacity(self.samples.len());
        for step in 0..steps {
            if step.is_multiple_of(16) && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let (k, delta) = self.propose(step, rng);
            new_scores.clear();
            new_scores.extend(self.samples.iter().map(|s| s.score_if(k, delta)));
            let new_total: f64 = new_scores.iter().sum();
            if new_total >= self.total {
                for (sample, &score) in self.samples.iter_mut().zip(&new_scores) {
                    sample.apply(k, delta, score);
                }
                self.total = new_total;
                self.weights.set(k, self.weights.get(k) + delta);
            }
        }
        // Refresh the sums from the weights (the running updates drift by rounding).
        for sample in &mut self.samples {
            sample.recompute(&self.weights);
        }
        self.total = self.samples.iter().map(|s| s.score).sum();
    }

    /// The move the fitted weights predict for `mover` on `board`.
    pub fn predict(&self, board: &Board, mover: Player) -> Option<Cell> {
        strategy::choose(board, mover, &self.weights)
    }
}
