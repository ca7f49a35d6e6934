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

    /// Whether so little of the limit is left ([`LAST_RESERVE`]) that a player whose protocol
    /// lets it end the game keeping its score (`GIVE UP`, `0 0`) should do so now: a timeout
    /// would score 0, and the turns to come cost at least their messages' round trips, which a
    /// loaded machine makes long (TilesMatching at 0.5 s, 10,000 moves: one timeout in three
    /// runs before this rule).
    pub fn nearly_out(&self) -> bool {
        self.remaining() < self.limit.mul_f64(LAST_RESERVE)
    }
}

/// The share of the limit a player keeps for ending its game in time ([`Clock::nearly_out`]).
pub const LAST_RESERVE: f64 = 0.02;

/// The time of a player that speaks a protocol, as the judge counts it. The judge's clock runs
/// from its write of each message to the player's answer; on the player's side the wait for a
/// message cannot be told from the judge's own turn, so everything since the game started
/// counts (the judge's turns are short; this errs on the safe side). Counting only the
/// thinking is not safe: on a loaded machine the waits for the scheduler add up (Linez, seeds
/// 1-10 at 2 s through `--exec` beside a build: 3 timeouts in one run, none after).
#[derive(Clone, Copy, Debug)]
pub struct GameClock {
    limit: Duration,
    started: Instant,
}

impl GameClock {
    /// A game with `limit` for all its decisions, starting now (before the first message is
    /// read: the judge's clock may already run).
    pub fn start(limit: Duration) -> Self {
        GameClock {
            limit,
            started: Instant::now(),
        }
    }

    /// The clock of a decision starting now.
    pub fn turn(&self) -> Clock {
        let now = Instant::now();
        Clock {
            limit: self.limit,
            used: now.saturating_duration_since(self.started),
            started: now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_waits_between_turns_count_as_used() {
        let game = GameClock::start(Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(30));
        let first = game.turn();
        assert!(first.used >= Duration::from_millis(30), "{first:?}");
        std::thread::sleep(Duration::from_millis(30));
        let second = game.turn();
        assert!(second.used >= first.used + Duration::from_millis(30));
        assert!(second.remaining() <= Duration::from_secs(10) - Duration::from_millis(60));
    }
}
