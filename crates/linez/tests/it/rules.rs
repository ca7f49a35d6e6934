//! Rules behaviour beyond the table of `data/positions.txt`: legality, reachability, the end of
//! the game and the pass rule.

use marathon_linez::protocol::{parse_board, parse_move};
use marathon_linez::rules::{Bits, Board, Cell, IllegalMove, Move, State, Turn};

fn board(rows: [&str; 9]) -> Board {
    parse_board(&rows).unwrap()
}

fn mv(text: &str) -> Move {
    parse_move(text).unwrap()
}

fn cell(text: &str) -> Cell {
    mv(&format!("{text}A1")).from
}

/// Full, and no two equal colours are neighbours in any line direction.
const FULL: [&str; 9] = [
    "123456712",
    "456712345",
    "712345671",
    "345671234",
    "671234567",
    "234567123",
    "567123456",
    "123456712",
    "456712345",
];

#[test]
fn full_board_is_over_and_spawns_nothing() {
    let mut state = State::new(board(FULL), [1, 2, 3]);
    assert!(state.is_over());
    assert!(!state.must_pass());
    assert_eq!(state.board.legal_move_count(), 0);
    assert!(state.board.legal_moves().is_empty());
    let removed = state.spawn(|_| panic!("no empty cell to pick"));
    assert_eq!(removed, 0);
    assert_eq!(state.board, board(FULL));
}

#[test]
fn one_empty_cell_is_not_over() {
    let mut rows = FULL;
    rows[4] = "6712.4567";
    let state = State::new(board(rows), [1, 2, 3]);
    assert!(!state.is_over());
    // The four neighbours of E5 can move into it.
    assert_eq!(state.board.legal_move_count(), 4);
}

#[test]
fn a_clear_that_empties_the_board_means_pass() {
    let mut state = State::new(
        board([
            "...7.....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "777.7....",
        ]),
        [4, 5, 6],
    );
    assert!(!state.must_pass());
    let turn = state.play(mv("A4I4")).unwrap();
    assert_eq!(
        turn,
        Turn::Cleared {
            removed: 5,
            points: 10
        }
    );
    assert_eq!(state.board.ball_count(), 0);
    assert!(state.must_pass());
    assert!(!state.is_over());
    assert_eq!(state.board.legal_move_count(), 0);
    // The pass: the preview spawns without a move.
    let mut next = 0;
    state.spawn(|free| {
        next += 1;
        free - next
    });
    assert_eq!(state.board.ball_count(), 3);
    assert!(!state.must_pass());
    assert_eq!(state.board.get(cell("I9")), Some(4));
    assert_eq!(state.board.get(cell("I7")), Some(5));
    assert_eq!(state.board.get(cell("I5")), Some(6));
}

#[test]
fn wall_of_balls_blocks_the_move() {
    let position = board([
        "1...5....",
        "....5....",
        "....5....",
        "....5....",
        "....5....",
        "....5....",
        "....5....",
        "....5....",
        "....5....",
    ]);
    assert_eq!(
        position.check_move(mv("A1A9")),
        Err(IllegalMove::Unreachable {
            from: cell("A1"),
            to: cell("A9")
        })
    );
    assert_eq!(position.check_move(mv("A1I4")), Ok(()));
    assert_eq!(position.reachable_from(cell("A1")).count(), 9 * 4 - 1);
    // The wall balls reach both sides.
    assert_eq!(position.reachable_from(cell("E5")).count(), 81 - 10);
}

#[test]
fn diagonal_gaps_do_not_connect() {
    let position = board([
        "........5",
        ".......5.",
        "......5..",
        ".....5...",
        "....5....",
        "...5.....",
        "..5......",
        ".5.......",
        "5........",
    ]);
    let mut upper = position;
    upper.put(cell("A1"), 2);
    assert!(matches!(
        upper.check_move(mv("A1I9")),
        Err(IllegalMove::Unreachable { .. })
    ));
    assert_eq!(upper.reachable_from(cell("A1")).count(), 35);
    // Ball count 9 + A1, so 81 - 10 = 71 = 35 above + 36 below.
    assert_eq!(upper.reachable_from(cell("I9")).count(), 36);
}

#[test]
fn reachability_does_not_wrap_from_one_row_end_to_the_next_row() {
    // Column 2 is a wall, so column 1 is a pocket. A9 (index 8) and B1 (index 9) are
    // neighbours in bit order only.
    let position = board([
        "16.......",
        ".6.......",
        ".6.......",
        ".6.......",
        ".6.......",
        ".6.......",
        ".6.......",
        ".6.......",
        ".6.......",
    ]);
    assert_eq!(
        position.reachable_from(cell("A1")),
        (1..9).map(|row| Cell::new(row, 0)).collect::<Bits>()
    );
    assert!(matches!(
        position.check_move(mv("A1A9")),
        Err(IllegalMove::Unreachable { .. })
    ));
    assert!(position.reachable_from(cell("A9")).contains(cell("A3")));
    assert!(!position.reachable_from(cell("A9")).contains(cell("B1")));
}

#[test]
fn each_illegal_move_is_named() {
    let position = board([
        "12.......",
        "3........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    assert_eq!(
        position.check_move(mv("E5E6")),
        Err(IllegalMove::NoBall(cell("E5")))
    );
    assert_eq!(
        position.check_move(mv("A2A2")),
        Err(IllegalMove::SameCell(cell("A2")))
    );
    assert_eq!(
        position.check_move(mv("A2B1")),
        Err(IllegalMove::TargetOccupied(cell("B1")))
    );
    assert_eq!(
        position.check_move(mv("A1C3")),
        Err(IllegalMove::Unreachable {
            from: cell("A1"),
            to: cell("C3")
        })
    );
    assert_eq!(position.check_move(mv("A2C3")), Ok(()));

    let err = position.check_move(mv("A1C3")).unwrap_err();
    assert_eq!(err.to_string(), "no path of empty cells from A1 to C3");
    assert_eq!(
        IllegalMove::NoBall(cell("E5")).to_string(),
        "no ball at source cell E5"
    );
}

#[test]
fn an_illegal_move_leaves_the_state_alone() {
    let mut state = State::new(
        board([
            "12.......",
            "3........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ]),
        [1, 1, 1],
    );
    let before = state;
    assert!(state.play(mv("A1C3")).is_err());
    assert_eq!(state, before);
    assert_eq!(state.play(mv("A2C3")), Ok(Turn::SpawnDue));
    assert_eq!(state.moves, 1);
    assert_eq!(state.board.get(cell("C3")), Some(2));
    assert_eq!(state.board.get(cell("A2")), None);
}

#[test]
fn legal_moves_of_a_cornered_ball() {
    // A1 is boxed in by its two neighbours; they share the one region of 78 empty cells.
    let position = board([
        "12.......",
        "3........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let mut moves = Vec::new();
    position.for_each_legal_move(|m| moves.push(m));
    assert_eq!(moves.len(), 2 * 78);
    assert!(moves.iter().all(|m| m.from != cell("A1")));
    assert_eq!(moves[0], mv("A2A3"));
    assert_eq!(*moves.last().unwrap(), mv("B1I9"));

    let legal = position.legal_moves();
    assert_eq!(legal.count(), 156);
    assert_eq!(legal.regions().len(), 1);
    let by_index: Vec<Move> = (0..legal.count()).map(|i| legal.nth(i).unwrap()).collect();
    assert_eq!(by_index, moves);
    assert_eq!(legal.nth(156), None);
}

#[test]
fn each_region_lists_its_movers() {
    // Two pockets: B1..B2 (walled by 1s) and the rest.
    let position = board([
        "11.......",
        "..1......",
        "11.......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let regions: Vec<_> = position.regions().collect();
    assert_eq!(regions.len(), 2);
    assert_eq!(
        regions[0].cells,
        [cell("A3"), cell("B4")]
            .into_iter()
            .collect::<Bits>()
            .flood_fill(position.empty_cells())
    );
    let pocket = &regions[1];
    assert_eq!(pocket.cells, [cell("B1"), cell("B2")].into_iter().collect());
    assert_eq!(
        pocket.movers,
        ["A1", "A2", "B3", "C1", "C2"]
            .into_iter()
            .map(cell)
            .collect()
    );
    assert_eq!(
        position.legal_move_count(),
        regions[0].move_count() + pocket.move_count()
    );
}

#[test]
fn lines_need_five_of_one_colour() {
    let position = board([
        "11112....",
        "2222.2222",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    for c in Cell::all() {
        assert!(position.lines_through(c).is_empty(), "{c}");
    }
    let mut moved = position;
    assert_eq!(moved.move_ball(mv("A5B5")), 9);
    assert_eq!(moved.ball_count(), 4);
    assert_eq!(moved.color_bits(2), Bits::NONE);
    assert_eq!(
        moved.color_bits(1),
        ["A1", "A2", "A3", "A4"].into_iter().map(cell).collect()
    );
}

#[test]
fn clear_lines_through_takes_the_union_once() {
    let mut position = board([
        "33333....",
        ".........",
        "....44444",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let through = [cell("A1"), cell("A5"), cell("C9"), cell("E5")]
        .into_iter()
        .collect();
    assert_eq!(position.clear_lines_through(through), 10);
    assert_eq!(position, Board::empty());
}
