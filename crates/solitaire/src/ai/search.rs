//! The built-in AI: a search over the removal order with chance nodes for the reveals.
//!
//! Every hidden piece is uniform over the alphabet and independent of everything seen, so the
//! game is a Markov decision process and a reveal can be sampled at the moment of the removal.
//! The reward is the points gained from the position on (removals and every bonus), so the
//! search plans runs, sets and alternations as far as its playouts see them.
//!
//! - `ai` ([`Method::Tree`]): Monte Carlo tree search with chance nodes (`super::mcts`),
//!   leaves valued by playouts of the noisy heuristic of [`super::policy`].
//! - `flat` ([`Method::Flat`]): each legal removal is tried, its reveal sampled and the game
//!   played on to its end by the same heuristic; a removal's value is the mean of its playouts.
//!   Successive halving spends the later rounds on the close contenders, and every candidate of
//!   a round sees the same random stream (common random numbers).
//!
//! With a single type (groups 1 and 2) nothing is random: both keep the best whole sequence
//! found by their playouts (Warnsdorff's rule with noise, alternating with the usual weights)
//! and follow it, replacing it whenever a playout from the current position does better; they
//! stop searching once a sequence removes every piece.
//!
//! Time: with `effort = Some(n)`, `64 n` playouts (tree iterations) per decision and no clock;
//! otherwise each decision gets the time left (less a tenth of the limit) divided by the number
//! of removals the last decision's playouts expected to follow, counted on the clock in force
//! (under the CPU clock, Kattis's, a busy machine that keeps the player waiting does not
//! shorten the decision).

use marathon_core::Deadline;
use marathon_core::rng::FastRng;

use super::mcts::Tree;
use super::policy::{Weights, playout, sample_reveal};
use super::{Clock, Model, Player};
use crate::protocol::Reply;
use crate::rules::{Cell, MAX_REMOVALS, State, cells_of};

/// Playouts (tree iterations) per decision per unit of effort.
pub const PLAYOUTS_PER_EFFORT: u64 = 64;

/// The share of the time limit never planned for (the judge's turns, which the player's clock
/// counts too, and a decision's last playouts past its deadline). A fixed half second planned
/// for 95% of the contest's 10 s and nothing at all at 0.5 s.
const TIME_RESERVE: f64 = 0.1;

/// The fewest moves the rest of the game is assumed to last when the time is shared out.
const MIN_MOVES_LEFT: f64 = 6.0;

/// Successive halving: the field is halved after a round once this many playouts per candidate
/// were made, and again each time that number doubles.
const HALVING_START: u32 = 4;

/// Time is checked every this many playouts (never before the first: a decision always has
/// one playout behind it).
const CLOCK_EVERY: u64 = 8;

/// How the AI values the moves of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Each legal removal by the mean of its playouts, with successive halving.
    Flat,
    /// Monte Carlo tree search with chance nodes; the UCB1 exploration factor.
    Tree(f64),
}

pub struct SearchPlayer {
    method: Method,
    rng: FastRng,
    effort: Option<u64>,
    model: Model,
    weights: Weights,
    /// The expected number of removals left, from the last decision's playouts.
    moves_left: f64,
    /// Deterministic games: the best sequence from the current position and its points.
    plan: Vec<Cell>,
    plan_points: u32,
}

struct Candidate {
    cell: Cell,
    total: f64,
    length: f64,
    count: u32,
}

impl Candidate {
    fn mean(&self) -> f64 {
        self.total / self.count.max(1) as f64
    }
}

impl SearchPlayer {
    pub fn new(method: Method, weights: Weights, rng: FastRng, effort: Option<u64>) -> Self {
        Self {
            method,
            rng,
            effort,
            model: Model::new(),
            weights,
            moves_left: MAX_REMOVALS as f64 / 2.0,
            plan: Vec::new(),
            plan_points: 0,
        }
    }

    /// When this decision must end (`None`: effort decides).
    fn deadline(&self, state: &State, clock: &Clock) -> Option<Deadline> {
        if self.effort.is_some() {
            return None;
        }
        let spare = clock
            .remaining()
            .saturating_sub(clock.limit.mul_f64(TIME_RESERVE));
        // At least one piece is left when a move is legal.
        let pieces_left = (MAX_REMOVALS - state.moves()).max(1) as f64;
        let moves_left = self.moves_left.max(MIN_MOVES_LEFT).min(pieces_left);
        // Counted on the clock in force: under the CPU clock (Kattis's), a busy machine does
        // not shorten the decision.
        Some(clock.deadline(spare.div_f64(moves_left)))
    }

    fn budget(&self) -> u64 {
        self.effort
            .unwrap_or(u64::MAX)
            .saturating_mul(PLAYOUTS_PER_EFFORT)
    }

    fn choose_by_tree(
        &mut self,
        state: &State,
        deadline: Option<Deadline>,
        exploration: f64,
    ) -> Cell {
        let alphabet = self.model.alphabet().to_vec();
        let mut tree = Tree::new(state, &alphabet, &self.weights, exploration);
        let budget = self.budget();
        let mut done = 0u64;
        let mut length = 0u64;
        while done < budget {
            if done > 0
                && done.is_multiple_of(CLOCK_EVERY)
                && deadline.is_some_and(|d| d.passed())
            {
                break;
            }
            length += tree.iterate(state, &mut self.rng) as u64;
            done += 1;
        }
        if done > 0 {
            self.moves_left = length as f64 / done as f64;
        }
        match tree.best() {
            Some((cell, _, _)) => cell,
            None => cells_of(state.legal()).next().expect("a legal move"),
        }
    }

    /// Deterministic games: improves the plan with playouts from `state`, then follows it.
    fn choose_by_plan(&mut self, state: &State, deadline: Option<Deadline>) -> Option<Cell> {
        let budget = self.budget();
        let tour = Weights::tour();
        let alphabet = self.model.alphabet().to_vec();
        let mut path = Vec::with_capacity(MAX_REMOVALS as usize);
        let mut done = 0u64;
        let pieces_left = (MAX_REMOVALS - state.moves()) as usize;
        while done < budget && self.plan.len() < pieces_left {
            if done > 0
                && done.is_multiple_of(CLOCK_EVERY)
                && deadline.is_some_and(|d| d.passed())
            {
                break;
            }
            let weights = if done.is_multiple_of(2) {
                tour
            } else {
                self.weights
            };
            path.clear();
            let mut copy = state.clone();
            let points = playout(
                &mut copy,
                &alphabet,
                &weights,
                &mut self.rng,
                Some(&mut path),
            );
            if points > self.plan_points || self.plan.is_empty() {
                self.plan_points = points;
                self.plan.clone_from(&path);
            }
            done += 1;
        }
        let cell = *self.plan.first()?;
        let gained = state.scorer.gain(state.top(cell)?);
        self.plan.remove(0);
        self.plan_points -= gained;
        Some(cell)
    }
}

impl Player for SearchPlayer {
    type Observation = State;
    type Action = Reply;

    fn choose(&mut self, state: &State, clock: &Clock) -> Reply {
        self.search(state, clock)
            .map_or(Reply::Stop, Reply::Remove)
    }
}

impl SearchPlayer {
    /// The cell to remove next; `None` when no removal is legal.
    fn search(&mut self, state: &State, clock: &Clock) -> Option<Cell> {
        if self.model.observe(state) {
            self.plan.clear();
            self.plan_points = 0;
        }
        let legal = state.legal();
        if legal == 0 {
            return None;
        }
        let deadline = self.deadline(state, clock);
        if self.model.is_deterministic() {
            // A plan made for this position is still valid: nothing hidden can differ.
            if let Some(&next) = self.plan.first()
                && legal & next.bit() == 0
            {
                self.plan.clear();
                self.plan_points = 0;
            }
            return self.choose_by_plan(state, deadline);
        }
        if legal.count_ones() == 1 {
            return cells_of(legal).next();
        }
        if let Method::Tree(exploration) = self.method {
            return Some(self.choose_by_tree(state, deadline, exploration));
        }
        let mut field: Vec<Candidate> = cells_of(legal)
            .map(|cell| Candidate {
                cell,
                total: 0.0,
                length: 0.0,
                count: 0,
            })
            .collect();
        if field.len() == 1 {
            return Some(field[0].cell);
        }
        let alphabet = self.model.alphabet().to_vec();
        let budget = self.budget();
        let mut done = 0u64;
        let mut rounds = 0u32;
        let mut next_halving = HALVING_START;
        let mut live = field.len();
        'search: loop {
            let round_seed = self.rng.next_u64();
            for candidate in &mut field[..live] {
                if done >= budget
                    || (done > 0
                        && done.is_multiple_of(CLOCK_EVERY)
                        && deadline.is_some_and(|d| d.passed()))
                {
                    break 'search;
                }
                let mut rng = FastRng::new(round_seed);
                let mut copy = state.clone();
                let reveal = sample_reveal(&copy, candidate.cell, &alphabet, &mut rng);
                let mut points = copy.play_unchecked(candidate.cell, reveal);
                points += playout(&mut copy, &alphabet, &self.weights, &mut rng, None);
                candidate.total += points as f64;
                candidate.length += (copy.moves() - state.moves()) as f64;
                candidate.count += 1;
                done += 1;
            }
            rounds += 1;
            if rounds == next_halving && live > 2 {
                field[..live].sort_by(|a, b| b.mean().total_cmp(&a.mean()));
                live = live.div_ceil(2);
                next_halving *= 2;
            }
        }
        // The survivors of the halving, best mean first; any candidate if the time ran out
        // before every survivor was tried.
        let best = field[..live]
            .iter()
            .filter(|c| c.count > 0)
            .max_by(|a, b| a.mean().total_cmp(&b.mean()))
            .or_else(|| {
                field
                    .iter()
                    .filter(|c| c.count > 0)
                    .max_by(|a, b| a.mean().total_cmp(&b.mean()))
            })
            .unwrap_or(&field[0]);
        if best.count > 0 {
            self.moves_left = best.length / best.count as f64;
        }
        Some(best.cell)
    }
}
