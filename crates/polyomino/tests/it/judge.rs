//! The judge against external programs written as small `sh` scripts: a correct one, and ones
//! that write garbage, break a rule, exit early, crash or sleep past the limit. Every failure
//! scores 0 with the right verdict, and the judge never hangs. Then the judge's figures: on a
//! scripted game checked by hand, and against a recount after the built-in players' games.

use std::time::{Duration, Instant};

use marathon_core::env::Environment;
use marathon_core::{
    CaseId, CaseOutcome, Game, GameClock, GameSpec, Metric, PlayConfig, Settings, Verdict,
};
use marathon_polyomino::POLYOMINO;
use marathon_polyomino::ai::{PLAYERS, new_player, play as play_builtin};
use marathon_polyomino::env::PolyominoEnv;
use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::protocol::Command;
use marathon_polyomino::rules::{Board, Piece, PieceSource};

/// A small case: 156 x 23 with 578 covered cells.
const SEED: u64 = 5;

fn play(script: &str, limit: Duration) -> CaseOutcome {
    let config = PlayConfig::exec(script, limit);
    POLYOMINO.play(&CaseId::seed(SEED), &config).unwrap()
}

/// Reads the case text (the header and K lines) and discards it.
fn skip_case() -> String {
    let case = PolyominoCase::new(SEED);
    format!("head -n {} > /dev/null; ", case.covered.len() + 1)
}

/// Reads the answer to a `GET`.
const READ_PIECE: &str = "read i h w; n=0; while [ $n -lt $h ]; do read row; n=$((n+1)); done; ";

fn metric(outcome: &CaseOutcome, name: &str) -> f64 {
    named(&outcome.metrics, name)
}

fn named(metrics: &[Metric], name: &str) -> f64 {
    metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
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
    // Seed 5 has 156 * 23 - 578 = 3010 free cells.
    assert_eq!(metric(&outcome, "covered"), 3.0 / 3010.0);
    assert_eq!(metric(&outcome, "mean_size"), 3.0);
    assert_eq!(metric(&outcome, "points_per_cell"), 3.0);
    assert_eq!(metric(&outcome, "unplaced"), 1.0);
    assert_eq!(metric(&outcome, "lost"), 16.0);

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
    assert_eq!(metric(&outcome, "mean_size"), 3.0);
    assert_eq!(metric(&outcome, "unplaced"), 0.0);
    assert_eq!(metric(&outcome, "lost"), 0.0);
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
        &format!("{}echo 'GET 3'; sleep 1000", skip_case()),
        Duration::from_millis(500),
    );
    // Polyomino counts CPU time: a sleeper is ended by the wall cap (2 s for 0.5 s).
    assert!(
        matches!(&outcome.verdict, Verdict::Timeout { limit_ms: 500, detail, .. }
            if detail.contains("wall time passed")),
        "{}",
        outcome.verdict
    );
    assert_eq!(outcome.score, 0.0);
    assert!(
        // Far from the 1000 s sleep, and far above what ending the case needs.
        started.elapsed() < Duration::from_secs(60),
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
    for name in ["mean_size", "points_per_cell", "unplaced", "lost"] {
        assert_eq!(metric(&outcome, name), 0.0, "{name}");
    }
}

/// The first position in reading order where `piece`, unturned, fits on `board`.
fn fit(board: &Board, piece: &Piece) -> (i64, i64) {
    (0..board.height() as i64)
        .flat_map(|y| (0..board.width() as i64).map(move |x| (x, y)))
        .find(|&(x, y)| board.check_fit(piece, x, y).is_ok())
        .expect("an open board has room for a small piece")
}

/// Places piece `index` of `env` at its first fit.
fn place_first_fit(env: &mut PolyominoEnv, index: usize) {
    let session = env.session();
    let (x, y) = fit(session.board(), &session.pieces()[index]);
    env.step(Command::Place {
        index: index as i64,
        x,
        y,
        rotation: 0,
    })
    .unwrap();
}

#[test]
fn the_figures_of_a_scripted_game_are_the_hand_counted_ones() {
    let mut env = PolyominoEnv::new(SEED);
    for size in [3, 5, 4] {
        env.step(Command::Get { size }).unwrap();
    }
    place_first_fit(&mut env, 0);
    place_first_fit(&mut env, 1);
    env.step(Command::Done).unwrap();
    let case = CaseId::seed(SEED);
    let scored = POLYOMINO.score(&case, &env, &Verdict::Ok, Duration::ZERO);
    // The tromino and the pentomino placed, the tetromino not: 9 + 25 - 16.
    assert_eq!(scored.score, 18.0);
    assert_eq!(named(&scored.metrics, "raw"), 18.0);
    // 8 of the 3010 free cells, in 2 pieces.
    assert_eq!(named(&scored.metrics, "covered"), 8.0 / 3010.0);
    assert_eq!(named(&scored.metrics, "mean_size"), 4.0);
    // (9 + 25) points over 8 cells.
    assert_eq!(named(&scored.metrics, "points_per_cell"), 34.0 / 8.0);
    assert_eq!(named(&scored.metrics, "unplaced"), 1.0);
    assert_eq!(named(&scored.metrics, "lost"), 16.0);
    let names: Vec<&str> = scored.metrics.iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        [
            "raw",
            "covered",
            "mean_size",
            "points_per_cell",
            "unplaced",
            "lost"
        ]
    );

    // A failed case scores 0; the other figures still tell what was done before.
    let crash = Verdict::Crash {
        detail: "exit status 1".into(),
    };
    let failed = POLYOMINO.score(&case, &env, &crash, Duration::ZERO);
    assert_eq!(failed.score, 0.0);
    assert_eq!(named(&failed.metrics, "raw"), 0.0);
    assert_eq!(&failed.metrics[1..], &scored.metrics[1..]);
}

#[test]
fn the_figures_agree_with_a_recount_of_the_players_games() {
    for &player in PLAYERS {
        for seed in 1..=6 {
            let mut env = PolyominoEnv::new(seed);
            let mut builtin = new_player(player, Some(4), seed, &Settings::default()).unwrap();
            let board = env.case().board();
            let game = GameClock::start(Duration::from_secs(1000));
            play_builtin(builtin.as_mut(), board.clone(), &mut env, &game).unwrap();
            let scored = POLYOMINO.score(&CaseId::seed(seed), &env, &Verdict::Ok, Duration::ZERO);
            let figure = |name| named(&scored.metrics, name);
            let context = format!("{player} on seed {seed}");

            // The recount: the placed pieces' sizes, and the cells covered since the start.
            let session = env.session();
            let placed: Vec<u64> = (0..session.requested())
                .filter(|&i| session.is_placed(i))
                .map(|i| session.pieces()[i].size() as u64)
                .collect();
            let cells: u64 = placed.iter().sum();
            let free = board.width() * board.height() - board.covered_count();
            let newly_covered = session.board().covered_count() - board.covered_count();
            assert_eq!(cells, newly_covered as u64, "{context}");
            assert_eq!(figure("covered"), cells as f64 / free as f64, "{context}");
            assert_eq!(
                figure("mean_size"),
                cells as f64 / placed.len() as f64,
                "{context}"
            );
            assert_eq!(
                figure("unplaced"),
                (session.requested() - placed.len()) as f64,
                "{context}"
            );
            assert_eq!(env.moves(), placed.len() as u64, "{context}");
            let squares: u64 = placed.iter().map(|s| s * s).sum();
            assert_eq!(session.placed_score(), squares, "{context}");
            assert_eq!(
                figure("points_per_cell"),
                squares as f64 / cells as f64,
                "{context}"
            );
            // A mean weighted by size is at least the plain one.
            assert!(
                figure("points_per_cell") >= figure("mean_size"),
                "{context}"
            );
            let lost: u64 = (0..session.requested())
                .filter(|&i| !session.is_placed(i))
                .map(|i| (session.pieces()[i].size() as u64).pow(2))
                .sum();
            assert_eq!(figure("lost"), lost as f64, "{context}");
            // The figures take the raw score apart: free * covered * points_per_cell - lost.
            let rebuilt = free as f64 * figure("covered") * figure("points_per_cell") - lost as f64;
            assert!(
                (rebuilt.max(0.0) - figure("raw")).abs() < 1e-6 * squares as f64,
                "{context}: {rebuilt} vs {}",
                figure("raw")
            );
            assert_eq!(
                figure("raw"),
                squares.saturating_sub(lost) as f64,
                "{context}"
            );
        }
    }
}
