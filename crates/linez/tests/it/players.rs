//! Every built-in player answers every reachable position with a legal move: positions come from
//! random play (which fills the board within a few dozen turns, so crowded, fragmented boards
//! are common), for any seed and depth.

use std::time::Duration;

use marathon_core::rng::FastRng;
use marathon_linez::ai::{Clock, Observation, PLAYERS, new_player};
use marathon_linez::generator::LinezCase;
use marathon_linez::rules::{State, Turn};
use proptest::prelude::*;

/// The position after `turns` random moves of the case `seed`, or `None` if the game ended or
/// the player must pass there.
fn position(seed: u64, turns: u32) -> Option<State> {
    let mut case = LinezCase::new(seed);
    let mut state = case.initial_state();
    let mut rng = FastRng::new(seed ^ 0x5eed);
    for _ in 0..turns {
        if state.is_over() {
            return None;
        }
        if state.must_pass() {
            case.spawn(&mut state);
            continue;
        }
        let legal = state.board.legal_moves();
        let mv = legal.nth(rng.below(legal.count())).expect("a legal move");
        if state.play_unchecked(mv) == Turn::SpawnDue {
            case.spawn(&mut state);
        }
    }
    (!state.is_over() && !state.must_pass()).then_some(state)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn built_in_players_only_choose_legal_moves(
        seed in any::<u64>(),
        turns in 0u32..30,
        effort in 1u64..3,
    ) {
        let state = position(seed, turns);
        prop_assume!(state.is_some(), "the game ended before the position");
        let state = state.expect("assumed above");
        for &name in PLAYERS {
            let mut player = new_player(name, Some(effort), seed, &Default::default())
                .expect("a built-in player");
            let clock = Clock::start(Duration::from_secs(20), Duration::ZERO);
            let seen = Observation {
                board: state.board,
                preview: state.preview,
            };
            let mv = player.choose(&seen, &clock);
            prop_assert!(
                state.board.check_move(mv).is_ok(),
                "{name} chose {mv} on\n{:?}",
                state.board
            );
        }
    }
}
