//! The rules on hand-checked positions: rotations, every refused call, the score and the
//! session's figures, the free regions.

use std::time::Duration;

use marathon_polyomino::rules::{
    Axis, Board, Piece, PieceSource, PlaceProblem, RuleError, Session, ShapeError, final_score,
};

/// Hands out the given pieces in turn (cycling).
struct Fixed(Vec<Piece>, usize);

impl PieceSource for Fixed {
    fn next_piece(&mut self, size: usize) -> Piece {
        let piece = self.0[self.1 % self.0.len()].clone();
        self.1 += 1;
        assert_eq!(piece.size(), size, "the test asks for the sizes it set up");
        piece
    }
}

fn piece(rows: &[&str]) -> Piece {
    Piece::from_rows(rows).unwrap()
}

#[test]
fn rotations_turn_counter_clockwise() {
    let p = piece(&["XXX", "X.."]);
    assert_eq!(p.rotated(0).rows(), ["XXX", "X.."]);
    // A quarter turn counter-clockwise: the top-right corner becomes the top-left one.
    assert_eq!(p.rotated(1).rows(), ["X.", "X.", "XX"]);
    assert_eq!(p.rotated(2).rows(), ["..X", "XXX"]);
    assert_eq!(p.rotated(3).rows(), ["XX", ".X", ".X"]);
    assert_eq!(p.rotated(4), p);
    for r in 0..4 {
        assert_eq!(p.rotated(r).rotated(4 - r), p);
    }
}

#[test]
fn shapes_are_checked() {
    assert_eq!(Piece::from_rows(&["X.X"]), Err(ShapeError::NotConnected));
    assert_eq!(Piece::from_rows(&["X.", "X."]), Err(ShapeError::NotTight));
    assert_eq!(Piece::from_rows(&["..", "XX"]), Err(ShapeError::NotTight));
    assert_eq!(Piece::from_rows::<&str>(&[]), Err(ShapeError::Empty));
    assert_eq!(piece(&["X.", "XX"]).size(), 3);
}

/// A 4x3 board with (1,1) covered:
/// ```text
/// ....
/// .#..
/// ....
/// ```
fn small_session(pieces: Vec<Piece>) -> Session<Fixed> {
    let mut board = Board::new(4, 3);
    board.cover(1, 1);
    Session::new(board, Fixed(pieces, 0))
}

#[test]
fn placements_score_and_refusals_leave_the_session_unchanged() {
    let l = piece(&["X.", "XX"]);
    let mut s = small_session(vec![l.clone()]);
    assert_eq!(s.get_next(3).unwrap().0, 0);
    assert_eq!(s.get_next(3).unwrap().0, 1);
    assert_eq!(s.get_next(3).unwrap().0, 2);
    // Rotation 2 of the L is "XX"/".X": at (2, 0) it covers (2,0) (3,0) (3,1).
    assert_eq!(s.place_next(0, 2, 0, 2), Ok(9));
    // Rotation 0 at (0, 1) would cover (1, 2)... and (0,1), (0,2): free.
    assert_eq!(s.place_next(1, 0, 1, 0), Ok(18));
    // Covered by piece 1 at (0, 2).
    let err = s.place_next(2, 0, 1, 3).unwrap_err();
    assert!(
        matches!(
            err,
            RuleError::Place {
                problem: PlaceProblem::Covered { .. },
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        s.place_next(2, 3, 2, 0),
        Err(RuleError::Place {
            index: 2,
            x: 3,
            y: 2,
            rotation: 0,
            problem: PlaceProblem::OffBoard {
                axis: Axis::X,
                at: 3,
                extent: 2,
                length: 4
            }
        })
    );
    assert_eq!(
        s.place_next(2, -1, 0, 0).unwrap_err().to_string(),
        "piece 2 at (-1, 0) rotation 0 leaves the board: x = -1 is off the 4-wide board"
    );
    assert_eq!(
        s.place_next(0, 0, 0, 0),
        Err(RuleError::AlreadyPlaced { index: 0 })
    );
    assert_eq!(
        s.place_next(3, 0, 0, 0),
        Err(RuleError::BadIndex {
            index: 3,
            requested: 3
        })
    );
    assert_eq!(
        s.place_next(-1, 0, 0, 0),
        Err(RuleError::BadIndex {
            index: -1,
            requested: 3
        })
    );
    assert_eq!(
        s.place_next(2, 0, 0, 4),
        Err(RuleError::BadRotation { rotation: 4 })
    );
    assert_eq!(
        s.place_next(2, 0, 0, -1),
        Err(RuleError::BadRotation { rotation: -1 })
    );
    // The refused calls changed nothing: piece 2 still fits where it fits.
    assert_eq!(s.placed_score(), 18);
    assert_eq!(s.unplaced_penalty(), 9);
    assert_eq!(s.raw_score(), 9);
    assert_eq!(s.covered_fraction(), 6.0 / 11.0);
    assert_eq!(format!("{:?}", s.board()), "4x3\n..##\n##.#\n##..\n");
    // Two trominoes placed (6 cells), one requested and not placed.
    assert_eq!(
        (s.requested(), s.placed_count(), s.unplaced_count()),
        (3, 2, 1)
    );
    assert_eq!(s.placed_cells(), 6);
    assert_eq!(s.mean_placed_size(), 3.0);
    assert_eq!(s.points_per_cell(), 3.0);
}

#[test]
fn the_figures_of_mixed_sizes_add_up() {
    let (i, l, square) = (piece(&["XXX"]), piece(&["X.", "XX"]), piece(&["XX", "XX"]));
    let mut s = small_session(vec![i, square, l]);
    // Nothing placed yet: no mean to take, nothing covered.
    assert_eq!(s.mean_placed_size(), 0.0);
    assert_eq!(s.points_per_cell(), 0.0);
    assert_eq!(s.covered_fraction(), 0.0);
    assert_eq!(s.get_next(3).unwrap().0, 0);
    assert_eq!(s.get_next(4).unwrap().0, 1);
    assert_eq!(s.get_next(3).unwrap().0, 2);
    // The I along the bottom row, the square at the top right.
    assert_eq!(s.place_next(0, 0, 2, 0), Ok(9));
    assert_eq!(s.place_next(1, 2, 0, 0), Ok(9 + 16));
    assert_eq!(format!("{:?}", s.board()), "4x3\n..##\n.###\n###.\n");
    assert_eq!(s.placed_cells(), 3 + 4);
    assert_eq!(s.covered_fraction(), 7.0 / 11.0);
    assert_eq!(s.mean_placed_size(), 3.5);
    // 9 + 16 points over 7 cells: the square's cells count 4 each, the I's 3.
    assert_eq!(s.points_per_cell(), 25.0 / 7.0);
    assert_eq!(s.placed_score() as f64, 7.0 * s.points_per_cell());
    // The L is left in hand: it costs 9.
    assert_eq!(s.unplaced_count(), 1);
    assert_eq!(s.unplaced_penalty(), 9);
    assert_eq!(s.raw_score(), 25 - 9);
}

/// The refusal of `PLACE index x y rotation` on a fresh 4x3 session holding one L tromino.
fn refusal(index: i64, x: i64, y: i64, rotation: i64) -> String {
    let mut s = small_session(vec![piece(&["X.", "XX"])]);
    s.get_next(3).unwrap();
    let err = s.place_next(index, x, y, rotation).unwrap_err().to_string();
    assert_eq!(s.placed_count(), 0, "a refused call changes nothing");
    err
}

#[test]
fn extreme_coordinates_are_off_the_board_not_an_overflow() {
    // The coordinates whose sums overflowed an `i64` (issue 32): each is refused by name.
    for (x, y, expected) in [
        (
            i64::MAX,
            0,
            "x = 9223372036854775807 is off the 4-wide board",
        ),
        (
            i64::MAX - 1,
            0,
            "x = 9223372036854775806 is off the 4-wide board",
        ),
        (
            i64::MIN,
            0,
            "x = -9223372036854775808 is off the 4-wide board",
        ),
        (
            0,
            i64::MAX,
            "y = 9223372036854775807 is off the 3-high board",
        ),
        (
            0,
            i64::MIN,
            "y = -9223372036854775808 is off the 3-high board",
        ),
        (0, -1, "y = -1 is off the 3-high board"),
        (4, 0, "x = 4 is off the 4-wide board"),
        // On the board, but the 2x2 box does not fit after it.
        (
            3,
            0,
            "its 2-wide box at x = 3 reaches past the 4-wide board (at most x = 2)",
        ),
        (
            2,
            2,
            "its 2-high box at y = 2 reaches past the 3-high board (at most y = 1)",
        ),
    ] {
        let err = refusal(0, x, y, 0);
        assert!(err.ends_with(expected), "({x}, {y}): {err}");
        assert!(err.contains("leaves the board"), "{err}");
    }
    // The last x and y that fit: (2, 1) holds the L's box (2,1)-(3,2), all free.
    let mut s = small_session(vec![piece(&["X.", "XX"])]);
    s.get_next(3).unwrap();
    assert_eq!(s.place_next(0, 2, 1, 0), Ok(9));
}

#[test]
fn extreme_indices_and_rotations_are_refused_by_name() {
    assert_eq!(
        refusal(i64::MAX, 0, 0, 0),
        "piece index 9223372036854775807 does not exist (1 pieces requested so far)"
    );
    assert_eq!(
        refusal(i64::MIN, 0, 0, 0),
        "piece index -9223372036854775808 does not exist (1 pieces requested so far)"
    );
    // 256 and 260 would pass for 0 and 4 if cut to a byte.
    for rotation in [256, 260, i64::MAX, i64::MIN] {
        assert_eq!(
            refusal(0, 0, 0, rotation),
            format!("rotation {rotation} is outside 0..=3")
        );
    }
}

#[test]
fn sizes_and_request_count_are_limited() {
    let mut s = small_session(vec![piece(&["XXX"])]);
    assert_eq!(s.get_next(2).unwrap_err(), RuleError::BadSize { size: 2 });
    assert_eq!(
        s.get_next(1001).unwrap_err(),
        RuleError::BadSize { size: 1001 }
    );
    assert_eq!(s.get_next(-5).unwrap_err(), RuleError::BadSize { size: -5 });
    for _ in 0..10_000 {
        s.get_next(3).unwrap();
    }
    assert_eq!(s.get_next(3).unwrap_err(), RuleError::TooManyRequests);
    assert_eq!(s.requested(), 10_000);
    // Everything unplaced: the penalty floors the raw score at 0.
    assert_eq!(s.raw_score(), 0);
}

#[test]
fn the_time_factor_is_one_percent_per_second_floored_at_zero() {
    assert_eq!(final_score(200, Duration::from_secs(10)), 180.0);
    assert_eq!(final_score(200, Duration::ZERO), 200.0);
    assert_eq!(final_score(200, Duration::from_millis(500)), 199.0);
    assert_eq!(final_score(200, Duration::from_secs(150)), 0.0);
}

#[test]
fn free_regions_are_4_connected() {
    // Regions of 1 cell ((1, 0)), 3 cells ((3..6, 0)) and 4 cells ((0..4, 2)); (1, 0) touches
    // no other free cell along an edge.
    // #.#...
    // ######
    // ....##
    let mut board = Board::new(6, 3);
    for (x, y) in [
        (0, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (4, 2),
        (5, 2),
    ] {
        board.cover(x, y);
    }
    assert_eq!(board.free_regions(), vec![1, 3, 4]);
    // Cells that meet only at a corner are separate regions.
    let mut board = Board::new(2, 2);
    board.cover(1, 0);
    board.cover(0, 1);
    assert_eq!(board.free_regions(), vec![1, 1]);
}
