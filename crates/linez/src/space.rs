//! Linez's fixed spaces (`marathon_core::space`). An action is a move numbered
//! `from * 81 + to` (cells in row-major order, `A1` = 0, `I9` = 80), 6561 in all; the mask allows
//! exactly the legal moves. The observation is the board (`0` empty, `1`..`7` a ball) and the
//! preview's three colours in spawn order.

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::env::LinezEnv;
use crate::rules::{Bits, CELLS, COLORS, Cell, Move, PREVIEW_LEN, SIZE};

const FIELDS: &[Field] = &[
    Field {
        name: "board",
        shape: &[SIZE, SIZE],
        dtype: Dtype::I8,
        low: 0,
        high: COLORS as i32,
    },
    Field {
        name: "preview",
        shape: &[PREVIEW_LEN],
        dtype: Dtype::I8,
        low: 1,
        high: COLORS as i32,
    },
];

impl Spaces for LinezEnv {
    const ACTIONS: usize = CELLS * CELLS;
    const FIELDS: &'static [Field] = FIELDS;

    fn action(&self, index: usize) -> Option<Move> {
        (index < Self::ACTIONS).then(|| {
            Move::new(
                Cell::from_index(index / CELLS),
                Cell::from_index(index % CELLS),
            )
        })
    }

    fn action_index(&self, mv: Move) -> Option<usize> {
        Some(mv.from.index() * CELLS + mv.to.index())
    }

    fn action_mask(&self, mask: &mut [i8]) {
        mask.fill(0);
        if self.turn() == Turn::Player {
            self.state()
                .board
                .for_each_legal_move(|mv| mask[mv.from.index() * CELLS + mv.to.index()] = 1);
        }
    }

    /// Ball by ball (row-major), each ball's targets (the regions next to it) in row-major
    /// order: the numbers `from * 81 + to` increasing, without the mask's 6,561 entries.
    fn for_each_allowed(&self, allowed: &mut dyn FnMut(usize)) {
        if self.turn() != Turn::Player {
            return;
        }
        let legal = self.state().board.legal_moves();
        let regions = legal.regions();
        let movers = regions
            .iter()
            .fold(Bits::NONE, |all, region| all | region.movers);
        for from in movers {
            let targets = regions
                .iter()
                .filter(|region| region.movers.contains(from))
                .fold(Bits::NONE, |all, region| all | region.cells);
            for to in targets {
                allowed(from.index() * CELLS + to.index());
            }
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        let state = self.state();
        match field {
            0 => {
                for (i, &color) in state.board.colors().iter().enumerate() {
                    out.set(i, i32::from(color));
                }
            }
            _ => {
                for (i, &color) in state.preview.iter().enumerate() {
                    out.set(i, i32::from(color));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::rng::FastRng;
    use marathon_core::space::{check_playout, observe_all};

    use super::*;

    #[test]
    fn numbers_round_trip_and_the_mask_is_the_legal_moves() {
        for seed in 1..=3 {
            let mut env = LinezEnv::new(seed);
            let mut rng = FastRng::new(seed);
            let decisions = check_playout(&mut env, true, 60, |n| rng.below(n as u32) as usize)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(decisions > 10, "seed {seed}: {decisions} decisions");
        }
        let env = LinezEnv::new(1);
        let mv = Move::new(Cell::new(8, 7), Cell::new(5, 5));
        let index = env.action_index(mv).expect("a number");
        assert_eq!(index, (8 * 9 + 7) * 81 + 5 * 9 + 5);
        assert_eq!(
            env.format_action(env.action(index).expect("a move")),
            "I8F6"
        );
        assert_eq!(env.action(LinezEnv::ACTIONS), None);
    }

    #[test]
    fn the_observation_is_the_message() {
        let env = LinezEnv::new(7);
        let fields = observe_all(&env);
        let text = env.message(None);
        let mut expected = Vec::new();
        for line in text.lines() {
            expected.extend(
                line.bytes()
                    .map(|b| if b == b'.' { 0 } else { (b - b'0') as i8 }),
            );
        }
        let mut observed = Vec::new();
        for buffer in fields {
            match buffer {
                marathon_core::space::Buffer::I8(values) => observed.extend(values),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(observed, expected);
    }
}
