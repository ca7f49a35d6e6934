//! The contest's text: symmetric printing and parsing, and errors that say what is wrong.

use marathon_tiles::protocol::{
    MoveParseError, ParamsParseError, TileParseError, format_move, format_params, format_tile,
    parse_move, parse_params, parse_tile,
};
use marathon_tiles::rules::{Move, Params, Pos, Tile};

#[test]
fn params_round_trip_and_are_checked() {
    let p = Params::new(6, 11, 3).unwrap();
    assert_eq!(format_params(p), "6 11 3");
    assert_eq!(parse_params(" 6 11 3\r"), Ok(p));
    assert_eq!(
        parse_params("6 11"),
        Err(ParamsParseError::TokenCount { found: 2 })
    );
    assert_eq!(
        parse_params("6 x 3"),
        Err(ParamsParseError::NotANumber {
            token: 2,
            found: "x".into()
        })
    );
    let error = parse_params("11 8 2").unwrap_err();
    assert_eq!(error.to_string(), "N = 11 is outside 4..=10");
    assert!(parse_params("4 8 5").is_err());
}

#[test]
fn tiles_round_trip_and_are_checked_against_n() {
    for tile in [
        Tile::Wild,
        Tile::Remove,
        Tile::Regular { color: 0, shape: 9 },
        Tile::Regular { color: 7, shape: 3 },
    ] {
        assert_eq!(parse_tile(&format_tile(tile), 10), Ok(tile));
    }
    assert_eq!(format_tile(Tile::Regular { color: 3, shape: 1 }), "31");
    assert_eq!(
        parse_tile("35", 5),
        Err(TileParseError::OutOfRange {
            what: "shape",
            value: 5,
            n: 5
        })
    );
    for bad in ["", "w", "X", "123", "3", "a1"] {
        assert!(
            matches!(parse_tile(bad, 10), Err(TileParseError::Malformed { .. })),
            "{bad:?}"
        );
    }
}

#[test]
fn moves_round_trip() {
    for mv in [
        Move::Place(Pos::new(0, 0)),
        Move::Place(Pos::new(11, 7)),
        Move::Discard,
        Move::GiveUp,
    ] {
        assert_eq!(parse_move(&format_move(mv)), Ok(mv));
    }
    assert_eq!(format_move(Move::Place(Pos::new(3, 10))), "3 10");
    assert_eq!(parse_move("  3\t10 \r"), Ok(Move::Place(Pos::new(3, 10))));
    assert_eq!(parse_move("GIVE  UP"), Ok(Move::GiveUp));
}

#[test]
fn bad_replies_say_what_is_wrong() {
    assert_eq!(parse_move("   "), Err(MoveParseError::Empty));
    for bad in ["discard", "GIVEUP", "1 2 3", "R", "PASS"] {
        assert!(
            matches!(parse_move(bad), Err(MoveParseError::Malformed { .. })),
            "{bad:?}"
        );
    }
    assert_eq!(
        parse_move("-1 4"),
        Err(MoveParseError::BadIndex {
            token: 1,
            found: "-1".into()
        })
    );
    assert_eq!(
        parse_move("4 300"),
        Err(MoveParseError::TooLarge {
            token: 2,
            found: "300".into()
        })
    );
    assert_eq!(
        parse_move("4 +3").unwrap_err().to_string(),
        "the column \"+3\" is not a cell index"
    );
    assert_eq!(
        parse_move("18446744073709551616 0")
            .unwrap_err()
            .to_string(),
        "the row 18446744073709551616 is off every board (S is at most 12)"
    );
}
