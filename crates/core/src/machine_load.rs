//! Whether the players got the CPU they wanted. A timed player's moves depend on the CPU it
//! gets, so a timed run on a busy machine is not comparable with one on a quiet machine; the
//! runner says so instead of leaving a silent gap between two runs. (`nice` does not protect a
//! run where the kernel groups processes by session, Linux's autogroup: a niced job started
//! in another session still takes its fair share of the cores.)
//!
//! Each in-process player adds the kernel's account of its thread (`/proc/thread-self/schedstat`:
//! time on a CPU, time runnable but waiting for one) when it ends. External programs are not
//! counted: `sh -c` runs them as its children, whose accounts are gone once `sh` reaps them.
//! Linux only; elsewhere nothing is added and there is no figure.

use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

static RUNNING_NS: AtomicU64 = AtomicU64::new(0);
static WAITING_NS: AtomicU64 = AtomicU64::new(0);

/// The players' CPU time and their wait for a CPU, summed over every player recorded so far
/// in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayersCpu {
    running_ns: u64,
    waiting_ns: u64,
}

impl PlayersCpu {
    pub fn so_far() -> Self {
        PlayersCpu {
            running_ns: RUNNING_NS.load(Ordering::Relaxed),
            waiting_ns: WAITING_NS.load(Ordering::Relaxed),
        }
    }

    /// What the players recorded since `earlier` add up to.
    pub fn since(&self, earlier: &PlayersCpu) -> PlayersCpu {
        PlayersCpu {
            running_ns: self.running_ns.saturating_sub(earlier.running_ns),
            waiting_ns: self.waiting_ns.saturating_sub(earlier.waiting_ns),
        }
    }

    /// The time the players were runnable but had no CPU.
    pub fn waiting(&self) -> Duration {
        Duration::from_nanos(self.waiting_ns)
    }

    /// Of the time the players wanted a CPU, the share they waited for one; `None` when no
    /// player was recorded.
    pub fn waiting_share(&self) -> Option<f64> {
        let wanted = self.running_ns + self.waiting_ns;
        (wanted > 0).then(|| self.waiting_ns as f64 / wanted as f64)
    }
}

/// Records the calling thread as a player that has finished.
pub fn record_thread_player() {
    record("/proc/thread-self/schedstat");
}

fn record(path: &str) {
    if let Some((running, waiting)) = fs::read_to_string(path)
        .ok()
        .as_deref()
        .and_then(parse_schedstat)
    {
        RUNNING_NS.fetch_add(running, Ordering::Relaxed);
        WAITING_NS.fetch_add(waiting, Ordering::Relaxed);
    }
}

/// `schedstat`: nanoseconds on a CPU, nanoseconds runnable but waiting, time slices.
fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some((fields.next()?.ok()?, fields.next()?.ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_line() {
        assert_eq!(parse_schedstat("92778 404282 2\n"), Some((92_778, 404_282)));
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("12 x 3"), None);
    }

    #[test]
    fn the_share_is_of_the_time_wanted() {
        let earlier = PlayersCpu {
            running_ns: 1_000,
            waiting_ns: 100,
        };
        let later = PlayersCpu {
            running_ns: 7_000,
            waiting_ns: 2_100,
        };
        // 6,000 on a CPU and 2,000 waiting since.
        let between = later.since(&earlier);
        assert_eq!(between.waiting_share(), Some(0.25));
        assert_eq!(between.waiting(), Duration::from_nanos(2_000));
        assert_eq!(earlier.since(&earlier).waiting_share(), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_finished_thread_adds_its_cpu_time() {
        let before = PlayersCpu::so_far();
        std::thread::spawn(|| {
            let started = std::time::Instant::now();
            let mut x = 1u64;
            while started.elapsed() < std::time::Duration::from_millis(30) {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
            }
            record_thread_player();
        })
        .join()
        .unwrap();
        let after = PlayersCpu::so_far();
        // Other tests may record players too, so only a lower bound holds; and the kernel
        // folds the running slice into the account only at the next tick or switch (CI saw
        // 27.8 ms of the 30).
        let running = after.running_ns - before.running_ns;
        let waiting = after.waiting_ns - before.waiting_ns;
        assert!(running + waiting >= 20_000_000, "{running} + {waiting}");
    }
}
