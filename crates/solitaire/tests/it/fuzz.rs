//! No reply can make the judge panic: the reply parser, the judge-text parsers and the judge
//! are fed huge, negative, overflowing, empty, long and non-ASCII lines, and every one ends in
//! a clear verdict.

use crate::hostile;

use hostile::{
    LONG, assert_clear_error, assert_judged_as_the_rules_say, expect_line, garbage_line,
    judge_against, line_after, read_line, token,
};
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

/// Plays `case` with a player that removes the first legal cell `legal_moves` times (or until
/// no move is left), then sends `hostile`, then `0 0` if the game goes on. Returns the verdict
/// and the rules' refusal of the hostile line.
fn play_then(case: &CaseId, legal_moves: usize, hostile: &str) -> (Verdict, Option<String>) {
    let line = hostile.to_string();
    judge_against(
        SolitaireEnv::new(case_deal(case).expect("a case of the table")),
        move |input, output, record| {
            let mut rows = Vec::new();
            for _ in 0..SIZE {
                rows.push(expect_line(input)?);
            }
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let mut state = State::new(parse_board(&rows).expect("the judge's board"));
            while (state.moves() as usize) < legal_moves && !state.is_over() {
                let cell = Cell::from_index(state.legal().trailing_zeros() as usize);
                writeln!(output, "{}", format_reply(Reply::Remove(cell)))?;
                output.flush()?;
                let reveal = parse_reveal(&expect_line(input)?).expect("the judge's reveal");
                state.play(cell, reveal).expect("a legal removal");
            }
            let received = line.strip_suffix('\r').unwrap_or(&line);
            let refusal = match parse_reply(received) {
                Err(e) => Some(e.to_string()),
                Ok(Reply::Stop) => None,
                Ok(Reply::Remove(cell)) => state.check(cell).err().map(|e| e.to_string()),
            };
            record.record(refusal);
            writeln!(output, "{line}")?;
            output.flush()?;
            // A valid removal is answered; then the player stops.
            if read_line(input)?.is_some() {
                writeln!(output, "0 0")?;
                output.flush()?;
            }
            while read_line(input)?.is_some() {}
            Ok(())
        },
    )
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
