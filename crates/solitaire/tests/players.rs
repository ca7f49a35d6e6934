//! The built-in players against the rules: never an illegal or blank cell, always `0 0` at the
//! end (verdict ok), over every group and many seeds; each game replayed under the rules gives
//! the judge's score; a fixed effort makes the AI repeat itself exactly.

use std::time::Duration;

use marathon_core::{CaseId, Game, PlayConfig, SolveConfig, Verdict, spawn_recorded_player};
use marathon_solitaire::SOLITAIRE;
use marathon_solitaire::ai;
use marathon_solitaire::judge::{Step, case_deal, run_game};
use marathon_solitaire::protocol::{Reply, parse_reply};
use marathon_solitaire::rules::State;

const LIMIT: Duration = Duration::from_secs(20);

fn config(player: &str, effort: Option<u64>) -> PlayConfig {
    PlayConfig::builtin(player, LIMIT, effort)
}

/// Plays the case through `run_game` with the player on a thread; returns the judge's state,
/// verdict, the player's replies and the judge's recorded steps.
fn recorded_game(
    case: &CaseId,
    player: &str,
    effort: Option<u64>,
) -> (State, Verdict, Vec<String>, Vec<Step>) {
    let solve = SolveConfig::new(player, LIMIT, effort);
    let (mut endpoint, transcript) =
        spawn_recorded_player(solve, ai::speak_protocol).expect("the player thread starts");
    let deal = case_deal(case);
    let mut steps = Vec::new();
    let (state, verdict) = run_game(&deal, &mut endpoint, Some(&mut steps));
    endpoint.close();
    let replies = transcript.lines();
    (state, verdict, replies, steps)
}

/// Replays the replies under the rules with the case's deal; the last must be `0 0`, every
/// other a legal removal.
fn replay(case: &CaseId, replies: &[String]) -> State {
    let deal = case_deal(case);
    let mut state = State::new(deal.tops());
    let (last, removals) = replies.split_last().expect("at least `0 0`");
    assert_eq!(parse_reply(last), Ok(Reply::Stop), "{case}: the last reply");
    for reply in removals {
        let Ok(Reply::Remove(cell)) = parse_reply(reply) else {
            panic!("{case}: reply {reply:?} is not a removal");
        };
        let reveal = deal.piece(cell, state.removed(cell) + 1);
        state
            .play(cell, reveal)
            .unwrap_or_else(|e| panic!("{case}: {reply:?} is illegal: {e}"));
    }
    state
}

fn check_case(case: &CaseId, player: &str, effort: Option<u64>) -> f64 {
    let outcome = SOLITAIRE.play(case, &config(player, effort));
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
        .map(|s| format!("{} {}", s.cell.row() + 1, s.cell.col() + 1))
        .collect();
    assert_eq!(step_replies, replies[..replies.len() - 1], "{context}");
    let last_total = steps.last().map_or(0, |s| s.breakdown.total());
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
        let outcome = SOLITAIRE.play(&case, &config("ai", Some(2)));
        assert_eq!(outcome.verdict, Verdict::Ok);
        assert_eq!((outcome.score, outcome.moves), (324.0, 108), "{case}");
    }
}

#[test]
fn the_ai_beats_greedy_on_group_6() {
    let (mut ai, mut greedy) = (0.0, 0.0);
    for seed in 1..=6 {
        let case = CaseId::in_group(6, seed);
        ai += SOLITAIRE.play(&case, &config("ai", Some(2))).score;
        greedy += SOLITAIRE.play(&case, &config("greedy", None)).score;
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
        let mut config = config(player, None);
        config.time_limit = Duration::from_millis(1000);
        let outcome = SOLITAIRE.play(&case, &config);
        assert_eq!(
            outcome.verdict,
            Verdict::Ok,
            "{player} on {case}: {}",
            outcome.verdict
        );
        assert!(outcome.time < Duration::from_millis(1000));
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
