//! Solitaire chess's fixed spaces (`marathon_core::space`). An action is a cell,
//! `(r - 1) * 6 + (c - 1)` for the reply `r c` (0..36), or `0 0` (36); the mask allows exactly the
//! legal replies. The observation:
//! - `tops` (6 x 6): the visible piece of each stack, 0 when the stack is used up, else the
//!   type's number + 1 (`1`..`4` are 1..4, then `torn` 5, `lopare` 6, `dam` 7, `springare` 8);
//! - `removed` (6 x 6): pieces removed from each stack, 0..3;
//! - `last` (3): the last removed type + 1 and its row and column (1-based), 0 before the first
//!   removal;
//! - `scorer` (6): what the bonuses still depend on: the length of the current run of equal
//!   types, the (up to three) removed types the set scan has not passed yet (type + 1, 0 for
//!   none), the number of alternating sets so far and the kind of the last set (0 none,
//!   1 numbers, 2 pieces).

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::env::SolitaireEnv;
use crate::protocol::Reply;
use crate::rules::{CELLS, Cell, LEVELS, MAX_REMOVALS, SIZE, SetKind, State, cells_of};

/// The action `0 0`.
pub(crate) const STOP: usize = CELLS;

const FIELDS: &[Field] = &[
    Field {
        name: "tops",
        shape: &[SIZE, SIZE],
        dtype: Dtype::I8,
        low: 0,
        high: 8,
    },
    Field {
        name: "removed",
        shape: &[SIZE, SIZE],
        dtype: Dtype::I8,
        low: 0,
        high: LEVELS as i32,
    },
    Field {
        name: "last",
        shape: &[3],
        dtype: Dtype::I8,
        low: 0,
        high: 8,
    },
    Field {
        name: "scorer",
        shape: &[6],
        dtype: Dtype::I8,
        low: 0,
        high: MAX_REMOVALS as i32,
    },
];

impl Spaces for SolitaireEnv {
    const ACTIONS: usize = CELLS + 1;
    const FIELDS: &'static [Field] = FIELDS;

    fn action(&self, index: usize) -> Option<Reply> {
        reply_of(index)
    }

    fn action_index(&self, reply: Reply) -> Option<usize> {
        Some(match reply {
            Reply::Stop => STOP,
            Reply::Remove(cell) => cell.index(),
        })
    }

    fn action_mask(&self, mask: &mut [i8]) {
        state_mask(self.state(), self.turn() == Turn::Player, mask);
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        observe_state(self.state(), field, out);
    }
}

/// The reply numbered `index`; `None` outside the space.
pub(crate) fn reply_of(index: usize) -> Option<Reply> {
    match index {
        STOP => Some(Reply::Stop),
        _ if index < CELLS => Some(Reply::Remove(Cell::from_index(index))),
        _ => None,
    }
}

/// The mask of `state`'s legal replies (all zeros when `playing` is false): the environment's
/// and the player's side's (`follow`).
pub(crate) fn state_mask(state: &State, playing: bool, mask: &mut [i8]) {
    mask.fill(0);
    if !playing {
        return;
    }
    for cell in cells_of(state.legal()) {
        mask[cell.index()] = 1;
    }
    mask[STOP] = 1;
}

/// Field `field` of the observation of `state` (what the player knows).
pub(crate) fn observe_state(state: &State, field: usize, out: &mut Values<'_>) {
    let number = |piece: Option<crate::rules::Piece>| piece.map_or(0, |p| p.index() as i32 + 1);
    match field {
        0 => {
            for cell in Cell::all() {
                out.set(cell.index(), number(state.top(cell)));
            }
        }
        1 => {
            for cell in Cell::all() {
                out.set(cell.index(), i32::from(state.removed(cell)));
            }
        }
        2 => match state.last() {
            Some((cell, piece)) => {
                out.set(0, number(Some(piece)));
                out.set(1, cell.row() as i32 + 1);
                out.set(2, cell.col() as i32 + 1);
            }
            None => out.fill(0),
        },
        _ => {
            let scorer = &state.scorer;
            out.fill(0);
            out.set(0, scorer.run() as i32);
            for (i, piece) in scorer.pending().enumerate() {
                out.set(1 + i, number(Some(piece)));
            }
            out.set(4, scorer.alternating() as i32);
            out.set(
                5,
                match scorer.last_set() {
                    None => 0,
                    Some(SetKind::Numbers) => 1,
                    Some(SetKind::Pieces) => 2,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::rng::FastRng;
    use marathon_core::space::{Buffer, check_playout, observe_all};

    use super::*;
    use crate::generator::{Alphabet, Deal};
    use crate::rules::Piece;

    #[test]
    fn numbers_round_trip_and_the_mask_is_the_legal_replies() {
        for group in 1..=6 {
            let alphabet = Alphabet::of_group(group).expect("a group");
            let mut env = SolitaireEnv::new(Deal::new(&alphabet, u64::from(group)));
            let mut rng = FastRng::new(u64::from(group));
            check_playout(&mut env, true, 200, |n| rng.below(n as u32) as usize)
                .unwrap_or_else(|e| panic!("group {group}: {e}"));
        }
        let env = SolitaireEnv::new(Deal::new(&Alphabet::of_group(6).expect("6"), 1));
        assert_eq!(
            env.format_action(env.action(2 * 6 + 4).expect("a cell")),
            "3 5"
        );
        assert_eq!(env.format_action(env.action(36).expect("stop")), "0 0");
        assert_eq!(env.action(37), None);
    }

    #[test]
    fn the_observation_shows_the_tops_and_the_last_removal() {
        let mut env = SolitaireEnv::new(Deal::new(&Alphabet::of_group(6).expect("6"), 3));
        let message = env.message(None);
        let names: Vec<i8> = message
            .split_whitespace()
            .map(|name| Piece::from_name(name).expect("a piece").index() as i8 + 1)
            .collect();
        assert_eq!(observe_all(&env)[0], Buffer::I8(names));
        let cell = Cell::from_index(8);
        let removed = env.state().top(cell).expect("a full stack");
        env.step(Reply::Remove(cell)).expect("any first removal");
        let fields = observe_all(&env);
        let Buffer::I8(depths) = &fields[1] else {
            panic!("removed is int8")
        };
        assert_eq!(depths.iter().map(|&d| i32::from(d)).sum::<i32>(), 1);
        assert_eq!(depths[8], 1);
        assert_eq!(fields[2], Buffer::I8(vec![removed.index() as i8 + 1, 2, 3]));
    }
}
