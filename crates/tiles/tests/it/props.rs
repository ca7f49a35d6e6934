//! Invariants of the rules under random play, and every built-in player answering reachable
//! positions legally.

use std::time::Duration;

use marathon_core::rng::FastRng;
use marathon_tiles::ai::{Clock, Observation, PLAYERS, new_player};
use marathon_tiles::generator::TilesCase;
use marathon_tiles::rules::{EMPTY, Move, Pos, State, Tile};
use proptest::prelude::*;

/// Plays `turns` random legal moves (W/regular placements preferred, so boards fill up).
fn random_game(seed: u64, turns: u32, mut check: impl FnMut(&State, Tile)) -> State {
    let mut case = TilesCase::new(seed);
    let mut state = State::new(case.params);
    let mut rng = FastRng::new(seed ^ 0x7113);
    let mut discards = 0;
    for _ in 0..turns {
        if state.is_over() {
            break;
        }
        let tile = case.next_tile(state.board.is_empty());
        check(&state, tile);
        let moves = state.legal_moves(tile);
        let places: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| *m != Move::Discard)
            .collect();
        let mv = if !places.is_empty() && (rng.below(8) > 0 || !state.can_discard()) {
            places[rng.below(places.len() as u32) as usize]
        } else if state.can_discard() {
            discards += 1;
            Move::Discard
        } else {
            Move::GiveUp
        };
        state.play(tile, mv).expect("legal moves are legal");
        assert!(state.counter <= state.params.d);
        assert_eq!(state.moves, state.used + discards);
    }
    state
}

fn check_invariants(state: &State) {
    let board = &state.board;
    let size = board.size();
    let mut total = 0;
    for r in 0..size {
        let row = (0..size)
            .filter(|&c| board.get(Pos::new(r, c)) != EMPTY)
            .count();
        let col = (0..size)
            .filter(|&c| board.get(Pos::new(c, r)) != EMPTY)
            .count();
        assert_eq!(board.row_fill(r as usize) as usize, row);
        assert_eq!(board.col_fill(r as usize) as usize, col);
        assert!(
            row < size as usize && col < size as usize,
            "a full line stayed"
        );
        total += row;
    }
    assert_eq!(board.tile_count() as usize, total);
    let s = state.params.s as u32;
    assert_eq!(
        state.score(),
        state.used + s * state.single_clears + 3 * s * state.double_clears
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_play_keeps_the_counts_and_the_score_right(seed in any::<u64>(), turns in 0u32..600) {
        let state = random_game(seed, turns, |state, tile| {
            // The fast legality test agrees with the checked one on every cell.
            let legal = state.legal_moves(tile);
            for index in state.board.indices() {
                let mv = Move::Place(Pos::from_index(index));
                assert_eq!(state.check(tile, mv).is_ok(), legal.contains(&mv), "{mv:?} {tile:?}");
            }
        });
        check_invariants(&state);
    }

    #[test]
    fn built_in_players_only_choose_legal_moves(seed in any::<u64>(), turns in 0u32..400) {
        let mut next = None;
        let state = random_game(seed, turns, |state, tile| next = Some((state.clone(), tile)));
        prop_assume!(!state.is_over() && next.is_some());
        let (state, tile) = next.expect("assumed");
        for &name in PLAYERS {
            let mut player = new_player(name, &state, Some(1), seed, &Default::default()).expect("a player");
            let clock = Clock::start(Duration::from_secs(20), Duration::ZERO);
            let seen = Observation { state: state.clone(), tile };
            let mv = player.choose(&seen, &clock);
            prop_assert!(state.check(tile, mv).is_ok(), "{name}: {mv:?} for {tile:?} on\n{:?}", state.board);
            if mv == Move::GiveUp {
                let moves = state.legal_moves(tile);
                prop_assert!(moves.is_empty(), "{name} gave up with {} moves", moves.len());
            }
        }
    }
}
