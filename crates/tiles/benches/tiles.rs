//! The hot operations of the TilesMatching AI: legality tests and placements on mid-game
//! boards, the full evaluation, the incremental one, and one whole `ai` decision. Short
//! measurements: the bench runs on a small shared machine.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use marathon_tiles::ai::eval::{Evaluator, Weights};
use marathon_tiles::ai::search::{SearchPlayer, tuned_weights};
use marathon_tiles::ai::{Clock, Observation, Player};
use marathon_tiles::generator::TilesCase;
use marathon_tiles::rules::{REGULAR_BASE, State};

/// The position of seed `seed` after `turns` moves of the one-ply `ai`, with the next tile.
fn mid_game(seed: u64, turns: u32) -> Observation {
    let mut case = TilesCase::new(seed);
    let mut player = SearchPlayer::new(case.params, tuned_weights(case.params), Some(1));
    let clock = Clock::start(Duration::from_secs(20), Duration::ZERO);
    let mut seen = Observation {
        state: State::new(case.params),
        tile: case.next_tile(true),
    };
    for _ in 0..turns {
        let mv = player.choose(&seen, &clock);
        seen.state.play(seen.tile, mv).expect("legal");
        assert!(!seen.state.is_over(), "the game ended early");
        seen.tile = case.next_tile(seen.state.board.is_empty());
    }
    seen
}

fn benches(c: &mut Criterion) {
    // Seed 1: N = 6, S = 11.
    let seen = mid_game(1, 200);
    let params = seen.state.params;
    let eval = Evaluator::new(params, Weights::default());
    let board = seen.state.board.clone();

    c.bench_function("legal cells for every kind", |b| {
        b.iter(|| {
            let mut count = 0;
            for kind in 0..params.kinds() as u8 {
                for index in board.indices() {
                    count += usize::from(board.can_place(index, REGULAR_BASE + kind));
                }
            }
            black_box(count)
        })
    });
    c.bench_function("full evaluation", |b| {
        b.iter(|| black_box(eval.value(black_box(&board), 1)))
    });
    let analysis = eval.analyse(&board);
    let cell = analysis
        .frontier(&board)
        .find(|&(_, mask)| mask != 0)
        .expect("a frontier cell");
    let code = REGULAR_BASE + cell.1.trailing_zeros() as u8;
    c.bench_function("incremental evaluation of one placement", |b| {
        b.iter(|| black_box(eval.placed_value(&analysis, &board, black_box(cell.0), code, 1)))
    });
    c.bench_function("incremental evaluation of every kind on one cell", |b| {
        b.iter(|| {
            let placements = eval.placements(&analysis, &board, black_box(cell.0));
            let mut best = f32::NEG_INFINITY;
            for kind in 0..params.kinds() as u8 {
                if cell.1 >> kind & 1 == 1 {
                    best = best.max(placements.value(REGULAR_BASE + kind, 1));
                }
            }
            black_box(best)
        })
    });
    // Effort 4 looks one tile deep at the best 4 replies, then two tiles deep at 2 of them;
    // without the second stage it is the one-tile lookahead alone.
    let one_tile = Weights {
        deep_replies: 0,
        ..tuned_weights(params)
    };
    for (name, effort, weights) in [
        ("ai decision, effort 1", 1u64, tuned_weights(params)),
        ("ai decision, effort 4", 4, tuned_weights(params)),
        ("ai decision, effort 4, one tile deep", 4, one_tile),
    ] {
        c.bench_function(name, |b| {
            let mut player = SearchPlayer::new(params, weights, Some(effort));
            let clock = Clock::start(Duration::from_secs(20), Duration::ZERO);
            b.iter(|| black_box(player.choose(&seen, &clock)))
        });
    }
    // Seed 14: N = 10, S = 12, where a kind has few homes and the lookahead most kinds.
    let seen = mid_game(14, 300);
    c.bench_function("ai decision, effort 4, N=10", |b| {
        let params = seen.state.params;
        let mut player = SearchPlayer::new(params, tuned_weights(params), Some(4));
        let clock = Clock::start(Duration::from_secs(20), Duration::ZERO);
        b.iter(|| black_box(player.choose(&seen, &clock)))
    });
}

criterion_group! {
    name = tiles;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = benches
}
criterion_main!(tiles);
