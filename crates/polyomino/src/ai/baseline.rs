//! The `baseline` player: a fixed ladder of sizes, first fit.
//!
//! For each size of [`LADDER`] in turn it asks for a piece of that size and places it at its
//! first fit in reading order (the smallest row, then the smallest column, then the smallest
//! rotation, over the board's top-left corners of the rotated box). A piece that fits nowhere
//! stays unplaced; after [`MISSES`] such pieces in a row it moves to the next size, and after
//! the last size it is done. It uses no randomness and never looks at the clock.

use crate::ai::bits::{BitBoard, Oriented};
use crate::ai::{Clock, Observation, Player};
use crate::protocol::Command;
use crate::rules::MAX_REQUESTS;

/// The sizes the baseline asks for, largest first.
pub const LADDER: [i64; 6] = [12, 8, 6, 5, 4, 3];
/// Consecutive pieces that fit nowhere before the baseline moves down the ladder.
pub const MISSES: usize = 2;

/// The `baseline` player; see the module's doc.
#[derive(Default)]
pub struct BaselinePlayer {
    /// Its board, from the first observation on; `None` before it, or when no piece fits.
    bits: Option<BitBoard>,
    started: bool,
    requests: usize,
    /// The size of [`LADDER`] it is at, and the pieces of it in a row that fit nowhere.
    rung: usize,
    misses: usize,
    /// Whether its last call was a `GET`, whose piece the observation shows.
    asked: bool,
}

impl Player for BaselinePlayer {
    type Observation = Observation;
    type Action = Command;

    fn choose(&mut self, seen: &Observation, _clock: &Clock) -> Command {
        if !self.started {
            self.started = true;
            self.bits = BitBoard::new(&seen.board);
            self.requests = seen.requested;
            // Started in the middle of a game: the piece handed out is placed if it fits.
            self.asked = seen.pending.is_some();
        }
        let Some(bits) = &mut self.bits else {
            return Command::Done;
        };
        if std::mem::take(&mut self.asked) {
            let (index, piece) = seen.pending.as_ref().expect("a GET hands out a piece");
            let piece = Oriented::new(piece);
            match bits.first_fit(&piece) {
                Some(spot) => {
                    let shape = &piece.shapes[spot.shape];
                    bits.place(shape, spot.x, spot.y);
                    self.misses = 0;
                    return Command::Place {
                        index: *index as i64,
                        x: spot.x as i64,
                        y: spot.y as i64,
                        rotation: shape.rotation as i64,
                    };
                }
                None => self.misses += 1,
            }
        }
        while let Some(&size) = LADDER.get(self.rung) {
            if self.misses < MISSES && self.requests < MAX_REQUESTS {
                self.requests += 1;
                self.asked = true;
                return Command::Get { size };
            }
            self.rung += 1;
            self.misses = 0;
        }
        Command::Done
    }
}
