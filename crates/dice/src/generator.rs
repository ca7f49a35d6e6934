//! A case: the die's rolls, drawn from the seed in order.

use marathon_core::rng::FastRng;

use crate::rules::FACES;

/// The die of case `seed`.
#[derive(Clone, Debug)]
pub struct Die(FastRng);

impl Die {
    pub fn new(seed: u64) -> Self {
        Die(FastRng::new(seed))
    }

    /// The next roll, 1 to [`FACES`].
    pub fn roll(&mut self) -> u32 {
        1 + self.0.below(FACES)
    }
}
