//! The judge against small `sh` players, well-behaved and not: the protocol byte for byte, and
//! every failure (garbage, an unreachable or blank cell, output ending without `0 0`, a crash,
//! a timeout) scoring 0 with its reason, without the judge hanging.

use std::time::{Duration, Instant};

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, Verdict};
use marathon_solitaire::SOLITAIRE;
use marathon_solitaire::env::case_deal;
use marathon_solitaire::rules::Cell;
use marathon_solitaire::spec::POINTS_METRIC;

const READ_BOARD: &str = "for i in 1 2 3 4 5 6; do read line; done";

fn play(case: &CaseId, script: &str, limit: Duration) -> CaseOutcome {
    let config = PlayConfig::exec(script, limit);
    SOLITAIRE.play(case, &config).unwrap()
}

fn play_g2(script: &str) -> CaseOutcome {
    play(&CaseId::in_group(2, 1), script, Duration::from_secs(5))
}

/// Plays `case` with a script that copies every byte it reads to a file: the board, then the
/// reveals of `removals` removals of (1,1) (alternating with (1,2), a 1 away on an all-1
/// board); returns the outcome and what the script read.
fn transcript(case: &CaseId, removals: u32) -> (CaseOutcome, String) {
    let dir =
        std::env::temp_dir().join(format!("solitaire-judge-{}-{removals}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("seen.txt");
    let script = format!(
        "head -c {} > {f}; i=1; while [ $i -le {removals} ]; do echo '1 1'; read x; \
         printf '%s\\n' \"$x\" >> {f}; if [ $i -lt {removals} ]; then echo '1 2'; read y; fi; \
         i=$((i+1)); done; echo '0 0'",
        SOLITAIRE.generate(case).expect("a case").len(),
        f = file.display()
    );
    let outcome = play(case, &script, Duration::from_secs(5));
    let seen = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (outcome, seen)
}

#[test]
fn the_player_reads_the_board_and_each_reveal_byte_for_byte() {
    let case = CaseId::in_group(6, 77);
    let (outcome, seen) = transcript(&case, 1);
    assert_eq!(outcome.verdict, Verdict::Ok);
    let deal = case_deal(&case).expect("a case of group 6");
    let a = Cell::new(0, 0);
    let expected = format!(
        "{}{}\n",
        SOLITAIRE.generate(&case).expect("a case"),
        deal.stacks[a.index()][1]
    );
    assert_eq!(seen, expected);
    assert_eq!((outcome.score, outcome.moves), (1.0, 1));
    assert_eq!(outcome.params, vec![("alphabet", "1234tlds".to_string())]);

    // Silver, gold, then `blank` once the stack is used up.
    let case = CaseId::in_group(2, 5);
    let (outcome, seen) = transcript(&case, 3);
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!(
        seen,
        format!(
            "{}1\n1\nblank\n",
            SOLITAIRE.generate(&case).expect("a case")
        )
    );
    assert_eq!(outcome.moves, 5);
}

#[test]
fn stopping_at_once_scores_zero_and_is_fine() {
    let outcome = play_g2(&format!("{READ_BOARD}; echo '0 0'"));
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!((outcome.score, outcome.moves), (0.0, 0));
}

#[test]
fn a_short_legal_game_scores_its_removals_and_runs() {
    // Four 1s in a row on the all-1 board: 4 + (4 + 2 + 2).
    let outcome = play_g2(&format!(
        "{READ_BOARD}; for c in 1 2 3 4; do echo \"1 $c\"; read x; done; echo '0 0'"
    ));
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!((outcome.score, outcome.moves), (12.0, 4));
}

#[test]
fn official_cases_carry_their_kattis_points() {
    let case = CaseId::named("g6-1", Some(6), 12);
    let outcome = play(
        &case,
        &format!("{READ_BOARD}; echo '3 3'; read x; echo '0 0'"),
        Duration::from_secs(5),
    );
    assert_eq!(outcome.verdict, Verdict::Ok);
    assert_eq!(outcome.score, 1.0);
    assert_eq!(outcome.metrics.len(), 1);
    assert_eq!(outcome.metrics[0].name, POINTS_METRIC);
    assert!((outcome.metrics[0].value - 17.0 / 52.0).abs() < 1e-12);
}

fn assert_zero(outcome: &CaseOutcome, kind: &str, detail: &str) {
    assert_eq!(outcome.verdict.kind(), kind, "{}", outcome.verdict);
    assert_eq!(outcome.score, 0.0, "{}", outcome.verdict);
    assert!(
        outcome.verdict.to_string().contains(detail),
        "{:?} lacks {detail:?}",
        outcome.verdict.to_string()
    );
    if let Some(points) = outcome.metrics.first() {
        assert_eq!(points.value, 0.0);
    }
}

#[test]
fn garbage_scores_zero() {
    let outcome = play_g2(&format!("{READ_BOARD}; echo 'remove 1 1'"));
    assert_zero(&outcome, "invalid", "two integers");
    let outcome = play_g2(&format!("{READ_BOARD}; echo '7 7'"));
    assert_zero(&outcome, "invalid", "not a cell");
}

#[test]
fn an_unreachable_cell_scores_zero_even_after_good_moves() {
    let outcome = play_g2(&format!(
        "{READ_BOARD}; echo '1 1'; read x; echo '3 3'; read x; echo '0 0'"
    ));
    assert_zero(&outcome, "invalid", "not a 1 move away");
    assert_eq!(outcome.moves, 1);
}

#[test]
fn a_blank_cell_scores_zero() {
    let outcome = play_g2(&format!(
        "{READ_BOARD}; for c in 1 2 1 2 1 2 1; do echo \"1 $c\"; read x; done; echo '0 0'"
    ));
    assert_zero(&outcome, "invalid", "blank");
    assert_eq!(outcome.moves, 6);
}

#[test]
fn output_ending_without_stop_scores_zero() {
    let outcome = play_g2(&format!("{READ_BOARD}; echo '1 1'; read x"));
    assert_zero(
        &outcome,
        "protocol",
        "exited before replying (exit status 0)",
    );
}

#[test]
fn a_crash_scores_zero() {
    let outcome = play_g2(&format!("{READ_BOARD}; echo '1 1'; exit 3"));
    assert_zero(&outcome, "crash", "exit status 3");
    let outcome = play_g2("kill -SEGV $$");
    assert_zero(&outcome, "crash", "SIGSEGV");
}

#[test]
fn a_slow_player_times_out_and_the_judge_does_not_wait() {
    let started = Instant::now();
    let outcome = play(
        &CaseId::in_group(6, 3),
        &format!("{READ_BOARD}; echo '1 1'; read x; sleep 1000; echo '0 0'"),
        Duration::from_millis(500),
    );
    assert_zero(&outcome, "timeout", "0.5 s");
    assert!(
        // Far from the 1000 s sleep, and far above what ending the case needs.
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_missing_program_is_a_crash() {
    let outcome = play_g2("/nonexistent/solver");
    assert_zero(&outcome, "crash", "exit status 127");
}
