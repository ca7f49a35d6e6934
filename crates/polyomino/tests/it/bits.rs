//! The players' bitboards against brute force over cells, on random boards and pieces, before
//! and after placements: where a piece fits, the first fit, and the largest contact.

use marathon_core::rng::FastRng;
use marathon_polyomino::ai::bits::{BitBoard, Oriented, Shape};
use marathon_polyomino::generator::grow_piece;
use marathon_polyomino::rules::Board;
use proptest::prelude::*;

fn fits(board: &Board, shape: &Shape, x: usize, y: usize) -> bool {
    x + shape.width <= board.width()
        && y + shape.height <= board.height()
        && shape
            .cells
            .iter()
            .all(|&(cx, cy)| !board.is_covered(x + cx, y + cy))
}

/// Piece edges against covered cells or the border.
fn contact(board: &Board, shape: &Shape, x: usize, y: usize) -> u32 {
    let inside =
        |cx: i64, cy: i64| shape.cells.contains(&(cx as usize, cy as usize)) && cx >= 0 && cy >= 0;
    let mut count = 0;
    for &(cx, cy) in &shape.cells {
        for (dx, dy) in [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)] {
            let (nx, ny) = (cx as i64 + dx, cy as i64 + dy);
            if inside(nx, ny) {
                continue;
            }
            let (bx, by) = (x as i64 + nx, y as i64 + ny);
            let off = bx < 0 || by < 0 || bx >= board.width() as i64 || by >= board.height() as i64;
            if off || board.is_covered(bx as usize, by as usize) {
                count += 1;
            }
        }
    }
    count
}

fn check(board: &Board, bits: &BitBoard, piece: &Oriented) -> Result<(), TestCaseError> {
    // Every (y, x, rotation) where it fits, in reading order.
    let mut spots = Vec::new();
    let mut best_contact = None;
    for (index, shape) in piece.shapes.iter().enumerate() {
        for y in 0..board.height() {
            for x in 0..board.width() {
                let fit = fits(board, shape, x, y);
                prop_assert_eq!(bits.fits_at(shape, x, y), fit);
                if fit {
                    spots.push((y, x, shape.rotation, index));
                    let c = contact(board, shape, x, y);
                    best_contact = Some(best_contact.map_or(c, |b: u32| b.max(c)));
                }
            }
        }
    }
    spots.sort();
    let found = bits.find_fit(piece, 3);
    prop_assert_eq!(found.is_some(), !spots.is_empty());
    if let Some(spot) = found {
        prop_assert!(fits(board, &piece.shapes[spot.shape], spot.x, spot.y));
    }
    let first = bits
        .first_fit(piece)
        .map(|s| (s.y, s.x, piece.shapes[s.shape].rotation, s.shape));
    prop_assert_eq!(first, spots.first().copied());
    let mut visited = Vec::new();
    let max = bits.best_contacts(piece, 0, usize::MAX, |spot, c| visited.push((spot, c)));
    if let Some(best) = best_contact {
        prop_assert_eq!(max, best);
        for (spot, c) in visited {
            let shape = &piece.shapes[spot.shape];
            prop_assert!(fits(board, shape, spot.x, spot.y));
            prop_assert_eq!(c, contact(board, shape, spot.x, spot.y));
        }
        let again = bits.best_contacts(piece, 0, usize::MAX, |_, _| ());
        prop_assert_eq!(again, best);
    } else {
        prop_assert!(visited.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn bitboards_agree_with_brute_force(
        seed in any::<u64>(),
        width in 1usize..90,
        height in 1usize..30,
        percent in 0u32..60,
        size in 3usize..14,
    ) {
        let mut rng = FastRng::new(seed);
        let mut board = Board::new(width, height);
        for y in 0..height {
            for x in 0..width {
                if rng.below(100) < percent {
                    board.cover(x, y);
                }
            }
        }
        let mut bits = BitBoard::new(&board).unwrap();
        for _ in 0..4 {
            let piece = Oriented::new(&grow_piece(size, &mut rng));
            check(&board, &bits, &piece)?;
            // Place it at its first fit, on both boards, and look again.
            if let Some(spot) = bits.first_fit(&piece) {
                let shape = &piece.shapes[spot.shape];
                bits.place(shape, spot.x, spot.y);
                for &(cx, cy) in &shape.cells {
                    board.cover(spot.x + cx, spot.y + cy);
                }
                prop_assert_eq!(bits.free_count(), width * height - board.covered_count());
            }
        }
    }
}

#[test]
fn wide_boards_use_every_word() {
    // A free strip at columns 190..200 of a 200-wide board: only the last word holds it.
    let mut board = Board::new(200, 3);
    for y in 0..3 {
        for x in 0..190 {
            board.cover(x, y);
        }
    }
    let bits = BitBoard::new(&board).unwrap();
    let line =
        Oriented::new(&marathon_polyomino::rules::Piece::from_rows(&["XXXXXXXXXX"]).unwrap());
    let spot = bits.first_fit(&line).unwrap();
    assert_eq!((spot.x, spot.y), (190, 0));
    let long =
        Oriented::new(&marathon_polyomino::rules::Piece::from_rows(&["XXXXXXXXXXX"]).unwrap());
    assert!(bits.find_fit(&long, 0).is_none());
    assert!(BitBoard::new(&Board::new(300, 3)).is_none());
}
