//! What prediction buys: the oracle's search run with imperfect knowledge of the opponents
//! (their true weights plus Gaussian noise of a given spread, or another opponent's weights),
//! against the true opponents. Prints the mean score and the share of the opponents' moves
//! (with more than one legal move) that the known-weights model predicted.
//!
//! cargo run --release -p marathon-reversi --example ceiling -- SEEDS EFFORT NOISE...
//!
//! NOISE: a spread in weight units (0 is the oracle), or `sibling`.

use std::time::Duration;

use marathon_core::parse_seed_set;
use marathon_core::rng::FastRng;
use marathon_reversi::ai::search::KnownPlayer;
use marathon_reversi::ai::{Clock, Player};
use marathon_reversi::generator::{self, ReversiCase};
use marathon_reversi::rules::Cell;
use marathon_reversi::strategy::{self, Weights};
use rayon::prelude::*;

fn gaussian(rng: &mut FastRng) -> f64 {
    let u = rng.next_f64().max(f64::MIN_POSITIVE);
    let v = rng.next_f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn believed(case: &ReversiCase, noise: &str) -> Vec<Weights> {
    if noise == "sibling" {
        let k = case.opponents.len();
        return (0..k)
            .map(|i| case.opponents[(i + 1) % k].clone())
            .collect();
    }
    let spread: f64 = noise.parse().expect("a spread or sibling");
    let mut rng = FastRng::new(case.seed ^ 0x5eed);
    case.opponents
        .iter()
        .map(|w| {
            let mut noisy = w.clone();
            for r in 0..case.size {
                for c in 0..case.size {
                    let cell = Cell::new(r, c);
                    noisy.set(cell, w.get(cell) + spread * gaussian(&mut rng));
                }
            }
            noisy
        })
        .collect()
}

fn play(case: &ReversiCase, effort: u64, noise: &str) -> (f64, u32, u32) {
    let model = believed(case, noise);
    let mut player = KnownPlayer::new(model.clone(), Some(effort));
    let mut state = case.initial_state();
    let (mut hits, mut total) = (0, 0);
    while let Some(mover) = state.to_move {
        let cell = if mover == 1 {
            let clock = Clock {
                limit: Duration::from_secs(3600),
                used: Duration::ZERO,
                started: std::time::Instant::now(),
            };
            player.choose(&state.board, &clock)
        } else {
            let truth = case.opponent_move(&state.board, mover).expect("a move");
            if state.board.legal_moves(mover).count() > 1 {
                total += 1;
                let guess = strategy::choose(&state.board, mover, &model[mover as usize - 2]);
                hits += u32::from(guess == Some(truth));
            }
            truth
        };
        state.play_unchecked(cell);
    }
    (state.score(), hits, total)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = parse_seed_set(&args[0]).expect("seeds");
    let effort: u64 = args[1].parse().expect("effort");
    let cases: Vec<ReversiCase> = seeds.par_iter().map(|&s| generator::generate(s)).collect();
    for noise in &args[2..] {
        let results: Vec<(f64, u32, u32)> =
            cases.par_iter().map(|c| play(c, effort, noise)).collect();
        let n = results.len() as f64;
        let mean = results.iter().map(|r| r.0).sum::<f64>() / n;
        let sd = (results.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let hits: u32 = results.iter().map(|r| r.1).sum();
        let total: u32 = results.iter().map(|r| r.2).sum();
        println!(
            "noise {noise:>8}: mean {mean:.3} (se {:.3}) predicted {:.3}",
            sd / n.sqrt(),
            hits as f64 / total.max(1) as f64
        );
    }
}
