//! The built-in players against the rules: never an illegal or blank cell, always `0 0` at the
//! end (verdict ok), over every group and many seeds; each game replayed under the rules gives
//! the judge's score; a fixed effort makes the AI repeat itself exactly.

use std::time::Duration;

use crate::judged;

use marathon_core::{CaseId, Environment, Game, PlayConfig, SolveConfig, Turn, Verdict};
use marathon_solitaire::SOLITAIRE;
use marathon_solitaire::ai;
use marathon_solitaire::env::{SolitaireEnv, Step, case_deal};
use marathon_solitaire::rules::{Cell, State};

/// Far above what the fixed-effort games here need, so that they never depend on the machine's
/// speed.
const LIMIT: Duration = Duration::from_secs(1000);

fn config(player: &str, effort: Option<u64>) -> PlayConfig {
    PlayConfig::builtin(player, LIMIT, effort)
}

/// Plays the case through the judge's loop with the player on a thread; returns the final
/// state, the verdict, the player's replies and the cells of the judge's removals with the
/// score after each.
fn recorded_game(
    case: &CaseId,
    player: &str,
    effort: Option<u64>,
) -> (State, Verdict, Vec<String>, Vec<(Cell, u32)>) {
    let solve = SolveConfig::new(player, LIMIT, effort);
    let env = SolitaireEnv::new(case_deal(case).expect("a case of the table"));
    let game = judged::record(env, solve, ai::speak_protocol);
    let removals = game
        .events
        .iter()
        .filter_map(|step| match step {
            Step::Removed {
                cell, breakdown, ..
            } => Some((*cell, breakdown.total())),
            _ => None,
        })
        .collect();
    (
        game.env.state().clone(),
        game.verdict,
        game.replies,
        removals,
    )
}

/// Replays the replies through the environment (not the judge); the last must be `0 0`, every
/// other a legal removal.
fn replay(case: &CaseId, replies: &[String]) -> State {
    let env = SolitaireEnv::new(case_deal(case).expect("a case of the table"));
    let game = judged::replay(env, replies, &case.to_string(), |_, _| {});
    assert_eq!(
        game.turn(),
        Turn::Over,
        "{case}: the last reply is not `0 0`"
    );
    game.state().clone()
}

fn check_case(case: &CaseId, player: &str, effort: Option<u64>) -> f64 {
    let outcome = SOLITAIRE.play(case, &config(player, effort)).unwrap();
    let context = format!("{player} on {case}");
    assert_eq!(
        outcome.verdict,
        Verdict::Ok,
        "{context}: {}",
        outcome.verdict
    );
    let (state, verdict, replies, steps) = recorded_game(case, player, effort);
    assert_eq!(verdict, Verdict::Ok, "{context} (recorded): {verdict}");
    assert_eq!(
        (state.score() as f64, state.moves() as u64),
        (outcome.score, outcome.moves),
        "{context}: the runner and the recorded run disagree"
    );
    // The replay's steps are the removals, with the running score.
    let step_replies: Vec<String> = steps
        .iter()
        .map(|(cell, _)| format!("{} {}", cell.row() + 1, cell.col() + 1))
        .collect();
    assert_eq!(step_replies, replies[..replies.len() - 1], "{context}");
    let last_total = steps.last().map_or(0, |&(_, total)| total);
    assert_eq!(last_total, state.score(), "{context}");
    let replayed = replay(case, &replies);
    assert_eq!(
        replayed, state,
        "{context}: the judge and the rules disagree"
    );
    // A player stops only when it must (all three do).
    assert!(replayed.is_over(), "{context}: stopped with moves left");
    outcome.score
}

#[test]
fn random_and_greedy_play_legally_in_every_group() {
    for group in 1..=6 {
        for seed in 1..=8 {
            let case = CaseId::in_group(group, seed);
            let random = check_case(&case, "random", None);
            let greedy = check_case(&case, "greedy", None);
            assert!(random >= 1.0 && greedy >= 1.0, "{case}");
        }
    }
}

#[test]
fn the_ai_plays_legally_in_every_group_and_repeats_itself() {
    for group in 1..=6 {
        for seed in [1, 2, u64::MAX] {
            let case = CaseId::in_group(group, seed);
            check_case(&case, "ai", Some(1));
            check_case(&case, "flat", Some(1));
        }
    }
}

#[test]
fn the_ai_clears_the_single_type_official_cases() {
    for case in SOLITAIRE.official_cases().into_iter().take(2) {
        let outcome = SOLITAIRE.play(&case, &config("ai", Some(2))).unwrap();
        assert_eq!(outcome.verdict, Verdict::Ok);
        assert_eq!((outcome.score, outcome.moves), (324.0, 108), "{case}");
    }
}

#[test]
fn the_ai_beats_greedy_on_group_6() {
    let (mut ai, mut greedy) = (0.0, 0.0);
    for seed in 1..=6 {
        let case = CaseId::in_group(6, seed);
        ai += SOLITAIRE.play(&case, &config("ai", Some(2))).unwrap().score;
        greedy += SOLITAIRE
            .play(&case, &config("greedy", None))
            .unwrap()
            .score;
    }
    assert!(ai > greedy * 1.1, "ai {ai} vs greedy {greedy}");
}

#[test]
fn the_ai_under_a_time_limit_stays_inside_it() {
    // Group 2 plays to the last piece, where few moves are left to share the time among.
    for (case, player) in [
        (CaseId::in_group(6, 9), "ai"),
        (CaseId::in_group(6, 9), "flat"),
        (CaseId::in_group(2, 4), "ai"),
        (CaseId::in_group(5, 4), "ai"),
    ] {
        // Planning for 0.5 s, judged against the far longer LIMIT and a bound 20 times the plan:
        // a player that ignored its clock would search for most of LIMIT; a busy machine
        // cannot fail the test.
        let plan = Duration::from_millis(500);
        let mut config = config(player, None);
        config.plan_limit = Some(plan);
        let outcome = SOLITAIRE.play(&case, &config).unwrap();
        assert_eq!(
            outcome.verdict,
            Verdict::Ok,
            "{player} on {case}: {}",
            outcome.verdict
        );
        assert!(
            outcome.time < plan * 20,
            "{player} on {case}: {:?}",
            outcome.time
        );
        assert!(outcome.score > 0.0);
    }
}

/// A playthrough record: the deterministic greedy baseline's score on every official case.
/// Any change to the deals, the moves or the scoring shows here at once.
#[test]
fn greedy_scores_on_the_official_cases_are_as_recorded() {
    let expected = [
        135.0, 192.0, 216.0, 256.0, 210.0, 54.0, 67.0, 39.0, 136.0, 217.0, 128.0, 127.0, 161.0,
        174.0,
    ];
    let scores: Vec<f64> = SOLITAIRE
        .official_cases()
        .iter()
        .map(|case| check_case(case, "greedy", None))
        .collect();
    assert_eq!(scores, expected);
}
