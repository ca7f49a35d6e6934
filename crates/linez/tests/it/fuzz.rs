//! No reply can make the judge panic: the move parser, the observation parser and the judge
//! are fed huge, negative, overflowing, empty, long and non-ASCII lines, and every one ends in
//! a clear verdict.

use crate::{hostile, judged};

use std::io::BufRead;

use hostile::{
    LONG, assert_clear_error, assert_judged_as_the_rules_say, garbage_line, line_after, token,
};
use judged::{Script, read_line};
use marathon_core::Verdict;
use marathon_linez::env::LinezEnv;
use marathon_linez::protocol::{
    OBSERVATION_LINES, format_move, parse_board, parse_move, parse_observation,
};
use marathon_linez::rules::Board;
use proptest::prelude::*;

/// Replies a player might send: four characters near the format (row letters, digits, other
/// letters and signs), well-formed moves (mostly illegal ones), tokens, garbage.
fn move_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[A-Ka-j0-9+\\-]{4}",
        3 => "[A-I][1-9][A-I][1-9]",
        1 => "[A-I][1-9][A-I][1-9][ \t\r]{0,2}",
        1 => "[A-I][1-9][A-I][1-9][^\n]{1,3}",
        1 => "[^\n]{4}",
        2 => line_after(Vec::new(), 4),
        1 => token(),
        2 => garbage_line(),
    ]
}

/// The player that makes the first legal move on each board the judge shows it.
#[derive(Default)]
struct FirstLegal {
    board: Option<Board>,
}

impl FirstLegal {
    fn board(&self) -> &Board {
        self.board.as_ref().expect("a board was observed")
    }
}

impl Script for FirstLegal {
    fn observe(&mut self, input: &mut dyn BufRead) -> std::io::Result<bool> {
        let mut lines = Vec::new();
        while lines.len() < OBSERVATION_LINES {
            let Some(line) = read_line(input)? else {
                return Ok(false);
            };
            lines.push(line);
        }
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (board, _) = parse_observation(&rows).expect("the judge's observation");
        self.board = Some(board);
        Ok(true)
    }

    fn legal_reply(&mut self) -> Option<String> {
        let mv = self.board().legal_moves().nth(0);
        Some(format_move(mv.expect("the judge asks only with a move")))
    }

    fn send_hostile(&mut self, received: &str) -> Option<String> {
        parse_move(received)
            .map_err(|e| e.to_string())
            .and_then(|mv| self.board().check_move(mv).map_err(|e| e.to_string()))
            .err()
    }

    fn after_hostile(&mut self) -> String {
        self.legal_reply().expect("a legal move")
    }
}

/// Plays `seed` with a player that makes the first legal move `legal_moves` times, then sends
/// `hostile`, then (if the game goes on) legal moves again until the end. Returns the verdict
/// and the rules' refusal of the hostile line on the board it answered.
fn play_then(seed: u64, legal_moves: usize, hostile: &str) -> (Verdict, Option<String>) {
    judged::play_then(
        LinezEnv::new(seed),
        FirstLegal::default(),
        legal_moves,
        hostile,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn moves_parse_or_fail_clearly(line in move_line()) {
        match parse_move(&line) {
            Ok(mv) => prop_assert_eq!(parse_move(&format_move(mv)), Ok(mv)),
            Err(e) => assert_clear_error(&e.to_string(), &line),
        }
    }

    /// The player's side reads the judge's text with the same care.
    #[test]
    fn observations_parse_or_fail_clearly(
        lines in prop::collection::vec(
            prop_oneof![
                "[.1-9]{9}",
                "[.0-9a-z ]{7,11}",
                "[1-8]{3}",
                line_after(Vec::new(), 3),
                garbage_line(),
            ],
            8..=11,
        ),
    ) {
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        if let Err(e) = parse_observation(&rows) {
            assert_clear_error(&e.to_string(), &lines.concat());
        }
        if let Err(e) = parse_board(&rows[..rows.len().min(9)]) {
            assert_clear_error(&e.to_string(), &lines.concat());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A hostile line at a random turn of a real game: the judge refuses it exactly when the
    /// rules do on the board it answered, with their reason; a legal one plays on to the end.
    #[test]
    fn the_judge_gives_a_clear_verdict_for_any_line(
        seed in 1u64..1000,
        legal_moves in 0usize..12,
        line in move_line(),
    ) {
        let (verdict, refusal) = play_then(seed, legal_moves, &line);
        assert_judged_as_the_rules_say(&verdict, &line, refusal);
    }
}

#[test]
fn long_and_odd_replies_are_refused_by_name() {
    for (line, reason) in [
        ("", "a move is 4 characters like I8F6, got 0"),
        ("I8F", "a move is 4 characters like I8F6, got 3"),
        ("I8F66", "a move is 4 characters like I8F6, got 5"),
        ("J8F6", "character 1 must be a row letter A..I, got 'J'"),
        ("I0F6", "character 2 must be a column digit 1..9, got '0'"),
        ("I8F-", "character 4 must be a column digit 1..9, got '-'"),
        ("I８F6", "character 2 must be a column digit 1..9, got '８'"),
    ] {
        let (verdict, _) = play_then(1, 0, line);
        assert_eq!(verdict, Verdict::invalid(line, reason), "{line:?}");
    }
    let long = "I8F6".repeat(LONG / 4);
    let (verdict, _) = play_then(1, 3, &long);
    assert_eq!(
        verdict,
        Verdict::invalid(&long, "a move is 4 characters like I8F6, got 100000")
    );
}
