//! What the AI learns of the opponents from the boards it is sent.
//!
//! [`explain`] reads the opponents' moves off two successive boards (the board after player
//! 1's move and the next board it is sent) by replaying the rules: each opponent in turn must
//! have placed a piece on one of the newly occupied cells, legally, and the replay must end on
//! the board received.
//!
//! [`Sample`] keeps a decision in the form the posterior sampler
//! ([`posterior`](super::posterior)) needs: the value of a move is a ratio of two sums of
//! weights, so a sample holds, per decision, the sums of the weights of the mover's cells, of
//! the other players' cells, and of each candidate's placed and flipped cells, and re-scores
//! the decision in O(candidates) when one weight (or all of them) moves. The score of a
//! decision is 1 if the rule picks the observed move under the weights, plus a bounded margin
//! that guides the sampler on the decisions not yet explained.

use crate::rules::{Bits, Board, Cell, Player, State};
use crate::strategy::{Weights, beats};

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
pub(crate) struct Sample {
    mine: Bits,
    theirs: Bits,
    /// The legal moves, row-major: the cell and the pieces it flips.
    cands: Vec<(Cell, Bits)>,
    chosen: usize,
    /// The cells whose weights the decision depends on: the occupied ones and the candidates.
    touched: Bits,
    /// Weight sums under the current weights.
    m: f64,
    t: f64,
    /// Per candidate: weight of the placed cell plus the flipped ones, and of the flipped.
    g: Vec<f64>,
    f: Vec<f64>,
    pub(crate) score: f64,
}

/// Weight of the margin term in a decision's score (the hit counts 1).
const MARGIN_WEIGHT: f64 = 0.1;

impl Sample {
    pub(crate) fn new(decision: &Decision, weights: &Weights) -> Self {
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
        let touched = board.occupied() | board.legal_moves(decision.mover);
        let mut sample = Sample {
            mine,
            theirs,
            touched,
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

    pub(crate) fn recompute(&mut self, w: &Weights) {
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
    pub(crate) fn score_if(&self, k: Cell, delta: f64) -> f64 {
        if !self.touched.contains(k) {
            return self.score;
        }
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

    /// The score if every weight changed by `delta`.
    pub(crate) fn score_if_shift(&self, delta: f64) -> f64 {
        let m = self.m + delta * self.mine.count() as f64;
        let t = self.t + delta * self.theirs.count() as f64;
        self.score_with(m, t, |i| {
            let flipped = delta * self.cands[i].1.count() as f64;
            (self.g[i] + delta + flipped, self.f[i] + flipped)
        })
    }

    pub(crate) fn apply_shift(&mut self, delta: f64, score: f64) {
        self.m += delta * self.mine.count() as f64;
        self.t += delta * self.theirs.count() as f64;
        for (i, &(_, flips)) in self.cands.iter().enumerate() {
            let flipped = delta * flips.count() as f64;
            self.g[i] += delta + flipped;
            self.f[i] += flipped;
        }
        self.score = score;
    }

    pub(crate) fn apply(&mut self, k: Cell, delta: f64, score: f64) {
        if !self.touched.contains(k) {
            return;
        }
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

    pub(crate) fn hit(&self) -> bool {
        self.score >= 1.0 - MARGIN_WEIGHT
    }
}
