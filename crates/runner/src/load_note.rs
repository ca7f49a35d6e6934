//! The note a run gets when its players did not get the CPU they wanted: a timed player's moves
//! depend on the CPU it gets, so a timed run on a busy machine is not comparable with one on a
//! quiet machine. (`nice` does not protect a run where the kernel groups processes by session,
//! Linux's autogroup: a niced job started in another session still takes its fair share.)

use std::time::Duration;

use marathon_core::CaseOutcome;
use marathon_core::cpu::CpuAccount;

/// The built-in players' wait for a CPU, as a share of the time they wanted one, from which a
/// run's note says the machine was busy. Linez, seeds 1-6 at effort 16, two threads: 3-5% on a
/// quiet machine (the other game's judge threads), 12% beside another session's job whose
/// group was reniced to 19, 31% beside a busy loop. But TilesMatching, whose players think a
/// fraction of a millisecond between wake-ups, waited 12% on a quiet machine (seeds 1-100 at
/// 20 s), so only a clearly busy machine gets the note.
pub const BUSY_MACHINE_WAIT: f64 = 0.20;

/// ... and from which wait per case: a player that hardly thinks (`greedy`, `random`) waits for
/// the scheduler at every wake-up, a large share of next to nothing.
pub const BUSY_MACHINE_WAIT_PER_CASE: Duration = Duration::from_millis(50);

/// The note for a run whose in-process players waited too long for a CPU; `None` when they did
/// not (or none was in-process).
pub fn busy_machine_note<'a>(
    outcomes: impl IntoIterator<Item = &'a CaseOutcome>,
) -> Option<String> {
    let accounts: Vec<CpuAccount> = outcomes.into_iter().filter_map(|o| o.cpu).collect();
    let total: CpuAccount = accounts.iter().copied().sum();
    let wait_per_case = total.waiting / u32::try_from(accounts.len().max(1)).unwrap_or(u32::MAX);
    let share = total.waiting_share()?;
    (share >= BUSY_MACHINE_WAIT && wait_per_case >= BUSY_MACHINE_WAIT_PER_CASE).then(|| {
        format!(
            "note: the players waited for a CPU {:.0}% of the time they wanted one ({:.2} s a \
             case): other work on the machine, or more threads than cores; timed players got \
             less CPU than on a quiet machine (`--effort` results do not depend on it)",
            100.0 * share,
            wait_per_case.as_secs_f64()
        )
    })
}

#[cfg(test)]
mod tests {
    use marathon_core::{CaseId, Verdict};

    use super::*;

    fn outcome(running_ms: u64, waiting_ms: u64) -> CaseOutcome {
        CaseOutcome {
            game: "linez",
            case: CaseId::seed(1),
            params: Vec::new(),
            score: 0.0,
            moves: 0,
            time: Duration::ZERO,
            verdict: Verdict::Ok,
            metrics: Vec::new(),
            cpu: Some(CpuAccount {
                running: Duration::from_millis(running_ms),
                waiting: Duration::from_millis(waiting_ms),
            }),
            max_rss_kib: None,
        }
    }

    #[test]
    fn only_a_clearly_busy_machine_gets_the_note() {
        let busy = [outcome(700, 300), outcome(700, 300)];
        let note = busy_machine_note(&busy).expect("30% waiting, 0.3 s a case");
        assert!(
            note.contains("30%") && note.contains("0.30 s a case"),
            "{note}"
        );
        // 12% is a quiet machine's figure for some games.
        assert_eq!(busy_machine_note(&[outcome(880, 120)]), None);
        // A player that hardly thinks waits a large share of nothing.
        assert_eq!(busy_machine_note(&[outcome(10, 20)]), None);
        let mut program = outcome(700, 300);
        program.cpu = None;
        assert_eq!(busy_machine_note(&[program]), None);
    }
}
