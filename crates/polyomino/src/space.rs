//! Polyomino's fixed spaces (`marathon_core::space`), in two phases so that a random player
//! plays a real game. The protocol lets a program hold any number of pieces and ask for any size
//! from 3 to 1000, but most sizes fit nowhere and a piece left in hand costs its size squared:
//! uniform random choices over everything legal would mostly ask for pieces that can never be
//! placed. So:
//!
//! - **Request** (no piece pending): `GET s` for the sizes `3..=min(1000, largest free region)`
//!   (a larger piece cannot fit anywhere), while fewer than 10,000 pieces were requested; and
//!   `DONE`.
//! - **Place** (the piece just requested fits somewhere): every placement of that piece, and
//!   `DONE`. A pending piece that fits nowhere is left in hand (its cost stays), and the phase is
//!   Request again.
//!
//! Actions are numbered `GET 3`..`GET 1000` (0..998), `DONE` (998), then
//! `PLACE p x y r` of the pending piece `p` (the last one requested) at
//! `999 + (r * 200 + y) * 200 + x`, for the largest board (200 x 200), 160,999 in all.
//! The mask is a subset of [`Environment::legal_actions`] (which also has every placement of
//! older pieces and every size).
//!
//! The observation, padded to 200 x 200:
//! - `board` (2 x 200 x 200): plane 0 is 1 on the case's `W` x `H` board, plane 1 is 1 where a
//!   cell is covered (at the start or by a placed piece);
//! - `piece` (200 x 200): the pending piece unturned, its bounding box at the top left (a piece
//!   larger than 200 in a direction shows its first 200 rows or columns; it fits nowhere); all 0
//!   when no piece is pending;
//! - `state` (7): `W`, `H`, pieces requested, pieces placed, and the pending piece's size,
//!   height and width (0 when none).

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::env::PolyominoEnv;
use crate::generator::MAX_SIDE;
use crate::protocol::Command;
use crate::rules::{Board, MAX_REQUESTS, MAX_SIZE, MIN_SIZE, Piece, ROTATIONS};

const SIDE: usize = MAX_SIDE;
const CELLS: usize = SIDE * SIDE;
const SIZES: usize = (MAX_SIZE - MIN_SIZE + 1) as usize;
const DONE: usize = SIZES;
const PLACE: usize = SIZES + 1;

const FIELDS: &[Field] = &[
    Field {
        name: "board",
        shape: &[2, SIDE, SIDE],
        dtype: Dtype::I8,
        low: 0,
        high: 1,
    },
    Field {
        name: "piece",
        shape: &[SIDE, SIDE],
        dtype: Dtype::I8,
        low: 0,
        high: 1,
    },
    Field {
        name: "state",
        shape: &[7],
        dtype: Dtype::I32,
        low: 0,
        high: MAX_REQUESTS as i32,
    },
];

impl PolyominoEnv {
    /// The piece requested last, if it is not placed: its index and shape.
    pub fn pending(&self) -> Option<(usize, &Piece)> {
        let session = self.session();
        let index = session.requested().checked_sub(1)?;
        (!session.is_placed(index)).then(|| (index, &session.pieces()[index]))
    }
}

/// Marks in `mask` every placement of `piece` on `board` (numbered as above); returns whether
/// there was one.
fn mark_placements(board: &Board, piece: &Piece, mask: &mut [i8]) -> bool {
    let mut any = false;
    for rotation in 0..ROTATIONS as usize {
        let turned = piece.rotated(rotation as u8);
        let (width, height) = (turned.width(), turned.height());
        if width > board.width() || height > board.height() {
            continue;
        }
        for y in 0..=board.height() - height {
            let row = PLACE + (rotation * SIDE + y) * SIDE;
            for x in 0..=board.width() - width {
                // Most anchors fail on one of the first cells: the loop exits early.
                let fits = turned
                    .cells()
                    .iter()
                    .all(|&(cx, cy)| !board.is_covered(x + cx, y + cy));
                if fits {
                    mask[row + x] = 1;
                    any = true;
                }
            }
        }
    }
    any
}

impl Spaces for PolyominoEnv {
    const ACTIONS: usize = PLACE + ROTATIONS as usize * CELLS;
    const FIELDS: &'static [Field] = FIELDS;

    fn action(&self, index: usize) -> Option<Command> {
        if index < SIZES {
            return Some(Command::Get {
                size: MIN_SIZE + index as i64,
            });
        }
        if index == DONE {
            return Some(Command::Done);
        }
        let place = index
            .checked_sub(PLACE)
            .filter(|&p| p < Self::ACTIONS - PLACE)?;
        Some(Command::Place {
            // The last piece requested (-1 before any: the rules refuse it).
            index: self.session().requested() as i64 - 1,
            x: (place % SIDE) as i64,
            y: (place / SIDE % SIDE) as i64,
            rotation: (place / CELLS) as i64,
        })
    }

    fn action_index(&self, command: Command) -> Option<usize> {
        match command {
            Command::Get { size } => (MIN_SIZE..=MAX_SIZE)
                .contains(&size)
                .then(|| (size - MIN_SIZE) as usize),
            Command::Done => Some(DONE),
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => {
                let side = 0..SIDE as i64;
                let numbered = index == self.session().requested() as i64 - 1
                    && side.contains(&x)
                    && side.contains(&y)
                    && (0..ROTATIONS).contains(&rotation);
                numbered
                    .then(|| PLACE + ((rotation as usize * SIDE + y as usize) * SIDE + x as usize))
            }
        }
    }

    fn action_mask(&self, mask: &mut [i8]) {
        mask.fill(0);
        if self.turn() != Turn::Player {
            return;
        }
        mask[DONE] = 1;
        let session = self.session();
        let board = session.board();
        if let Some((_, piece)) = self.pending()
            && mark_placements(board, piece, mask)
        {
            return;
        }
        if session.requested() < MAX_REQUESTS {
            let largest = board.free_regions().into_iter().max().unwrap_or(0);
            let sizes = (largest as i64).min(MAX_SIZE) - MIN_SIZE + 1;
            for slot in mask.iter_mut().take(sizes.max(0) as usize) {
                *slot = 1;
            }
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        let session = self.session();
        let board = session.board();
        let (width, height) = (board.width(), board.height());
        match field {
            0 => {
                out.fill(0);
                for y in 0..height {
                    for x in 0..width {
                        out.set(y * SIDE + x, 1);
                        out.set(CELLS + y * SIDE + x, i32::from(board.is_covered(x, y)));
                    }
                }
            }
            1 => {
                out.fill(0);
                if let Some((_, piece)) = self.pending() {
                    for &(x, y) in piece.cells() {
                        if x < SIDE && y < SIDE {
                            out.set(y * SIDE + x, 1);
                        }
                    }
                }
            }
            _ => {
                let piece = self.pending().map(|(_, piece)| piece);
                let values = [
                    width,
                    height,
                    session.requested(),
                    session.placed_count(),
                    piece.map_or(0, Piece::size),
                    piece.map_or(0, Piece::height),
                    piece.map_or(0, Piece::width),
                ];
                for (i, value) in values.into_iter().enumerate() {
                    out.set(i, value as i32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::rng::FastRng;
    use marathon_core::space::{Buffer, check_playout, check_position, observe_all};

    use super::*;

    fn allowed(env: &PolyominoEnv) -> Vec<Command> {
        let mut mask = vec![0; PolyominoEnv::ACTIONS];
        env.action_mask(&mut mask);
        (0..PolyominoEnv::ACTIONS)
            .filter(|&i| mask[i] == 1)
            .map(|i| env.action(i).expect("in range"))
            .collect()
    }

    #[test]
    fn random_play_stays_within_the_legal_actions() {
        for seed in 1..=3 {
            let mut env = PolyominoEnv::new(seed);
            let mut rng = FastRng::new(seed);
            // legal_actions scans every piece in hand: a few dozen decisions keep it quick.
            check_playout(&mut env, false, 30, |n| rng.below(n as u32) as usize)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }

    #[test]
    fn the_phases_offer_fitting_sizes_then_every_placement_of_the_piece() {
        let mut env = PolyominoEnv::new(1);
        let largest = env.session().board().free_regions().into_iter().max();
        let largest = largest.expect("a free region") as i64;
        let request = allowed(&env);
        let mut expected: Vec<Command> = (MIN_SIZE..=largest.min(MAX_SIZE))
            .map(|size| Command::Get { size })
            .collect();
        expected.push(Command::Done);
        assert_eq!(request, expected);

        env.step(Command::Get { size: 4 }).expect("a piece");
        let place = allowed(&env);
        let mut expected: Vec<Command> = env
            .legal_actions()
            .into_iter()
            .filter(|c| matches!(c, Command::Place { index: 0, .. }))
            .collect();
        assert!(!expected.is_empty(), "a tetromino fits somewhere");
        expected.sort_by_key(|c| env.action_index(*c));
        expected.insert(0, Command::Done);
        assert_eq!(place, expected);
        check_position(&env, false).expect("consistent");

        let first = place[1];
        env.step(first).expect("an allowed placement");
        assert_eq!(allowed(&env).first(), Some(&Command::Get { size: 3 }));
    }

    #[test]
    fn a_piece_that_fits_nowhere_is_left_in_hand() {
        let mut env = PolyominoEnv::new(2);
        // A long piece of the largest size: the boards are fragmented, and it fits nowhere.
        env.step(Command::Get { size: MAX_SIZE }).expect("a piece");
        let allowed = allowed(&env);
        assert!(
            allowed.contains(&Command::Get { size: 3 }),
            "{:?}",
            &allowed[..3]
        );
        assert!(!allowed.iter().any(|c| matches!(c, Command::Place { .. })));
        let fields = observe_all(&env);
        let Buffer::I32(state) = &fields[2] else {
            panic!("state is int32")
        };
        assert_eq!(state[2..5], [1, 0, MAX_SIZE as i32]);
    }

    #[test]
    fn the_observation_is_the_board() {
        let env = PolyominoEnv::new(5);
        let case = env.case();
        let fields = observe_all(&env);
        let Buffer::I8(board) = &fields[0] else {
            panic!("board is int8")
        };
        let on_board = board[..CELLS].iter().filter(|&&v| v == 1).count();
        assert_eq!(on_board, case.width * case.height);
        let covered = board[CELLS..].iter().filter(|&&v| v == 1).count();
        assert_eq!(covered, case.covered.len());
        for &(x, y) in &case.covered {
            assert_eq!(board[CELLS + y * SIDE + x], 1);
        }
        assert_eq!(fields[1], Buffer::I8(vec![0; CELLS]));
    }
}
