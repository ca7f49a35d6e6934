//! The rules against hand-checked positions: the moves of every piece, the statement's example
//! game, the reveal order, the errors, and the scorer on hand-made sequences covering every
//! bonus (the statement's examples among them).

use marathon_solitaire::generator::{Alphabet, Deal};
use marathon_solitaire::rules::{
    Breakdown, CELLS, Cell, MoveError, Piece, PlayError, Scorer, State, cells_of, score_sequence,
    targets,
};

use Piece::{Dam as D, Four, Lopare as L, One, Springare as S, Three, Torn as T, Two};

/// 1-based cells, as the statement writes them.
fn cell(r: usize, c: usize) -> Cell {
    Cell::new(r - 1, c - 1)
}

fn reach(piece: Piece, r: usize, c: usize) -> Vec<(usize, usize)> {
    cells_of(targets(piece, cell(r, c)))
        .map(|t| (t.row() + 1, t.col() + 1))
        .collect()
}

#[test]
fn numbers_move_exactly_k_steps_in_eight_directions() {
    assert_eq!(
        reach(One, 3, 3),
        [
            (2, 2),
            (2, 3),
            (2, 4),
            (3, 2),
            (3, 4),
            (4, 2),
            (4, 3),
            (4, 4)
        ]
    );
    assert_eq!(reach(One, 1, 1), [(1, 2), (2, 1), (2, 2)]);
    assert_eq!(
        reach(Two, 3, 3),
        [
            (1, 1),
            (1, 3),
            (1, 5),
            (3, 1),
            (3, 5),
            (5, 1),
            (5, 3),
            (5, 5)
        ]
    );
    assert_eq!(reach(Three, 1, 1), [(1, 4), (4, 1), (4, 4)]);
    assert_eq!(reach(Three, 3, 4), [(3, 1), (6, 1), (6, 4)]);
    assert_eq!(reach(Four, 2, 2), [(2, 6), (6, 2), (6, 6)]);
    assert_eq!(reach(Four, 3, 3), Vec::<(usize, usize)>::new());
}

#[test]
fn torn_lopare_and_dam_go_all_the_way_to_the_edge() {
    assert_eq!(reach(T, 3, 4), [(1, 4), (3, 1), (3, 6), (6, 4)]);
    // On the border: the far end of the column, both ends of the row.
    assert_eq!(reach(T, 1, 3), [(1, 1), (1, 6), (6, 3)]);
    assert_eq!(reach(T, 1, 1), [(1, 6), (6, 1)]);
    assert_eq!(reach(L, 3, 4), [(1, 2), (1, 6), (5, 6), (6, 1)]);
    assert_eq!(reach(L, 1, 1), [(6, 6)]);
    assert_eq!(reach(L, 1, 3), [(3, 1), (4, 6)]);
    let mut dam = reach(T, 3, 4);
    dam.extend(reach(L, 3, 4));
    dam.sort();
    assert_eq!(reach(D, 3, 4), dam);
}

#[test]
fn springare_jumps_like_a_knight() {
    assert_eq!(
        reach(S, 3, 3),
        [
            (1, 2),
            (1, 4),
            (2, 1),
            (2, 5),
            (4, 1),
            (4, 5),
            (5, 2),
            (5, 4)
        ]
    );
    assert_eq!(reach(S, 1, 1), [(2, 3), (3, 2)]);
}

#[test]
fn no_piece_allows_its_own_cell() {
    for piece in Piece::ALL {
        for c in Cell::all() {
            assert_eq!(targets(piece, c) & c.bit(), 0, "{piece} at {c}");
        }
    }
}

/// The statement's example board.
fn example_tops() -> [Piece; CELLS] {
    let rows = [
        "1 1 1 1 1 1",
        "1 1 1 1 1 1",
        "1 1 2 1 1 torn",
        "1 1 3 4 1 dam",
        "1 1 1 1 1 1",
        "1 1 1 1 1 1",
    ];
    marathon_solitaire::protocol::parse_board(&rows).expect("the example board")
}

#[test]
fn the_statements_example_game() {
    let mut state = State::new(example_tops());
    // The first move is free.
    assert_eq!(state.legal().count_ones(), 36);
    assert_eq!(state.play(cell(6, 6), Some(D)), Ok(1));
    assert_eq!(
        state.play(cell(5, 6), Some(S)),
        Ok(5),
        "1 1: a run of two, +4"
    );
    // After the queen: (6,1) or (1,6) would do too, (4,1) would not.
    let mut other = state.clone();
    other.play(cell(6, 6), Some(T)).unwrap();
    assert!(other.check(cell(6, 1)).is_ok());
    assert!(other.check(cell(1, 6)).is_ok());
    assert_eq!(
        other.check(cell(4, 1)),
        Err(MoveError::Unreachable {
            last: D,
            from: cell(6, 6),
            to: cell(4, 1)
        })
    );
    assert_eq!(state.play(cell(6, 6), Some(T)), Ok(1));
    assert_eq!(state.play(cell(1, 1), Some(L)), Ok(1));
    assert_eq!(state.score(), 8);
    assert_eq!(state.moves(), 4);
    assert_eq!(state.top(cell(6, 6)), Some(T));
    assert_eq!(state.removed(cell(6, 6)), 2);
}

#[test]
fn stacks_reveal_silver_then_gold_then_blank() {
    let alphabet = Alphabet::parse("1234tlds").unwrap();
    let deal = Deal::new(&alphabet, 12);
    let mut state = State::new(deal.tops());
    // Knight-free corner shuffle: remove the same cell three times via a partner cell.
    let a = cell(1, 1);
    assert_eq!(state.top(a), Some(deal.stacks[0][0]));
    assert!(state.reveals(a));
    state.play_unchecked(a, deal.piece(a, 1));
    assert_eq!(state.top(a), Some(deal.stacks[0][1]), "silver after bronze");
    state.play_unchecked(a, deal.piece(a, 2));
    assert_eq!(state.top(a), Some(deal.stacks[0][2]), "gold after silver");
    assert!(!state.reveals(a));
    assert_eq!(deal.piece(a, 3), None);
    state.play_unchecked(a, None);
    assert_eq!(state.top(a), None);
    assert_eq!(state.occupied() & a.bit(), 0);
    assert_eq!(state.removed(a), 3);
}

#[test]
fn errors_name_the_problem() {
    let mut state = State::new([One; CELLS]);
    // A bronze piece must reveal something, a gold one nothing.
    assert_eq!(
        state.play(cell(1, 1), None),
        Err(PlayError::Reveal {
            cell: cell(1, 1),
            removed: 0
        })
    );
    state.play(cell(1, 1), Some(One)).unwrap();
    state.play(cell(1, 2), Some(One)).unwrap();
    state.play(cell(1, 1), Some(One)).unwrap();
    state.play(cell(1, 2), Some(One)).unwrap();
    assert!(matches!(
        state.play(cell(1, 1), Some(One)),
        Err(PlayError::Reveal { removed: 2, .. })
    ));
    state.play(cell(1, 1), None).unwrap();
    assert_eq!(
        state.check(cell(1, 1)),
        Err(MoveError::Blank { cell: cell(1, 1) })
    );
    assert_eq!(
        state.check(cell(3, 3)),
        Err(MoveError::Unreachable {
            last: One,
            from: cell(1, 1),
            to: cell(3, 3)
        })
    );
    assert_eq!(state.score(), 5 + 2 * 5);
    let text = MoveError::Blank { cell: cell(1, 1) }.to_string();
    assert!(text.contains("1 1") && text.contains("blank"), "{text}");
}

#[test]
fn a_game_ends_when_the_last_piece_reaches_nothing() {
    let mut tops = [One; CELLS];
    tops[cell(3, 3).index()] = Four;
    let mut state = State::new(tops);
    state.play(cell(3, 3), Some(One)).unwrap();
    assert!(state.is_over(), "a 4 in the middle reaches no cell");
}

fn breakdown(runs: u32, sets: u32, alternation: u32, removals: u32) -> Breakdown {
    Breakdown {
        removals,
        runs,
        sets,
        alternation,
    }
}

/// Hand-made sequences and their bonuses (runs, sets, alternation).
#[test]
fn the_scorer_on_hand_made_sequences() {
    let table: Vec<(Vec<Piece>, (u32, u32, u32))> = vec![
        // The statement's examples.
        (vec![Four, One, Two, Three, Four, D, T, S, L], (0, 16, 0)),
        (vec![One, One, Two, Three, Four], (4, 12, 0)),
        // Runs: 2N for N >= 2, each run on its own.
        (vec![S, S], (4, 0, 0)),
        (vec![S, S, S], (6, 0, 0)),
        (vec![One; 108], (216, 0, 0)),
        (vec![T, T, L, L, L, T], (4 + 6, 0, 0)),
        // Number sets: in order or reverse 12, else 8.
        (vec![One, Two, Three, Four], (0, 12, 0)),
        (vec![Four, Three, Two, One], (0, 12, 0)),
        (vec![Two, One, Three, Four], (0, 8, 0)),
        (vec![One, Two, Three], (0, 0, 0)),
        (vec![One, Two, Three, Three], (4, 0, 0)),
        // Piece sets: any order 8; three pieces and a number is nothing.
        (vec![T, L, D, S], (0, 8, 0)),
        (vec![S, D, L, T], (0, 8, 0)),
        (vec![T, L, D, One], (0, 0, 0)),
        // The scan is greedy: after a failed window it moves by one.
        (vec![One, One, Two, Three, Four, One], (4, 12, 0)),
        (vec![S, T, L, D, S], (0, 8, 0)),
        // Alternation: 8K for K >= 2 alternating sets in a row.
        (vec![One, Two, Three, Four, T, L, D, S], (0, 20, 16)),
        (
            vec![One, Two, Three, Four, T, L, D, S, Four, Three, Two, One],
            (0, 32, 24),
        ),
        (
            vec![
                T, L, D, S, Two, One, Four, Three, D, S, T, L, Three, Four, One, Two,
            ],
            (0, 32, 32),
        ),
        // Two sets of one kind restart the count at 1.
        (
            vec![One, Two, Three, Four, Four, Three, Two, One],
            (4, 24, 0),
        ),
        (
            vec![One, Two, Three, Four, Four, Three, Two, One, T, L, D, S],
            (4, 32, 16),
        ),
        // A non-set window between the sets resets it.
        (vec![One, Two, Three, Four, One, T, L, D, S], (0, 20, 0)),
        // The window after a set starts right after it: `4 1 2 3` is not looked at here.
        (vec![One, Two, Three, Four, One, Two, Three], (0, 12, 0)),
    ];
    for (sequence, (runs, sets, alternation)) in table {
        let expected = breakdown(runs, sets, alternation, sequence.len() as u32);
        assert_eq!(score_sequence(&sequence), expected, "{sequence:?}");
        let mut scorer = Scorer::new();
        let gained: u32 = sequence.iter().map(|&p| scorer.push(p)).sum();
        assert_eq!(scorer.breakdown, expected, "{sequence:?} incrementally");
        assert_eq!(gained, expected.total(), "{sequence:?}");
    }
}

#[test]
fn the_maximum_of_a_single_type_board_is_324() {
    let b = score_sequence(&[S; 108]);
    assert_eq!(b.total(), 324);
}
