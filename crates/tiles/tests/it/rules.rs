//! The rules on hand-made positions (docs/rules.md#tilesmatching). Pictures: `.` empty, `W`
//! wildcard, `CS` colour and shape digits; rows top first.

use marathon_tiles::rules::{Board, MAX_MOVES, Move, MoveError, Outcome, Params, Pos, State, Tile};

const P: Params = Params { n: 4, s: 8, d: 2 };

fn state(picture: &str) -> State {
    State::with_board(
        P,
        Board::from_picture(P, picture).expect("a valid picture"),
        0,
    )
}

fn place(row: u8, col: u8) -> Move {
    Move::Place(Pos::new(row, col))
}

fn tile(color: u8, shape: u8) -> Tile {
    Tile::Regular { color, shape }
}

const CROSS: &str = "
    . . . . . . . .
    . . 00 . . . . .
    . 11 . 01 . . . .
    . . W . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .";

#[test]
fn a_tile_must_match_every_neighbour_in_colour_or_shape() {
    let s = state(CROSS);
    // (2,2) has neighbours 00 above, 11 left, 01 right and W below.
    // 01: colour 0 matches 00 and 01, shape 1 matches 11: legal.
    assert_eq!(s.check(tile(0, 1), place(2, 2)), Ok(()));
    // 10: matches 00 by shape, 11 by colour, but not 01 (colour 1 vs 0, shape 0 vs 1).
    assert_eq!(
        s.check(tile(1, 0), place(2, 2)),
        Err(MoveError::Mismatch {
            pos: Pos::new(2, 2),
            neighbour: Pos::new(2, 3)
        })
    );
    // 00 matches 00 and 01 but not 11.
    assert_eq!(
        s.check(tile(0, 0), place(2, 2)),
        Err(MoveError::Mismatch {
            pos: Pos::new(2, 2),
            neighbour: Pos::new(2, 1)
        })
    );
    // 22 matches nothing around it.
    assert!(s.check(tile(2, 2), place(2, 2)).is_err());
}

#[test]
fn a_wildcard_neighbour_matches_anything_and_a_wildcard_goes_anywhere_adjacent() {
    let s = state(CROSS);
    // (4,2) has only the W above it: every regular tile fits.
    for c in 0..4 {
        for sh in 0..4 {
            assert_eq!(s.check(tile(c, sh), place(4, 2)), Ok(()));
        }
    }
    // (3,1) has 11 above and W right: 1x or x1 only.
    assert_eq!(s.check(tile(1, 3), place(3, 1)), Ok(()));
    assert_eq!(s.check(tile(3, 1), place(3, 1)), Ok(()));
    assert!(s.check(tile(2, 3), place(3, 1)).is_err());
    // A W fits where no regular tile does.
    assert_eq!(s.check(Tile::Wild, place(2, 2)), Ok(()));
    assert_eq!(
        s.check(Tile::Wild, place(7, 7)),
        Err(MoveError::NotAdjacent {
            pos: Pos::new(7, 7)
        })
    );
}

#[test]
fn placement_needs_an_empty_adjacent_cell_on_the_board() {
    let s = state(CROSS);
    assert_eq!(
        s.check(tile(0, 0), place(6, 6)),
        Err(MoveError::NotAdjacent {
            pos: Pos::new(6, 6)
        })
    );
    assert_eq!(
        s.check(tile(0, 0), place(1, 2)),
        Err(MoveError::Occupied {
            pos: Pos::new(1, 2)
        })
    );
    assert_eq!(
        s.check(tile(0, 0), place(8, 0)),
        Err(MoveError::OffBoard {
            pos: Pos::new(8, 0),
            size: 8
        })
    );
    assert_eq!(
        s.check(tile(4, 0), place(0, 2)),
        Err(MoveError::BadTile { tile: tile(4, 0) })
    );
}

#[test]
fn an_empty_board_takes_a_wildcard_anywhere_and_nothing_else() {
    let s = State::new(P);
    assert_eq!(s.check(Tile::Wild, place(5, 6)), Ok(()));
    assert!(s.check(tile(0, 0), place(5, 6)).is_err());
    assert_eq!(
        s.check(Tile::Remove, place(5, 6)),
        Err(MoveError::RemoveOnEmpty {
            pos: Pos::new(5, 6)
        })
    );
    let legal = s.legal_moves(Tile::Wild);
    assert_eq!(legal.len(), 64 + 1, "every cell and DISCARD");
}

#[test]
fn remove_takes_a_placed_tile_scores_one_and_never_clears() {
    let mut s = state(CROSS);
    assert_eq!(
        s.check(Tile::Remove, place(0, 0)),
        Err(MoveError::RemoveOnEmpty {
            pos: Pos::new(0, 0)
        })
    );
    assert_eq!(s.play(Tile::Remove, place(3, 2)), Ok(Outcome::Removed));
    assert_eq!(s.board.get(Pos::new(3, 2)), 0);
    assert_eq!(s.board.tile_count(), 3);
    assert_eq!((s.used, s.moves, s.score()), (1, 1, 1));
}

#[test]
fn the_discard_counter_rises_by_one_falls_by_one_and_stops_at_d() {
    let mut s = state(CROSS);
    assert_eq!(s.play(tile(2, 2), Move::Discard), Ok(Outcome::Discarded));
    assert_eq!(s.play(tile(2, 2), Move::Discard), Ok(Outcome::Discarded));
    assert_eq!(s.counter, 2);
    // At the limit D = 2 a discard is invalid, and the state is unchanged.
    let before = s.clone();
    assert_eq!(
        s.play(tile(2, 2), Move::Discard),
        Err(MoveError::DiscardLimit { limit: 2 })
    );
    assert_eq!(s, before);
    assert!(!s.legal_moves(tile(2, 2)).contains(&Move::Discard));
    // Using a tile lowers it, not below 0.
    s.play(Tile::Wild, place(4, 2)).unwrap();
    assert_eq!(s.counter, 1);
    s.play(Tile::Remove, place(4, 2)).unwrap();
    s.play(Tile::Wild, place(4, 2)).unwrap();
    assert_eq!(s.counter, 0);
    assert_eq!((s.moves, s.used, s.score()), (5, 3, 3));
}

#[test]
fn a_full_row_clears_and_scores_s() {
    let mut s = state(
        "
        00 01 02 03 00 01 02 .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .",
    );
    assert_eq!(
        s.play(tile(0, 3), place(0, 7)),
        Ok(Outcome::Placed {
            row: true,
            col: false
        })
    );
    assert!(s.board.is_empty());
    assert_eq!((s.single_clears, s.double_clears), (1, 0));
    assert_eq!(s.score(), 1 + 8);
}

#[test]
fn a_double_clear_removes_2s_minus_1_tiles_and_scores_3s() {
    let mut s = state(
        "
        . . . 00 . . . .
        . . . 00 . . . .
        . . . 00 . . . .
        00 00 00 . 00 00 00 00
        . . . 00 . . . .
        . . . 00 11 . . .
        . . . 00 . . . .
        . . . 00 . . . .",
    );
    assert_eq!(s.board.tile_count(), 2 * 8 - 2 + 1);
    assert_eq!(
        s.play(tile(0, 2), place(3, 3)),
        Ok(Outcome::Placed {
            row: true,
            col: true
        })
    );
    // 2S - 1 = 15 tiles went; the 11 off both lines stays.
    assert_eq!(s.board.tile_count(), 1);
    assert_eq!(
        s.board.get(Pos::new(5, 4)),
        Tile::Regular { color: 1, shape: 1 }.code(4).unwrap()
    );
    assert_eq!((s.single_clears, s.double_clears), (0, 1));
    assert_eq!(s.score(), 1 + 3 * 8);
    for i in 0..8 {
        assert_eq!(
            (s.board.row_fill(i), s.board.col_fill(i)),
            (u8::from(i == 5), u8::from(i == 4))
        );
    }
}

#[test]
fn a_full_column_clears_only_through_the_placed_tile() {
    // Column 0 is full after the move, row 7 is not.
    let mut s = state(
        "
        W . . . . . . .
        W . . . . . . .
        W . . . . . . .
        W . . . . . . .
        W . . . . . . .
        W . . . . . . .
        W . . . . . . .
        . 12 . . . . . .",
    );
    assert_eq!(
        s.play(tile(3, 2), place(7, 0)),
        Ok(Outcome::Placed {
            row: false,
            col: true
        })
    );
    assert_eq!(s.board.tile_count(), 1);
    assert_eq!(s.score(), 1 + 8);
}

#[test]
fn give_up_ends_the_game_with_the_score_so_far() {
    let mut s = state(CROSS);
    s.play(Tile::Wild, place(4, 2)).unwrap();
    assert_eq!(s.play(tile(0, 0), Move::GiveUp), Ok(Outcome::GaveUp));
    assert!(s.is_over());
    assert_eq!((s.score(), s.moves), (1, 1));
    assert_eq!(s.play(Tile::Wild, place(5, 2)), Err(MoveError::GameOver));
}

#[test]
fn the_game_stops_after_10000_moves_discards_included() {
    let mut s = state(CROSS);
    let mut turn = 0;
    while !s.is_over() {
        // Alternate a discard and a W put then removed, so the counter stays below D.
        let mv = match turn % 3 {
            0 => s.play(tile(3, 3), Move::Discard),
            1 => s.play(Tile::Wild, place(4, 2)),
            _ => s.play(Tile::Remove, place(4, 2)),
        };
        mv.expect("legal");
        turn += 1;
    }
    assert_eq!(s.moves, MAX_MOVES);
    assert_eq!(turn, MAX_MOVES);
    assert_eq!(s.used, MAX_MOVES - MAX_MOVES.div_ceil(3));
    assert_eq!(s.check(Tile::Wild, place(4, 2)), Err(MoveError::GameOver));
}

#[test]
fn pictures_print_and_parse_back() {
    let s = state(CROSS);
    let printed = format!("{:?}", s.board);
    assert_eq!(Board::from_picture(P, &printed).unwrap(), s.board);
    assert!(Board::from_picture(P, "00").is_err());
}
