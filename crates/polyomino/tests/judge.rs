//! The judge against external programs written as small `sh` scripts: a correct one, and ones
//! that write garbage, break a rule, exit early, crash or sleep past the limit. Every failure
//! scores 0 with the right verdict, and the judge never hangs.

use std::time::{Duration, Instant};

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, Verdict};
use marathon_polyomino::POLYOMINO;
use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::rules::PieceSource;

/// A small case: 156 x 23 with 578 covered cells.
const SEED: u64 = 5;

fn play(script: &str, limit: Duration) -> CaseOutcome {
    let config = PlayConfig::exec(script, limit);
    POLYOMINO.play(&CaseId::seed(SEED), &config)
}

/// Reads the case text (the header and K lines) and discards it.
fn skip_case() -> String {
    let case = PolyominoCase::new(SEED);
    format!("head -n {} > /dev/null; ", case.covered.len() + 1)
}

/// Reads the answer to a `GET`.
const READ_PIECE: &str = "read i h w; n=0; while [ $n -lt $h ]; do read row; n=$((n+1)); done; ";

fn metric(outcome: &CaseOutcome, name: &str) -> f64 {
    outcome
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap()
        .value
}

fn assert_invalid(outcome: &CaseOutcome, line: &str, reason_part: &str) {
    match &outcome.verdict {
        Verdict::Invalid {
            line: got, reason, ..
        } => {
            assert_eq!(got, line);
            assert!(reason.contains(reason_part), "reason {reason:?}");
        }
        other => panic!("expected an invalid verdict, got {other}"),
    }
    assert_eq!(outcome.score, 0.0);
    assert_eq!(metric(outcome, "raw"), 0.0);
}

/// The first free spot of the first size-3 piece of the case, rotation 0.
fn first_fit() -> (usize, usize) {
    let case = PolyominoCase::new(SEED);
    let piece = case.pieces().next_piece(3);
    let board = case.board();
    for y in 0..case.height as i64 {
        for x in 0..case.width as i64 {
            if board.check_fit(&piece, x, y).is_ok() {
                return (x as usize, y as usize);
            }
        }
    }
    unreachable!("a board of this case has room for a tromino")
}

#[test]
fn a_correct_program_scores_its_placement_less_the_unplaced_piece() {
    let (x, y) = first_fit();
    let script = format!(
        "{}echo 'GET 3'; {READ_PIECE} echo 'PLACE 0 {x} {y} 0'; read total; \
         [ \"$total\" = 9 ] || exit 7; echo 'GET 4'; {READ_PIECE} echo DONE",
        skip_case()
    );
    let outcome = play(&script, Duration::from_secs(10));
    assert_eq!(outcome.verdict, Verdict::Ok, "{}", outcome.verdict);
    // 9 placed, 16 unplaced: floored at 0.
    assert_eq!(metric(&outcome, "raw"), 0.0);
    assert_eq!(outcome.moves, 1);
    assert_eq!(
        outcome.params,
        [("W", "156".into()), ("H", "23".into()), ("K", "578".into())]
    );
    assert!(metric(&outcome, "covered") > 0.0);

    let script = format!(
        "{}echo 'GET 3'; {READ_PIECE} echo 'PLACE 0 {x} {y} 0'; read total; echo DONE",
        skip_case()
    );
    let outcome = play(&script, Duration::from_secs(10));
    assert_eq!(outcome.verdict, Verdict::Ok, "{}", outcome.verdict);
    assert_eq!(metric(&outcome, "raw"), 9.0);
    let expected = 9.0 * (1.0 - 0.01 * outcome.time.as_secs_f64());
    assert!(
        (outcome.score - expected).abs() < 1e-9,
        "{} vs {expected}",
        outcome.score
    );
    assert!(outcome.score > 8.0);
    assert!(metric(&outcome, "bound") >= 9.0);
}

#[test]
fn garbage_is_invalid() {
    let outcome = play(
        &format!("{}echo hello; sleep 5", skip_case()),
        Duration::from_secs(10),
    );
    assert_invalid(&outcome, "hello", "unknown command");
}

#[test]
fn rule_violations_score_zero_with_the_reason() {
    let case = PolyominoCase::new(SEED);
    // Rotation 0 of the first tromino ("X."/"XX") has a cell at its box's corner.
    let (cx, cy) = case.covered[0];
    let line = format!("PLACE 0 {cx} {cy} 0");
    let script = format!(
        "{}echo 'GET 3'; {READ_PIECE} echo '{line}'; sleep 5",
        skip_case()
    );
    let outcome = play(&script, Duration::from_secs(10));
    assert_invalid(&outcome, &line, "covers the covered cell");

    let outcome = play(
        &format!("{}echo 'GET 2'; sleep 5", skip_case()),
        Duration::from_secs(10),
    );
    assert_invalid(&outcome, "GET 2", "piece size 2");

    let script = format!("{}echo 'PLACE 0 0 0 0'; sleep 5", skip_case());
    let outcome = play(&script, Duration::from_secs(10));
    assert_invalid(&outcome, "PLACE 0 0 0 0", "does not exist");

    let script = format!(
        "{}echo 'GET 3'; {READ_PIECE} echo 'PLACE 0 0 0 4'; sleep 5",
        skip_case()
    );
    let outcome = play(&script, Duration::from_secs(10));
    assert_invalid(&outcome, "PLACE 0 0 0 4", "rotation 4");

    let (x, y) = first_fit();
    let place = format!("PLACE 0 {x} {y} 0");
    let script = format!(
        "{}echo 'GET 3'; {READ_PIECE} echo '{place}'; read total; echo '{place}'; sleep 5",
        skip_case()
    );
    let outcome = play(&script, Duration::from_secs(10));
    assert_invalid(&outcome, &place, "already placed");
}

#[test]
fn exiting_before_done_is_a_protocol_failure() {
    let outcome = play(
        &format!("{}echo 'GET 3'; exit 0", skip_case()),
        Duration::from_secs(10),
    );
    assert!(
        matches!(outcome.verdict, Verdict::Protocol { .. }),
        "{}",
        outcome.verdict
    );
    assert_eq!(outcome.score, 0.0);
}

#[test]
fn a_crash_scores_zero() {
    let outcome = play(
        &format!("{}echo 'GET 3'; {READ_PIECE} exit 3", skip_case()),
        Duration::from_secs(10),
    );
    assert_eq!(
        outcome.verdict,
        Verdict::Crash {
            detail: "exit status 3".into()
        }
    );
    assert_eq!(outcome.score, 0.0);
}

#[test]
fn sleeping_past_the_limit_is_a_timeout_and_the_judge_does_not_wait() {
    let started = Instant::now();
    let outcome = play(
        &format!("{}echo 'GET 3'; sleep 30", skip_case()),
        Duration::from_millis(500),
    );
    assert!(
        matches!(outcome.verdict, Verdict::Timeout { limit_ms: 500, used_ms, .. } if used_ms >= 500),
        "{}",
        outcome.verdict
    );
    assert_eq!(outcome.score, 0.0);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_program_that_does_nothing_but_done_scores_zero_and_is_ok() {
    let outcome = play(
        &format!("{}echo DONE", skip_case()),
        Duration::from_secs(10),
    );
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!(outcome.score, 0.0);
    assert_eq!(metric(&outcome, "covered"), 0.0);
}
