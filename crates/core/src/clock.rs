//! What a built-in player knows of its time.

use std::time::{Duration, Instant};

/// The case's time limit, how much of it the player has used, and when the current decision
/// started.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub limit: Duration,
    pub used: Duration,
    pub started: Instant,
    /// Whether time stands still ([`Clock::stopped`]).
    stopped: bool,
}

impl Clock {
    /// A decision starting now, with `used` of `limit` spent on earlier ones.
    pub fn start(limit: Duration, used: Duration) -> Self {
        Clock {
            limit,
            used,
            started: Instant::now(),
            stopped: false,
        }
    }

    /// A decision with `used` of `limit` spent, on a clock that stands still: the current
    /// decision never takes any time. Tests of a player's planning use it, so that what they
    /// check depends on `used` alone, never on how fast the machine runs the test (a test on a
    /// running clock can be preempted between two readings).
    pub fn stopped(limit: Duration, used: Duration) -> Self {
        Clock {
            stopped: true,
            ..Clock::start(limit, used)
        }
    }

    /// The time the current decision has taken so far.
    pub fn elapsed(&self) -> Duration {
        if self.stopped {
            Duration::ZERO
        } else {
            self.started.elapsed()
        }
    }

    /// Time left for the rest of the case, counting the current decision as spent so far.
    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.used + self.elapsed())
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
            stopped: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_clock_keeps_its_remaining_time() {
        let clock = Clock::stopped(Duration::from_secs(10), Duration::from_secs(4));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(clock.elapsed(), Duration::ZERO);
        assert_eq!(clock.remaining(), Duration::from_secs(6));
        assert!(!clock.nearly_out());
        let spent = Clock::stopped(Duration::from_secs(10), Duration::from_millis(9_900));
        assert!(spent.nearly_out());
    }

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
