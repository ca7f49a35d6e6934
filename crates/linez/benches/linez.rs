//! The hot operations of a Monte Carlo player: legal-move generation on mid-game boards and
//! whole random playouts. Short measurements: the bench runs on a small shared machine.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use marathon_core::rng::FastRng;
use marathon_linez::ai::eval::{MoveScorer, Weights, ready_windows};
use marathon_linez::ai::ntuple::Network;
use marathon_linez::rules::{Board, Cell, Color, State, Turn};

fn random_preview(rng: &mut FastRng) -> [Color; 3] {
    [0; 3].map(|_| rng.below(7) as Color + 1)
}

/// Plays a uniformly random legal move; returns false when the game is over.
fn random_turn(state: &mut State, rng: &mut FastRng) -> bool {
    if state.is_over() {
        return false;
    }
    if !state.must_pass() {
        let legal = state.board.legal_moves();
        let mv = legal
            .nth(rng.below(legal.count()))
            .expect("a board with balls and empty cells has a move");
        if let Turn::Cleared { .. } = state.play_unchecked(mv) {
            return true;
        }
    }
    state.spawn(|n| rng.below(n));
    state.preview = random_preview(rng);
    true
}

/// A reproducible position of a random game, the first with at least `balls` balls.
fn mid_game(balls: u32, seed: u64) -> State {
    let mut rng = FastRng::new(seed);
    let mut state = State::new(Board::empty(), random_preview(&mut rng));
    while state.board.ball_count() < balls {
        assert!(random_turn(&mut state, &mut rng), "the game ended early");
    }
    state
}

fn playout(mut state: State, rng: &mut FastRng) -> u64 {
    while random_turn(&mut state, rng) {}
    state.score
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(1));
    for balls in [20, 40, 60] {
        let board = mid_game(balls, 2024).board;
        group.bench_with_input(BenchmarkId::new("for_each", balls), &board, |b, board| {
            b.iter(|| {
                let mut count = 0u32;
                black_box(board).for_each_legal_move(|mv| {
                    count += black_box(mv).to.index() as u32 & 1;
                });
                count
            })
        });
        group.bench_with_input(
            BenchmarkId::new("count_and_nth", balls),
            &board,
            |b, board| {
                b.iter(|| {
                    let legal = black_box(board).legal_moves();
                    legal.nth(legal.count() / 2)
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("reachable_from", balls),
            &board,
            |b, board| {
                let ball = board.occupied().first().unwrap_or(Cell::new(0, 0));
                b.iter(|| black_box(board).reachable_from(black_box(ball)))
            },
        );
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(1));
    for (name, balls) in [("from_3_balls", 3), ("from_40_balls", 40)] {
        let start = mid_game(balls, 7);
        let mut rng = FastRng::new(1);
        group.bench_function(name, |b| b.iter(|| playout(black_box(start), &mut rng)));
    }
    group.finish();
}

/// The AI's inner loop: the best move by static worth, with the incremental scorer against
/// evaluating the board after every legal move from scratch (same weights, same answer up to
/// the scorer's exact re-scoring of its best few), and the best move by the learned network.
fn greedy_decision(c: &mut Criterion) {
    let weights = Weights::default();
    let mut group = c.benchmark_group("greedy_decision");
    group.throughput(Throughput::Elements(1));
    for balls in [20, 40, 60] {
        let board = mid_game(balls, 2024).board;
        group.bench_with_input(BenchmarkId::new("scorer", balls), &board, |b, board| {
            b.iter(|| MoveScorer::new(&weights, black_box(board)).best_move())
        });
        group.bench_with_input(BenchmarkId::new("ready", balls), &board, |b, board| {
            b.iter(|| {
                let moves = black_box(board).legal_moves();
                ready_windows(board, moves.regions())
            })
        });
        group.bench_with_input(BenchmarkId::new("network", balls), &board, |b, board| {
            b.iter(|| Network::builtin().best_move(black_box(board)))
        });
        group.bench_with_input(BenchmarkId::new("naive", balls), &board, |b, board| {
            b.iter(|| {
                let mut best = f32::NEG_INFINITY;
                black_box(board).for_each_legal_move(|mv| {
                    best = best.max(weights.move_value(board, mv).0);
                });
                best
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = legal_moves, playouts, greedy_decision
}
criterion_main!(benches);
