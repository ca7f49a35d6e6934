//! The contest's text: observations and moves, printed and parsed symmetrically, with errors
//! that say where.

use marathon_reversi::protocol::{
    MoveParseError, MoveText, ObservationError, format_move, format_observation, parse_move,
    parse_observation,
};
use marathon_reversi::rules::{Cell, State};

const START_7: &str = "7\n....... ....... ..123.. ..231.. ..312.. ....... .......\n";

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn the_start_board_is_sent_as_size_then_rows_on_one_line() {
    let board = State::new(7).board;
    assert_eq!(format_observation(&board), START_7);
    assert_eq!(parse_observation(&lines(START_7)).unwrap(), board);
}

#[test]
fn every_size_round_trips() {
    for size in 7..=12 {
        let board = State::new(size).board;
        let text = format_observation(&board);
        assert_eq!(
            parse_observation(&lines(&text)).unwrap(),
            board,
            "size {size}"
        );
    }
}

#[test]
fn tolerates_extra_spaces_and_crlf() {
    let text = START_7.replace('\n', " \r\n").replace(' ', "  ");
    assert_eq!(
        parse_observation(&lines(&text)).unwrap(),
        State::new(7).board
    );
}

#[test]
fn observation_errors_say_where() {
    let good = lines(START_7);
    assert_eq!(
        parse_observation(&good[..1]),
        Err(ObservationError::LineCount { found: 1 })
    );
    assert_eq!(
        parse_observation(&["13", good[1]]),
        Err(ObservationError::Size { found: "13".into() })
    );
    assert_eq!(
        parse_observation(&["seven", good[1]]),
        Err(ObservationError::Size {
            found: "seven".into()
        })
    );
    assert_eq!(
        parse_observation(&["7", "....... ......."]),
        Err(ObservationError::RowCount {
            expected: 7,
            found: 2
        })
    );
    let short = good[1].replacen(".......", "......", 1);
    assert_eq!(
        parse_observation(&["7", &short]),
        Err(ObservationError::RowLength {
            row: 0,
            expected: 7,
            found: 6
        })
    );
    // A 4th player on a 3-player board.
    let four = good[1].replacen("..123..", "..124..", 1);
    assert_eq!(
        parse_observation(&["7", &four]),
        Err(ObservationError::BadChar {
            row: 2,
            col: 4,
            found: '4'
        })
    );
    let err = parse_observation(&["7", &four]).unwrap_err().to_string();
    assert!(err.contains("row 2") && err.contains("column 4"), "{err}");
}

#[test]
fn moves_are_column_then_row() {
    let cell = Cell::new(2, 5);
    assert_eq!(format_move(cell), "5 2");
    assert_eq!(parse_move("5 2"), Ok(MoveText { col: 5, row: 2 }));
    assert_eq!(parse_move("  5\t2 \r"), Ok(MoveText { col: 5, row: 2 }));
    assert_eq!(
        parse_move("5 2").unwrap().cell(&State::new(7).board),
        Some(cell)
    );
    assert_eq!(parse_move("7 0").unwrap().cell(&State::new(7).board), None);
}

#[test]
fn move_errors_name_the_token() {
    assert_eq!(parse_move(""), Err(MoveParseError::TokenCount { found: 0 }));
    assert_eq!(
        parse_move("1 2 3"),
        Err(MoveParseError::TokenCount { found: 3 })
    );
    assert_eq!(
        parse_move("x 2"),
        Err(MoveParseError::NotANumber {
            position: 1,
            found: "x".into()
        })
    );
    assert_eq!(
        parse_move("1 -2"),
        Err(MoveParseError::NotANumber {
            position: 2,
            found: "-2".into()
        })
    );
    assert_eq!(
        parse_move("+1 2"),
        Err(MoveParseError::NotANumber {
            position: 1,
            found: "+1".into()
        })
    );
    assert!(parse_move("1 x").unwrap_err().to_string().contains("row"));
    // Digits too many for a `usize`: off every board, not "not an integer".
    assert_eq!(
        parse_move("1 18446744073709551616")
            .unwrap_err()
            .to_string(),
        "token 2 (row) 18446744073709551616 is off every board (at most 12x12)"
    );
}
