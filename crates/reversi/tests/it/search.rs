//! The search over player 1's moves against the opponents' known replies, checked against a
//! brute force over every line of a small end game.

use std::time::Instant;

use marathon_reversi::ai::search::{Model, advance, sampled_search, surviving_moves};
use marathon_reversi::generator::{self, ReversiCase};
use marathon_reversi::rules::{Board, Cell, State};
use marathon_reversi::strategy::Weights;

/// Plays the case with player 1 using the first opponent's strategy until at most
/// `empty` cells are left and player 1 is to move.
fn position_with_empty_cells(case: &ReversiCase, empty: u32) -> State {
    let mut state = case.initial_state();
    while let Some(mover) = state.to_move {
        if mover == 1 && state.board.empty_cells().count() <= empty {
            return state;
        }
        let cell = case.stand_in_move(&state.board, mover).unwrap();
        state.play(cell).unwrap();
    }
    panic!("seed {}: the game ended first", case.seed);
}

/// Player 1's best final count over every line, the opponents replying by `model`.
fn best_final_count(state: &State, model: &[Weights]) -> u32 {
    if state.is_over() {
        return state.board.count(1);
    }
    state
        .board
        .legal_moves(1)
        .iter()
        .map(|cell| {
            let mut next = state.clone();
            next.play(cell).unwrap();
            advance(&mut next, model);
            best_final_count(&next, model)
        })
        .max()
        .unwrap()
}

#[test]
fn with_the_true_weights_a_wide_sampled_search_finds_the_best_end_game_line() {
    let mut checked = 0;
    for seed in [2, 5, 9, 14] {
        let case = generator::generate(seed);
        let state = position_with_empty_cells(&case, 9);
        if state.board.legal_moves(1).count() < 2 {
            continue;
        }
        let truth = case.opponents.as_slice();
        let best = best_final_count(&state, truth);
        let plan =
            sampled_search(&state, std::slice::from_ref(&case.opponents), 1 << 12, None).unwrap();
        assert_eq!(plan.value, best as f64, "seed {seed}");
        // The move it plays leads to that count.
        let mut after = state.clone();
        after.play(plan.first).unwrap();
        advance(&mut after, truth);
        assert_eq!(best_final_count(&after, truth), best, "seed {seed}");
        // Two copies of one member are the same evidence as one.
        let twice = vec![case.opponents.clone(), case.opponents.clone()];
        assert_eq!(sampled_search(&state, &twice, 1 << 12, None), Some(plan));
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} positions with a choice");
}

#[test]
fn the_sampled_search_averages_over_its_members() {
    let case = generator::generate(3);
    let state = position_with_empty_cells(&case, 9);
    let truth = case.opponents.clone();
    // A member whose opponents play their first legal move instead.
    let other: Vec<Weights> = truth.iter().map(|_| Weights::default()).collect();
    let value = |members: &[Vec<Weights>]| {
        sampled_search(&state, members, 1 << 12, None)
            .unwrap()
            .value
    };
    let mixed = value(&[truth.clone(), other.clone()]);
    // The mean of the best move's values can not beat either member's own best.
    assert!(mixed <= (value(&[truth]) + value(&[other])) / 2.0 + 1e-9);
}

#[test]
fn a_passed_deadline_stops_the_sampled_search() {
    let case = generator::generate(7);
    let state = position_with_empty_cells(&case, 30);
    assert!(state.board.legal_moves(1).count() > 1);
    let members = vec![case.opponents.clone()];
    assert_eq!(
        sampled_search(&state, &members, 4, Some(Instant::now())),
        None
    );
}

#[test]
fn a_member_replies_for_players_2_to_p_like_the_case() {
    let case = generator::generate(4);
    let state = position_with_empty_cells(&case, 20);
    let mut board = state.board.clone();
    let cell = board.legal_moves(1).first().unwrap();
    board.play(1, cell).unwrap();
    if board.has_move(2) {
        assert_eq!(
            Some(case.opponents.as_slice().reply(&board, 2)),
            case.opponent_move(&board, 2)
        );
    }
}

/// Player 1 holds one piece at (3,3) of a 7x7 board, with player 2 at (3,4) and (4,3) and
/// player 3 at (3,2). Taking (3,5) lets player 2 take (3,3) from (2,3) and player 3 then take
/// (3,4)-(3,5) from (3,6): player 1 is wiped out. Taking (5,3) keeps a piece whatever they do.
#[test]
fn moves_that_some_replies_punish_with_a_wipe_out_are_left_out() {
    let mut board = Board::empty(7, 3);
    board.put(Cell::new(3, 3), Some(1));
    board.put(Cell::new(3, 4), Some(2));
    board.put(Cell::new(4, 3), Some(2));
    board.put(Cell::new(3, 2), Some(3));
    let root = State::from_board(board, 1);
    let legal = root.board.legal_moves(1);
    let (exposed, safe) = (Cell::new(3, 5), Cell::new(5, 3));
    assert!(legal.contains(exposed) && legal.contains(safe));

    let mut wiped = root.clone();
    for cell in [exposed, Cell::new(2, 3), Cell::new(3, 6)] {
        wiped.play(cell).unwrap();
    }
    assert_eq!(wiped.board.count(1), 0, "the wipe-out line works");

    let surviving = surviving_moves(&root);
    assert!(!surviving.contains(exposed), "{surviving:?}");
    assert!(surviving.contains(safe), "{surviving:?}");
}
