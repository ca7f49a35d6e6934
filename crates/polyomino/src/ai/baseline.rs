//! The `baseline` player: a fixed ladder of sizes, first fit.
//!
//! For each size of [`LADDER`] in turn it asks for a piece of that size and places it at its
//! first fit in reading order (the smallest row, then the smallest column, then the smallest
//! rotation, over the board's top-left corners of the rotated box). A piece that fits nowhere
//! stays unplaced; after [`MISSES`] such pieces in a row it moves to the next size, and after
//! the last size it is done. It uses no randomness and never looks at the clock.

use crate::ai::bits::{BitBoard, Oriented};
use crate::rules::{Board, Contest, MAX_REQUESTS};

/// The sizes the baseline asks for, largest first.
pub const LADDER: [i64; 6] = [12, 8, 6, 5, 4, 3];
/// Consecutive pieces that fit nowhere before the baseline moves down the ladder.
pub const MISSES: usize = 2;

pub fn play<C: Contest>(board: &Board, contest: &mut C) -> Result<(), C::Error> {
    let Some(mut bits) = BitBoard::new(board) else {
        return Ok(());
    };
    let mut requests = 0;
    for size in LADDER {
        let mut misses = 0;
        while misses < MISSES && requests < MAX_REQUESTS {
            let (index, piece) = contest.get_next(size)?;
            requests += 1;
            let piece = Oriented::new(&piece);
            match bits.first_fit(&piece) {
                Some(spot) => {
                    let shape = &piece.shapes[spot.shape];
                    contest.place_next(
                        index as i64,
                        spot.x as i64,
                        spot.y as i64,
                        shape.rotation as i64,
                    )?;
                    bits.place(shape, spot.x, spot.y);
                    misses = 0;
                }
                None => misses += 1,
            }
        }
    }
    Ok(())
}
