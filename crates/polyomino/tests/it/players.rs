//! The built-in players against the rules: played directly on the environment (every call is
//! validated, any refusal fails the test) over many seeds, and through the judge, where the
//! commands they wrote are recorded and replayed on a fresh environment.

use std::time::Duration;

use crate::judged;

use marathon_core::{
    CaseId, Environment, Game, GameClock, GameSpec, PlayConfig, Settings, SolveConfig, Turn,
    Verdict,
};
use marathon_polyomino::POLYOMINO;
use marathon_polyomino::ai::smart::{Params, SmartPlayer};
use marathon_polyomino::ai::{PLAYERS, new_player, play, speak_protocol};
use marathon_polyomino::env::{PolyominoEnv, Step};
use marathon_polyomino::generator::PolyominoCase;

const LIMIT: Duration = Duration::from_secs(30);

/// Plays `player` on `seed` directly on the environment; returns the raw score.
fn direct(player: &str, seed: u64, effort: Option<u64>) -> u64 {
    let mut game = PolyominoEnv::new(seed);
    let board = game.case().board();
    let mut builtin = new_player(player, effort, seed, &Settings::default()).unwrap();
    play(builtin.as_mut(), board, &mut game, &GameClock::start(LIMIT))
        .unwrap_or_else(|e| panic!("{player} on seed {seed}: {e}"));
    game.session().raw_score()
}

#[test]
fn players_never_make_an_invalid_call() {
    let seeds: Vec<u64> = (1..=30).chain([0, 1 << 40, u64::MAX]).collect();
    for &name in PLAYERS {
        let effort = (name == "ai").then_some(6);
        let total: u64 = seeds.iter().map(|&seed| direct(name, seed, effort)).sum();
        assert!(total > 0, "{name} never scored");
    }
}

#[test]
fn the_ai_beats_the_baseline() {
    let seeds = 41..=60u64;
    let ai: u64 = seeds.clone().map(|seed| direct("ai", seed, Some(8))).sum();
    let baseline: u64 = seeds.map(|seed| direct("baseline", seed, None)).sum();
    assert!(
        ai as f64 > 1.2 * baseline as f64,
        "ai {ai} vs baseline {baseline}"
    );
}

#[test]
fn judged_games_replay_under_the_rules_and_depend_on_the_case_alone() {
    for (player, effort) in [("ai", Some(4)), ("baseline", None)] {
        for seed in [1, 2, 7] {
            let outcome = POLYOMINO
                .play(
                    &CaseId::seed(seed),
                    &PlayConfig::builtin(player, LIMIT, effort),
                )
                .unwrap();
            assert_eq!(outcome.verdict, Verdict::Ok, "{player} seed {seed}");

            let solve = SolveConfig::new(player, LIMIT, effort);
            let case = PolyominoCase::new(seed);
            let recorded = judged::record(PolyominoEnv::new(seed), solve, speak_protocol);
            let session = recorded.env.session();
            assert_eq!(recorded.verdict, Verdict::Ok);
            let raw = outcome
                .metrics
                .iter()
                .find(|m| m.name == "raw")
                .unwrap()
                .value;
            assert_eq!(
                session.raw_score() as f64,
                raw,
                "{player} seed {seed}: runs differ"
            );
            assert_eq!(session.placed_count() as u64, outcome.moves);
            // The replay's steps cover exactly the cells the session covered, once each.
            let mut board = case.board();
            let mut places = 0;
            for step in &recorded.events {
                if let Step::Place { cells, .. } = step {
                    places += 1;
                    for &cell in cells {
                        let (x, y) = (cell % case.width, cell / case.width);
                        assert!(!board.is_covered(x, y), "{player} seed {seed}: cell {cell}");
                        board.cover(x, y);
                    }
                }
            }
            assert_eq!(places, session.placed_count());
            assert!(
                board == *session.board(),
                "{player} seed {seed}: boards differ"
            );

            // Replay the recorded commands on a fresh environment.
            let context = format!("{player} seed {seed}");
            let fresh = judged::replay(
                PolyominoEnv::new(seed),
                &recorded.replies,
                &context,
                |_, _| {},
            );
            let done = fresh.turn() == Turn::Over;
            assert!(done, "{player} seed {seed}: no DONE");
            assert_eq!(fresh.session().raw_score(), session.raw_score());
            assert_eq!(fresh.session().board(), session.board());
        }
    }
}

#[test]
fn the_ai_on_the_clock_stops_in_time() {
    // A short limit to plan for: the player stops asking well before it and still ends with
    // DONE. The judge's limit and the bound on the time used are far above it (20 times), so
    // that a busy machine cannot fail the test; a player that planned for the judge's limit
    // instead would use most of 100 s.
    let plan = Duration::from_millis(150);
    let config = PlayConfig {
        plan_limit: Some(plan),
        ..PlayConfig::builtin("ai", Duration::from_secs(100), None)
    };
    let outcome = POLYOMINO.play(&CaseId::seed(4), &config).unwrap();
    assert_eq!(outcome.verdict, Verdict::Ok, "{}", outcome.verdict);
    assert!(outcome.time < plan * 20, "{:?}", outcome.time);
    assert!(outcome.score > 0.0);
}

#[test]
fn the_ai_with_held_pieces_and_wide_candidates_makes_only_valid_calls() {
    let params = Params {
        hand: 4,
        hold: 0.5,
        slack: 2,
        per_row: 3,
        ..Params::default()
    };
    for seed in [1, 3, 7, 12] {
        let mut game = PolyominoEnv::new(seed);
        let board = game.case().board();
        let mut player = SmartPlayer::new(params, Some(6), seed);
        play(&mut player, board, &mut game, &GameClock::start(LIMIT))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(game.session().raw_score() > 0, "seed {seed}");
    }
}

/// The hint is the `ai`'s own decision where the game stands: at the start its first call in
/// the game it plays at that effort, and after that `GET` (holding the piece, nothing placed yet)
/// its second.
#[test]
fn the_hint_is_the_ais_next_call_in_its_own_game() {
    let effort = 4;
    for seed in [1, 5] {
        let solve = SolveConfig::new("ai", LIMIT, Some(effort));
        let game = judged::record(PolyominoEnv::new(seed), solve, speak_protocol);
        let mut env = PolyominoEnv::new(seed);
        for reply in &game.replies[..2] {
            let hint = POLYOMINO
                .hint(&env, effort)
                .expect("a hint on the player's turn");
            assert_eq!(&env.format_action(hint), reply, "seed {seed}");
            env.step(hint).expect("the hint is legal");
        }
    }
}
