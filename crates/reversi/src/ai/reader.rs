//! The `ai` player: reads the opponents' moves off successive boards, fits their weights
//! ([`infer`](super::infer)), and plays the beam search of [`search`] with the
//! fitted weights predicting every reply.
//!
//! Several fits (particles) start from different random weights and continue from turn to
//! turn as decisions come in; a reply is predicted by their majority ([`Vote`], ties to the
//! better fit). One weight vector serves every opponent: a case's opponents come from one
//! final GA population and are close relatives (weight correlation about 0.5-0.9 within a
//! case, about 0 across cases).
//!
//! With a fixed effort the fits climb [`FIT_STEPS`] steps each per turn and the beam is
//! `effort` wide; with a time limit the fits get [`FIT_SHARE`] of the decision's time and the
//! beam widens in the rest.

use std::time::Instant;

use marathon_core::rng::FastRng;

use super::infer::{Fit, explain};
use super::search::{self, Model, decision_budget};
use super::{Clock, Player, Predictions};
use crate::rules::{Board, Cell, Player as Seat, State};
use crate::strategy;
use crate::strategy::Weights;

/// Independent fits kept.
pub const PARTICLES: usize = 8;
/// Climbing steps per fit and turn with a fixed effort.
pub const FIT_STEPS: usize = 1500;
/// Share of a decision's time spent fitting (the rest searches).
pub const FIT_SHARE: f64 = 0.35;

pub struct ReaderPlayer {
    effort: Option<u64>,
    rng: FastRng,
    fits: Vec<Fit>,
    /// The board right after player 1's last move.
    last: Option<Board>,
    predictions: Predictions,
}

impl ReaderPlayer {
    pub fn new(effort: Option<u64>, seed: u64) -> Self {
        ReaderPlayer {
            effort,
            rng: FastRng::new(seed),
            fits: Vec::new(),
            last: None,
            predictions: Predictions::default(),
        }
    }

    /// The fits' weights, best score first.
    fn ranked_weights(&self) -> Vec<Weights> {
        let mut ranked: Vec<&Fit> = self.fits.iter().collect();
        ranked.sort_by(|a, b| b.score().total_cmp(&a.score()));
        ranked.into_iter().map(|f| f.weights.clone()).collect()
    }

    /// Learns from the opponents' moves since player 1's last move.
    fn observe(&mut self, board: &Board) {
        if self.fits.is_empty() || self.fits[0].size() != board.size() {
            self.fits = (0..PARTICLES)
                .map(|_| Fit::new(board.size(), &mut self.rng))
                .collect();
        }
        let Some(after) = &self.last else { return };
        let Some(decisions) = explain(after, board) else {
            return;
        };
        for decision in &decisions {
            let vote = Vote {
                particles: self.ranked_weights(),
            };
            let predicted = Some(vote.reply(&decision.board, decision.mover));
            self.predictions.total += 1;
            if predicted == Some(decision.chosen) {
                self.predictions.hits += 1;
            }
            for fit in &mut self.fits {
                fit.observe(decision);
            }
        }
    }

    fn climb(&mut self, board: &Board, clock: &Clock) {
        if self.fits[0].is_empty() {
            return;
        }
        match self.effort {
            Some(_) => {
                for fit in &mut self.fits {
                    fit.climb(FIT_STEPS, None, &mut self.rng);
                }
            }
            None => {
                let budget = decision_budget(board, clock).mul_f64(FIT_SHARE);
                let deadline = Instant::now() + budget;
                while Instant::now() < deadline && !self.fits.iter().all(Fit::explains_all) {
                    for fit in &mut self.fits {
                        fit.climb(FIT_STEPS / 4, Some(deadline), &mut self.rng);
                    }
                }
            }
        }
    }
}

impl Player for ReaderPlayer {
    fn choose(&mut self, board: &Board, clock: &Clock) -> Cell {
        self.observe(board);
        self.climb(board, clock);
        let model = Vote {
            particles: self.ranked_weights(),
        };
        let state = State::from_board(board.clone(), 1);
        let plan = search::search(&state, &model, self.effort, clock, 1.0 - FIT_SHARE);
        let mut after = board.clone();
        after.play_unchecked(1, plan.first);
        self.last = Some(after);
        plan.first
    }

    fn predictions(&self) -> Predictions {
        self.predictions
    }
}

/// Predicts a reply by the majority of the particles (ties to the better-ranked one).
pub struct Vote {
    /// Best first.
    pub particles: Vec<Weights>,
}

impl Model for Vote {
    fn reply(&self, board: &Board, player: Seat) -> Cell {
        let mut votes: Vec<(Cell, usize)> = Vec::with_capacity(self.particles.len());
        for weights in &self.particles {
            let cell = strategy::choose(board, player, weights).expect("a legal move");
            match votes.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, n)) => *n += 1,
                None => votes.push((cell, 1)),
            }
        }
        let most = votes.iter().map(|v| v.1).max().expect("particles exist");
        votes
            .iter()
            .find(|v| v.1 == most)
            .expect("the most voted")
            .0
    }
}
