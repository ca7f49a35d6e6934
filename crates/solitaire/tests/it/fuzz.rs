//! No reply can make the judge panic: the reply parser, the judge-text parsers and the judge
//! are fed huge, negative, overflowing, empty, long and non-ASCII lines, and every one ends in
//! a clear verdict.

use crate::{hostile, judged};

use std::io::BufRead;

use hostile::{
    LONG, assert_clear_error, assert_judged_as_the_rules_say, garbage_line, line_after, token,
};
use judged::{Script, expect_line, read_line};
use marathon_core::{CaseId, Verdict};
use marathon_solitaire::env::{SolitaireEnv, case_deal};
use marathon_solitaire::protocol::{Reply, format_reply, parse_board, parse_reply, parse_reveal};
use marathon_solitaire::rules::{Cell, SIZE, State};
use proptest::prelude::*;

/// Replies a player might send: `r c` with hostile numbers, small (often legal, or `0 0`, or
/// just off the board) cells, tokens, garbage.
fn reply_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (token(), token()).prop_map(|(r, c)| format!("{r} {c}")),
        3 => (-1i32..8, -1i32..8).prop_map(|(r, c)| format!("{r} {c}")),
        2 => line_after(Vec::new(), 3),
        1 => token(),
        2 => garbage_line(),
    ]
}

/// The player that removes the first legal cell each time, keeping the position from the
/// judge's board and reveals; after the hostile line it stops (`0 0`).
#[derive(Default)]
struct FirstLegal {
    state: Option<State>,
    /// The cell removed by the last legal reply, whose reveal the judge writes next.
    removed: Option<Cell>,
}

impl Script for FirstLegal {
    fn observe(&mut self, input: &mut dyn BufRead) -> std::io::Result<bool> {
        let Some(state) = &mut self.state else {
            let mut rows = Vec::new();
            for _ in 0..SIZE {
                rows.push(expect_line(input)?);
            }
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            self.state = Some(State::new(parse_board(&rows).expect("the judge's board")));
            return Ok(true);
        };
        let Some(line) = read_line(input)? else {
            return Ok(false);
        };
        // After the hostile line (a valid removal) the reveal is not needed: the player stops.
        if let Some(cell) = self.removed.take() {
            let reveal = parse_reveal(&line).expect("the judge's reveal");
            state.play(cell, reveal).expect("a legal removal");
        }
        Ok(true)
    }

    fn legal_reply(&mut self) -> Option<String> {
        let state = self.state.as_ref().expect("the board was read");
        if state.is_over() {
            return None;
        }
        let cell = Cell::from_index(state.legal().trailing_zeros() as usize);
        self.removed = Some(cell);
        Some(format_reply(Reply::Remove(cell)))
    }

    fn send_hostile(&mut self, received: &str) -> Option<String> {
        let state = self.state.as_ref().expect("the board was read");
        match parse_reply(received) {
            Err(e) => Some(e.to_string()),
            Ok(Reply::Stop) => None,
            Ok(Reply::Remove(cell)) => state.check(cell).err().map(|e| e.to_string()),
        }
    }

    fn after_hostile(&mut self) -> String {
        format_reply(Reply::Stop)
    }
}

/// Plays `case` with a player that removes the first legal cell `legal_moves` times (or until
/// no move is left), then sends `hostile`, then `0 0` if the game goes on. Returns the verdict
/// and the rules' refusal of the hostile line.
fn play_then(case: &CaseId, legal_moves: usize, hostile: &str) -> (Verdict, Option<String>) {
    let env = SolitaireEnv::new(case_deal(case).expect("a case of the table"));
    judged::play_then(env, FirstLegal::default(), legal_moves, hostile)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn replies_parse_or_fail_clearly(line in reply_line()) {
        match parse_reply(&line) {
            Ok(reply) => prop_assert_eq!(parse_reply(&format_reply(reply)), Ok(reply)),
            Err(e) => assert_clear_error(&e.to_string(), &line),
        }
    }

    /// The player's side reads the judge's text with the same care.
    #[test]
    fn judge_texts_parse_or_fail_clearly(
        lines in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(
                    prop::sample::select(vec!["1", "2", "dam", "torn", "springare", "lopare", "x"]),
                    5..=7,
                )
                .prop_map(|names| names.join(" ")),
                line_after(Vec::new(), 6),
                garbage_line(),
            ],
            5..=7,
        ),
    ) {
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        if let Err(e) = parse_board(&rows) {
            assert_clear_error(&e.to_string(), &lines.concat());
        }
        for line in &lines {
            if let Err(e) = parse_reveal(line) {
                assert_clear_error(&e.to_string(), line);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A hostile line at a random point of a real game: the judge refuses it exactly when the
    /// rules do on the position it answered, with their reason; a valid one plays on.
    #[test]
    fn the_judge_gives_a_clear_verdict_for_any_line(
        group in 1u32..=6,
        seed in 1u64..1000,
        legal_moves in 0usize..40,
        line in reply_line(),
    ) {
        let case = CaseId::in_group(group, seed);
        let (verdict, refusal) = play_then(&case, legal_moves, &line);
        assert_judged_as_the_rules_say(&verdict, &line, refusal);
    }
}

#[test]
fn huge_and_odd_cells_are_refused_by_name() {
    let case = CaseId::in_group(6, 1);
    for (line, reason) in [
        ("", "a reply is two integers `r c`, got 0 tokens"),
        (
            "9223372036854775807 1",
            "(9223372036854775807, 1) is not a cell (rows and columns are 1..6; `0 0` ends)",
        ),
        (
            "1 -9223372036854775808",
            "(1, -9223372036854775808) is not a cell (rows and columns are 1..6; `0 0` ends)",
        ),
        (
            "1 18446744073709551616",
            "the column 18446744073709551616 is not a cell (rows and columns are 1..6; \
             `0 0` ends)",
        ),
        ("1 1e3", "the column must be an integer, got \"1e3\""),
        (
            "0 7",
            "(0, 7) is not a cell (rows and columns are 1..6; `0 0` ends)",
        ),
    ] {
        let (verdict, _) = play_then(&case, 0, line);
        assert_eq!(verdict, Verdict::invalid(line, reason), "{line:?}");
    }
    let long = format!("1 {}", "9".repeat(LONG));
    let (verdict, _) = play_then(&case, 3, &long);
    let Verdict::Invalid { reason, .. } = verdict else {
        panic!("{verdict}")
    };
    assert!(reason.starts_with("the column 9999"), "{reason}");
    assert!(reason.len() < 400, "{}", reason.len());
}
