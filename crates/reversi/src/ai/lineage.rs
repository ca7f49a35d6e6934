//! The opponents' weights sampled from the posterior given their observed decisions, under a
//! prior shaped by how the generator breeds them, by exact Gibbs steps along lines.
//!
//! ## Prior
//! The opponents come from the last population of a genetic algorithm whose children copy each
//! cell from one of two parents and add a little noise (docs/rules.md#reversi-generation). After
//! 50-100 generations of drift most cells hold one dominant ancestral weight: measured on generated
//! populations (`marathon-tune reversi-ga-stats 201-230`), 83% of a population lies within 6 of the
//! cell's dominant value, with a spread of 1.8 around it, and the rest is spread like the
//! population (sd 27 around a case mean of about ±10). So each cell `c` has a shared value
//! `u_c ~ N(mean, SPREAD²)`, and each opponent either is *kin* there (probability
//! `kin_share`), `w_p,c ~ N(u_c, KIN_SD²)`, or holds a weight of its own,
//! `w_p,c ~ N(mean, SPREAD²)`; the case `mean ~ N(0, MEAN_SD²)`.
//!
//! ## Likelihood
//! A decision of the rule is `argmax (M + g_i) / (T - f_i)` over its moves (sums of weights of
//! the mover's cells, the others' cells, a move's placed and flipped cells). Each (decision,
//! other move) pair that the weights get wrong costs `miss_cost` nats: with the true weights
//! every pair is right, and the count of wrong pairs tells a chain how far it is from
//! explaining a decision.
//!
//! ## Steps
//! Along a line through the weights (one weight, one cell of every kin opponent, or every
//! weight at once) each sum is affine in the step `x`, so whether a pair is right changes only
//! at the roots of a quadratic and of the two denominators. Sweeping those breakpoints gives the
//! number of wrong pairs as a step function of `x`; times the normal prior along the line, the
//! conditional is a mixture of truncated normals, drawn exactly. Unlike random-walk proposals,
//! a step can jump straight into the narrow region that explains a new decision.
//! The scale of all weights does not change any decision, so it is drawn from the prior alone.

use std::time::Instant;

use marathon_core::rng::FastRng;

use super::infer::Decision;
use super::normal::{gamma, gaussian, truncated, upper_tail};
use super::search::Model;
use crate::rules::{Bits, Board, Cell, Player};
use crate::strategy::{self, Weights};

/// The prior and the cost of a wrong pair.
#[derive(Clone, Copy, Debug)]
pub struct Prior {
    /// Spread of the case mean around 0.
    pub mean_sd: f64,
    /// Spread of a cell's shared value, and of an opponent's own weight, around the case mean.
    pub spread: f64,
    /// Probability that an opponent is kin at a cell.
    pub kin_share: f64,
    /// Spread of a kin opponent's weight around the shared value.
    pub kin_sd: f64,
    /// Log-likelihood lost by each (decision, other move) pair the weights order wrongly.
    pub miss_cost: f64,
}

/// `kin_share` is above the measured 83%: 0.7, 0.8 and 0.9 predict 36.8%, 37.4% and 38.7% of
/// the moves (`marathon-tune reversi-infer predict 61-100 lineage --sweeps 64 --kin-share K`),
/// 38.5% and 39.3% for 0.8 and 0.9 on seeds 101-130.
pub const PRIOR: Prior = Prior {
    mean_sd: 12.0,
    spread: 27.0,
    kin_share: 0.9,
    kin_sd: 1.9,
    miss_cost: 1.0,
};

/// How far (in prior spreads) a line's window reaches on either side of a component's mean:
/// the mass beyond is negligible.
const WINDOW_SDS: f64 = 7.0;

/// Whether `a > b` (false when either is NaN: a NaN value never wins a decision).
#[inline]
fn above(a: f64, b: f64) -> bool {
    a.partial_cmp(&b) == Some(std::cmp::Ordering::Greater)
}

/// One observed decision in the form the line steps need.
#[derive(Clone, Debug)]
struct Observed {
    mine: Bits,
    theirs: Bits,
    /// The cells whose weights the decision depends on.
    touched: Bits,
    /// The legal moves, row-major: the cell and the pieces it flips.
    moves: Vec<(Cell, Bits)>,
    chosen: usize,
    /// `M` and `T` under the current weights.
    m: f64,
    t: f64,
    /// Per move: `g` (placed plus flipped weight) and `f` (flipped weight).
    g: Vec<f64>,
    f: Vec<f64>,
}

/// A line through one opponent's weights: the step's coefficient on each cell.
trait Direction {
    /// The coefficient summed over `cells`.
    fn over(&self, cells: Bits) -> f64;
    /// The coefficient of `cell`.
    fn at(&self, cell: Cell) -> f64;
    /// Whether the decision can depend on the step at all.
    fn moves(&self, touched: Bits) -> bool;
}

/// One cell's weight.
struct OneCell(Cell);

impl Direction for OneCell {
    #[inline]
    fn over(&self, cells: Bits) -> f64 {
        f64::from(u8::from(cells.contains(self.0)))
    }
    #[inline]
    fn at(&self, cell: Cell) -> f64 {
        f64::from(u8::from(cell == self.0))
    }
    #[inline]
    fn moves(&self, touched: Bits) -> bool {
        touched.contains(self.0)
    }
}

/// Every weight by the same amount.
struct Everywhere;

impl Direction for Everywhere {
    #[inline]
    fn over(&self, cells: Bits) -> f64 {
        f64::from(cells.count())
    }
    #[inline]
    fn at(&self, _: Cell) -> f64 {
        1.0
    }
    #[inline]
    fn moves(&self, _: Bits) -> bool {
        true
    }
}

/// A decision's sums along a line: `n_i(x) = n[i] + a[i] x`, `d_i(x) = d[i] + b[i] x`.
#[derive(Default)]
struct LineScratch {
    n: Vec<f64>,
    a: Vec<f64>,
    d: Vec<f64>,
    b: Vec<f64>,
}

impl Observed {
    fn new(decision: &Decision, weights: &Weights) -> Self {
        let board = &decision.board;
        let mine = board.pieces(decision.mover);
        let legal = board.legal_moves(decision.mover);
        let moves: Vec<(Cell, Bits)> = legal
            .iter()
            .map(|c| (c, board.flips(decision.mover, c)))
            .collect();
        let chosen = moves
            .iter()
            .position(|&(c, _)| c == decision.chosen)
            .expect("the observed move is legal");
        let mut observed = Observed {
            mine,
            theirs: board.occupied() - mine,
            touched: board.occupied() | legal,
            moves,
            chosen,
            m: 0.0,
            t: 0.0,
            g: Vec::new(),
            f: Vec::new(),
        };
        observed.recompute(weights);
        observed
    }

    fn recompute(&mut self, w: &Weights) {
        let dot = |bits: Bits| bits.iter().map(|c| w.get(c)).sum::<f64>();
        self.m = dot(self.mine);
        self.t = dot(self.theirs);
        self.f = self.moves.iter().map(|&(_, flips)| dot(flips)).collect();
        self.g = self
            .moves
            .iter()
            .zip(&self.f)
            .map(|(&(c, _), f)| w.get(c) + f)
            .collect();
    }

    /// Pairs (chosen, other) the current weights order wrongly.
    #[cfg(any(test, feature = "lab"))]
    fn wrong_pairs(&self) -> usize {
        let value = |i: usize| (self.m + self.g[i]) / (self.t - self.f[i]);
        let chosen = value(self.chosen);
        (0..self.moves.len())
            .filter(|&i| i != self.chosen && !above(chosen, value(i)))
            .count()
    }

    /// Fills `line` with the sums along `dir`.
    fn line(&self, dir: &impl Direction, line: &mut LineScratch) {
        let am = dir.over(self.mine);
        let bt = dir.over(self.theirs);
        line.n.clear();
        line.a.clear();
        line.d.clear();
        line.b.clear();
        for (i, &(cell, flips)) in self.moves.iter().enumerate() {
            let af = dir.over(flips);
            line.n.push(self.m + self.g[i]);
            line.a.push(am + dir.at(cell) + af);
            line.d.push(self.t - self.f[i]);
            line.b.push(bt - af);
        }
    }

    /// Moves the sums by `x` along `dir`.
    fn shift(&mut self, dir: &impl Direction, x: f64) {
        self.m += x * dir.over(self.mine);
        self.t += x * dir.over(self.theirs);
        for (i, &(cell, flips)) in self.moves.iter().enumerate() {
            let af = dir.over(flips);
            self.g[i] += x * (dir.at(cell) + af);
            self.f[i] += x * af;
        }
    }

    fn scale(&mut self, factor: f64) {
        self.m *= factor;
        self.t *= factor;
        for v in self.g.iter_mut().chain(self.f.iter_mut()) {
            *v *= factor;
        }
    }
}

/// The breakpoints of the wrong-pair count along a line, as `(x, change)` events within a
/// window.
#[derive(Default)]
struct Events {
    /// Wrong pairs at the window's low end.
    base: i32,
    /// Changes of the count inside the window (none at either end: most wrong intervals reach
    /// an end, and leaving those out halves the sorting).
    events: Vec<(f64, i32)>,
    line: LineScratch,
}

impl Events {
    fn clear(&mut self) {
        self.base = 0;
        self.events.clear();
    }

    /// Counts one pair wrong on `[from, to]` within the window `[lo, hi]`.
    #[inline]
    fn wrong_on(
        base: &mut i32,
        events: &mut Vec<(f64, i32)>,
        from: f64,
        to: f64,
        lo: f64,
        hi: f64,
    ) {
        if from <= lo {
            *base += 1;
        } else {
            events.push((from, 1));
        }
        if to < hi {
            events.push((to, -1));
        }
    }

    /// Adds the intervals of `[lo, hi]` where each pair of `obs` along `dir` is wrong.
    fn add(&mut self, obs: &Observed, dir: &impl Direction, lo: f64, hi: f64) {
        if !dir.moves(obs.touched) || obs.moves.len() < 2 {
            return;
        }
        obs.line(dir, &mut self.line);
        let l = &self.line;
        let c = obs.chosen;
        let (nc, ac, dc, bc) = (l.n[c], l.a[c], l.d[c], l.b[c]);
        for i in 0..obs.moves.len() {
            if i == c {
                continue;
            }
            let (ni, ai, di, bi) = (l.n[i], l.a[i], l.d[i], l.b[i]);
            let wrong =
                |x: f64| !above((nc + ac * x) / (dc + bc * x), (ni + ai * x) / (di + bi * x));
            if ac == 0.0 && bc == 0.0 && ai == 0.0 && bi == 0.0 {
                // The pair does not move along the line.
                if wrong(0.0) {
                    self.base += 1;
                }
                continue;
            }
            // The order of the two values changes only where the cross product
            // (nc + ac x)(di + bi x) - (ni + ai x)(dc + bc x) or a denominator is 0.
            let q2 = ac * bi - ai * bc;
            let q1 = nc * bi + ac * di - ni * bc - ai * dc;
            let q0 = nc * di - ni * dc;
            let mut cuts = [0.0f64; 4];
            let mut k = 0;
            let mut cut = |x: f64| {
                if x > lo && x < hi {
                    cuts[k] = x;
                    k += 1;
                }
            };
            if q2 != 0.0 {
                let disc = q1 * q1 - 4.0 * q2 * q0;
                if disc >= 0.0 {
                    let q = -0.5 * (q1 + q1.signum() * disc.sqrt());
                    if q != 0.0 {
                        cut(q / q2);
                        cut(q0 / q);
                    } else {
                        cut(0.0);
                    }
                }
            } else if q1 != 0.0 {
                cut(-q0 / q1);
            }
            if bc != 0.0 {
                cut(-dc / bc);
            }
            if bi != 0.0 {
                cut(-di / bi);
            }
            let cuts = &mut cuts[..k];
            cuts.sort_unstable_by(f64::total_cmp);
            let mut start = lo;
            let mut open: Option<f64> = None;
            for j in 0..=cuts.len() {
                let end = if j < cuts.len() { cuts[j] } else { hi };
                if end > start {
                    let is_wrong = wrong(0.5 * (start + end));
                    match (is_wrong, open) {
                        (true, None) => open = Some(start),
                        (false, Some(from)) => {
                            Self::wrong_on(&mut self.base, &mut self.events, from, start, lo, hi);
                            open = None;
                        }
                        _ => {}
                    }
                }
                start = end;
            }
            if let Some(from) = open {
                Self::wrong_on(&mut self.base, &mut self.events, from, hi, lo, hi);
            }
        }
    }
}

/// A normal component of the prior along a line, in step units.
#[derive(Clone, Copy, Debug)]
struct Component {
    weight: f64,
    mean: f64,
    sd: f64,
}

/// Draws the step along a line from `components` (the prior) times `exp(-cost * wrong(x))`,
/// with `events` the breakpoints of `wrong` within `[lo, hi]`. Returns the step and the
/// component it came from (`usize::MAX` and no step if nothing has mass).
fn draw_step(
    wrong: &mut Events,
    components: &[Component],
    cost: f64,
    (lo, hi): (f64, f64),
    scratch: &mut StepScratch,
    rng: &mut FastRng,
) -> (f64, usize) {
    let events = &mut wrong.events;
    events.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    // Segments of constant count, merged where the count does not change.
    let segments = &mut scratch.segments;
    segments.clear();
    let mut at = lo;
    let mut count = wrong.base;
    for &(x, change) in events.iter() {
        if x > at && segments.last().is_none_or(|s| s.2 != count) {
            segments.push((at, x, count));
        } else if x > at {
            segments.last_mut().expect("a segment").1 = x;
        }
        at = at.max(x);
        count += change;
    }
    if hi > at {
        if segments.last().is_some_and(|s| s.2 == count) {
            segments.last_mut().expect("a segment").1 = hi;
        } else {
            segments.push((at, hi, count));
        }
    }
    let least = segments.iter().map(|s| s.2).min().unwrap_or(0);
    if scratch.cost != cost {
        scratch.cost = cost;
        scratch.likelihood = (0..)
            .map(|j: i32| f64::from(j) * cost)
            .take_while(|&excess| excess <= MAX_EXCESS)
            .map(|excess| (-excess).exp())
            .collect();
    }
    // Mass of each (segment, component): the normal mass between the segment's ends, from the
    // tails at each end (shared by neighbouring segments), times the likelihood.
    let masses = &mut scratch.masses;
    masses.clear();
    let mut total = 0.0;
    for comp in components {
        let tail = |x: f64| {
            let z = (x - comp.mean) / comp.sd;
            (z, upper_tail(z.abs()))
        };
        let mut left = tail(segments.first().map_or(lo, |s| s.0));
        for &(_, to, count) in segments.iter() {
            let right = tail(to);
            let m = match scratch.likelihood.get((count - least) as usize) {
                Some(&factor) => comp.weight * between(left, right) * factor,
                None => 0.0,
            };
            masses.push(m);
            total += m;
            left = right;
        }
    }
    if !above(total, 0.0) {
        return (0.0, usize::MAX);
    }
    let mut pick = rng.next_f64() * total;
    let chosen = masses
        .iter()
        .position(|&m| {
            pick -= m;
            pick < 0.0
        })
        .unwrap_or(masses.len() - 1);
    let (k, j) = (chosen / segments.len(), chosen % segments.len());
    let (from, to, _) = segments[j];
    let comp = components[k];
    let z = truncated(
        (from - comp.mean) / comp.sd,
        (to - comp.mean) / comp.sd,
        rng,
    );
    ((comp.mean + comp.sd * z).clamp(from, to), k)
}

/// Likelihood factors below `exp(-MAX_EXCESS)` of the best count's are taken as 0.
const MAX_EXCESS: f64 = 40.0;

/// The standard normal mass between `a` and `b` (`a <= b`), given each as `(z, Q(|z|))`.
#[inline]
fn between((za, qa): (f64, f64), (zb, qb): (f64, f64)) -> f64 {
    if za >= 0.0 {
        qa - qb
    } else if zb <= 0.0 {
        qb - qa
    } else {
        1.0 - qa - qb
    }
}

/// Buffers of [`draw_step`].
#[derive(Default)]
struct StepScratch {
    /// `(from, to, wrong pairs)`
    segments: Vec<(f64, f64, i32)>,
    /// Per component, per segment.
    masses: Vec<f64>,
    /// `exp(-cost * j)` for `j` wrong pairs more than the fewest, while above `exp(-MAX_EXCESS)`
    /// (the likelihood factors, computed once per cost).
    likelihood: Vec<f64>,
    cost: f64,
}

/// One Markov chain over the case mean, the shared values, the opponents' weights and which
/// opponents are kin at which cells.
#[derive(Clone, Debug)]
pub struct Chain {
    prior: Prior,
    cells: Vec<Cell>,
    mean: f64,
    shared: Weights,
    /// Per opponent (index = player - 2): its weights and the cells where it is kin.
    weights: Vec<Weights>,
    kin: Vec<Bits>,
    observed: Vec<Vec<Observed>>,
    /// Where [`Chain::run_until`] resumes its sweep (the index of the next cell; the cells'
    /// count: the sweep's closing steps).
    cursor: usize,
}

/// Scratch space of the steps, shared by the chains of one thread.
#[derive(Default)]
pub struct Workspace {
    events: Events,
    step: StepScratch,
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
            shared.set(cell, mean + gaussian(rng) * prior.spread);
        }
        let opponents = players - 1;
        let mut weights = vec![Weights::default(); opponents];
        let mut kin = vec![Bits::NONE; opponents];
        for (w, kin) in weights.iter_mut().zip(&mut kin) {
            for &cell in &cells {
                if rng.next_f64() < prior.kin_share {
                    kin.insert(cell);
                    w.set(cell, shared.get(cell) + gaussian(rng) * prior.kin_sd);
                } else {
                    w.set(cell, mean + gaussian(rng) * prior.spread);
                }
            }
        }
        Chain {
            prior,
            cells,
            mean,
            shared,
            weights,
            kin,
            observed: vec![Vec::new(); opponents],
            cursor: 0,
        }
    }

    /// Moves the chain to the given weights of every opponent: each cell's shared value is the
    /// value most opponents lie near, and the opponents near it are kin. For measurements only
    /// (the AI never knows the weights): a chain started at the true weights samples the exact
    /// posterior from its first step, which shows what the model could predict at best.
    #[cfg(feature = "lab")]
    pub fn start_at(&mut self, weights: &[Weights]) {
        let near = |a: f64, b: f64| (a - b).abs() < 6.0;
        let mut total = 0.0;
        for &cell in &self.cells {
            let values: Vec<f64> = weights.iter().map(|w| w.get(cell)).collect();
            let centre = values
                .iter()
                .copied()
                .max_by_key(|&v| values.iter().filter(|&&x| near(x, v)).count())
                .expect("opponents");
            let kin: Vec<f64> = values
                .iter()
                .copied()
                .filter(|&x| near(x, centre))
                .collect();
            let shared = kin.iter().sum::<f64>() / kin.len() as f64;
            self.shared.set(cell, shared);
            total += shared;
            for (index, &v) in values.iter().enumerate() {
                self.weights[index].set(cell, v);
                if kin.len() > 1 && near(v, shared) {
                    self.kin[index].insert(cell);
                } else {
                    self.kin[index].remove(cell);
                }
            }
        }
        self.mean = total / self.cells.len() as f64;
        self.refresh();
    }

    /// A line of figures for debugging: the case mean, the spread of the shared values, the
    /// share of kin cells.
    #[cfg(feature = "lab")]
    pub fn describe(&self) -> String {
        let n = self.cells.len() as f64;
        let sd = (self
            .cells
            .iter()
            .map(|&c| (self.shared.get(c) - self.mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        let kin: u32 = self.kin.iter().map(|k| k.count()).sum();
        format!(
            "mean {:.1} shared-sd {:.1} kin {:.2}",
            self.mean,
            sd,
            kin as f64 / (n * self.kin.len() as f64)
        )
    }

    /// The weights of opponent `index` (player `index + 2`).
    pub fn weights(&self, index: usize) -> &Weights {
        &self.weights[index]
    }

    pub fn opponents(&self) -> usize {
        self.weights.len()
    }

    pub fn observe(&mut self, decision: &Decision) {
        let index = decision.mover as usize - 2;
        let observed = Observed::new(decision, &self.weights[index]);
        self.observed[index].push(observed);
    }

    /// Decisions observed.
    pub fn len(&self) -> usize {
        self.observed.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decisions the current weights reproduce.
    #[cfg(feature = "lab")]
    pub fn hits(&self) -> usize {
        self.observed
            .iter()
            .flatten()
            .filter(|o| o.wrong_pairs() == 0)
            .count()
    }

    /// `sweeps` rounds of steps over every cell.
    pub fn run(&mut self, sweeps: usize, work: &mut Workspace, rng: &mut FastRng) {
        for _ in 0..sweeps {
            self.sweep(work, rng);
        }
        self.refresh();
    }

    /// One round: per cell, the kin group's shared step, the shared value given the kin, each
    /// opponent's own weight; then the case mean and the scale.
    pub fn sweep(&mut self, work: &mut Workspace, rng: &mut FastRng) {
        for i in 0..self.cells.len() {
            self.step_cell(i, work, rng);
        }
        self.step_closing(work, rng);
    }

    /// The steps of [`Chain::sweep`] from where the last call stopped, until the sweep is
    /// complete (then `true`, the sums refreshed as by [`Chain::run`]) or `deadline` passes
    /// (then `false`; the next call resumes at the next cell). The clock is read before every
    /// cell's steps, so a call overruns `deadline` by one cell's steps at most: a whole sweep
    /// of a 12x12 board late in a game takes 4-9 ms on a quiet machine (each step goes through
    /// the decisions it moves), more than a decision has late in a short game, and the turns'
    /// one sweep of each chain at the least once cost such games up to 150 ms a turn. The steps
    /// are those of [`Chain::sweep`] in the same order, so the chain samples the same posterior.
    pub fn run_until(
        &mut self,
        deadline: Instant,
        work: &mut Workspace,
        rng: &mut FastRng,
    ) -> bool {
        while self.cursor < self.cells.len() {
            if Instant::now() >= deadline {
                return false;
            }
            self.step_cell(self.cursor, work, rng);
            self.cursor += 1;
        }
        if Instant::now() >= deadline {
            return false;
        }
        self.step_closing(work, rng);
        self.cursor = 0;
        self.refresh();
        true
    }

    /// The steps of a sweep at the `i`-th cell: the kin group's shared step, the shared value
    /// given the kin, each opponent's own weight.
    fn step_cell(&mut self, i: usize, work: &mut Workspace, rng: &mut FastRng) {
        let cell = self.cells[i];
        self.step_group(cell, work, rng);
        self.step_shared(cell, rng);
        for index in 0..self.weights.len() {
            self.step_weight(index, cell, work, rng);
        }
    }

    /// The steps that close a sweep: the case mean and the scale.
    fn step_closing(&mut self, work: &mut Workspace, rng: &mut FastRng) {
        self.step_mean_shift(work, rng);
        self.step_mean(rng);
        self.step_scale(rng);
    }

    /// The window of steps worth considering around the current point, from the components.
    fn window(components: &[Component]) -> (f64, f64) {
        let lo = components
            .iter()
            .map(|c| c.mean - WINDOW_SDS * c.sd)
            .fold(0.0f64, f64::min);
        let hi = components
            .iter()
            .map(|c| c.mean + WINDOW_SDS * c.sd)
            .fold(0.0f64, f64::max);
        (lo, hi)
    }

    /// A step along `dir` drawn from the prior `components` times the likelihood of
    /// `decisions` (the ones the step moves), with the component it came from; `None` when
    /// nothing has mass.
    fn draw_line_step<'a>(
        &self,
        decisions: impl IntoIterator<Item = &'a Observed>,
        dir: &impl Direction,
        components: &[Component],
        work: &mut Workspace,
        rng: &mut FastRng,
    ) -> Option<(f64, usize)> {
        let (lo, hi) = Self::window(components);
        work.events.clear();
        for obs in decisions {
            work.events.add(obs, dir, lo, hi);
        }
        let (x, k) = draw_step(
            &mut work.events,
            components,
            self.prior.miss_cost,
            (lo, hi),
            &mut work.step,
            rng,
        );
        (k != usize::MAX).then_some((x, k))
    }

    /// Opponent `index`'s weight at `cell` with whether it is kin there, drawn jointly given
    /// the shared value and the case mean.
    fn step_weight(&mut self, index: usize, cell: Cell, work: &mut Workspace, rng: &mut FastRng) {
        let p = self.prior;
        let current = self.weights[index].get(cell);
        let components = [
            Component {
                weight: p.kin_share,
                mean: self.shared.get(cell) - current,
                sd: p.kin_sd,
            },
            Component {
                weight: 1.0 - p.kin_share,
                mean: self.mean - current,
                sd: p.spread,
            },
        ];
        let dir = OneCell(cell);
        let Some((x, k)) = self.draw_line_step(&self.observed[index], &dir, &components, work, rng)
        else {
            return;
        };
        if k == 0 {
            self.kin[index].insert(cell);
        } else {
            self.kin[index].remove(cell);
        }
        self.move_weight(index, &dir, x);
    }

    fn move_weight(&mut self, index: usize, dir: &OneCell, x: f64) {
        if x == 0.0 {
            return;
        }
        let w = &mut self.weights[index];
        w.set(dir.0, w.get(dir.0) + x);
        for obs in &mut self.observed[index] {
            if dir.moves(obs.touched) {
                obs.shift(dir, x);
            }
        }
    }

    /// The shared value at `cell` moved together with the weights of every kin opponent.
    fn step_group(&mut self, cell: Cell, work: &mut Workspace, rng: &mut FastRng) {
        let p = self.prior;
        let kin: Vec<usize> = (0..self.weights.len())
            .filter(|&i| self.kin[i].contains(cell))
            .collect();
        let components = [Component {
            weight: 1.0,
            mean: self.mean - self.shared.get(cell),
            sd: p.spread,
        }];
        let dir = OneCell(cell);
        let decisions = kin.iter().flat_map(|&index| &self.observed[index]);
        let Some((x, _)) = self.draw_line_step(decisions, &dir, &components, work, rng) else {
            return;
        };
        self.shared.set(cell, self.shared.get(cell) + x);
        for index in kin {
            self.move_weight(index, &dir, x);
        }
    }

    /// The shared value at `cell` given the kin weights there (no decision depends on it).
    fn step_shared(&mut self, cell: Cell, rng: &mut FastRng) {
        let p = self.prior;
        let mut precision = 1.0 / (p.spread * p.spread);
        let mut weighted = self.mean * precision;
        let kin_precision = 1.0 / (p.kin_sd * p.kin_sd);
        for (w, kin) in self.weights.iter().zip(&self.kin) {
            if kin.contains(cell) {
                precision += kin_precision;
                weighted += w.get(cell) * kin_precision;
            }
        }
        let value = weighted / precision + gaussian(rng) / precision.sqrt();
        self.shared.set(cell, value);
    }

    /// Every value (mean, shared, weights) moved together.
    fn step_mean_shift(&mut self, work: &mut Workspace, rng: &mut FastRng) {
        let p = self.prior;
        let components = [Component {
            weight: 1.0,
            mean: -self.mean,
            sd: p.mean_sd,
        }];
        let decisions = self.observed.iter().flatten();
        let Some((x, _)) = self.draw_line_step(decisions, &Everywhere, &components, work, rng)
        else {
            return;
        };
        if x == 0.0 {
            return;
        }
        self.mean += x;
        for &cell in &self.cells {
            self.shared.set(cell, self.shared.get(cell) + x);
            for w in &mut self.weights {
                w.set(cell, w.get(cell) + x);
            }
        }
        for obs in self.observed.iter_mut().flatten() {
            obs.shift(&Everywhere, x);
        }
    }

    /// The case mean given the shared values and the own weights (no decision depends on it).
    fn step_mean(&mut self, rng: &mut FastRng) {
        let p = self.prior;
        let spread_precision = 1.0 / (p.spread * p.spread);
        let mut precision = 1.0 / (p.mean_sd * p.mean_sd);
        let mut weighted = 0.0;
        for &cell in &self.cells {
            precision += spread_precision;
            weighted += self.shared.get(cell) * spread_precision;
            for (w, kin) in self.weights.iter().zip(&self.kin) {
                if !kin.contains(cell) {
                    precision += spread_precision;
                    weighted += w.get(cell) * spread_precision;
                }
            }
        }
        self.mean = weighted / precision + gaussian(rng) / precision.sqrt();
    }

    /// Scales every value by a factor drawn from its conditional: no decision depends on the
    /// scale, and every prior term is quadratic, so the squared factor is gamma distributed.
    fn step_scale(&mut self, rng: &mut FastRng) {
        let p = self.prior;
        let sq = |x: f64, sd: f64| x * x / (2.0 * sd * sd);
        let mut energy = sq(self.mean, p.mean_sd);
        let mut dims = 1.0;
        for &cell in &self.cells {
            let u = self.shared.get(cell);
            energy += sq(u - self.mean, p.spread);
            dims += 1.0;
            for (w, kin) in self.weights.iter().zip(&self.kin) {
                let w = w.get(cell);
                energy += if kin.contains(cell) {
                    sq(w - u, p.kin_sd)
                } else {
                    sq(w - self.mean, p.spread)
                };
                dims += 1.0;
            }
        }
        if !above(energy, 0.0) {
            return;
        }
        let factor = (gamma(dims / 2.0, rng) / energy).sqrt();
        self.mean *= factor;
        for &cell in &self.cells {
            self.shared.set(cell, self.shared.get(cell) * factor);
            for w in &mut self.weights {
                w.set(cell, w.get(cell) * factor);
            }
        }
        for obs in self.observed.iter_mut().flatten() {
            obs.scale(factor);
        }
    }

    /// Recomputes the sums from the weights (running updates drift by rounding).
    fn refresh(&mut self) {
        for (w, observed) in self.weights.iter().zip(&mut self.observed) {
            for obs in observed {
                obs.recompute(w);
            }
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
    /// Adds the current weights of `chain`.
    pub fn push(&mut self, chain: &Chain) {
        self.members.push(
            (0..chain.opponents())
                .map(|i| chain.weights(i).clone())
                .collect(),
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator;

    /// Decisions of a generated game where every player moves by the case's strategies.
    fn decisions(seed: u64) -> (Vec<Weights>, Vec<Decision>) {
        let case = generator::generate(seed);
        let mut state = case.initial_state();
        let mut out = Vec::new();
        while let Some(mover) = state.to_move {
            let cell = case.stand_in_move(&state.board, mover).unwrap();
            if mover != 1 {
                out.push(Decision {
                    board: state.board.clone(),
                    mover,
                    chosen: cell,
                });
            }
            state.play(cell).unwrap();
        }
        (case.opponents, out)
    }

    #[test]
    fn the_wrong_pair_count_along_a_line_matches_direct_evaluation() {
        let (truth, decisions) = decisions(3);
        let mut rng = FastRng::new(11);
        let mut events = Events::default();
        let mut checked = 0;
        for d in decisions
            .iter()
            .filter(|d| d.board.legal_moves(d.mover).count() > 2)
        {
            // Weights away from the truth, so that some pairs are wrong somewhere.
            let mut w = truth[d.mover as usize - 2].clone();
            for r in 0..d.board.size() {
                for c in 0..d.board.size() {
                    let cell = Cell::new(r, c);
                    w.set(cell, w.get(cell) + 20.0 * gaussian(&mut rng));
                }
            }
            let obs = Observed::new(d, &w);
            let cell = d.board.occupied().iter().nth(5).unwrap();
            events.clear();
            events.add(&obs, &OneCell(cell), -100.0, 100.0);
            let mut sorted = events.events.clone();
            sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            for _ in 0..20 {
                let x = rng.next_f64() * 200.0 - 100.0;
                let from_events: i32 =
                    events.base + sorted.iter().filter(|e| e.0 <= x).map(|e| e.1).sum::<i32>();
                let mut moved = w.clone();
                moved.set(cell, w.get(cell) + x);
                let direct = Observed::new(d, &moved).wrong_pairs() as i32;
                assert_eq!(from_events, direct, "x {x}");
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn line_draws_follow_the_prior_times_the_likelihood() {
        let mut rng = FastRng::new(9);
        let mut scratch = StepScratch::default();
        let mixture = [
            Component {
                weight: 0.8,
                mean: 0.0,
                sd: 1.0,
            },
            Component {
                weight: 0.2,
                mean: 5.0,
                sd: 2.0,
            },
        ];
        let n = 40_000;
        let mut sum = 0.0;
        let mut second = 0;
        for _ in 0..n {
            let (x, k) = draw_step(
                &mut Events::default(),
                &mixture,
                1.0,
                (-20.0, 25.0),
                &mut scratch,
                &mut rng,
            );
            sum += x;
            second += usize::from(k == 1);
        }
        assert!(
            (sum / n as f64 - 1.0).abs() < 0.05,
            "mean {}",
            sum / n as f64
        );
        assert!((second as f64 / n as f64 - 0.2).abs() < 0.01);
        // Every x < 0 gets one wrong pair at a cost of ln 2: P(x < 0) = 0.25 / 0.75.
        let normal = [Component {
            weight: 1.0,
            mean: 0.0,
            sd: 1.0,
        }];
        let below = (0..n)
            .filter(|_| {
                let mut events = Events {
                    base: 1,
                    events: vec![(0.0, -1)],
                    ..Events::default()
                };
                let (x, _) = draw_step(
                    &mut events,
                    &normal,
                    std::f64::consts::LN_2,
                    (-8.0, 8.0),
                    &mut scratch,
                    &mut rng,
                );
                x < 0.0
            })
            .count();
        assert!(
            (below as f64 / n as f64 - 1.0 / 3.0).abs() < 0.01,
            "{below}"
        );
    }

    #[test]
    fn a_sweep_run_until_a_deadline_resumes_where_it_stopped() {
        let (_, decisions) = decisions(5);
        let board = &decisions[0].board;
        let mut rng = FastRng::new(3);
        let mut chain = Chain::new(board.size(), board.players(), PRIOR, &mut rng);
        for d in &decisions {
            chain.observe(d);
        }
        let mut timed = chain.clone();
        let (mut work, mut timed_work) = (Workspace::default(), Workspace::default());
        let (mut rng, mut timed_rng) = (FastRng::new(8), FastRng::new(8));
        chain.run(1, &mut work, &mut rng);
        chain.run(1, &mut work, &mut rng);
        // A deadline already passed: nothing moves.
        let past = Instant::now();
        assert!(!timed.run_until(past, &mut timed_work, &mut timed_rng));
        assert_eq!(timed.cursor, 0);
        // A sweep cut off part way, then finished, then a whole one: the same steps as two
        // runs of one sweep.
        let later = Instant::now() + std::time::Duration::from_secs(3600);
        timed.cursor = 0;
        for i in 0..17 {
            timed.step_cell(i, &mut timed_work, &mut timed_rng);
        }
        timed.cursor = 17;
        assert!(timed.run_until(later, &mut timed_work, &mut timed_rng));
        assert!(timed.run_until(later, &mut timed_work, &mut timed_rng));
        assert_eq!(timed.cursor, 0);
        assert_eq!(timed.mean, chain.mean);
        assert_eq!(timed.weights, chain.weights);
        assert_eq!(timed.kin, chain.kin);
    }

    #[test]
    fn the_true_weights_explain_every_decision() {
        let (truth, decisions) = decisions(4);
        for d in &decisions {
            let obs = Observed::new(d, &truth[d.mover as usize - 2]);
            assert_eq!(obs.wrong_pairs(), 0);
        }
    }
}
