//! What prediction buys: the oracle's search run with imperfect knowledge of the opponents
//! (their true weights plus Gaussian noise of a given spread, or another opponent's weights),
//! against the true opponents. Prints, per noise, the mean score and the share of the
//! opponents' moves (with more than one legal move) that the known-weights model predicted.

use std::time::Duration;

use clap::Args;
use marathon_core::rng::FastRng;
use marathon_reversi::ai::search::KnownPlayer;
use marathon_reversi::ai::{Clock, Player};
use marathon_reversi::generator::{self, ReversiCase};
use marathon_reversi::rules::Cell;
use marathon_reversi::strategy::{self, Weights};
use rayon::prelude::*;

#[derive(Args)]
pub struct CeilingArgs {
    /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
    #[arg(value_name = "SEEDS")]
    seeds: String,
    /// The oracle's fixed search effort.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    effort: u64,
    /// What the oracle believes, one row each: a spread in weight units added to the true
    /// weights as Gaussian noise (0 is the oracle), or `sibling` (the next opponent's weights).
    #[arg(value_name = "NOISE", required = true, value_parser = parse_noise)]
    noises: Vec<Noise>,
}

/// A belief about the opponents, with the text it was given as (the row's label).
#[derive(Clone)]
struct Noise {
    text: String,
    kind: NoiseKind,
}

#[derive(Clone, Copy)]
enum NoiseKind {
    Spread(f64),
    Sibling,
}

fn parse_noise(text: &str) -> Result<Noise, String> {
    let kind = match text {
        "sibling" => NoiseKind::Sibling,
        _ => match text.parse::<f64>() {
            Ok(spread) if spread.is_finite() && spread >= 0.0 => NoiseKind::Spread(spread),
            _ => {
                return Err(format!(
                    "{text:?}: expected a spread of at least 0 or `sibling`"
                ));
            }
        },
    };
    Ok(Noise {
        text: text.to_string(),
        kind,
    })
}

fn gaussian(rng: &mut FastRng) -> f64 {
    let u = rng.next_f64().max(f64::MIN_POSITIVE);
    let v = rng.next_f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn believed(case: &ReversiCase, noise: NoiseKind) -> Vec<Weights> {
    let spread = match noise {
        NoiseKind::Sibling => {
            let k = case.opponents.len();
            return (0..k)
                .map(|i| case.opponents[(i + 1) % k].clone())
                .collect();
        }
        NoiseKind::Spread(spread) => spread,
    };
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

/// One game: the score, and the opponents' decisions predicted and counted.
fn play(case: &ReversiCase, effort: u64, noise: NoiseKind) -> (f64, u32, u32) {
    let model = believed(case, noise);
    let mut player = KnownPlayer::new(model.clone(), Some(effort));
    let mut state = case.initial_state();
    let (mut hits, mut total) = (0, 0);
    while let Some(mover) = state.to_move {
        let cell = if mover == 1 {
            // At a fixed effort the player never reads the clock; an hour only keeps it from
            // thinking it is late.
            let clock = Clock::stopped(Duration::from_secs(3600), Duration::ZERO);
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

pub fn run(args: CeilingArgs) -> Result<(), String> {
    let seeds = super::seeds(&args.seeds)?;
    let cases: Vec<ReversiCase> = seeds.par_iter().map(|&s| generator::generate(s)).collect();
    for noise in &args.noises {
        let results: Vec<(f64, u32, u32)> = cases
            .par_iter()
            .map(|c| play(c, args.effort, noise.kind))
            .collect();
        let n = results.len() as f64;
        let mean = results.iter().map(|r| r.0).sum::<f64>() / n;
        let sd = (results.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let hits: u32 = results.iter().map(|r| r.1).sum();
        let total: u32 = results.iter().map(|r| r.2).sum();
        println!(
            "noise {:>8}: mean {mean:.3} (se {:.3}) predicted {:.3}",
            noise.text,
            sd / n.sqrt(),
            hits as f64 / total.max(1) as f64
        );
    }
    Ok(())
}
