//! The hot operations of the players on a 200x200 board: "can this piece be placed anywhere"
//! (the fit search behind every size estimate), and the full contact scan that picks a
//! position. Boards are random with 10%, 40% and 70% of the cells covered, as the contest deals
//! them; pieces are grown by the contest's rule. Short measurements: the machine is shared.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use marathon_core::rng::FastRng;
use marathon_polyomino::ai::bits::{BitBoard, Oriented};
use marathon_polyomino::generator::Grower;
use marathon_polyomino::rules::Board;

const SIDE: usize = 200;

fn random_board(covered_percent: u32, seed: u64) -> BitBoard {
    let mut rng = FastRng::new(seed);
    let mut board = Board::new(SIDE, SIDE);
    for y in 0..SIDE {
        for x in 0..SIDE {
            if rng.below(100) < covered_percent {
                board.cover(x, y);
            }
        }
    }
    BitBoard::new(&board).expect("200 columns fit the bitboard")
}

fn pieces(size: usize, count: usize, seed: u64) -> Vec<Oriented> {
    let mut rng = FastRng::new(seed);
    let mut grower = Grower::new();
    (0..count)
        .map(|_| Oriented::new(&grower.grow(size, &mut rng)))
        .collect()
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

fn fits_anywhere(c: &mut Criterion) {
    let mut group = c.benchmark_group("fits_anywhere_200x200");
    for covered in [10, 40, 70] {
        let board = random_board(covered, 1);
        for size in [5, 20, 80] {
            let set = pieces(size, 32, size as u64);
            group.throughput(Throughput::Elements(set.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(format!("covered{covered}"), size),
                &set,
                |b, set| {
                    b.iter(|| {
                        set.iter()
                            .filter(|piece| board.find_fit(black_box(piece), 0).is_some())
                            .count()
                    })
                },
            );
        }
    }
    group.finish();
}

/// Growing pieces by the contest's rule, up to the largest size a program may ask for (the
/// generator's test checks only that a 1000-cell piece comes out; its speed is measured here).
fn grow(c: &mut Criterion) {
    let mut group = c.benchmark_group("grow");
    for size in [10, 100, 1000] {
        group.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
            let mut rng = FastRng::new(7);
            let mut grower = Grower::new();
            b.iter(|| grower.grow(black_box(size), &mut rng).size())
        });
    }
    group.finish();
}

fn contact_scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact_scan_200x200");
    for covered in [10, 40] {
        let board = random_board(covered, 2);
        for size in [5, 20] {
            let set = pieces(size, 8, 100 + size as u64);
            group.throughput(Throughput::Elements(set.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(format!("covered{covered}"), size),
                &set,
                |b, set| {
                    b.iter(|| {
                        set.iter()
                            .map(|piece| {
                                board.best_contacts(black_box(piece), 0, usize::MAX, |_, _| {})
                            })
                            .sum::<u32>()
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = fits_anywhere, grow, contact_scan
}
criterion_main!(benches);
