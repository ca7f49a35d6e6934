//! What a built-in player knows of its time, and which time the judge counts.

use std::fmt;
use std::time::{Duration, Instant};

use crate::usage::this_thread_cpu;

/// Which time a player's limit counts (`--clock`). The judge counts either from its message to
/// the player's reply: `Wall` the time that passes, `Cpu` the CPU time the player's processes
/// use meanwhile, which does not depend on what else the machine runs (a wall-clock cap still
/// ends a program that waits; see [`wall_cap`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockKind {
    #[default]
    Wall,
    Cpu,
}

impl ClockKind {
    pub const ALL: [ClockKind; 2] = [ClockKind::Wall, ClockKind::Cpu];

    pub fn name(self) -> &'static str {
        match self {
            ClockKind::Wall => "wall",
            ClockKind::Cpu => "cpu",
        }
    }

    /// `wall` or `cpu`.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.name() == text.trim())
    }
}

impl fmt::Display for ClockKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Under the CPU clock, the wall time a case's turns may take in all, as isolate's
/// `--wall-time` beside its CPU limit: twice the limit and a second (CMS's rule), so that a
/// program that sleeps or waits is ended while one that merely shares a busy machine is not.
pub fn wall_cap(limit: Duration) -> Duration {
    limit
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(1))
}

/// Where a clock reads the time.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// The time that passes since `started`.
    Wall,
    /// The calling thread's CPU time since this reading.
    ThreadCpu(Duration),
    /// Time stands still ([`Clock::stopped`]).
    Stopped,
}

/// The case's time limit, how much of it the player has used, and when the current decision
/// started.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub limit: Duration,
    pub used: Duration,
    pub started: Instant,
    source: Source,
}

impl Clock {
    /// A decision starting now, with `used` of `limit` spent on earlier ones.
    pub fn start(limit: Duration, used: Duration) -> Self {
        Clock {
            limit,
            used,
            started: Instant::now(),
            source: Source::Wall,
        }
    }

    /// A decision with `used` of `limit` spent, on a clock that stands still: the current
    /// decision never takes any time. Tests of a player's planning use it, so that what they
    /// check depends on `used` alone, never on how fast the machine runs the test (a test on a
    /// running clock can be preempted between two readings).
    pub fn stopped(limit: Duration, used: Duration) -> Self {
        Clock {
            source: Source::Stopped,
            ..Clock::start(limit, used)
        }
    }

    /// The time the current decision has taken so far.
    pub fn elapsed(&self) -> Duration {
        match self.source {
            Source::Wall => self.started.elapsed(),
            Source::ThreadCpu(at_start) => this_thread_cpu().saturating_sub(at_start),
            Source::Stopped => Duration::ZERO,
        }
    }

    /// The time used in all: the earlier decisions' and the current one's so far.
    pub fn spent(&self) -> Duration {
        self.used + self.elapsed()
    }

    /// Time left for the rest of the case, counting the current decision as spent so far.
    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.used + self.elapsed())
    }

    /// The moment this decision has taken `at` on this clock: a wall clock's time, or a CPU
    /// clock's CPU time (a busy machine that leaves the player waiting does not bring it
    /// nearer), or never on a stopped clock.
    pub fn deadline(&self, at: Duration) -> Deadline {
        Deadline { clock: *self, at }
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

/// A moment in a decision, on the clock the decision is timed by ([`Clock::deadline`]).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    clock: Clock,
    at: Duration,
}

impl Deadline {
    /// Whether the decision has taken its time.
    pub fn passed(&self) -> bool {
        self.clock.elapsed() >= self.at
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
    kind: ClockKind,
    started: Instant,
    /// The thread's CPU time when the game started (read under the CPU clock only).
    started_cpu: Duration,
}

impl GameClock {
    /// A game with `limit` for all its decisions, starting now (before the first message is
    /// read: the judge's clock may already run), counted by the wall clock.
    pub fn start(limit: Duration) -> Self {
        GameClock::start_on(limit, ClockKind::Wall)
    }

    /// A game with `limit` on the clock of `kind`. Under the CPU clock the player counts the
    /// CPU time of the thread that plays (a program's main thread, or the in-process player's
    /// thread, which is what the judge then counts); between turns it waits for input and uses
    /// none.
    pub fn start_on(limit: Duration, kind: ClockKind) -> Self {
        GameClock {
            limit,
            kind,
            started: Instant::now(),
            started_cpu: match kind {
                ClockKind::Wall => Duration::ZERO,
                ClockKind::Cpu => this_thread_cpu(),
            },
        }
    }

    /// The clock of a decision starting now.
    pub fn turn(&self) -> Clock {
        let now = Instant::now();
        let (used, source) = match self.kind {
            ClockKind::Wall => (now.saturating_duration_since(self.started), Source::Wall),
            ClockKind::Cpu => {
                let cpu = this_thread_cpu();
                (cpu.saturating_sub(self.started_cpu), Source::ThreadCpu(cpu))
            }
        };
        Clock {
            limit: self.limit,
            used,
            started: now,
            source,
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
    fn a_deadline_passes_on_its_own_clock() {
        // A stopped clock: only a deadline at the decision's start has passed.
        let stopped = Clock::stopped(Duration::from_secs(10), Duration::ZERO);
        assert!(stopped.deadline(Duration::ZERO).passed());
        assert!(!stopped.deadline(Duration::from_nanos(1)).passed());
        // A CPU clock: 100 ms of sleep does not bring a deadline 50 ms away nearer; 60 ms of
        // this thread's work passes it.
        let game = GameClock::start_on(Duration::from_secs(10), ClockKind::Cpu);
        let turn = game.turn();
        let deadline = turn.deadline(turn.elapsed() + Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(100));
        assert!(!deadline.passed(), "{turn:?}");
        let start = turn.elapsed();
        let mut x = 1u64;
        while turn.elapsed() < start + Duration::from_millis(60) {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
        }
        assert!(deadline.passed());
    }

    #[test]
    fn a_cpu_clock_counts_the_threads_work_not_its_waits() {
        let game = GameClock::start_on(Duration::from_secs(10), ClockKind::Cpu);
        std::thread::sleep(Duration::from_millis(100));
        let rested = game.turn();
        // A sleeping thread uses next to no CPU: far less than the 100 ms that passed.
        assert!(rested.used < Duration::from_millis(50), "{rested:?}");
        let mut x = 1u64;
        while rested.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
        }
        assert!(game.turn().used >= rested.used + Duration::from_millis(30));
        assert_eq!(ClockKind::parse("cpu"), Some(ClockKind::Cpu));
        assert_eq!(ClockKind::parse("wall"), Some(ClockKind::Wall));
        assert_eq!(ClockKind::parse("Wall"), None);
        assert_eq!(wall_cap(Duration::from_secs(10)), Duration::from_secs(21));
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
