//! The hot operations: legal moves, the opponents' move choice, whole GA games, a whole case's
//! generation (the genetic algorithm) and the AI's beam search. The choice, the games and the
//! generation are each measured twice in one run, by the fast path and by the plain rule
//! (`strategy::plain`, the reference it is tested against), so that the ratio is not at the
//! mercy of the load of another moment. Short measurements: the bench runs on a small shared
//! machine.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use marathon_core::rng::FastRng;
use marathon_reversi::ai::search::beam_search;
use marathon_reversi::generator::{self, play_game_with};
use marathon_reversi::rules::State;
use marathon_reversi::strategy::{self, Weights};

fn random_weights(size: usize, rng: &mut FastRng) -> Weights {
    let mut w = Weights::default();
    for r in 0..size {
        for c in 0..size {
            w.set(
                marathon_reversi::rules::Cell::new(r, c),
                rng.next_f64() * 100.0 - 50.0,
            );
        }
    }
    w
}

/// A mid-game 12x12 position of a game between random strategies.
fn mid_game(rng: &mut FastRng) -> (State, Vec<Weights>) {
    let strategies: Vec<Weights> = (0..4).map(|_| random_weights(12, rng)).collect();
    let mut state = State::new(12);
    while state.moves < 60 {
        let player = state.to_move.expect("not over yet");
        let cell = strategy::choose(&state.board, player, &strategies[player as usize - 1])
            .expect("a move");
        state.play_unchecked(cell);
    }
    (state, strategies)
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
}

fn moves(c: &mut Criterion) {
    let mut rng = FastRng::new(1);
    let (state, strategies) = mid_game(&mut rng);
    let player = state.to_move.expect("a mover");
    let mut group = c.benchmark_group("moves_12x12_mid_game");
    group.throughput(Throughput::Elements(1));
    group.bench_function("legal_moves", |b| {
        b.iter(|| black_box(&state.board).legal_moves(player))
    });
    group.bench_function("opponent_choice/fast", |b| {
        b.iter(|| strategy::choose(black_box(&state.board), player, &strategies[0]))
    });
    group.bench_function("opponent_choice/plain", |b| {
        b.iter(|| strategy::plain::choose(black_box(&state.board), player, &strategies[0]))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut rng = FastRng::new(2);
    let mut group = c.benchmark_group("ga_game");
    group.throughput(Throughput::Elements(1));
    for size in [7, 12] {
        let players = marathon_reversi::rules::players_for_size(size);
        let strategies: Vec<Weights> = (0..players)
            .map(|_| random_weights(size, &mut rng))
            .collect();
        let refs: Vec<&Weights> = strategies.iter().collect();
        group.bench_function(format!("{size}x{size}/fast"), |b| {
            b.iter(|| play_game_with(size, black_box(&refs), strategy::choose_and_play))
        });
        group.bench_function(format!("{size}x{size}/plain"), |b| {
            b.iter(|| play_game_with(size, black_box(&refs), strategy::plain::choose_and_play))
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_case");
    group.sample_size(10);
    // Seed 1 is 7x7 (3 players, 51 generations); seed 63 is the largest case: 12x12, 4
    // players and the most generations drawn (100). The generation plays its games on every
    // core (rayon); `fast_1_thread` confines it to one, the figure least moved by other load.
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    for seed in [1u64, 63] {
        group.bench_function(format!("seed_{seed}/fast"), |b| {
            b.iter(|| generator::generate(black_box(seed)))
        });
        group.bench_function(format!("seed_{seed}/fast_1_thread"), |b| {
            b.iter(|| one_thread.install(|| generator::generate(black_box(seed))))
        });
        group.bench_function(format!("seed_{seed}/plain"), |b| {
            b.iter(|| generator::generate_with(black_box(seed), strategy::plain::choose_and_play))
        });
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let case = generator::generate(3);
    let state = case.initial_state();
    let mut group = c.benchmark_group("beam_search_8x8_from_start");
    for width in [8, 64] {
        group.bench_function(format!("width_{width}"), |b| {
            b.iter(|| beam_search(black_box(&state), case.opponents.as_slice(), width, None))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = moves, games, generation, search
}
criterion_main!(benches);
