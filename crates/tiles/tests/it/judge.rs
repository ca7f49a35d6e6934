//! The judge against misbehaving external programs (small `sh` scripts) and with the built-in
//! players, whose recorded replies are replayed under the rules independently of the judge.

use std::time::{Duration, Instant};

use crate::judged;

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, SolveConfig, Verdict};
use marathon_tiles::TILES;
use marathon_tiles::ai;
use marathon_tiles::env::{Step, TilesEnv};
use marathon_tiles::protocol::format_move;
use marathon_tiles::rules::{MAX_MOVES, State};

/// A limit far above what the fixed-effort games here need, so that they never depend on the
/// machine's speed.
const NO_HURRY: Duration = Duration::from_secs(1000);

fn exec(command: &str, limit: Duration) -> CaseOutcome {
    let config = PlayConfig::exec(command, limit);
    TILES.play(&CaseId::seed(1), &config).unwrap()
}

const LIMIT: Duration = Duration::from_secs(5);

// Seed 1 is N=6, S=11, D=3; its first tile is W (the board is empty).

#[test]
fn params_are_shown_in_the_table() {
    let outcome = exec("read l; read t; echo 'GIVE UP'", LIMIT);
    assert_eq!(
        outcome.params,
        vec![("N", "6".into()), ("S", "11".into()), ("D", "3".into())]
    );
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!((outcome.score, outcome.moves), (0.0, 0));
}

#[test]
fn give_up_keeps_the_score_so_far() {
    let outcome = exec(
        r"read l; read t; printf '5 5\r\n'; read t; echo 'GIVE UP'; read t",
        LIMIT,
    );
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!((outcome.score, outcome.moves), (1.0, 1));
}

#[test]
fn garbage_scores_zero_with_the_reason() {
    let outcome = exec(
        "read l; read t; echo 5 5; read t; echo hello; sleep 5",
        LIMIT,
    );
    match &outcome.verdict {
        Verdict::Invalid { line, reason, .. } => {
            assert_eq!(line, "hello");
            assert!(reason.contains("expected"), "{reason}");
        }
        other => panic!("expected an invalid reply, got {other}"),
    }
    assert_eq!((outcome.score, outcome.moves), (0.0, 1));
}

#[test]
fn an_illegal_placement_scores_zero() {
    // The second tile (W, R or regular) cannot go on (0, 0), far from the first at (5, 5).
    let outcome = exec("read l; read t; echo 5 5; read t; echo 0 0; sleep 5", LIMIT);
    assert!(
        matches!(outcome.verdict, Verdict::Invalid { .. }),
        "{}",
        outcome.verdict
    );
    assert_eq!(outcome.score, 0.0);
    let off_board = exec("read l; read t; echo 11 0", LIMIT);
    match &off_board.verdict {
        Verdict::Invalid { reason, .. } => assert!(reason.contains("off the"), "{reason}"),
        other => panic!("{other}"),
    }
}

#[test]
fn discarding_past_d_scores_zero() {
    let outcome = exec(
        "read l; read t; echo 5 5; while read t; do echo DISCARD; done",
        LIMIT,
    );
    match &outcome.verdict {
        Verdict::Invalid { line, reason, .. } => {
            assert_eq!(line, "DISCARD");
            assert!(reason.contains("limit D = 3"), "{reason}");
        }
        other => panic!("{other}"),
    }
    // One placement, then D = 3 discards allowed.
    assert_eq!((outcome.score, outcome.moves), (0.0, 4));
}

#[test]
fn exiting_early_crashing_and_sleeping_score_zero() {
    let early = exec("read l; read t; echo 5 5; exit 0", LIMIT);
    assert!(
        matches!(early.verdict, Verdict::Protocol { .. }),
        "{}",
        early.verdict
    );
    let crash = exec("read l; exit 3", LIMIT);
    assert_eq!(
        crash.verdict,
        Verdict::Crash {
            detail: "exit status 3".into()
        }
    );
    let killed = exec("read l; read t; echo 5 5; kill -9 $$", LIMIT);
    assert!(
        matches!(killed.verdict, Verdict::Crash { .. }),
        "{}",
        killed.verdict
    );
    let started = Instant::now();
    let slow = exec(
        "read l; read t; echo 5 5; read t; sleep 1000",
        Duration::from_millis(500),
    );
    // TilesMatching counts CPU time: a sleeper is ended by the wall cap (2 s for 0.5 s).
    assert!(
        matches!(&slow.verdict, Verdict::Timeout { limit_ms: 500, detail, .. }
            if detail.contains("wall time passed")),
        "{}",
        slow.verdict
    );
    // Far from the 1000 s sleep, and far above what ending the case needs.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the judge hung"
    );
    for outcome in [early, crash, killed, slow] {
        assert_eq!(outcome.score, 0.0);
    }
}

#[test]
fn a_game_that_survives_ends_at_the_move_cap() {
    // Seed 4 has N = 4, which the AI survives.
    let outcome = TILES
        .play(
            &CaseId::seed(4),
            &PlayConfig::builtin("ai", NO_HURRY, Some(1)),
        )
        .unwrap();
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!(outcome.moves, MAX_MOVES as u64, "seed 4 (N = 4) survives");
    let full = outcome.metrics.iter().find(|m| m.name == "10k").unwrap();
    assert_eq!(full.value, 1.0);
}

/// Plays `seed` through the judge's loop with a built-in player on a thread; returns the final
/// state, the verdict, the player's replies and the judge's recorded steps.
fn recorded_game(
    seed: u64,
    player: &str,
    effort: Option<u64>,
) -> (State, Verdict, Vec<String>, Vec<Step>) {
    let solve = SolveConfig::new(player, NO_HURRY, effort);
    let game = judged::record(TilesEnv::new(seed), solve, ai::speak_protocol);
    (
        game.env.state().clone(),
        game.verdict,
        game.replies,
        game.events,
    )
}

/// Replays the replies through the environment (not the judge).
fn replay(seed: u64, replies: &[String]) -> State {
    let game = judged::replay(
        TilesEnv::new(seed),
        replies,
        &format!("seed {seed}"),
        |_, _| {},
    );
    game.state().clone()
}

fn check_case(seed: u64, player: &str, effort: Option<u64>) -> CaseOutcome {
    let config = PlayConfig::builtin(player, NO_HURRY, effort);
    let outcome = TILES.play(&CaseId::seed(seed), &config).unwrap();
    let context = format!("{player} on seed {seed}");
    assert_eq!(
        outcome.verdict,
        Verdict::Ok,
        "{context}: {}",
        outcome.verdict
    );
    let (state, verdict, replies, steps) = recorded_game(seed, player, effort);
    assert_eq!(verdict, Verdict::Ok, "{context}");
    assert!(state.is_over(), "{context}: ok but not over");
    assert_eq!(
        (state.score() as f64, state.moves as u64),
        (outcome.score, outcome.moves),
        "{context}: the runner and the recorded run disagree"
    );
    // One reply per move, plus GIVE UP if the game ended before the cap.
    let expected = state.moves as usize + usize::from(state.gave_up);
    assert_eq!(replies.len(), expected, "{context}");
    // The replay's steps are the moves, with the score after each.
    let step_moves: Vec<String> = steps.iter().map(|s| format_move(s.mv)).collect();
    assert_eq!(step_moves, replies[..steps.len()], "{context}");
    assert_eq!(
        steps.len(),
        state.moves as usize + usize::from(state.gave_up)
    );
    assert_eq!(
        steps.last().map(|s| s.score),
        Some(state.score()),
        "{context}"
    );
    let replayed = replay(seed, &replies);
    assert_eq!(
        replayed, state,
        "{context}: the judge and the rules disagree"
    );
    outcome
}

#[test]
fn random_and_greedy_only_play_legal_moves() {
    for seed in [1, 2, 3, 5, 8, 13, 0, u64::MAX] {
        check_case(seed, "random", None);
        check_case(seed, "greedy", None);
    }
}

#[test]
fn ai_only_plays_legal_moves_and_replays_identically() {
    for seed in [2, 3, 7] {
        let outcome = check_case(seed, "ai", Some(1));
        assert!(outcome.score > 0.0);
    }
    // With the lookahead one and two tiles deep (seed 2 is a short game).
    let outcome = check_case(2, "ai", Some(4));
    assert!(outcome.score > 0.0);
}

#[test]
fn ai_on_the_clock_stays_within_a_short_limit() {
    // Seed 4 (N = 4) lasts all 10000 moves: 0.5 ms a move on average under a 5 s limit.
    let limit = Duration::from_secs(5);
    let outcome = TILES
        .play(&CaseId::seed(4), &PlayConfig::builtin("ai", limit, None))
        .unwrap();
    assert_eq!(outcome.verdict, Verdict::Ok, "{}", outcome.verdict);
    assert!(outcome.time < limit);
    assert!(outcome.score > 10_000.0, "{}", outcome.score);
}
