//! No reply can make the judge panic: the move parser, the observation parser and the judge
//! are fed huge, negative, overflowing, empty, long and non-ASCII lines, and every one ends in
//! a clear verdict.

use crate::{hostile, judged};

use std::io::BufRead;
use std::sync::{Arc, OnceLock};

use hostile::{
    LONG, assert_clear_error, assert_judged_as_the_rules_say, garbage_line, line_after, token,
};
use judged::{Script, read_line};
use marathon_core::Verdict;
use marathon_reversi::env::ReversiEnv;
use marathon_reversi::generator::{ReversiCase, generate};
use marathon_reversi::protocol::{format_move, parse_move, parse_observation};
use marathon_reversi::rules::{Board, IllegalMove};
use proptest::prelude::*;

/// Cases of two sizes, generated once: a 7x7 game of 3 players and an 8x8 game of 4.
fn cases() -> &'static [ReversiCase] {
    static CASES: OnceLock<Vec<ReversiCase>> = OnceLock::new();
    CASES.get_or_init(|| [1, 3].map(generate).to_vec())
}

/// Replies a player might send: `col row` with hostile numbers, small (often legal or just
/// off the board) cells, tokens, garbage.
fn move_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (token(), token()).prop_map(|(c, r)| format!("{c} {r}")),
        3 => (0u32..10, 0u32..10).prop_map(|(c, r)| format!("{c} {r}")),
        2 => line_after(Vec::new(), 3),
        1 => token(),
        2 => garbage_line(),
    ]
}

/// The player that makes its first legal move on each board the judge shows it, but sends the
/// hostile line when few empty cells are left: the game may end before turn `legal_moves`.
struct FirstLegal {
    /// The board the judge showed last (the start board before any).
    board: Board,
}

impl FirstLegal {
    fn first_legal(&self) -> String {
        let legal = self.board.legal_moves(1);
        format_move(legal.first().expect("the judge asks only with a move"))
    }
}

impl Script for FirstLegal {
    fn observe(&mut self, input: &mut dyn BufRead) -> std::io::Result<bool> {
        let Some(size) = read_line(input)? else {
            return Ok(false);
        };
        let rows = read_line(input)?.expect("the rows follow the size");
        self.board = parse_observation(&[&size, &rows]).expect("the judge's observation");
        Ok(true)
    }

    fn legal_reply(&mut self) -> Option<String> {
        let late = self.board.empty_cells().count() <= 3;
        (!late).then(|| self.first_legal())
    }

    fn send_hostile(&mut self, received: &str) -> Option<String> {
        let board = &self.board;
        parse_move(received)
            .map_err(|e| e.to_string())
            .and_then(|mv| {
                mv.cell(board).ok_or_else(|| {
                    let size = board.size();
                    let (col, row) = (mv.col, mv.row);
                    IllegalMove::OffBoard { col, row, size }.to_string()
                })
            })
            .and_then(|cell| board.clone().play(1, cell).map_err(|e| e.to_string()))
            .err()
    }

    fn after_hostile(&mut self) -> String {
        self.first_legal()
    }
}

/// Plays `case` with a player that makes its first legal move `legal_moves` times (or until
/// its last turn), then sends `hostile`, then (if the game goes on) legal moves again. Returns
/// the verdict and the rules' refusal of the hostile line.
fn play_then(case: &ReversiCase, legal_moves: usize, hostile: &str) -> (Verdict, Option<String>) {
    let script = FirstLegal {
        board: case.initial_state().board,
    };
    let env = ReversiEnv::of_case(Arc::new(case.clone()));
    judged::play_then(env, script, legal_moves, hostile)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn moves_parse_or_fail_clearly(line in move_line()) {
        match parse_move(&line) {
            Ok(mv) => {
                let again = parse_move(&format!("{} {}", mv.col, mv.row));
                prop_assert_eq!(again, Ok(mv));
            }
            Err(e) => assert_clear_error(&e.to_string(), &line),
        }
    }

    /// The player's side reads the judge's text with the same care.
    #[test]
    fn observations_parse_or_fail_clearly(
        size in prop_oneof![token(), (6u32..14).prop_map(|n| n.to_string())],
        rows in prop_oneof![
            prop::collection::vec("[.1-5]{6,9}", 6..=9).prop_map(|rows| rows.join(" ")),
            line_after(Vec::new(), 4),
            garbage_line(),
        ],
    ) {
        if let Err(e) = parse_observation(&[&size, &rows]) {
            assert_clear_error(&e.to_string(), &format!("{size}\n{rows}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A hostile line at a random turn of a real game: the judge refuses it exactly when the
    /// rules do on the board it answered, with their reason; a legal one plays on to the end.
    #[test]
    fn the_judge_gives_a_clear_verdict_for_any_line(
        case in 0usize..2,
        legal_moves in 0usize..16,
        line in move_line(),
    ) {
        let (verdict, refusal) = play_then(&cases()[case], legal_moves, &line);
        assert_judged_as_the_rules_say(&verdict, &line, refusal);
    }
}

#[test]
fn huge_and_odd_cells_are_refused_by_name() {
    for (line, reason) in [
        ("", "a move is two numbers `col row`, got 0 tokens"),
        (
            "-1 0",
            "token 1 (column) is not a non-negative integer: \"-1\"",
        ),
        (
            "0 +3",
            "token 2 (row) is not a non-negative integer: \"+3\"",
        ),
        ("7 0", "column 7, row 0 is off the 7x7 board"),
        (
            "18446744073709551615 0",
            "column 18446744073709551615, row 0 is off the 7x7 board",
        ),
        (
            "0 18446744073709551616",
            "token 2 (row) 18446744073709551616 is off every board (at most 12x12)",
        ),
        (
            "0 1e3",
            "token 2 (row) is not a non-negative integer: \"1e3\"",
        ),
    ] {
        let (verdict, _) = play_then(&cases()[0], 0, line);
        assert_eq!(verdict, Verdict::invalid(line, reason), "{line:?}");
    }
    let long = format!("0 {}", "9".repeat(LONG));
    let (verdict, _) = play_then(&cases()[0], 2, &long);
    let Verdict::Invalid { reason, .. } = verdict else {
        panic!("{verdict}")
    };
    assert!(reason.starts_with("token 2 (row) 9999"), "{reason}");
    assert!(reason.len() < 400, "{}", reason.len());
}
