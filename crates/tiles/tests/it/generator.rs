//! Case generation from a seed (docs/rules.md#tiles-generation), on the SHA1PRNG port of
//! `marathon_core::rng`.

use marathon_core::rng::JavaSecureRandom;
use marathon_core::{CaseId, Game};
use marathon_tiles::TILES;
use marathon_tiles::generator::TilesCase;
use marathon_tiles::rules::{Params, Tile};

/// The statement's examples: seeds 1..10 and their (N, S, D).
const STATEMENT: [(u64, u8, u8, u8); 10] = [
    (1, 6, 11, 3),
    (2, 10, 8, 2),
    (3, 9, 9, 4),
    (4, 4, 10, 3),
    (5, 7, 10, 2),
    (6, 7, 9, 4),
    (7, 8, 10, 2),
    (8, 8, 12, 4),
    (9, 7, 8, 2),
    (10, 8, 8, 2),
];

#[test]
fn seeds_1_to_10_give_the_statements_parameters() {
    for (seed, n, s, d) in STATEMENT {
        let case = TilesCase::new(seed);
        assert_eq!(case.params, Params { n, s, d }, "seed {seed}");
        // What a program reads before its first reply: the parameters and the first tile, a
        // `W` since the board is empty.
        assert_eq!(
            TILES.generate(&CaseId::seed(seed)).expect("a case"),
            format!("{n} {s} {d}\nW\n"),
            "seed {seed}"
        );
    }
}

/// The tile stream spelled out on the raw generator, for a given pattern of board emptiness.
fn expected_tiles(seed: u64, empty: &[bool]) -> Vec<Tile> {
    let mut rng = JavaSecureRandom::new(seed as i64);
    let n = rng.next_int(7) + 4;
    rng.next_int(5);
    rng.next_int(3);
    empty
        .iter()
        .map(|&board_empty| {
            let t = rng.next_int(32 - n);
            if board_empty || t == 0 {
                Tile::Wild
            } else if t == 1 {
                Tile::Remove
            } else {
                let color = rng.next_int(n) as u8;
                let shape = rng.next_int(n) as u8;
                Tile::Regular { color, shape }
            }
        })
        .collect()
}

#[test]
fn tile_stream_continues_the_parameter_stream() {
    for seed in [1u64, 2, 3, 77, u64::MAX] {
        // An empty board on turn 1, and now and then later (after a clear).
        let empty: Vec<bool> = (0..500).map(|i| i == 0 || i % 97 == 5).collect();
        let mut case = TilesCase::new(seed);
        let got: Vec<Tile> = empty.iter().map(|&e| case.next_tile(e)).collect();
        assert_eq!(got, expected_tiles(seed, &empty), "seed {seed}");
        assert!(empty.iter().zip(&got).all(|(&e, &t)| !e || t == Tile::Wild));
    }
}

#[test]
fn an_empty_board_gets_w_without_drawing_colour_and_shape() {
    // With the board empty every turn, each turn draws only the type.
    let mut case = TilesCase::new(5);
    let mut rng = JavaSecureRandom::new(5);
    for _ in 0..3 {
        rng.next_int(7);
    }
    for _ in 0..50 {
        assert_eq!(case.next_tile(true), Tile::Wild);
        rng.next_int(32 - 7);
    }
    // Both streams are in step: the next non-empty draw agrees.
    let t = rng.next_int(25);
    let expected = match t {
        0 => Tile::Wild,
        1 => Tile::Remove,
        _ => Tile::Regular {
            color: rng.next_int(7) as u8,
            shape: rng.next_int(7) as u8,
        },
    };
    assert_eq!(case.next_tile(false), expected);
}

#[test]
fn tile_frequencies_follow_the_statement() {
    // P(W) = P(R) = 1/(32-N); regular colours and shapes uniform.
    let mut case = TilesCase::new(4);
    let n = case.params.n as usize;
    let draws = 200_000;
    let (mut wild, mut remove) = (0, 0);
    let mut colors = vec![0; n];
    for _ in 0..draws {
        match case.next_tile(false) {
            Tile::Wild => wild += 1,
            Tile::Remove => remove += 1,
            Tile::Regular { color, .. } => colors[color as usize] += 1,
        }
    }
    let expected = draws as f64 / (32 - n) as f64;
    for count in [wild, remove] {
        assert!(
            (count as f64 - expected).abs() < 0.05 * expected,
            "{count} vs {expected}"
        );
    }
    let regular = (draws - wild - remove) as f64 / n as f64;
    for count in colors {
        assert!(
            (count as f64 - regular).abs() < 0.03 * regular,
            "{count} vs {regular}"
        );
    }
}
