//! Whether a player got the CPU it wanted. A timed player's moves depend on the CPU it gets, so
//! a timed run on a busy machine is not comparable with one on a quiet machine; the runner says
//! so instead of leaving a silent gap between two runs.
//!
//! An in-process player's thread reads the kernel's account of itself when it ends
//! (`/proc/thread-self/schedstat`: time on a CPU, time runnable but waiting for one), and its
//! case's outcome carries it. External programs are not counted: `sh -c` runs them as its
//! children, whose accounts are gone once `sh` reaps them. Linux only; elsewhere there is none.

use std::time::Duration;

/// A thread's time on a CPU, and its time runnable but waiting for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuAccount {
    pub running: Duration,
    pub waiting: Duration,
}

impl CpuAccount {
    /// The calling thread's account so far, where the kernel gives one.
    pub fn this_thread() -> Option<Self> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        parse_schedstat(&text)
    }

    /// Of the time wanted on a CPU, the share spent waiting for one; `None` when none was
    /// wanted.
    pub fn waiting_share(&self) -> Option<f64> {
        let wanted = self.running + self.waiting;
        (!wanted.is_zero()).then(|| self.waiting.as_secs_f64() / wanted.as_secs_f64())
    }
}

impl std::iter::Sum for CpuAccount {
    fn sum<I: Iterator<Item = Self>>(accounts: I) -> Self {
        accounts.fold(CpuAccount::default(), |total, account| CpuAccount {
            running: total.running + account.running,
            waiting: total.waiting + account.waiting,
        })
    }
}

/// `schedstat`: nanoseconds on a CPU, nanoseconds runnable but waiting, time slices.
fn parse_schedstat(text: &str) -> Option<CpuAccount> {
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some(CpuAccount {
        running: Duration::from_nanos(fields.next()?.ok()?),
        waiting: Duration::from_nanos(fields.next()?.ok()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernels_line() {
        assert_eq!(
            parse_schedstat("92778 404282 2\n"),
            Some(CpuAccount {
                running: Duration::from_nanos(92_778),
                waiting: Duration::from_nanos(404_282),
            })
        );
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("12 x 3"), None);
    }

    #[test]
    fn the_share_is_of_the_time_wanted() {
        let accounts = [
            CpuAccount {
                running: Duration::from_nanos(1_000),
                waiting: Duration::from_nanos(500),
            },
            CpuAccount {
                running: Duration::from_nanos(5_000),
                waiting: Duration::from_nanos(1_500),
            },
        ];
        let total: CpuAccount = accounts.into_iter().sum();
        assert_eq!(total.waiting_share(), Some(0.25));
        assert_eq!(CpuAccount::default().waiting_share(), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_busy_threads_account_grows_with_its_work() {
        // Counted in the kernel's own account, not against the wall clock: on a virtual machine
        // a thread can lose wall time that is neither running nor waiting (CI once saw 16 ms
        // running and none waiting in 30 ms of wall time). The wall clock only bounds a hang,
        // far above the need.
        let (first, last) = std::thread::spawn(|| {
            let first = CpuAccount::this_thread().expect("Linux gives a thread's account");
            let gave_up = std::time::Instant::now() + Duration::from_secs(60);
            let mut x = 1u64;
            loop {
                for _ in 0..100_000 {
                    x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
                }
                let now = CpuAccount::this_thread().expect("Linux gives a thread's account");
                if now.running >= first.running + Duration::from_millis(10)
                    || std::time::Instant::now() > gave_up
                {
                    return (first, now);
                }
            }
        })
        .join()
        .unwrap();
        assert!(
            last.running >= first.running + Duration::from_millis(10),
            "{first:?} then {last:?}"
        );
        assert!(last.waiting >= first.waiting, "{first:?} then {last:?}");
    }
}
