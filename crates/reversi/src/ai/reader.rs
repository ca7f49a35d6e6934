//! The `ai` player: reads the opponents' moves off successive boards
//! ([`super::infer::explain`]), samples their weights from the posterior given those
//! moves ([`lineage`](super::lineage)), and plays the move that does best on average over
//! the samples ([`sampled_search`](search::sampled_search): under each sample's replies the game
//! is a one-player puzzle, searched by a beam to the end).
//!
//! With a fixed effort the chains take `effort * STEPS_PER_EFFORT` steps per turn and the
//! samples' beams are together `effort` wide; with a time limit sampling gets [`SAMPLING_SHARE`] of
//! the decision's time and the beams widen in the rest.

use std::time::Instant;

use marathon_core::rng::FastRng;

use super::infer::explain;
use super::lineage::{Chain, Ensemble, PRIOR, Workspace};
use super::search::{self, Model, Pace, decision_budget};
use super::{BuiltinPlayer, Clock, Player, Predictions};
use crate::rules::{Board, Cell, State};

/// Independent Markov chains.
pub const CHAINS: usize = 4;
/// Samples taken from each chain per turn (evenly spaced over its steps).
pub const SAMPLES_PER_CHAIN: usize = 4;
/// Gibbs sweeps per chain and turn per 16 units of a fixed effort (at least one sweep per
/// sample).
pub const SWEEPS_PER_16_EFFORT: usize = 8;
/// Share of a decision's time spent sampling (the rest searches).
pub const SAMPLING_SHARE: f64 = 0.5;

pub struct ReaderPlayer {
    effort: Option<u64>,
    rng: FastRng,
    chains: Vec<Chain>,
    work: Workspace,
    ensemble: Ensemble,
    /// The chain whose sweep runs next under a time limit.
    turn: usize,
    pace: Pace,
    /// The board right after player 1's last move.
    last: Option<Board>,
    predictions: Predictions,
}

impl ReaderPlayer {
    pub fn new(effort: Option<u64>, seed: u64) -> Self {
        ReaderPlayer {
            effort,
            rng: FastRng::new(seed),
            chains: Vec::new(),
            work: Workspace::default(),
            ensemble: Ensemble::default(),
            turn: 0,
            pace: Pace::default(),
            last: None,
            predictions: Predictions::default(),
        }
    }

    /// Learns from the opponents' moves since player 1's last move.
    fn observe(&mut self, board: &Board) {
        if self.chains.is_empty() {
            self.chains = (0..CHAINS)
                .map(|_| Chain::new(board.size(), board.players(), PRIOR, &mut self.rng))
                .collect();
            self.ensemble = Ensemble::default();
            for chain in &self.chains {
                self.ensemble.push(chain);
            }
        }
        let Some(after) = &self.last else { return };
        let Some(decisions) = explain(after, board) else {
            return;
        };
        for decision in &decisions {
            if decision.board.legal_moves(decision.mover).count() > 1 {
                let predicted = self.ensemble.reply(&decision.board, decision.mover);
                self.predictions.total += 1;
                if predicted == decision.chosen {
                    self.predictions.hits += 1;
                }
            }
            for chain in &mut self.chains {
                chain.observe(decision);
            }
        }
    }

    /// Runs the chains and gathers the new ensemble.
    fn sample(&mut self, board: &Board, clock: &Clock) {
        if self.chains[0].is_empty() {
            return;
        }
        // Steps per chain and sample: fixed by the effort, or as many as the time allows.
        let mut ensemble = Ensemble::default();
        match self.effort {
            Some(effort) => {
                let sweeps =
                    (effort as usize * SWEEPS_PER_16_EFFORT / 16 / SAMPLES_PER_CHAIN).max(1);
                for chain in &mut self.chains {
                    for _ in 0..SAMPLES_PER_CHAIN {
                        chain.run(sweeps, &mut self.work, &mut self.rng);
                        ensemble.push(chain);
                    }
                }
            }
            None => {
                // The chains take turns sweep by sweep (the turn passes on across decisions),
                // and a sweep stops at the deadline and resumes where it stopped: nothing here
                // runs past the deadline by more than one cell's steps, so a decision with
                // little or no time left samples little or nothing (its ensemble then comes from
                // the chains as they stand).
                let budget = decision_budget(board, clock, &self.pace).mul_f64(SAMPLING_SHARE);
                let started = Instant::now();
                for round in 0..SAMPLES_PER_CHAIN {
                    let deadline =
                        started + budget.mul_f64((round + 1) as f64 / SAMPLES_PER_CHAIN as f64);
                    while self.chains[self.turn].run_until(deadline, &mut self.work, &mut self.rng)
                    {
                        self.turn = (self.turn + 1) % self.chains.len();
                    }
                    for chain in &self.chains {
                        ensemble.push(chain);
                    }
                }
                self.pace.worked(started.elapsed().min(budget));
            }
        }
        self.ensemble = ensemble;
    }
}

impl Player for ReaderPlayer {
    type Observation = Board;
    type Action = Cell;

    fn choose(&mut self, board: &Board, clock: &Clock) -> Cell {
        self.pace.start(clock);
        self.observe(board);
        self.sample(board, clock);
        let state = State::from_board(board.clone(), 1);
        let members = &self.ensemble.members;
        // The members' beams together are `effort` wide.
        let width = self
            .effort
            .map(|effort| (effort as usize).div_ceil(members.len().max(1)));
        let plan = search::widening(
            board,
            width,
            2,
            clock,
            &mut self.pace,
            1.0 - SAMPLING_SHARE,
            |width, deadline| search::sampled_search(&state, members, width, deadline),
            // One line against the majority's replies instead of one per sample and first
            // move; if even that does not finish in time, one move deep against one sample.
            |deadline| {
                search::beam_search(&state, &self.ensemble, 1, Some(deadline)).unwrap_or_else(
                    || {
                        let member = members.first().expect("the chains' samples");
                        search::one_ply(&state, member.as_slice())
                    },
                )
            },
        );
        let mut after = board.clone();
        after.play_unchecked(1, plan.first);
        self.last = Some(after);
        plan.first
    }
}

impl BuiltinPlayer for ReaderPlayer {
    fn predictions(&self) -> Predictions {
        self.predictions
    }
}
