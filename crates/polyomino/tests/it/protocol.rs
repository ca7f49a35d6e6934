//! The protocol's texts read back what they print, and its errors name the line and token.

use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::protocol::{
    Command, CommandError, TextError, format_case, format_command, format_piece, format_total,
    parse_case, parse_command, parse_piece, parse_total,
};
use marathon_polyomino::rules::{Piece, PieceSource, ShapeError};

#[test]
fn commands_round_trip() {
    for command in [
        Command::Get { size: 17 },
        Command::Place {
            index: 3,
            x: -1,
            y: 40,
            rotation: 2,
        },
        Command::Done,
    ] {
        let text = format_command(command);
        assert!(text.ends_with('\n'));
        assert_eq!(parse_command(&text), Ok(command));
    }
    assert_eq!(
        parse_command("  PLACE 1   2 3 0 \r"),
        Ok(Command::Place {
            index: 1,
            x: 2,
            y: 3,
            rotation: 0
        })
    );
}

#[test]
fn command_errors_name_the_token() {
    assert_eq!(parse_command(""), Err(CommandError::Empty));
    assert_eq!(
        parse_command("get 3"),
        Err(CommandError::Unknown { word: "get".into() })
    );
    assert_eq!(
        parse_command("GET"),
        Err(CommandError::Arity {
            command: "GET",
            expected: 1,
            found: 0
        })
    );
    assert_eq!(
        parse_command("PLACE 1 2 3"),
        Err(CommandError::Arity {
            command: "PLACE",
            expected: 4,
            found: 3
        })
    );
    assert_eq!(
        parse_command("DONE now"),
        Err(CommandError::Arity {
            command: "DONE",
            expected: 0,
            found: 1
        })
    );
    assert_eq!(
        parse_command("PLACE 1 2 x 0"),
        Err(CommandError::Number {
            token: 4,
            found: "x".into()
        })
    );
    assert_eq!(
        parse_command("GET 99999999999999999999")
            .unwrap_err()
            .to_string(),
        "token 2 must be a 64-bit integer (-9223372036854775808..=9223372036854775807), \
         got \"99999999999999999999\""
    );
}

#[test]
fn cases_round_trip() {
    for seed in [1, 7, u64::MAX] {
        let case = PolyominoCase::new(seed);
        let text = format_case(case.width, case.height, &case.covered);
        let lines: Vec<&str> = text.lines().collect();
        let (board, covered) = parse_case(&lines).unwrap();
        assert_eq!(covered, case.covered);
        assert_eq!(board, case.board());
    }
}

#[test]
fn case_errors_name_the_line() {
    assert_eq!(
        parse_case(&["3 2 1", "0 0", "1 1"]),
        Err(TextError::MissingLines {
            expected: 2,
            found: 3
        })
    );
    assert_eq!(
        parse_case(&["3 2 2", "0 0", "3 1"]),
        Err(TextError::Range {
            line: 3,
            what: "x",
            value: 3
        })
    );
    assert_eq!(
        parse_case(&["3 2 2", "0 0", "0 0"]),
        Err(TextError::Duplicate {
            line: 3,
            x: 0,
            y: 0
        })
    );
    assert_eq!(
        parse_case(&["3 2 7"]),
        Err(TextError::Range {
            line: 1,
            what: "covered count",
            value: 7
        })
    );
    assert_eq!(
        parse_case(&["3 2"]),
        Err(TextError::Tokens {
            line: 1,
            expected: 3,
            found: 2
        })
    );
    assert_eq!(
        parse_case(&["3 2 1", "0 y"]),
        Err(TextError::Number {
            line: 2,
            token: 2,
            found: "y".into()
        })
    );
}

#[test]
fn pieces_round_trip() {
    let mut pieces = PolyominoCase::new(4).pieces();
    for (index, size) in [3, 10, 50, 200].into_iter().enumerate() {
        let piece = pieces.next_piece(size);
        let text = format_piece(index, &piece);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), piece.height() + 1);
        assert_eq!(parse_piece(&lines), Ok((index, piece)));
    }
    assert_eq!(
        format_piece(5, &Piece::from_rows(&["X.", "XX"]).unwrap()),
        "5 2 2\nX.\nXX\n"
    );
    assert_eq!(parse_total(&format_total(12345)), Ok(12345));
}

#[test]
fn piece_errors_name_the_line() {
    assert_eq!(
        parse_piece(&["0 2 2", "X.", "X"]),
        Err(TextError::PieceRow {
            line: 3,
            expected: 2,
            found: "X".into()
        })
    );
    assert_eq!(
        parse_piece(&["0 2 2", "X.", "Xo"]),
        Err(TextError::PieceRow {
            line: 3,
            expected: 2,
            found: "Xo".into()
        })
    );
    assert_eq!(
        parse_piece(&["0 2 2", "X.", ".X"]),
        Err(TextError::Shape {
            error: ShapeError::NotConnected
        })
    );
    assert_eq!(
        parse_piece(&["0 1 3", "XX."]),
        Err(TextError::Shape {
            error: ShapeError::NotTight
        })
    );
    assert_eq!(
        parse_piece(&["0 3 1", "X"]),
        Err(TextError::MissingLines {
            expected: 4,
            found: 2
        })
    );
    assert_eq!(
        parse_total("-3").unwrap_err().to_string(),
        "line 1: total -3 is out of range"
    );
}
