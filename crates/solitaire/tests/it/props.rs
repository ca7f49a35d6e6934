//! Invariants of the rules over random sequences and random games: the incremental scorer
//! agrees with the whole-sequence scan, the move masks agree with the statement's formulas, and
//! a game's score is the score of its removed types.

use marathon_core::rng::FastRng;
use marathon_solitaire::generator::{Alphabet, Deal};
use marathon_solitaire::rules::{
    Cell, MAX_REMOVALS, Piece, Scorer, State, cells_of, reaches, score_sequence, targets,
};
use proptest::prelude::*;

fn pieces(max: usize) -> impl Strategy<Value = Vec<Piece>> {
    // Small alphabets make runs and sets common.
    (1u8..=8, proptest::collection::vec(0u8..8, 0..max)).prop_map(|(span, raw)| {
        raw.into_iter()
            .map(|i| Piece::from_index(i % span))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_incremental_scorer_is_the_scan(sequence in pieces(120)) {
        let mut scorer = Scorer::new();
        for (i, &piece) in sequence.iter().enumerate() {
            let before = scorer.total();
            prop_assert_eq!(scorer.gain(piece), {
                let mut copy = scorer;
                copy.push(piece)
            });
            scorer.push(piece);
            prop_assert_eq!(scorer.breakdown, score_sequence(&sequence[..=i]));
            prop_assert!(scorer.total() > before);
        }
    }

    #[test]
    fn random_games_keep_the_rules(group in 1u32..=6, seed in any::<u64>(), walk in any::<u64>()) {
        let deal = Deal::new(&Alphabet::of_group(group).unwrap(), seed);
        let mut state = State::new(deal.tops());
        let mut rng = FastRng::new(walk);
        let mut removed = Vec::new();
        while !state.is_over() {
            let legal = state.legal();
            // The mask is the statement's formula over occupied cells.
            for to in Cell::all() {
                let allowed = state.top(to).is_some() && match state.last() {
                    None => true,
                    Some((from, piece)) => reaches(piece, (from.row(), from.col()), (to.row(), to.col())),
                };
                prop_assert_eq!(legal & to.bit() != 0, allowed, "cell {}", to);
                prop_assert_eq!(state.check(to).is_ok(), allowed);
            }
            let cell = cells_of(legal).nth(rng.below(legal.count_ones()) as usize).unwrap();
            let piece = state.top(cell).unwrap();
            prop_assert_eq!(Some(piece), deal.piece(cell, state.removed(cell)));
            removed.push(piece);
            state.play(cell, deal.piece(cell, state.removed(cell) + 1)).unwrap();
            for p in Piece::ALL {
                let by_scan: u64 = Cell::all()
                    .filter(|&c| state.top(c) == Some(p))
                    .map(Cell::bit)
                    .sum();
                prop_assert_eq!(state.cells_of_type(p), by_scan);
            }
        }
        prop_assert_eq!(state.scorer.breakdown, score_sequence(&removed));
        prop_assert!(state.moves() <= MAX_REMOVALS);
        let used: u32 = Cell::all().map(|c| state.removed(c) as u32).sum();
        prop_assert_eq!(used, state.moves());
    }
}

#[test]
fn targets_are_symmetric_for_numbers_and_springare() {
    for piece in [
        Piece::One,
        Piece::Two,
        Piece::Three,
        Piece::Four,
        Piece::Springare,
    ] {
        for a in Cell::all() {
            for b in cells_of(targets(piece, a)) {
                assert!(targets(piece, b) & a.bit() != 0, "{piece}: {a} -> {b}");
            }
        }
    }
}

/// The position after `turns` random removals of the case (group, seed), if the game is not
/// over by then.
fn position(group: u32, seed: u64, turns: u32) -> Option<State> {
    let deal = Deal::new(&Alphabet::of_group(group).unwrap(), seed);
    let mut state = State::new(deal.tops());
    let mut rng = FastRng::new(seed ^ 0x5eed);
    for _ in 0..turns {
        let legal = state.legal();
        if legal == 0 {
            return None;
        }
        let cell = cells_of(legal)
            .nth(rng.below(legal.count_ones()) as usize)
            .unwrap();
        state.play_unchecked(cell, deal.piece(cell, state.removed(cell) + 1));
    }
    (!state.is_over()).then_some(state)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn built_in_players_only_choose_legal_cells(
        group in 1u32..=6,
        seed in any::<u64>(),
        turns in 0u32..60,
    ) {
        use marathon_solitaire::ai::{Clock, PLAYERS, new_player};
        use marathon_solitaire::protocol::Reply;
        use std::time::Duration;
        let state = position(group, seed, turns);
        prop_assume!(state.is_some(), "the game ended before the position");
        let state = state.expect("assumed above");
        for &name in PLAYERS {
            let mut player = new_player(name, Some(1), seed, &Default::default()).expect("a built-in player");
            let clock = Clock::start(Duration::from_secs(10), Duration::ZERO);
            let Reply::Remove(cell) = player.choose(&state, &clock) else {
                panic!("{name} stopped with a move left (all players play on)");
            };
            prop_assert!(state.check(cell).is_ok(), "{} chose {} illegally", name, cell);
        }
    }
}
