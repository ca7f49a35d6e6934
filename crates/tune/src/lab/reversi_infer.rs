//! How well models of the Reversi opponents predict their moves, measured offline: each case is
//! played with a fixed player 1 (greedy), the opponents' decisions are recorded round by round,
//! and a model sees them in the order the AI would (a round's decisions are predicted before
//! they are learnt).

use clap::{Args, Subcommand, ValueEnum};
use marathon_core::rng::FastRng;
use marathon_reversi::ai::greedy::most_flips;
use marathon_reversi::ai::infer::Decision;
use marathon_reversi::ai::lineage::{self, Ensemble, PRIOR};
use marathon_reversi::ai::search::Model;
use marathon_reversi::generator::{self, ReversiCase};
use marathon_reversi::rules::Cell;
use marathon_reversi::strategy::{self, Weights};
use rayon::prelude::*;

#[derive(Args)]
pub struct InferArgs {
    #[command(subcommand)]
    command: InferCommand,
}

#[derive(Subcommand)]
enum InferCommand {
    /// Per case: the opponents' weights' mean and spread and their pairwise correlations.
    Stats {
        /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
        #[arg(value_name = "SEEDS")]
        seeds: String,
    },
    /// The share of the opponents' decisions (with more than one legal move) a model predicts,
    /// per case and by game third.
    Predict(Box<PredictArgs>),
}

#[derive(Args)]
struct PredictArgs {
    /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
    #[arg(value_name = "SEEDS")]
    seeds: String,
    /// The model of the opponents.
    #[arg(value_name = "MODEL")]
    model: ModelName,
    #[command(flatten)]
    lineage: LineageArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModelName {
    /// The first legal move.
    First,
    /// The move flipping the most pieces.
    Flips,
    /// Another opponent's true weights.
    Sibling,
    /// The AI's posterior samples (`ai::lineage`), set by the lineage options.
    Lineage,
}

impl ModelName {
    fn name(self) -> &'static str {
        match self {
            ModelName::First => "first",
            ModelName::Flips => "flips",
            ModelName::Sibling => "sibling",
            ModelName::Lineage => "lineage",
        }
    }
}

/// The lineage model's settings: exact Gibbs sweeps and the prior (defaults: the AI's).
#[derive(Args, Clone, Copy)]
#[command(next_help_heading = "Lineage model")]
struct LineageArgs {
    /// Gibbs sweeps per round and chain.
    #[arg(long, default_value_t = 4)]
    sweeps: usize,
    /// Independent chains.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    chains: u32,
    /// Samples taken from each chain per round (its sweeps split between them).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    thin: u32,
    /// The prior: spread of the case mean around 0.
    #[arg(long, default_value_t = PRIOR.mean_sd, value_parser = positive)]
    mean_sd: f64,
    /// The prior: spread of a cell's shared value, and of an opponent's own weight.
    #[arg(long, default_value_t = PRIOR.spread, value_parser = positive)]
    spread: f64,
    /// The prior: probability that an opponent is kin at a cell, 0 to 1.
    #[arg(long, default_value_t = PRIOR.kin_share, value_parser = probability)]
    kin_share: f64,
    /// The prior: spread of a kin opponent's weight around the shared value.
    #[arg(long, default_value_t = PRIOR.kin_sd, value_parser = positive)]
    kin_sd: f64,
    /// The likelihood: log-likelihood lost per (decision, other move) pair ordered wrongly.
    #[arg(long, default_value_t = PRIOR.miss_cost, value_parser = non_negative)]
    miss_cost: f64,
    /// Start the chains at the true weights.
    #[arg(long)]
    start_at_truth: bool,
    /// Restart the chains at the true weights every round: their samples then come from the
    /// exact posterior (if the prior is right) whatever the mixing.
    #[arg(long)]
    reset_truth: bool,
    /// Print to stderr, every round, how many decisions the first chain explains.
    #[arg(long)]
    debug: bool,
}

fn number(text: &str, ok: impl Fn(f64) -> bool, expected: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("{text:?}: expected {expected}")),
    }
}

fn positive(text: &str) -> Result<f64, String> {
    number(text, |x| x > 0.0, "a number above 0")
}

fn non_negative(text: &str) -> Result<f64, String> {
    number(text, |x| x >= 0.0, "a number of at least 0")
}

fn probability(text: &str) -> Result<f64, String> {
    number(text, |x| (0.0..=1.0).contains(&x), "a number from 0 to 1")
}

pub fn run(args: InferArgs) -> Result<(), String> {
    let seeds = match &args.command {
        InferCommand::Stats { seeds } => seeds,
        InferCommand::Predict(predict) => &predict.seeds,
    };
    let seeds = super::seeds(seeds)?;
    let cases: Vec<ReversiCase> = seeds.par_iter().map(|&s| generator::generate(s)).collect();
    match args.command {
        InferCommand::Stats { .. } => stats(&cases),
        InferCommand::Predict(predict) => self::predict(&cases, predict.model, predict.lineage),
    }
    Ok(())
}

fn cells(size: usize) -> Vec<Cell> {
    (0..size)
        .flat_map(|r| (0..size).map(move |c| Cell::new(r, c)))
        .collect()
}

fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    cov / (va * vb).sqrt()
}

fn stats(cases: &[ReversiCase]) {
    for case in cases {
        let cs = cells(case.size);
        let vectors: Vec<Vec<f64>> = case
            .opponents
            .iter()
            .map(|w| cs.iter().map(|&c| w.get(c)).collect())
            .collect();
        let mut pairs = Vec::new();
        for i in 0..vectors.len() {
            for j in i + 1..vectors.len() {
                pairs.push(format!("{:.2}", correlation(&vectors[i], &vectors[j])));
            }
        }
        let mean: f64 = vectors.iter().flatten().sum::<f64>() / (vectors.len() * cs.len()) as f64;
        let sd = (vectors
            .iter()
            .flatten()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / (vectors.len() * cs.len()) as f64)
            .sqrt();
        println!(
            "seed {:3} n {:2} mean {:6.2} sd {:5.2} corr {}",
            case.seed,
            case.size,
            mean,
            sd,
            pairs.join(" ")
        );
    }
}

/// The opponents' decisions of one game, grouped by the rounds between player 1's moves.
fn record(case: &ReversiCase) -> Vec<Vec<Decision>> {
    let mut state = case.initial_state();
    let mut rounds: Vec<Vec<Decision>> = vec![Vec::new()];
    while let Some(mover) = state.to_move {
        if mover == 1 {
            rounds.push(Vec::new());
            let cell = most_flips(&state.board).expect("a move");
            state.play_unchecked(cell);
        } else {
            let cell = case.opponent_move(&state.board, mover).expect("a move");
            rounds.last_mut().expect("a round").push(Decision {
                board: state.board.clone(),
                mover,
                chosen: cell,
            });
            state.play_unchecked(cell);
        }
    }
    rounds
}

trait Predictor {
    fn predict(&self, decision: &Decision) -> Cell;
    fn learn(&mut self, round: &[Decision]);
}

struct Sibling(Vec<Weights>);

impl Predictor for Sibling {
    fn predict(&self, d: &Decision) -> Cell {
        let others = self.0.len();
        let index = (d.mover as usize - 2 + 1) % others;
        strategy::choose(&d.board, d.mover, &self.0[index]).expect("a move")
    }
    fn learn(&mut self, _: &[Decision]) {}
}

/// The first legal move, or the one flipping most.
struct Baseline(bool);

impl Predictor for Baseline {
    fn predict(&self, d: &Decision) -> Cell {
        let legal = d.board.legal_moves(d.mover);
        if !self.0 {
            return legal.first().expect("a move");
        }
        let mut best = (legal.first().expect("a move"), 0);
        for c in legal {
            let n = d.board.for_each_flip(d.mover, c, |_| {});
            if n > best.1 {
                best = (c, n);
            }
        }
        best.0
    }
    fn learn(&mut self, _: &[Decision]) {}
}

/// The lineage model: exact Gibbs sweeps (`--sweeps` per round and chain, `--chains`,
/// `--thin`) under the prior the options give.
struct Lineage {
    /// The true weights, with `--reset-truth`: every round's chains start from them, so that
    /// their samples come from the exact posterior (if the prior is right) whatever the mixing.
    truth: Option<Vec<Weights>>,
    chains: Vec<lineage::Chain>,
    ensemble: Ensemble,
    work: lineage::Workspace,
    rng: FastRng,
    sweeps: usize,
    thin: usize,
    debug: bool,
}

impl Lineage {
    fn new(case: &ReversiCase, args: LineageArgs) -> Self {
        let prior = lineage::Prior {
            mean_sd: args.mean_sd,
            spread: args.spread,
            kin_share: args.kin_share,
            kin_sd: args.kin_sd,
            miss_cost: args.miss_cost,
        };
        let mut rng = FastRng::new(case.seed);
        let chains = (0..args.chains)
            .map(|_| {
                let mut chain = lineage::Chain::new(case.size, case.players, prior, &mut rng);
                if args.start_at_truth {
                    chain.start_at(&case.opponents);
                }
                chain
            })
            .collect();
        let mut model = Lineage {
            truth: args.reset_truth.then(|| case.opponents.clone()),
            chains,
            ensemble: Ensemble::default(),
            work: lineage::Workspace::default(),
            rng,
            sweeps: args.sweeps,
            thin: args.thin as usize,
            debug: args.debug,
        };
        model.collect(0);
        model
    }

    fn collect(&mut self, sweeps: usize) {
        self.ensemble = Ensemble::default();
        for chain in &mut self.chains {
            if let Some(truth) = &self.truth {
                chain.start_at(truth);
            }
            for _ in 0..self.thin {
                chain.run(sweeps.div_ceil(self.thin), &mut self.work, &mut self.rng);
                self.ensemble.push(chain);
            }
        }
    }
}

impl Predictor for Lineage {
    fn predict(&self, d: &Decision) -> Cell {
        self.ensemble.reply(&d.board, d.mover)
    }
    fn learn(&mut self, round: &[Decision]) {
        for d in round {
            for chain in &mut self.chains {
                chain.observe(d);
            }
        }
        self.collect(self.sweeps);
        if self.debug {
            let c = &self.chains[0];
            eprintln!(
                "decisions {} explained {} {}",
                c.len(),
                c.hits(),
                c.describe()
            );
        }
    }
}

fn build(model: ModelName, case: &ReversiCase, lineage: LineageArgs) -> Box<dyn Predictor> {
    match model {
        ModelName::Sibling => Box::new(Sibling(case.opponents.clone())),
        ModelName::First => Box::new(Baseline(false)),
        ModelName::Flips => Box::new(Baseline(true)),
        ModelName::Lineage => Box::new(Lineage::new(case, lineage)),
    }
}

fn predict(cases: &[ReversiCase], model: ModelName, lineage: LineageArgs) {
    // Hits and totals by game third.
    let results: Vec<[(u32, u32); 3]> = cases
        .par_iter()
        .map(|case| {
            let rounds = record(case);
            let all: usize = rounds.iter().map(Vec::len).sum();
            let mut predictor = build(model, case, lineage);
            let mut seen = 0;
            let mut tally = [(0u32, 0u32); 3];
            for round in &rounds {
                for d in round {
                    let legal = d.board.legal_moves(d.mover).count();
                    let third = (seen * 3 / all.max(1)).min(2);
                    seen += 1;
                    if legal < 2 {
                        continue;
                    }
                    tally[third].1 += 1;
                    if predictor.predict(d) == d.chosen {
                        tally[third].0 += 1;
                    }
                }
                predictor.learn(round);
            }
            tally
        })
        .collect();
    let mut sum = [(0u32, 0u32); 3];
    for (case, tally) in cases.iter().zip(&results) {
        let rate = |t: &[(u32, u32)]| {
            let h: u32 = t.iter().map(|x| x.0).sum();
            let n: u32 = t.iter().map(|x| x.1).sum();
            h as f64 / n.max(1) as f64
        };
        println!(
            "seed {:3} n {:2} predicted {:.3}",
            case.seed,
            case.size,
            rate(tally)
        );
        for i in 0..3 {
            sum[i].0 += tally[i].0;
            sum[i].1 += tally[i].1;
        }
    }
    let overall = sum.iter().map(|x| x.0).sum::<u32>() as f64
        / sum.iter().map(|x| x.1).sum::<u32>().max(1) as f64;
    println!(
        "{}: predicted {:.3} (by third: {})",
        model.name(),
        overall,
        sum.iter()
            .map(|x| format!("{:.3}", x.0 as f64 / x.1.max(1) as f64))
            .collect::<Vec<_>>()
            .join(" ")
    );
}
