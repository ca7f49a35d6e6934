//! The hot operations of the AI: the heuristic's pick of a move and whole playouts with sampled
//! reveals. Short measurements: the bench runs on a small shared machine.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use marathon_core::rng::FastRng;
use marathon_solitaire::ai::policy::{Weights, pick, playout};
use marathon_solitaire::generator::{Alphabet, Deal};
use marathon_solitaire::rules::State;

fn start(group: u32, seed: u64) -> (State, Alphabet) {
    let alphabet = Alphabet::of_group(group).expect("a group");
    (State::new(Deal::new(&alphabet, seed).tops()), alphabet)
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

fn picks(c: &mut Criterion) {
    let (state, _) = start(6, 12);
    let weights = Weights::default();
    let mut rng = FastRng::new(1);
    let mut group = c.benchmark_group("pick");
    group.throughput(Throughput::Elements(1));
    group.bench_function("first move, 36 cells", |b| {
        b.iter(|| pick(black_box(&state), &weights, &mut rng))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for g in [3, 5, 6] {
        let (state, alphabet) = start(g, 12);
        let weights = Weights::default();
        let mut rng = FastRng::new(2);
        group.bench_function(format!("group {g}"), |b| {
            b.iter(|| {
                let mut copy = state.clone();
                playout(&mut copy, alphabet.pieces(), &weights, &mut rng, None)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = picks, playouts
}
criterion_main!(benches);
