//! The generator against its vectors, the contest's ranges, and the growth rule: by hand on a
//! scripted draw, the statement's 2:1 ratio of L to I trominoes, and the shape of every piece.

use std::collections::HashSet;

use marathon_core::rng::{FastRng, JavaSecureRandom};
use marathon_polyomino::generator::{
    Draw, Grower, MAX_SIDE, MIN_SIDE, PolyominoCase, covered_range, grow_piece,
};
use marathon_polyomino::rules::{Piece, PieceSource};
use proptest::prelude::*;

#[test]
fn cases_and_pieces_match_the_vectors() {
    let text = include_str!("../data/generator_vectors.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| fields[i].parse::<usize>().unwrap();
        let seed: u64 = fields[0].parse().unwrap();
        let case = PolyominoCase::new(seed);
        assert_eq!(
            (case.width, case.height, case.covered.len()),
            (number(1), number(2), number(3)),
            "seed {seed}"
        );
        for k in 0..3 {
            assert_eq!(
                case.covered[k],
                (number(4 + 2 * k), number(5 + 2 * k)),
                "seed {seed}"
            );
        }
        let mut pieces = case.pieces();
        for (k, size) in [3, 5, 8].into_iter().enumerate() {
            assert_eq!(
                pieces.next_piece(size).rows().join("/"),
                fields[10 + k],
                "seed {seed}, piece of size {size}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 15);
}

#[test]
fn cases_stay_within_the_contest_ranges() {
    for seed in 1..=200u64 {
        let case = PolyominoCase::new(seed);
        assert!((MIN_SIDE..=MAX_SIDE).contains(&case.width));
        assert!((MIN_SIDE..=MAX_SIDE).contains(&case.height));
        let (lo, hi) = covered_range(case.width, case.height);
        assert!((lo..=hi).contains(&case.covered.len()), "seed {seed}");
        let distinct: HashSet<_> = case.covered.iter().collect();
        assert_eq!(
            distinct.len(),
            case.covered.len(),
            "seed {seed}: repeated cells"
        );
        assert!(
            case.covered
                .iter()
                .all(|&(x, y)| x < case.width && y < case.height)
        );
        assert_eq!(case.board().covered_count(), case.covered.len());
    }
}

#[test]
fn covered_range_is_exact_in_integers() {
    // 0.1 * 20 * 20 = 40 exactly; a float product would round 40.000000000000006 up to 41.
    assert_eq!(covered_range(20, 20), (40, 280));
    assert_eq!(covered_range(21, 20), (42, 294));
    assert_eq!(covered_range(23, 29), (67, 466)); // 66.7 and 466.9
}

/// Replays fixed draws.
struct Script(Vec<u32>);

impl Draw for Script {
    fn below(&mut self, n: u32) -> u32 {
        let value = self.0.remove(0);
        assert!(value < n, "scripted draw {value} not below {n}");
        value
    }
}

#[test]
fn growth_follows_the_frontier_rule_by_hand() {
    // Start (0,0); frontier: right (1,0), down (0,1), left (-1,0), up (0,-1).
    // Draw 0 takes (1,0); up (0,-1) moves into its slot, then (2,0), (1,1), (1,-1) join:
    // [(0,-1), (0,1), (-1,0), (2,0), (1,1), (1,-1)].
    let l = grow_piece(3, &mut Script(vec![0, 0])); // + (0,-1)
    assert_eq!(l.rows(), ["X.", "XX"]);
    let i = grow_piece(3, &mut Script(vec![0, 3])); // + (2,0)
    assert_eq!(i.rows(), ["XXX"]);
    let l2 = grow_piece(3, &mut Script(vec![0, 5])); // + (1,-1)
    assert_eq!(l2.rows(), [".X", "XX"]);
    let vertical = grow_piece(3, &mut Script(vec![1, 3])); // (0,1), then the frontier's (0,2)
    // After taking (0,1) (slot 1 gets (0,-1)): [(1,0), (0,-1), (-1,0), (1,1), (0,2), (-1,1)].
    assert_eq!(vertical.rows(), ["X.", "XX"]);
    let vertical = grow_piece(3, &mut Script(vec![1, 4]));
    assert_eq!(vertical.rows(), ["X", "X", "X"]);
}

fn is_straight(piece: &Piece) -> bool {
    piece.width() == 1 || piece.height() == 1
}

#[test]
fn trominoes_are_l_twice_as_often_as_i() {
    // The statement: {"XX","X "} is twice as likely as {"XXX"}.
    let mut rng = FastRng::new(99);
    let mut grower = Grower::new();
    let n = 60_000;
    let straight = (0..n)
        .filter(|_| is_straight(&grower.grow(3, &mut rng)))
        .count();
    let share = straight as f64 / n as f64;
    // 1/3 with a standard deviation of 0.0019.
    assert!((share - 1.0 / 3.0).abs() < 0.01, "I share {share}");

    // The judge's own stream gives the same law.
    let mut java = JavaSecureRandom::new(5);
    let n = 6_000;
    let straight = (0..n)
        .filter(|_| is_straight(&grower.grow(3, &mut java)))
        .count();
    let share = straight as f64 / n as f64;
    assert!(
        (share - 1.0 / 3.0).abs() < 0.03,
        "I share {share} on SHA1PRNG"
    );
}

#[test]
fn a_maximal_piece_is_grown() {
    let case = PolyominoCase::new(3);
    let mut pieces = case.pieces();
    // How fast is a matter for a bench, not a test: this would hang if growing got stuck.
    for _ in 0..20 {
        assert_eq!(pieces.next_piece(1000).size(), 1000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_piece_is_connected_tight_and_of_its_size(seed in any::<u64>(), size in 3usize..300) {
        let mut rng = FastRng::new(seed);
        let piece = grow_piece(size, &mut rng);
        prop_assert_eq!(piece.size(), size);
        // Re-reading its rows checks 4-connection and the minimal box.
        let again = Piece::from_rows(&piece.rows());
        prop_assert_eq!(again.as_ref(), Ok(&piece));
        let xs: HashSet<usize> = piece.cells().iter().map(|c| c.0).collect();
        let ys: HashSet<usize> = piece.cells().iter().map(|c| c.1).collect();
        prop_assert_eq!(xs.len(), piece.width());
        prop_assert_eq!(ys.len(), piece.height());
    }
}
