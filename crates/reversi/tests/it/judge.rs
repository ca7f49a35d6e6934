//! The judge against misbehaving external programs (small `sh` scripts) and against the
//! built-in players: verdicts, scores (0 on any failure, docs/rules.md#reversi-time-and-failures)
//! and no hang.

use std::time::{Duration, Instant};

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, SolveConfig, Verdict};
use marathon_reversi::REVERSI;
use marathon_reversi::generator;
use marathon_reversi::rules::State;

/// Seed 1 is a 7x7, 3-player case: quick to generate.
const SEED: u64 = 1;

fn exec(script: &str, limit: Duration) -> CaseOutcome {
    let config = PlayConfig::exec(script, limit);
    REVERSI.play(&CaseId::seed(SEED), &config).unwrap()
}

fn builtin(name: &str, seed: u64, effort: Option<u64>) -> CaseOutcome {
    let config = PlayConfig::builtin(name, Duration::from_secs(30), effort);
    REVERSI.play(&CaseId::seed(seed), &config).unwrap()
}

fn assert_failed(outcome: &CaseOutcome, kind: &str) {
    assert_eq!(outcome.verdict.kind(), kind, "{}", outcome.verdict);
    assert_eq!(outcome.score, 0.0, "a failure scores 0");
    assert_eq!(
        outcome.params,
        vec![("N", "7".to_string()), ("P", "3".to_string())]
    );
}

const SECOND: Duration = Duration::from_secs(5);

#[test]
fn garbage_is_an_invalid_move() {
    let outcome = exec(
        "read n; read rows; echo hello there; cat >/dev/null",
        SECOND,
    );
    assert_failed(&outcome, "invalid");
    assert!(
        outcome
            .verdict
            .to_string()
            .contains("not a non-negative integer")
    );
    let outcome = exec("read n; read rows; echo 1 2 3; cat >/dev/null", SECOND);
    assert_failed(&outcome, "invalid");
    assert!(outcome.verdict.to_string().contains("two numbers"));
}

#[test]
fn a_move_that_captures_nothing_is_invalid() {
    let outcome = exec("read n; read rows; echo 0 0; cat >/dev/null", SECOND);
    assert_failed(&outcome, "invalid");
    assert!(
        outcome.verdict.to_string().contains("captures nothing"),
        "{}",
        outcome.verdict
    );
}

#[test]
fn an_occupied_or_off_board_cell_is_invalid() {
    let outcome = exec("read n; read rows; echo 2 2; cat >/dev/null", SECOND);
    assert_failed(&outcome, "invalid");
    assert!(outcome.verdict.to_string().contains("occupied"));
    let outcome = exec("read n; read rows; echo 7 3; cat >/dev/null", SECOND);
    assert_failed(&outcome, "invalid");
    assert!(outcome.verdict.to_string().contains("off the 7x7 board"));
}

#[test]
fn a_legal_first_move_then_silence_exit_is_a_protocol_failure() {
    // (col 5, row 2) is legal for player 1 on the 7x7 start board.
    let outcome = exec("read n; read rows; echo 5 2; exit 0", SECOND);
    assert_failed(&outcome, "protocol");
    assert_eq!(outcome.moves, 1);
}

#[test]
fn a_crash_is_reported_with_its_status() {
    let outcome = exec("read n; exit 3", SECOND);
    assert_failed(&outcome, "crash");
    assert!(outcome.verdict.to_string().contains("exit status 3"));
}

#[test]
fn a_program_that_does_not_start_is_a_crash() {
    let outcome = exec("exec /nonexistent/player", SECOND);
    assert_failed(&outcome, "crash");
}

#[test]
fn sleeping_past_the_limit_is_a_timeout_and_the_judge_does_not_hang() {
    let started = Instant::now();
    let outcome = exec("sleep 1000", Duration::from_millis(300));
    assert_failed(&outcome, "timeout");
    assert!(
        // Far from the 1000 s sleep, and far above what ending the case needs.
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_first_observation_is_the_start_board() {
    assert_eq!(
        REVERSI.generate(&CaseId::seed(SEED)).expect("a case"),
        "7\n....... ....... ..123.. ..231.. ..312.. ....... .......\n"
    );
}

#[test]
fn built_in_players_finish_their_games_legally() {
    // The judge checks every move; an ok verdict means every move was legal and the game ended.
    for seed in [1, 2, 3] {
        for (name, effort) in [("greedy", None), ("ai", Some(2)), ("oracle", Some(2))] {
            let outcome = builtin(name, seed, effort);
            assert_eq!(outcome.verdict, Verdict::Ok, "{name} seed {seed}");
            assert!(outcome.moves > 0);
            let size = generator::size_of(seed);
            let players = State::new(size).board.players() as f64;
            let owned = outcome.metrics[0].value;
            assert_eq!(outcome.score, owned * players / (size * size) as f64);
        }
    }
}

#[test]
fn built_in_players_are_deterministic_with_an_effort() {
    let a = builtin("ai", 2, Some(3));
    let b = builtin("ai", 2, Some(3));
    assert_eq!((a.score, a.moves), (b.score, b.moves));
}

#[test]
fn the_ai_reports_how_often_it_predicted_the_opponents() {
    let metric = |outcome: &CaseOutcome| {
        outcome
            .metrics
            .iter()
            .find(|m| m.name == "predicted")
            .map(|m| m.value)
    };
    let ai = builtin("ai", 13, Some(4));
    let rate = metric(&ai).expect("the ai's prediction rate");
    assert!((0.0..=1.0).contains(&rate), "{rate}");
    // The greedy player predicts nothing, and a program's model is its own.
    assert_eq!(metric(&builtin("greedy", 13, None)), None);
}

#[test]
fn the_oracle_beats_greedy() {
    let mut oracle = 0.0;
    let mut greedy = 0.0;
    for seed in [1, 2] {
        oracle += builtin("oracle", seed, Some(8)).score;
        greedy += builtin("greedy", seed, None).score;
    }
    assert!(oracle > greedy, "oracle {oracle} greedy {greedy}");
}

#[test]
fn the_oracle_cannot_run_as_a_program() {
    let config = SolveConfig::new("oracle", Duration::from_secs(1), None);
    let mut input = "7\n....... ....... ..123.. ..231.. ..312.. ....... .......\n".as_bytes();
    let mut output = Vec::new();
    let err = REVERSI
        .solve(&config, &mut input, &mut output)
        .expect_err("the oracle needs the hidden weights");
    assert!(err.to_string().contains("only the judge"), "{err}");
    assert!(output.is_empty());
}

#[test]
fn solve_answers_the_start_board_with_a_legal_move() {
    for player in ["ai", "greedy"] {
        let config = SolveConfig::new(player, Duration::from_secs(5), Some(2));
        let mut input = "7\n....... ....... ..123.. ..231.. ..312.. ....... .......\n".as_bytes();
        let mut output = Vec::new();
        REVERSI.solve(&config, &mut input, &mut output).unwrap();
        let reply = String::from_utf8(output).unwrap();
        let mv = marathon_reversi::protocol::parse_move(reply.trim()).unwrap();
        let board = State::new(7).board;
        let cell = mv.cell(&board).unwrap();
        assert!(board.legal_moves(1).contains(cell), "{player}: {reply}");
    }
}

#[test]
fn built_in_players_on_the_clock_finish_within_the_limit() {
    // Without an effort the players budget the clock; end games, whose trees are tiny, once
    // made the widening loop run away.
    // They plan for 1 s and are judged against 300 s, with a bound on the time used 20 times
    // the plan: a runaway shows, a busy machine's small overshoot does not.
    let plan = Duration::from_secs(1);
    for name in ["ai", "oracle"] {
        let config = PlayConfig {
            plan_limit: Some(plan),
            ..PlayConfig::builtin(name, Duration::from_secs(300), None)
        };
        let outcome = REVERSI.play(&CaseId::seed(2), &config).unwrap();
        assert_eq!(outcome.verdict, Verdict::Ok, "{name}: {}", outcome.verdict);
        assert!(outcome.time < plan * 20, "{name}: {:?}", outcome.time);
    }
}

#[test]
fn a_recording_rebuilds_the_final_board() {
    let case = CaseId::seed(3);
    let config = PlayConfig::builtin("greedy", Duration::from_secs(30), None);
    let recording = REVERSI.record(&case, &config).unwrap();
    assert_eq!(recording.outcome.verdict, Verdict::Ok);
    let n = recording.start["n"].as_u64().unwrap() as usize;
    let rows = recording.start["rows"].as_str().unwrap().replace(' ', "");
    let mut cells: Vec<u64> = rows
        .chars()
        .map(|c| c.to_digit(10).map_or(0, u64::from))
        .collect();
    assert_eq!(cells.len(), n * n);
    let start_pieces = cells.iter().filter(|&&c| c != 0).count();
    for step in &recording.steps {
        let player = step["p"].as_u64().unwrap();
        let cell = step["c"].as_u64().unwrap() as usize;
        assert_eq!(cells[cell], 0, "a move goes to an empty cell");
        cells[cell] = player;
        let flipped = step["f"].as_array().unwrap();
        assert!(!flipped.is_empty(), "every move flips something");
        for f in flipped {
            let f = f.as_u64().unwrap() as usize;
            assert!(
                cells[f] != 0 && cells[f] != player,
                "flips an opponent's piece"
            );
            cells[f] = player;
        }
    }
    let owned = cells.iter().filter(|&&c| c == 1).count() as f64;
    let metric = recording
        .outcome
        .metrics
        .iter()
        .find(|m| m.name == "owned")
        .unwrap();
    assert_eq!(owned, metric.value);
    let last_score = recording.steps.last().unwrap()["score"].as_f64().unwrap();
    assert!((last_score - recording.outcome.score).abs() < 1e-3);
    // One step per move, each filling one empty cell.
    let pieces = cells.iter().filter(|&&c| c != 0).count();
    assert_eq!(recording.steps.len(), pieces - start_pieces);
}
