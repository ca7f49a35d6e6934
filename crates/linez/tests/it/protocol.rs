//! The contest's text: observations and moves, their errors, and a statement example.

use marathon_linez::protocol::{
    MoveParseError, ObservationError, format_move, format_observation, parse_board, parse_move,
    parse_observation,
};
use marathon_linez::rules::{Board, Cell, Move};

/// Example 0 of the statement.
const EXAMPLE: &str = "\
.........
.....4...
.........
......5..
.........
.........
......3..
.........
.........
545
";

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn reads_the_statement_example() {
    let (board, preview) = parse_observation(&lines(EXAMPLE)).unwrap();
    assert_eq!(preview, [5, 4, 5]);
    assert_eq!(board.ball_count(), 3);
    assert_eq!(board.get(Cell::new(1, 5)), Some(4));
    assert_eq!(board.get(Cell::new(3, 6)), Some(5));
    assert_eq!(board.get(Cell::new(6, 6)), Some(3));
    assert_eq!(format_observation(&board, &preview), EXAMPLE);
}

#[test]
fn formats_rows_top_first() {
    let mut board = Board::empty();
    board.put(Cell::new(0, 0), 7);
    board.put(Cell::new(8, 8), 1);
    let text = format_observation(&board, &[1, 2, 3]);
    let want = "7........\n".to_string() + &".........\n".repeat(7) + "........1\n123\n";
    assert_eq!(text, want);
}

#[test]
fn tolerates_surrounding_whitespace_and_crlf() {
    let text = EXAMPLE.replace('\n', " \r\n");
    let (board, preview) = parse_observation(&lines(&text)).unwrap();
    assert_eq!(
        (board, preview),
        parse_observation(&lines(EXAMPLE)).unwrap()
    );
}

#[test]
fn observation_errors_name_the_line() {
    let good = lines(EXAMPLE);

    assert_eq!(
        parse_observation(&good[..9]),
        Err(ObservationError::LineCount {
            expected: 10,
            found: 9
        })
    );

    let mut bad = good.clone();
    bad[2] = "....8....";
    let err = parse_observation(&bad).unwrap_err();
    assert_eq!(
        err,
        ObservationError::BadChar {
            line: 3,
            column: 5,
            found: '8'
        }
    );
    assert_eq!(
        err.to_string(),
        "line 3, column 5: unexpected character '8'"
    );

    let mut bad = good.clone();
    bad[3] = "......5.";
    let err = parse_observation(&bad).unwrap_err();
    assert_eq!(
        err,
        ObservationError::LineLength {
            line: 4,
            expected: 9,
            found: 8
        }
    );
    assert_eq!(err.to_string(), "line 4: expected 9 characters, got 8");

    let mut bad = good.clone();
    bad[0] = "0........";
    assert_eq!(
        parse_observation(&bad),
        Err(ObservationError::BadChar {
            line: 1,
            column: 1,
            found: '0'
        })
    );

    let mut bad = good.clone();
    bad[9] = "5.5";
    assert_eq!(
        parse_observation(&bad),
        Err(ObservationError::BadChar {
            line: 10,
            column: 2,
            found: '.'
        })
    );

    let mut bad = good.clone();
    bad[9] = "5455";
    assert_eq!(
        parse_observation(&bad),
        Err(ObservationError::LineLength {
            line: 10,
            expected: 3,
            found: 4
        })
    );

    assert_eq!(
        parse_board(&good[..8]),
        Err(ObservationError::LineCount {
            expected: 9,
            found: 8
        })
    );
}

#[test]
fn move_text_is_row_letter_then_column_digit() {
    let mv = parse_move("I8F6").unwrap();
    assert_eq!(mv.from, Cell::new(8, 7));
    assert_eq!(mv.to, Cell::new(5, 5));
    assert_eq!(format_move(mv), "I8F6");
    assert_eq!(
        parse_move(" A1I9\n").unwrap(),
        Move::new(Cell::new(0, 0), Cell::new(8, 8))
    );
    assert_eq!("E5E6".parse::<Move>(), parse_move("E5E6"));
}

#[test]
fn move_errors_say_which_character() {
    assert_eq!(parse_move("I8F"), Err(MoveParseError::Length { found: 3 }));
    assert_eq!(
        parse_move("I8F66"),
        Err(MoveParseError::Length { found: 5 })
    );
    assert_eq!(parse_move(""), Err(MoveParseError::Length { found: 0 }));
    assert_eq!(
        parse_move("J1A1"),
        Err(MoveParseError::Row {
            position: 1,
            found: 'J'
        })
    );
    assert_eq!(
        parse_move("A0A1"),
        Err(MoveParseError::Column {
            position: 2,
            found: '0'
        })
    );
    assert_eq!(
        parse_move("A1@1"),
        Err(MoveParseError::Row {
            position: 3,
            found: '@'
        })
    );
    assert_eq!(
        parse_move("A1AA"),
        Err(MoveParseError::Column {
            position: 4,
            found: 'A'
        })
    );
    // Counted in characters, not bytes.
    assert_eq!(
        parse_move("É1A1"),
        Err(MoveParseError::Row {
            position: 1,
            found: 'É'
        })
    );

    let lowercase = parse_move("a1a2").unwrap_err();
    assert_eq!(
        lowercase,
        MoveParseError::Row {
            position: 1,
            found: 'a'
        }
    );
    assert_eq!(
        lowercase.to_string(),
        "character 1 must be a row letter A..I, got 'a' (row letters are uppercase)"
    );
    assert_eq!(
        parse_move("I8F").unwrap_err().to_string(),
        "a move is 4 characters like I8F6, got 3"
    );
    assert_eq!(
        parse_move("A0A1").unwrap_err().to_string(),
        "character 2 must be a column digit 1..9, got '0'"
    );
}
