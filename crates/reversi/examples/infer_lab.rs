//! How well models of the opponents predict their moves, measured offline: each case is played
//! with a fixed player 1 (greedy), the opponents' decisions are recorded round by round, and a
//! model sees them in the order the AI would (a round's decisions are predicted before they are
//! learnt).
//!
//! cargo run --release -p marathon-reversi --example infer_lab -- stats SEEDS
//! cargo run --release -p marathon-reversi --example infer_lab -- predict SEEDS MODEL
//!
//! MODEL: `first` (the first legal move), `flips` (the most flips), `sibling` (another
//! opponent's true weights), `lineage` (the AI's posterior samples; the environment variables
//! SWEEPS, CHAINS, THIN, MEAN_SD, SPREAD, KIN_SHARE, KIN_SD and MISS_COST override its
//! settings; START_AT_TRUTH starts the chains at the true weights and RESET_TRUTH restarts
//! them there every round, which samples the exact posterior whatever the mixing; DEBUG prints
//! how many decisions a chain explains).

use marathon_core::parse_seed_set;
use marathon_core::rng::FastRng;
use marathon_reversi::ai::greedy::most_flips;
use marathon_reversi::ai::infer::Decision;
use marathon_reversi::ai::lineage::{self, Ensemble};
use marathon_reversi::ai::search::Model;
use marathon_reversi::generator::{self, ReversiCase};
use marathon_reversi::rules::{Cell, State};
use marathon_reversi::strategy::{self, Weights};
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = parse_seed_set(&args[1]).expect("seeds");
    let cases: Vec<ReversiCase> = seeds.par_iter().map(|&s| generator::generate(s)).collect();
    match args[0].as_str() {
        "stats" => stats(&cases),
        "predict" => predict(&cases, &args[2]),
        other => panic!("unknown command {other}"),
    }
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

fn env(name: &str, default: f64) -> f64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

/// The lineage model: exact Gibbs sweeps (SWEEPS per round and chain, CHAINS, THIN; the prior
/// from MEAN_SD, SPREAD, KIN_SHARE, KIN_SD and MISS_COST).
struct Lineage {
    /// The true weights, with RESET_TRUTH: every round's chains start from them, so that their
    /// samples come from the exact posterior (if the prior is right) whatever the mixing.
    truth: Option<Vec<Weights>>,
    chains: Vec<lineage::Chain>,
    ensemble: Ensemble,
    work: lineage::Workspace,
    rng: FastRng,
    sweeps: usize,
    thin: usize,
}

impl Lineage {
    fn new(case: &ReversiCase) -> Self {
        let d = lineage::PRIOR;
        let prior = lineage::Prior {
            mean_sd: env("MEAN_SD", d.mean_sd),
            spread: env("SPREAD", d.spread),
            kin_share: env("KIN_SHARE", d.kin_share),
            kin_sd: env("KIN_SD", d.kin_sd),
            miss_cost: env("MISS_COST", d.miss_cost),
        };
        let mut rng = FastRng::new(case.seed);
        let chains = (0..env("CHAINS", 4.0) as usize)
            .map(|_| {
                let mut chain = lineage::Chain::new(case.size, case.players, prior, &mut rng);
                if std::env::var("START_AT_TRUTH").is_ok() {
                    chain.start_at(&case.opponents);
                }
                chain
            })
            .collect();
        let mut model = Lineage {
            truth: std::env::var("RESET_TRUTH")
                .is_ok()
                .then(|| case.opponents.clone()),
            chains,
            ensemble: Ensemble::default(),
            work: lineage::Workspace::default(),
            rng,
            sweeps: env("SWEEPS", 4.0) as usize,
            thin: env("THIN", 4.0) as usize,
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
        if std::env::var("DEBUG").is_ok() {
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

fn build(name: &str, case: &ReversiCase) -> Box<dyn Predictor> {
    match name {
        "sibling" => Box::new(Sibling(case.opponents.clone())),
        "first" => Box::new(Baseline(false)),
        "flips" => Box::new(Baseline(true)),
        "lineage" => Box::new(Lineage::new(case)),
        other => panic!("unknown model {other}"),
    }
}

fn predict(cases: &[ReversiCase], model: &str) {
    // Hits and totals by game third.
    let results: Vec<[(u32, u32); 3]> = cases
        .par_iter()
        .map(|case| {
            let rounds = record(case);
            let all: usize = rounds.iter().map(Vec::len).sum();
            let mut predictor = build(model, case);
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
            let _ = State::new(case.size);
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
        "{model}: predicted {:.3} (by third: {})",
        overall,
        sum.iter()
            .map(|x| format!("{:.3}", x.0 as f64 / x.1.max(1) as f64))
            .collect::<Vec<_>>()
            .join(" ")
    );
}
