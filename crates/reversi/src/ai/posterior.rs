//! A Bayesian model of the opponents: weights drawn from the posterior given their observed
//! decisions, by Metropolis sampling, and moves predicted by the samples' majority.
//!
//! The prior follows the generator (RULES.md): a case's opponents come from one final GA
//! population, so each opponent's weights are a shared vector plus its own deviation,
//! `w_p = u + d_p`, with `u_c ~ N(mean, SHARED_SD²)`, `d_p,c ~ N(0, OWN_SD²)` and the case's
//! `mean ~ N(0, MEAN_SD²)` (the GA drifts the mean of a population away from 0). A decision
//! the weights reproduce costs nothing; one they get wrong costs [`MISS_COST`] nats, less a
//! small reward for the margin by which the observed move wins or loses, which guides the
//! chain towards explaining it.
//!
//! A single best fit (as a hill climb finds) over-fits: a few dozen decisions cannot pin down
//! a hundred weights, and predictions from one fit are barely better than chance. Averaging
//! the prediction over samples of the posterior is what generalises.

use marathon_core::rng::FastRng;

use super::infer::{Decision, Sample};
use super::search::Model;
use crate::rules::{Board, Cell, MAX_PLAYERS, Player};
use crate::strategy::{self, Weights};

/// The prior's spreads (fitted to generated cases: within-case weight correlation 0.5-0.9,
/// spread about 27 around a case mean of -17..17).
#[derive(Clone, Copy, Debug)]
pub struct Prior {
    pub shared_sd: f64,
    pub own_sd: f64,
    pub mean_sd: f64,
    /// Log-likelihood lost by a decision the weights do not reproduce.
    pub miss_cost: f64,
}

pub const PRIOR: Prior = Prior {
    shared_sd: 24.0,
    own_sd: 13.0,
    mean_sd: 12.0,
    miss_cost: 3.0,
};

/// One Markov chain over (mean, u, d_2..d_P).
#[derive(Clone, Debug)]
pub struct Chain {
    prior: Prior,
    cells: Vec<Cell>,
    mean: f64,
    shared: Weights,
    /// Deviation of each opponent (index = player - 2).
    own: Vec<Weights>,
    /// Observed decisions of each opponent.
    samples: Vec<Vec<Sample>>,
    /// Sum of the samples' scores per opponent.
    totals: Vec<f64>,
    scratch: Vec<f64>,
}

fn gaussian(rng: &mut FastRng) -> f64 {
    let u = rng.next_f64().max(f64::MIN_POSITIVE);
    let v = rng.next_f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

impl Chain {
    /// A chain started from a draw of the prior for an `n x n` board with `players` players.
    pub fn new(size: usize, players: usize, prior: Prior, rng: &mut FastRng) -> Self {
        let cells: Vec<Cell> = (0..size)
            .flat_map(|r| (0..size).map(move |c| Cell::new(r, c)))
            .collect();
        let mean = gaussian(rng) * prior.mean_sd;
        let mut shared = Weights::default();
        for &cell in &cells {
            shared.set(cell, mean + gaussian(rng) * prior.shared_sd);
        }
        let opponents = players - 1;
        Chain {
            prior,
            cells,
            mean,
            shared,
            own: vec![Weights::default(); opponents],
            samples: vec![Vec::new(); opponents],
            totals: vec![0.0; opponents],
            scratch: Vec::new(),
        }
    }

    /// The weights of opponent `index` (player `index + 2`).
    pub fn weights(&self, index: usize) -> Weights {
        let mut w = self.shared.clone();
        for &cell in &self.cells {
            w.set(cell, self.shared.get(cell) + self.own[index].get(cell));
        }
        w
    }

    pub fn observe(&mut self, decision: &Decision) {
        let index = decision.mover as usize - 2;
        let sample = Sample::new(decision, &self.weights(index));
        self.totals[index] += sample.score;
        self.samples[index].push(sample);
    }

    /// Decisions observed.
    pub fn len(&self) -> usize {
        self.samples.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decisions the current weights reproduce.
    pub fn hits(&self) -> usize {
        self.samples.iter().flatten().filter(|s| s.hit()).count()
    }

    /// The log-likelihood of a total score (a hit scores about 1, a miss about 0).
    fn loglik(&self, total: f64) -> f64 {
        self.prior.miss_cost * total
    }

    /// Metropolis steps.
    pub fn run(&mut self, steps: usize, rng: &mut FastRng) {
        if self.is_empty() {
            return;
        }
        for step in 0..steps {
            match step % 8 {
                0 => self.step_mean(rng),
                1..=3 => self.step_shared(rng),
                _ => self.step_own(rng),
            }
        }
        self.refresh();
    }

    fn accept(&self, log_ratio: f64, rng: &mut FastRng) -> bool {
        log_ratio >= 0.0 || rng.next_f64() < log_ratio.exp()
    }

    /// A Metropolis step that changes every opponent's weights: `score_if` rescores a sample
    /// under the move, `apply` makes it. Returns whether the move was accepted (and applied to
    /// the samples; the caller moves the parameters).
    fn propose_everywhere(
        &mut self,
        log_prior_ratio: f64,
        score_if: impl Fn(&Sample) -> f64,
        apply: impl Fn(&mut Sample, f64),
        rng: &mut FastRng,
    ) -> bool {
        let mut log_ratio = log_prior_ratio;
        self.scratch.clear();
        let mut new_totals = [0.0; MAX_PLAYERS];
        for (index, samples) in self.samples.iter().enumerate() {
            let mut total = 0.0;
            for sample in samples {
                let score = score_if(sample);
                self.scratch.push(score);
                total += score;
            }
            new_totals[index] = total;
            log_ratio += self.loglik(total) - self.loglik(self.totals[index]);
        }
        if !self.accept(log_ratio, rng) {
            return false;
        }
        let mut scores = self.scratch.iter();
        for (index, samples) in self.samples.iter_mut().enumerate() {
            for sample in samples {
                apply(sample, *scores.next().expect("a score per sample"));
            }
            self.totals[index] = new_totals[index];
        }
        true
    }

    /// Moves `u_c` of one cell.
    fn step_shared(&mut self, rng: &mut FastRng) {
        let k = self.cells[rng.below(self.cells.len() as u32) as usize];
        let delta = gaussian(rng) * self.prior.shared_sd * 0.3;
        let old = self.shared.get(k) - self.mean;
        let sd2 = self.prior.shared_sd * self.prior.shared_sd;
        let log_ratio = (old * old - (old + delta) * (old + delta)) / (2.0 * sd2);
        let moved = self.propose_everywhere(
            log_ratio,
            |sample| sample.score_if(k, delta),
            |sample, score| sample.apply(k, delta, score),
            rng,
        );
        if moved {
            self.shared.set(k, self.shared.get(k) + delta);
        }
    }

    /// Moves one opponent's deviation `d_p,c` of one cell.
    fn step_own(&mut self, rng: &mut FastRng) {
        let index = rng.below(self.own.len() as u32) as usize;
        let k = self.cells[rng.below(self.cells.len() as u32) as usize];
        let delta = gaussian(rng) * self.prior.own_sd * 0.4;
        let old = self.own[index].get(k);
        let sd2 = self.prior.own_sd * self.prior.own_sd;
        let mut log_ratio = (old * old - (old + delta) * (old + delta)) / (2.0 * sd2);
        self.scratch.clear();
        let mut total = 0.0;
        for sample in &self.samples[index] {
            let score = sample.score_if(k, delta);
            self.scratch.push(score);
            total += score;
        }
        log_ratio += self.loglik(total) - self.loglik(self.totals[index]);
        if self.accept(log_ratio, rng) {
            for (sample, &score) in self.samples[index].iter_mut().zip(&self.scratch) {
                sample.apply(k, delta, score);
            }
            self.totals[index] = total;
            self.own[index].set(k, old + delta);
        }
    }

    /// Shifts the mean and every shared weight together (the prior of `u` given the mean is
    /// unchanged, so only the mean's own prior and the likelihood decide).
    fn step_mean(&mut self, rng: &mut FastRng) {
        let delta = gaussian(rng) * self.prior.mean_sd * 0.3;
        let sd2 = self.prior.mean_sd * self.prior.mean_sd;
        let log_ratio =
            (self.mean * self.mean - (self.mean + delta) * (self.mean + delta)) / (2.0 * sd2);
        let moved = self.propose_everywhere(
            log_ratio,
            |sample| sample.score_if_shift(delta),
            |sample, score| sample.apply_shift(delta, score),
            rng,
        );
        if moved {
            self.mean += delta;
            for &cell in &self.cells {
                self.shared.set(cell, self.shared.get(cell) + delta);
            }
        }
    }

    /// Recomputes the sums from the weights (running updates drift by rounding).
    fn refresh(&mut self) {
        for index in 0..self.own.len() {
            let weights = self.weights(index);
            for sample in &mut self.samples[index] {
                sample.recompute(&weights);
            }
            self.totals[index] = self.samples[index].iter().map(|s| s.score).sum();
        }
    }
}

/// Weights of every opponent, one set per posterior sample: replies by majority vote (ties to
/// the earlier sample).
#[derive(Clone, Debug, Default)]
pub struct Ensemble {
    /// `[sample][player - 2]`
    pub members: Vec<Vec<Weights>>,
}

impl Ensemble {
    pub fn push(&mut self, chain: &Chain) {
        self.members
            .push((0..chain.own.len()).map(|i| chain.weights(i)).collect());
    }
}

impl Model for Ensemble {
    fn reply(&self, board: &Board, player: Player) -> Cell {
        let index = player as usize - 2;
        let mut votes: Vec<(Cell, usize)> = Vec::with_capacity(self.members.len());
        for member in &self.members {
            let cell = strategy::choose(board, player, &member[index]).expect("a legal move");
            match votes.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, n)) => *n += 1,
                None => votes.push((cell, 1)),
            }
        }
        let most = votes.iter().map(|v| v.1).max().expect("members exist");
        votes
            .iter()
            .find(|v| v.1 == most)
            .expect("the most voted")
            .0
    }
}
