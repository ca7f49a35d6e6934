//! What a built-in player knows of its time.

use std::time::{Duration, Instant};

/// The case's time limit, how much of it the player has used, and when the current decision
/// started.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub limit: Duration,
    pub used: Duration,
    pub started: Instant,
}

impl Clock {
    /// A decision starting now, with `used` of `limit` spent on earlier ones.
    pub fn start(limit: Duration, used: Duration) -> Self {
        Clock {
            limit,
            used,
            started: Instant::now(),
        }
    }

    /// Time left for the rest of the case, counting the current decision as spent so far.
    pub fn remaining(&self) -> Duration {
        self.limit
            .saturating_sub(self.used + self.started.elapsed())
    }
}
