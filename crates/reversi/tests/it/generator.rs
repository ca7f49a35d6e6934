//! The generator: sizes, points, the draws, and golden values of whole cases (our own
//! recording: the original tester is lost, docs/rules.md#reversi-generation defines the algorithm),
//! so that any change to the generation is seen at once.

use marathon_core::rng::JavaSecureRandom;
use marathon_reversi::generator::{
    self, POPULATION, draw_parent, draw_seats, game_points, play_game, random_population,
};
use marathon_reversi::rules::{Cell, players_for_size};
use marathon_reversi::strategy::{self, Weights};

#[test]
fn example_seeds_have_the_statements_sizes_and_others_draw_one() {
    let sizes: Vec<usize> = (1..=12).map(generator::size_of).collect();
    assert_eq!(sizes, vec![7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12]);
    for seed in 13..200 {
        let size = generator::size_of(seed);
        assert!((7..=12).contains(&size));
        let mut rng = JavaSecureRandom::new(seed as i64);
        assert_eq!(size, 7 + rng.next_int(6) as usize);
    }
}

#[test]
fn points_by_rank_with_shared_ties() {
    assert_eq!(game_points(&[20, 9, 20]), vec![2.5, 0.0, 2.5]);
    assert_eq!(game_points(&[3, 30, 9]), vec![0.0, 4.0, 1.0]);
    assert_eq!(game_points(&[7, 7, 7]), vec![5.0 / 3.0; 3]);
    assert_eq!(game_points(&[5, 9, 9, 1]), vec![1.0, 6.5, 6.5, 0.0]);
    assert_eq!(game_points(&[10, 10, 10, 10]), vec![3.5; 4]);
    assert_eq!(game_points(&[1, 2, 3, 4]), vec![0.0, 1.0, 4.0, 9.0]);
}

#[test]
fn seats_are_distinct_strategies() {
    let mut rng = JavaSecureRandom::new(3);
    for _ in 0..500 {
        let seats = draw_seats(4, &mut rng);
        assert_eq!(seats.len(), 4);
        for (i, a) in seats.iter().enumerate() {
            assert!(*a < POPULATION);
            assert!(!seats[..i].contains(a));
        }
    }
}

#[test]
fn parents_are_drawn_in_proportion_to_points() {
    let mut rng = JavaSecureRandom::new(9);
    let points = [0.0, 1.0, 0.0, 3.0];
    let mut counts = [0; 4];
    for _ in 0..4000 {
        counts[draw_parent(&points, &mut rng)] += 1;
    }
    assert_eq!((counts[0], counts[2]), (0, 0));
    assert!((800..1200).contains(&counts[1]), "{counts:?}");
    // Without points, uniform.
    let mut seen = [false; 4];
    for _ in 0..200 {
        seen[draw_parent(&[0.0; 4], &mut rng)] = true;
    }
    assert_eq!(seen, [true; 4]);
}

#[test]
fn first_weights_are_in_range_and_games_fill_counts() {
    let mut rng = JavaSecureRandom::new(5);
    let population = random_population(7, &mut rng);
    assert_eq!(population.len(), POPULATION);
    for w in &population {
        for r in 0..7 {
            for c in 0..7 {
                assert!((-50.0..50.0).contains(&w.get(Cell::new(r, c))));
            }
        }
    }
    let strategies: Vec<&Weights> = population[..3].iter().collect();
    let counts = play_game(7, &strategies);
    assert_eq!(counts.len(), 3);
    assert!(counts.iter().sum::<u32>() <= 49);
}

/// `seed size players opponent row col weight` lines: weights of the generated opponents.
#[test]
fn cases_match_the_recorded_golden_values() {
    let text = include_str!("../data/generator_golden.txt");
    let mut checked = 0;
    let mut cache: Option<generator::ReversiCase> = None;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let seed: u64 = f[0].parse().unwrap();
        if cache.as_ref().is_none_or(|c| c.seed != seed) {
            cache = Some(generator::generate(seed));
        }
        let case = cache.as_ref().unwrap();
        assert_eq!(case.size, f[1].parse::<usize>().unwrap(), "seed {seed}");
        assert_eq!(case.players, f[2].parse::<usize>().unwrap());
        assert_eq!(case.players, players_for_size(case.size));
        assert_eq!(case.opponents.len(), case.players - 1);
        let opponent: usize = f[3].parse().unwrap();
        let cell = Cell::new(f[4].parse().unwrap(), f[5].parse().unwrap());
        let want: f64 = f[6].parse().unwrap();
        assert_eq!(
            case.opponents[opponent].get(cell),
            want,
            "seed {seed} opponent {opponent} {cell:?}"
        );
        checked += 1;
    }
    assert!(checked >= 6);
}

#[test]
fn the_fast_generation_deals_the_cases_of_the_plain_rule() {
    for seed in [1, 3] {
        let fast = generator::generate(seed);
        let plain = generator::generate_with(seed, strategy::plain::choose_and_play);
        assert_eq!(fast.opponents, plain.opponents, "seed {seed}");
    }
}

#[test]
fn generation_is_deterministic() {
    let a = generator::generate(2);
    let b = generator::generate(2);
    assert_eq!(a.opponents, b.opponents);
}

/// FNV-1a over the bit patterns of every opponent's weights (opponents in order, cells
/// row-major): a fingerprint of a whole case.
fn fingerprint(case: &generator::ReversiCase) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for weights in &case.opponents {
        for row in 0..case.size {
            for col in 0..case.size {
                for byte in weights.get(Cell::new(row, col)).to_bits().to_le_bytes() {
                    hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
    }
    hash
}

/// Every weight of whole cases, recorded before the generation was made faster: seed 63 is
/// the largest case (12x12, 4 players, 100 generations), seed 24 a 12x12 case of 64
/// generations, seed 13 a 7x7 one.
#[test]
fn whole_cases_keep_their_recorded_fingerprints() {
    for (seed, want) in [
        (13, 10_411_294_302_954_669_174),
        (24, 14_303_163_227_477_534_485),
        (63, 16_594_431_631_666_063_578),
    ] {
        let case = generator::generate(seed);
        assert_eq!(fingerprint(&case), want, "seed {seed}");
    }
}
