//! The Rust side of `python/bench/step_rate.py`: the cost of one random allowed action for each
//! game, two ways, on one case per game (started again by a clone at each end, as the Python
//! environment does on `reset` with the same seed):
//!
//! - `env/GAME`: the bare environment, `legal_actions` then `step` (and the automatic steps);
//! - `driver/GAME`: what the Python environment asks of Rust per step: the action mask, every
//!   observation array and the step, through the driver (no Python).
//!
//! - `vector/GAME/THREADS`: a batch of [`VECTOR_ENVS`] steps of the vector driver (the Python
//!   vector environment's engine) on 1 and 2 threads, random allowed actions chosen in the
//!   timed loop, every result written into its arrays, each sub-environment's case started
//!   again at its end (`repeating_cases`); the throughput is in steps.
//!
//! `cargo bench -p marathon-python --bench step_rate`; a step's time t gives 1/t steps a second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use marathon_core::env::{Environment, Turn};
use marathon_core::rng::FastRng;
use marathon_core::space::{Buffer, Dtype, Spaces};
use marathon_core::{CaseId, GameSpec};
use marathon_python::driver;
use marathon_python::vector::{Arrays, Autoreset, VectorDriver};

/// The case each game plays (the Python benchmark plays the same).
const SEED: u64 = 1;

/// One random legal step of `game`'s bare environment, restarting the case at its end.
fn bench_env<G: GameSpec>(c: &mut Criterion, game: &G)
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
    c.bench_function(&format!("env/{}", G::NAME), |b| {
        b.iter(|| {
            env.advance_while_auto(|_, _| {});
            if env.turn() == Turn::Over {
                env = start.clone();
                env.advance_while_auto(|_, _| {});
            }
            let legal = env.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            assert!(env.step(action).is_ok(), "a legal action refused");
        })
    });
}

/// One step through the driver of `name`: mask, every observation array, a random allowed
/// action.
fn bench_driver(c: &mut Criterion, name: &str) {
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
    c.bench_function(&format!("driver/{name}"), |b| {
        b.iter(|| {
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
        })
    });
}

/// The batch of the vector benches.
const VECTOR_ENVS: usize = 256;

/// The legal lists' width in the `vector_listed` benches: linez's most legal moves (40 balls
/// times 41 empty cells), or the whole space where it is smaller; polyomino's whole space.
fn list_width(name: &str, actions: usize) -> usize {
    if name == "polyomino" {
        actions
    } else {
        actions.min(1640)
    }
}

/// One batch of `name`'s vector driver on `threads` threads, a random allowed action each drawn
/// in Rust from its mask (`vector`) or from its legal list (`vector_listed`).
fn bench_vector(c: &mut Criterion, name: &str, threads: usize, listed: bool) {
    let mut group = c.benchmark_group(if listed { "vector_listed" } else { "vector" });
    group.throughput(Throughput::Elements(VECTOR_ENVS as u64));
    group.bench_function(format!("{name}/{threads}"), |b| {
        // Set up here, where only a bench the filter selects gets: dealing 256 reversi cases
        // takes a minute.
        let vector = VectorDriver::new(name, VECTOR_ENVS, threads, Autoreset::SameStep)
            .expect("a vector")
            .repeating_cases(true);
        let width = listed.then(|| list_width(name, vector.actions()));
        let mut vector = vector.listing_legal(width).expect("a width in the space");
        let mut arrays = Arrays::new(&vector);
        let seeds: Vec<u64> = (0..VECTOR_ENVS as u64).map(|i| SEED + i).collect();
        vector.reset(&seeds, None, arrays.batch()).expect("a reset");
        let actions = vector.actions();
        let mut rng = FastRng::new(SEED);
        let mut chosen = vec![0i64; VECTOR_ENVS];
        b.iter(|| {
            match width {
                None => {
                    for (action, mask) in chosen.iter_mut().zip(arrays.mask.chunks(actions)) {
                        *action = random_allowed(mask, &mut rng);
                    }
                }
                Some(width) => {
                    let rows = arrays.legal.chunks(width).zip(&arrays.legal_count);
                    for (action, (row, &count)) in chosen.iter_mut().zip(rows) {
                        let listed = (count as usize).min(width) as u32;
                        *action = i64::from(row[rng.below(listed) as usize]);
                    }
                }
            }
            vector
                .step(&chosen, arrays.batch())
                .expect("allowed actions");
        })
    });
    group.finish();
}

/// A uniformly random allowed action of `mask` (rejection, then the list of allowed ones).
fn random_allowed(mask: &[i8], rng: &mut FastRng) -> i64 {
    for _ in 0..32 {
        let index = rng.below(mask.len() as u32) as usize;
        if mask[index] == 1 {
            return index as i64;
        }
    }
    let allowed: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
    allowed[rng.below(allowed.len() as u32) as usize] as i64
}

fn step_rates(c: &mut Criterion) {
    bench_env(c, &marathon_linez::LINEZ);
    bench_env(c, &marathon_tiles::TILES);
    bench_env(c, &marathon_reversi::REVERSI);
    bench_env(c, &marathon_polyomino::POLYOMINO);
    bench_env(c, &marathon_solitaire::SOLITAIRE);
    for name in marathon_games::names() {
        bench_driver(c, name);
    }
    for name in marathon_games::names() {
        for threads in [1, 2] {
            bench_vector(c, name, threads, false);
            bench_vector(c, name, threads, true);
        }
    }
}

criterion_group!(benches, step_rates);
criterion_main!(benches);
