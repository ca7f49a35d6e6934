//! Test cases from a seed (docs/rules.md#tiles-generation): Java's SHA1PRNG seeded with the case
//! seed draws `N`, `S`, `D`, and then, from the same stream, one tile per turn. The stream depends
//! on play only through "the board is empty -> `W`".

use marathon_core::rng::JavaSecureRandom;

use crate::rules::{Params, Tile};

/// The chance side of one case: its parameters and its tile stream.
#[derive(Clone, Debug)]
pub struct TilesCase {
    pub params: Params,
    rng: JavaSecureRandom,
}

/// The tile-type draw is `nextInt(TILE_TYPE_BOUND - N)`: 0 is `W`, 1 is `R`, the rest regular,
/// so `P(W) = P(R) = 1/(32-N)` (statement, docs/rules.md#tiles-generation).
pub const TILE_TYPE_BOUND: i32 = 32;

impl TilesCase {
    /// The case for `seed` (read as Java's `long`): `N = nextInt(7)+4`, `S = nextInt(5)+8`,
    /// `D = nextInt(3)+2`.
    pub fn new(seed: u64) -> Self {
        let mut rng = JavaSecureRandom::new(seed as i64);
        let n = rng.next_int(7) as u8 + 4;
        let s = rng.next_int(5) as u8 + 8;
        let d = rng.next_int(3) as u8 + 2;
        let params = Params::new(n, s, d).expect("the draws are within the constraints");
        TilesCase { params, rng }
    }

    /// The next tile: `t = nextInt(32-N)`; `W` if the board is empty or `t == 0`, else `R` if
    /// `t == 1`, else colour `nextInt(N)` then shape `nextInt(N)`.
    pub fn next_tile(&mut self, board_empty: bool) -> Tile {
        let n = self.params.n as i32;
        let t = self.rng.next_int(TILE_TYPE_BOUND - n);
        if board_empty || t == 0 {
            Tile::Wild
        } else if t == 1 {
            Tile::Remove
        } else {
            let color = self.rng.next_int(n) as u8;
            let shape = self.rng.next_int(n) as u8;
            Tile::Regular { color, shape }
        }
    }
}
