//! No reply can make the judge panic: the protocol parsers and the judge are fed huge, negative,
//! overflowing, empty, long and non-ASCII lines, and every one ends in a clear verdict.

use crate::{hostile, judged};

use std::io::BufRead;

use hostile::{
    assert_clear_error, assert_judged_as_the_rules_say, garbage_line, line_after, token,
};
use judged::{Script, expect_line, read_line};
use marathon_core::Verdict;
use marathon_polyomino::env::PolyominoEnv;
use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::protocol::{
    Command, format_command, parse_case, parse_case_header, parse_cell, parse_command, parse_piece,
    parse_piece_header, parse_total,
};
use marathon_polyomino::rules::{Board, Piece, Session};
use proptest::prelude::*;

/// Stands for the index of the last piece handed out, in a hostile line.
const LAST: &str = "{last}";

/// Lines a player might send: each command word with hostile arguments (the piece index
/// sometimes a real one), a bare list of tokens, or garbage.
fn command_line() -> impl Strategy<Value = String> {
    let place_real =
        (token(), token(), token()).prop_map(|(x, y, r)| format!("PLACE {LAST} {x} {y} {r}"));
    prop_oneof![
        3 => place_real,
        2 => line_after(vec!["PLACE".into()], 6),
        2 => line_after(vec!["GET".into()], 3),
        1 => line_after(vec!["DONE".into()], 2),
        1 => line_after(Vec::new(), 5),
        2 => garbage_line(),
    ]
}

/// The first position (row-major, rotation 0) where `piece` fits on `board`.
fn first_fit(board: &Board, piece: &Piece) -> Option<(usize, usize)> {
    (0..board.height() as i64)
        .flat_map(|y| (0..board.width() as i64).map(move |x| (x, y)))
        .find_map(|(x, y)| board.check_fit(piece, x, y).ok())
}

/// What the judge answers the player's last line with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Awaiting {
    Case,
    Piece,
    Total,
    /// The hostile line went: `DONE` follows it at once, whatever the judge makes of it.
    Nothing,
    /// `DONE` went: whatever the judge still says (a piece, a total), until it closes.
    Rest,
}

/// The player that asks for its sizes one after another, placing each piece at its first fit
/// except the last one, then sends the hostile line and `DONE`.
struct Sizes {
    seed: u64,
    sizes: Vec<i64>,
    /// How many of `sizes` it has asked for.
    asked: usize,
    board: Option<Board>,
    /// The piece the last `GET` handed out.
    held: Option<(usize, Piece)>,
    awaiting: Awaiting,
    /// Every line sent before the hostile one.
    sent: Vec<String>,
}

impl Sizes {
    fn send(&mut self, line: String, awaiting: Awaiting) -> Option<String> {
        self.sent.push(line.clone());
        self.awaiting = awaiting;
        Some(line)
    }
}

impl Script for Sizes {
    fn observe(&mut self, input: &mut dyn BufRead) -> std::io::Result<bool> {
        match self.awaiting {
            Awaiting::Case => {
                let header = expect_line(input)?;
                let (_, _, count) = parse_case_header(&header).expect("the judge's header");
                let mut case = vec![header];
                for _ in 0..count {
                    case.push(expect_line(input)?);
                }
                self.board = Some(parse_case(&case).expect("the judge's case").0);
            }
            Awaiting::Piece => {
                let header = expect_line(input)?;
                let height: usize = header.split_whitespace().nth(1).unwrap().parse().unwrap();
                let mut text = vec![header];
                for _ in 0..height {
                    text.push(expect_line(input)?);
                }
                self.held = Some(parse_piece(&text).expect("the judge's piece"));
            }
            Awaiting::Total => {
                expect_line(input)?;
            }
            Awaiting::Nothing => {}
            Awaiting::Rest => {
                while read_line(input)?.is_some() {}
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn legal_reply(&mut self) -> Option<String> {
        let last = self.asked == self.sizes.len();
        if let Some((index, piece)) = self.held.take()
            && !last
        {
            let board = self.board.as_mut().expect("the case was read");
            if let Some((x, y)) = first_fit(board, &piece) {
                board.cover_piece(&piece, x, y);
                return self.send(format!("PLACE {index} {x} {y} 0"), Awaiting::Total);
            }
        }
        let &size = self.sizes.get(self.asked)?;
        self.asked += 1;
        self.send(format!("GET {size}"), Awaiting::Piece)
    }

    fn send_hostile(&mut self, received: &str) -> Option<String> {
        self.awaiting = Awaiting::Nothing;
        refusal(self.seed, &self.sent, received)
    }

    fn after_hostile(&mut self) -> String {
        self.awaiting = Awaiting::Rest;
        "DONE".to_string()
    }
}

/// Plays `seed` with a player that asks for `sizes` one after another, placing each piece at
/// its first fit except the last one, then sends `hostile` (with [`LAST`] replaced by the last
/// piece's index) and `DONE`. Returns the verdict, the rules' refusal of the hostile line after
/// the player's calls, and the hostile line as sent.
fn play_then(seed: u64, sizes: &[i64], hostile: &str) -> (Verdict, Option<String>, String) {
    let hostile = hostile.replace(LAST, &(sizes.len() - 1).to_string());
    let script = Sizes {
        seed,
        sizes: sizes.to_vec(),
        asked: 0,
        board: None,
        held: None,
        awaiting: Awaiting::Case,
        sent: Vec::new(),
    };
    let env = PolyominoEnv::new(seed);
    let (verdict, refusal) = judged::play_then(env, script, usize::MAX, &hostile);
    (verdict, refusal, hostile)
}

/// What the rules say of `line` after the calls `before` on a fresh session of `seed`:
/// `None` if they accept it, else the reason.
fn refusal(seed: u64, before: &[String], line: &str) -> Option<String> {
    let case = PolyominoCase::new(seed);
    let mut session = Session::new(case.board(), case.pieces());
    let mut apply = |line: &str| -> Result<(), String> {
        match parse_command(line).map_err(|e| e.to_string())? {
            Command::Get { size } => session.get_next(size).map(drop).map_err(|e| e.to_string()),
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => session
                .place_next(index, x, y, rotation)
                .map(drop)
                .map_err(|e| e.to_string()),
            Command::Done => Ok(()),
        }
    };
    for line in before {
        apply(line).expect("the player's own calls are valid");
    }
    apply(line).err()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn commands_parse_or_fail_clearly(line in command_line()) {
        match parse_command(&line) {
            Ok(command) => prop_assert_eq!(parse_command(&format_command(command)), Ok(command)),
            Err(e) => assert_clear_error(&e.to_string(), &line),
        }
    }

    /// The player's side reads the judge's text with the same care.
    #[test]
    fn judge_texts_parse_or_fail_clearly(
        lines in prop::collection::vec(
            prop_oneof![line_after(Vec::new(), 4), garbage_line(), Just("X.X".to_string())],
            0..4,
        ),
        width in 0usize..300,
        height in 0usize..300,
    ) {
        let first = lines.first().map_or("", String::as_str);
        for error in [
            parse_case(&lines).err().map(|e| e.to_string()),
            parse_piece(&lines).err().map(|e| e.to_string()),
            parse_case_header(first).err().map(|e| e.to_string()),
            parse_piece_header(first).err().map(|e| e.to_string()),
            parse_cell(first, 1, width, height).err().map(|e| e.to_string()),
            parse_total(first).err().map(|e| e.to_string()),
        ]
        .into_iter()
        .flatten()
        {
            assert_clear_error(&error, first);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A hostile line after a few valid calls: the judge refuses it exactly when the rules do,
    /// with the rules' reason, or plays on to `DONE` when it happens to be valid.
    #[test]
    fn the_judge_gives_a_clear_verdict_for_any_line(
        seed in prop::sample::select(vec![1u64, 5, 7]),
        sizes in prop::collection::vec(3i64..=8, 1..5),
        line in command_line(),
    ) {
        let (verdict, refusal, sent) = play_then(seed, &sizes, &line);
        assert_judged_as_the_rules_say(&verdict, &sent, refusal);
    }
}

/// The player that reads the case, asks for a tromino and sends `line` (with [`LAST`] its
/// index): the reason the judge gives.
fn reason_for(line: &str) -> String {
    let (verdict, _, _) = play_then(5, &[3], line);
    match verdict {
        Verdict::Invalid { reason, .. } => reason,
        other => panic!("expected an invalid verdict for {line:?}, got {other}"),
    }
}

#[test]
fn a_huge_x_is_off_the_board_not_an_overflow() {
    // Issue 32: `x + width` overflowed in `check_fit` and the judge panicked.
    let reason = reason_for("PLACE {last} 9223372036854775807 0 0");
    assert_eq!(
        reason,
        "piece 0 at (9223372036854775807, 0) rotation 0 leaves the board: \
         x = 9223372036854775807 is off the 156-wide board"
    );
    let reason = reason_for("PLACE {last} 0 9223372036854775806 0");
    assert!(
        reason.ends_with("y = 9223372036854775806 is off the 23-high board"),
        "{reason}"
    );
    let reason = reason_for("PLACE {last} -9223372036854775808 0 0");
    assert!(
        reason.ends_with("x = -9223372036854775808 is off the 156-wide board"),
        "{reason}"
    );
}

#[test]
fn numbers_past_64_bits_are_named_as_such() {
    let reason = reason_for("PLACE {last} 9223372036854775808 0 0");
    assert_eq!(
        reason,
        "token 3 must be a 64-bit integer (-9223372036854775808..=9223372036854775807), \
         got \"9223372036854775808\""
    );
    let reason = reason_for("GET -99999999999999999999999");
    assert!(
        reason.starts_with("token 2 must be a 64-bit integer"),
        "{reason}"
    );
    assert!(
        reason_for("GET 1e400").starts_with("token 2 must be an integer, got \"1e400\""),
        "the float is not an integer"
    );
}

#[test]
fn a_megabyte_token_makes_a_short_reason() {
    let word = "X".repeat(900_000);
    let reason = reason_for(&word);
    assert!(reason.starts_with("unknown command \"XXX"), "{reason}");
    assert!(reason.len() < 400, "{}", reason.len());
    let number = "9".repeat(900_000);
    let reason = reason_for(&format!("GET {number}"));
    assert!(
        reason.starts_with("token 2 must be a 64-bit integer"),
        "{reason}"
    );
    assert!(reason.len() < 400, "{}", reason.len());
}
