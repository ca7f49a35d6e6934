//! The opponents' move choice on crafted weights: ties, NaN and infinities
//! (docs/rules.md#reversi-opponent-strategy).

use marathon_reversi::rules::{Bits, Board, Cell};
use marathon_reversi::strategy::{Weights, choose, for_each_value};

/// Player 2 can play A = (3,3) flipping (3,2), or B = (5,3) flipping (5,2); player 3 has a
/// piece at (0,0).
///
/// value(A) = (w31 + w51 + w33 + w32) / (w52 + w00)
/// value(B) = (w31 + w51 + w53 + w52) / (w32 + w00)
fn position() -> Board {
    let mut b = Board::empty(7, 3);
    for (r, c, p) in [(3, 1, 2), (3, 2, 1), (5, 1, 2), (5, 2, 1), (0, 0, 3)] {
        b.put(Cell::new(r, c), Some(p));
    }
    b
}

const A: (usize, usize) = (3, 3);
const B: (usize, usize) = (5, 3);

fn cell((r, c): (usize, usize)) -> Cell {
    Cell::new(r, c)
}

fn weights(list: &[((usize, usize), f64)], default: f64) -> Weights {
    let mut w = Weights::default();
    for r in 0..7 {
        for c in 0..7 {
            w.set(Cell::new(r, c), default);
        }
    }
    for &(at, value) in list {
        w.set(cell(at), value);
    }
    w
}

fn values(w: &Weights) -> Vec<(Cell, f64)> {
    let mut out = Vec::new();
    for_each_value(&position(), 2, w, |c, v| out.push((c, v)));
    out
}

#[test]
fn the_position_has_exactly_two_moves() {
    let b = position();
    assert_eq!(
        b.legal_moves(2),
        [cell(A), cell(B)].into_iter().collect::<Bits>()
    );
}

#[test]
fn a_tie_goes_to_the_first_move_in_row_major_order() {
    let w = weights(&[], 1.0);
    assert_eq!(values(&w), vec![(cell(A), 2.0), (cell(B), 2.0)]);
    assert_eq!(choose(&position(), 2, &w), Some(cell(A)));
}

#[test]
fn a_strictly_greater_later_value_wins() {
    let w = weights(&[(B, 1.5)], 1.0);
    assert_eq!(values(&w), vec![(cell(A), 2.0), (cell(B), 2.25)]);
    assert_eq!(choose(&position(), 2, &w), Some(cell(B)));
}

#[test]
fn nan_never_wins_even_against_a_negative_value() {
    // A: 0 / 0; B: -5 / 1.
    let w = weights(&[((3, 2), 1.0), (A, -1.0), (B, -5.0)], 0.0);
    let v = values(&w);
    assert!(v[0].1.is_nan());
    assert_eq!(v[1].1, -5.0);
    assert_eq!(choose(&position(), 2, &w), Some(cell(B)));
}

#[test]
fn minus_infinity_beats_nan() {
    // A: 0 / 0; B: -1 / 0.
    let w = weights(&[(B, -1.0)], 0.0);
    let v = values(&w);
    assert!(v[0].1.is_nan());
    assert_eq!(v[1].1, f64::NEG_INFINITY);
    assert_eq!(choose(&position(), 2, &w), Some(cell(B)));
}

#[test]
fn plus_infinity_wins() {
    // A: 1 / 0 = +inf; B: 0 / 0.
    let w = weights(&[(A, 1.0)], 0.0);
    let v = values(&w);
    assert_eq!(v[0].1, f64::INFINITY);
    assert!(v[1].1.is_nan());
    assert_eq!(choose(&position(), 2, &w), Some(cell(A)));
}

#[test]
fn when_every_value_is_nan_the_first_legal_move_is_played() {
    let w = weights(&[], 0.0);
    assert!(values(&w).iter().all(|(_, v)| v.is_nan()));
    assert_eq!(choose(&position(), 2, &w), Some(cell(A)));
}

#[test]
fn no_move_no_choice() {
    let b = position();
    assert_eq!(choose(&b, 3, &weights(&[], 1.0)), None);
}
