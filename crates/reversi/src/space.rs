//! MultiplayerReversi's fixed spaces (`marathon_core::space`). An action is a cell of the
//! largest board, `row * 12 + col` (144 in all; the reply is `col row`); the mask allows exactly
//! player 1's legal moves. The observation, boards padded to 12 x 12:
//! - `board` (5 x 12 x 12): plane 0 is 1 on the case's `n` x `n` board, plane `p` (1..4) is 1
//!   where player `p` has a piece (player 1 is the one who decides; plane 4 stays empty in a
//!   3-player game);
//! - `state` (2): `n` and the number of players.

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::env::ReversiEnv;
use crate::protocol::MoveText;
use crate::rules::{Cell, MAX_PLAYERS, MAX_SIZE};

const CELLS: usize = MAX_SIZE * MAX_SIZE;

const FIELDS: &[Field] = &[
    Field {
        name: "board",
        shape: &[MAX_PLAYERS + 1, MAX_SIZE, MAX_SIZE],
        dtype: Dtype::I8,
        low: 0,
        high: 1,
    },
    Field {
        name: "state",
        shape: &[2],
        dtype: Dtype::I8,
        low: 0,
        high: MAX_SIZE as i32,
    },
];

impl Spaces for ReversiEnv {
    const ACTIONS: usize = CELLS;
    const FIELDS: &'static [Field] = FIELDS;

    fn action(&self, index: usize) -> Option<MoveText> {
        (index < CELLS).then_some(MoveText {
            col: index % MAX_SIZE,
            row: index / MAX_SIZE,
        })
    }

    fn action_index(&self, mv: MoveText) -> Option<usize> {
        (mv.col < MAX_SIZE && mv.row < MAX_SIZE).then(|| mv.row * MAX_SIZE + mv.col)
    }

    fn action_mask(&self, mask: &mut [i8]) {
        mask.fill(0);
        if self.turn() == Turn::Player {
            for cell in self.state().board.legal_moves(1).iter() {
                mask[cell.row() * MAX_SIZE + cell.col()] = 1;
            }
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        let board = &self.state().board;
        let size = board.size();
        match field {
            0 => {
                out.fill(0);
                for row in 0..size {
                    for col in 0..size {
                        let at = row * MAX_SIZE + col;
                        out.set(at, 1);
                        if let Some(player) = board.get(Cell::new(row, col)) {
                            out.set(usize::from(player) * CELLS + at, 1);
                        }
                    }
                }
            }
            _ => {
                out.set(0, size as i32);
                out.set(1, board.players() as i32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use marathon_core::rng::FastRng;
    use marathon_core::space::{Buffer, check_playout, observe_all};

    use super::*;
    use crate::generator;

    #[test]
    fn numbers_round_trip_and_the_mask_is_player_1s_legal_moves() {
        // Seeds 1 and 12 are the smallest and the largest boards (7 and 12).
        for seed in [1, 12] {
            let case = Arc::new(generator::generate(seed));
            let mut env = ReversiEnv::of_case(case);
            let mut rng = FastRng::new(seed);
            let decisions = check_playout(&mut env, true, 200, |n| rng.below(n as u32) as usize)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(decisions > 3, "seed {seed}: {decisions} decisions");
            assert_eq!(env.turn(), Turn::Over);
        }
        let env = ReversiEnv::new(1);
        assert_eq!(
            env.format_action(env.action(2 * 12 + 5).expect("a move")),
            "5 2"
        );
    }

    #[test]
    fn the_observation_is_the_message() {
        let env = ReversiEnv::new(3);
        let message = env.message(None);
        let mut lines = message.lines();
        let n: usize = lines.next().expect("n").parse().expect("a number");
        let rows: Vec<&str> = lines.next().expect("rows").split(' ').collect();
        let fields = observe_all(&env);
        let Buffer::I8(board) = &fields[0] else {
            panic!("board is int8")
        };
        for row in 0..MAX_SIZE {
            for col in 0..MAX_SIZE {
                let at = row * MAX_SIZE + col;
                let on_board = row < n && col < n;
                assert_eq!(board[at], i8::from(on_board));
                let owner = rows
                    .get(row)
                    .and_then(|cells| cells.as_bytes().get(col))
                    .filter(|&&b| b != b'.')
                    .map(|&b| usize::from(b - b'0'));
                for player in 1..=MAX_PLAYERS {
                    assert_eq!(board[player * CELLS + at], i8::from(owner == Some(player)));
                }
            }
        }
        let players = crate::rules::players_for_size(n);
        assert_eq!(fields[1], Buffer::I8(vec![n as i8, players as i8]));
    }
}
