//! The rules against hand-checked positions and the statement's example boards.

use marathon_reversi::generator;
use marathon_reversi::protocol::format_rows;
use marathon_reversi::rules::{Bits, Board, Cell, IllegalMove, State, players_for_size};

/// A board from its rows (`.` or a player digit).
fn board(rows: &[&str]) -> Board {
    let size = rows.len();
    let mut board = Board::empty(size, players_for_size(size));
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch != '.' {
                board.put(Cell::new(r, c), Some(ch as u8 - b'0'));
            }
        }
    }
    board
}

fn cells(list: &[(usize, usize)]) -> Bits {
    list.iter().map(|&(r, c)| Cell::new(r, c)).collect()
}

#[test]
fn seeds_1_to_12_start_on_the_statements_example_boards() {
    let text = include_str!("../data/statement_examples.txt");
    let examples: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_once(' ').expect("number and board").1)
        .collect();
    assert_eq!(examples.len(), 12);
    for (i, example) in examples.iter().enumerate() {
        let seed = i as u64 + 1;
        let size = generator::size_of(seed);
        assert_eq!(size * size, example.len(), "seed {seed}");
        let rows = format_rows(&State::new(size).board).replace(' ', "");
        assert_eq!(&rows, example, "seed {seed}");
    }
}

#[test]
fn a_move_flips_mixed_runs_in_all_eight_directions() {
    // Player 1 plays the centre. N, S, W, E, NW, NE, SW: runs of 2s and 3s ending in a 1 flip.
    // SE: the run 2, 2, 2 reaches the edge without a 1 and stays.
    let mut b = board(&[
        "...1..1", //
        ".1.3.3.", //
        "..223..", //
        "122.321", //
        "..232..", //
        ".3.1.2.", //
        "1.....2", //
    ]);
    let before = b.clone();
    let flips = b.play(1, Cell::new(3, 3)).expect("legal");
    let want = cells(&[
        (2, 3),
        (1, 3),
        (4, 3),
        (3, 2),
        (3, 1),
        (3, 4),
        (3, 5),
        (2, 2),
        (2, 4),
        (1, 5),
        (4, 2),
        (5, 1),
    ]);
    assert_eq!(flips, want);
    assert_eq!(before.flips(1, Cell::new(3, 3)), want);
    assert_eq!(
        b,
        board(&[
            "...1..1", //
            ".1.1.1.", //
            "..111..", //
            "1111111", //
            "..112..", //
            ".1.1.2.", //
            "1.....2", //
        ])
    );
    assert_eq!(b.count(1), before.count(1) + 13);
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let mut b = State::new(7).board;
    let legal = b.legal_moves(1);
    // Next to its own piece only, no capture.
    let corner = Cell::new(0, 0);
    assert!(!legal.contains(corner));
    assert_eq!(
        b.clone().play(1, corner),
        Err(IllegalMove::NoCapture(corner))
    );
    let occupied = Cell::new(2, 2);
    assert_eq!(b.play(1, occupied), Err(IllegalMove::Occupied(occupied)));
    assert_eq!(b.cell_at(7, 0), None);
    assert_eq!(b.cell_at(0, 7), None);
}

#[test]
fn start_moves_of_player_1() {
    // 7x7: rows 2..4 are ..123.., ..231.., ..312.. .
    let b = State::new(7).board;
    let legal = b.legal_moves(1);
    for cell in legal {
        assert!(!b.flips(1, cell).is_empty());
    }
    // (row 2, col 5): west run 3, 2 ends in the 1 at (2,2).
    assert!(legal.contains(Cell::new(2, 5)));
    assert_eq!(b.flips(1, Cell::new(2, 5)), cells(&[(2, 3), (2, 4)]));
}

#[test]
fn a_player_without_a_move_is_skipped() {
    // Player 2's lone piece captures nothing; player 3 can capture it.
    let b = board(&[
        "132....", //
        ".......", //
        ".......", //
        ".......", //
        ".......", //
        ".......", //
        ".......", //
    ]);
    assert!(!b.has_move(2));
    let mut state = State::from_board(b, 2);
    assert_eq!(state.to_move, Some(3));
    state.play(Cell::new(0, 3)).expect("3 captures the 2");
    assert_eq!(state.board.count(2), 0);
    assert_eq!(state.to_move, Some(1));
    state.play(Cell::new(0, 4)).expect("1 captures the 3s");
    // Nobody has anything to capture any more.
    assert_eq!(state.to_move, None);
    assert!(state.is_over());
    assert_eq!(state.board.count(1), 5);
    assert_eq!(state.score(), 5.0 * 3.0 / 49.0);
    assert_eq!(state.play(Cell::new(0, 5)), Err(IllegalMove::GameOver));
}

#[test]
fn the_game_ends_when_no_player_can_move_even_with_empty_cells() {
    let b = board(&[
        "1.2.3..", //
        ".......", //
        ".......", //
        ".......", //
        ".......", //
        ".......", //
        "......1", //
    ]);
    for p in 1..=3 {
        assert!(b.legal_moves(p).is_empty(), "player {p}");
    }
    let state = State::from_board(b, 1);
    assert!(state.is_over());
}

#[test]
fn every_seed_size_has_the_right_players_and_block() {
    for size in 7..=12 {
        let b = State::new(size).board;
        let players = players_for_size(size);
        assert_eq!(b.players(), players);
        for p in 1..=players as u8 {
            assert_eq!(b.count(p) as usize, players, "size {size} player {p}");
        }
        assert_eq!(b.occupied().count() as usize, players * players);
    }
}
