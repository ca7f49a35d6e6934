//! The Rust side of `python/bench/step_rate.py`: random allowed actions per second for each
//! game, played two ways on one case per game (started again by a clone at each end, as the
//! Python environment does on `reset` with the same seed):
//!
//! - `env`: the bare environment, `legal_actions` then `step` (and the automatic steps);
//! - `driver`: what the Python environment asks of Rust per step: the action mask, every
//!   observation array and the step, through the driver (no Python).
//!
//! `cargo run --release -p marathon-python --example step_rate [SECONDS_PER_GAME]`

use std::time::{Duration, Instant};

use marathon_core::env::{Environment, Turn};
use marathon_core::rng::FastRng;
use marathon_core::space::{Buffer, Dtype, Spaces};
use marathon_core::{CaseId, GameSpec};
use marathon_python::driver;

/// The case each game plays (the Python benchmark plays the same).
const SEED: u64 = 1;

/// Steps per second of the bare environment of `game`, for about `budget`.
fn env_rate<G: GameSpec>(game: &G, budget: Duration) -> f64
where
    G::Env: Spaces,
{
    let case = match game.groups() {
        Some((_, default)) => CaseId::in_group(default, SEED),
        None => CaseId::seed(SEED),
    };
    let start = game.environment(&case).expect("a case");
    let mut env = start.clone();
    let mut rng = FastRng::new(SEED);
    let (mut steps, began) = (0u64, Instant::now());
    while began.elapsed() < budget {
        for _ in 0..100 {
            env.advance_while_auto(|_, _| {});
            if env.turn() == Turn::Over {
                env = start.clone();
                env.advance_while_auto(|_, _| {});
            }
            let legal = env.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            assert!(env.step(action).is_ok(), "a legal action refused");
            steps += 1;
        }
    }
    steps as f64 / began.elapsed().as_secs_f64()
}

/// Steps per second through the driver of `name`: mask, observation and step.
fn driver_rate(name: &str, budget: Duration) -> f64 {
    let mut driver = driver::driver(name).expect("a game");
    driver.reset(SEED, None).expect("a case");
    let mut mask = vec![0i8; driver.actions()];
    let mut buffers: Vec<Buffer> = driver
        .fields()
        .iter()
        .map(|field| match field.dtype {
            Dtype::I8 => Buffer::I8(vec![0; field.len()]),
            Dtype::I32 => Buffer::I32(vec![0; field.len()]),
        })
        .collect();
    let mut rng = FastRng::new(SEED);
    let mut allowed = Vec::with_capacity(mask.len());
    let (mut steps, began) = (0u64, Instant::now());
    while began.elapsed() < budget {
        for _ in 0..100 {
            if driver.is_over() {
                driver.reset(SEED, None).expect("a case");
            }
            driver.action_mask(&mut mask);
            for (field, buffer) in buffers.iter_mut().enumerate() {
                driver.observe(field, &mut buffer.values());
            }
            allowed.clear();
            allowed.extend((0..mask.len()).filter(|&i| mask[i] == 1));
            let index = allowed[rng.below(allowed.len() as u32) as usize];
            driver.step(index as i64).expect("an allowed action");
            steps += 1;
        }
    }
    steps as f64 / began.elapsed().as_secs_f64()
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("seconds per game"))
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds / 2.0);
    let rates = [
        ("linez", env_rate(&marathon_linez::LINEZ, budget)),
        ("tiles", env_rate(&marathon_tiles::TILES, budget)),
        ("reversi", env_rate(&marathon_reversi::REVERSI, budget)),
        (
            "polyomino",
            env_rate(&marathon_polyomino::POLYOMINO, budget),
        ),
        (
            "solitaire",
            env_rate(&marathon_solitaire::SOLITAIRE, budget),
        ),
    ];
    println!(
        "{:<10} {:>14} {:>14}",
        "game", "env steps/s", "driver steps/s"
    );
    for (name, env) in rates {
        let driver = driver_rate(name, budget);
        println!("{name:<10} {env:>14.0} {driver:>14.0}");
    }
}
