//! TilesMatching's fixed spaces (`marathon_core::space`). An action is a cell of the largest
//! board, `row * 12 + col` (0..144), then `DISCARD` (144) and `GIVE UP` (145); cells off a
//! smaller board are never allowed. The mask allows exactly the legal replies.
//!
//! The observation, boards padded to 12 x 12:
//! - `board` (4 x 12 x 12): plane 0 is 1 on the case's `S` x `S` board; plane 1 the cell's kind
//!   (0 empty, 1 regular, 2 wildcard); planes 2 and 3 a regular tile's colour + 1 and shape + 1
//!   (0 otherwise);
//! - `tile` (3): the tile in hand as kind (0 none: the game is over, 1 regular, 2 `W`, 3 `R`),
//!   colour + 1 and shape + 1;
//! - `state` (5): `N`, `S`, `D`, the discard counter and the moves so far.

use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::env::TilesEnv;
use crate::rules::{
    EMPTY, MAX_MOVES, MAX_N, MAX_SIZE, Move, Pos, REGULAR_BASE, STRIDE, State, Tile, WILD,
};

const SIDE: usize = MAX_SIZE as usize;
const CELLS: usize = SIDE * SIDE;
/// The number of `DISCARD`; `GIVE UP` is the next.
const DISCARD: usize = CELLS;
const GIVE_UP: usize = CELLS + 1;

const FIELDS: &[Field] = &[
    Field {
        name: "board",
        shape: &[4, SIDE, SIDE],
        dtype: Dtype::I8,
        low: 0,
        high: MAX_N as i32,
    },
    Field {
        name: "tile",
        shape: &[3],
        dtype: Dtype::I8,
        low: 0,
        high: MAX_N as i32,
    },
    Field {
        name: "state",
        shape: &[5],
        dtype: Dtype::I32,
        low: 0,
        high: MAX_MOVES as i32,
    },
];

impl Spaces for TilesEnv {
    const ACTIONS: usize = CELLS + 2;
    const FIELDS: &'static [Field] = FIELDS;

    fn action(&self, index: usize) -> Option<Move> {
        move_of(index)
    }

    fn action_index(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Discard => Some(DISCARD),
            Move::GiveUp => Some(GIVE_UP),
            Move::Place(pos) if pos.row < MAX_SIZE && pos.col < MAX_SIZE => {
                Some(pos.row as usize * SIDE + pos.col as usize)
            }
            Move::Place(_) => None,
        }
    }

    /// What [`crate::rules::State::legal_moves`] and `GIVE UP` allow, without a list.
    fn action_mask(&self, mask: &mut [i8]) {
        state_mask(self.state(), self.tile(), mask);
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        observe_state(self.state(), self.tile(), field, out);
    }
}

/// The move numbered `index`; `None` outside the space.
pub(crate) fn move_of(index: usize) -> Option<Move> {
    match index {
        DISCARD => Some(Move::Discard),
        GIVE_UP => Some(Move::GiveUp),
        _ if index < CELLS => Some(Move::Place(Pos::new(
            (index / SIDE) as u8,
            (index % SIDE) as u8,
        ))),
        _ => None,
    }
}

/// The mask of the replies allowed with `tile` in hand (all zeros without one): the
/// environment's and the player's side's (`follow`).
pub(crate) fn state_mask(state: &State, tile: Option<Tile>, mask: &mut [i8]) {
    mask.fill(0);
    let Some(tile) = tile else {
        return;
    };
    let board = &state.board;
    let code = tile.code(state.params.n);
    for index in board.indices() {
        let allowed = match code {
            Some(code) => board.can_place(index, code),
            None => board.at(index) != EMPTY,
        };
        if allowed {
            let pos = Pos::from_index(index);
            mask[pos.row as usize * SIDE + pos.col as usize] = 1;
        }
    }
    if state.can_discard() {
        mask[DISCARD] = 1;
    }
    mask[GIVE_UP] = 1;
}

/// Field `field` of the observation of `state` with `tile` in hand (what the player knows).
pub(crate) fn observe_state(state: &State, tile: Option<Tile>, field: usize, out: &mut Values<'_>) {
    let params = state.params;
    match field {
        0 => {
            out.fill(0);
            let board = &state.board;
            let size = params.s as usize;
            for row in 0..size {
                for col in 0..size {
                    let cell = row * SIDE + col;
                    out.set(cell, 1);
                    let code = board.at((row + 1) * STRIDE + col + 1);
                    if code == WILD {
                        out.set(CELLS + cell, 2);
                    } else if code != EMPTY {
                        let kind = code - REGULAR_BASE;
                        out.set(CELLS + cell, 1);
                        out.set(2 * CELLS + cell, i32::from(kind / params.n) + 1);
                        out.set(3 * CELLS + cell, i32::from(kind % params.n) + 1);
                    }
                }
            }
        }
        1 => {
            let (kind, color, shape) = match tile {
                None => (0, 0, 0),
                Some(Tile::Regular { color, shape }) => {
                    (1, i32::from(color) + 1, i32::from(shape) + 1)
                }
                Some(Tile::Wild) => (2, 0, 0),
                Some(Tile::Remove) => (3, 0, 0),
            };
            out.set(0, kind);
            out.set(1, color);
            out.set(2, shape);
        }
        _ => {
            let values = [params.n, params.s, params.d, state.counter];
            for (i, value) in values.into_iter().enumerate() {
                out.set(i, i32::from(value));
            }
            out.set(4, state.moves as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::env::Environment;
    use marathon_core::rng::FastRng;
    use marathon_core::space::{Buffer, check_playout, observe_all};

    use super::*;

    #[test]
    fn numbers_round_trip_and_the_mask_is_the_legal_replies() {
        for seed in 1..=4 {
            let mut env = TilesEnv::new(seed);
            let mut rng = FastRng::new(seed);
            // Random play gives up within a few dozen moves; 300 decisions reach the end.
            check_playout(&mut env, true, 300, |n| rng.below(n as u32) as usize)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        let env = TilesEnv::new(1);
        assert_eq!(
            env.format_action(env.action(3 * 12 + 5).expect("a move")),
            "3 5"
        );
        assert_eq!(
            env.format_action(env.action(144).expect("a move")),
            "DISCARD"
        );
        assert_eq!(
            env.format_action(env.action(145).expect("a move")),
            "GIVE UP"
        );
        assert_eq!(env.action(146), None);
    }

    #[test]
    fn the_observation_shows_the_case_and_the_first_tile() {
        let env = TilesEnv::new(1);
        let message = env.message(None);
        let mut lines = message.lines();
        let params: Vec<i32> = lines
            .next()
            .expect("N S D")
            .split_whitespace()
            .map(|t| t.parse().expect("a number"))
            .collect();
        assert_eq!(lines.next(), Some("W"), "an empty board deals W");
        let fields = observe_all(&env);
        let Buffer::I32(state) = &fields[2] else {
            panic!("state is int32")
        };
        assert_eq!(&state[..3], &params[..]);
        let Buffer::I8(tile) = &fields[1] else {
            panic!("tile is int8")
        };
        assert_eq!(tile, &vec![2, 0, 0]);
        let Buffer::I8(board) = &fields[0] else {
            panic!("board is int8")
        };
        let side = params[1] as usize;
        let on_board = board[..CELLS].iter().filter(|&&v| v == 1).count();
        assert_eq!(on_board, side * side);
        assert!(board[CELLS..].iter().all(|&v| v == 0), "an empty board");
    }
}
