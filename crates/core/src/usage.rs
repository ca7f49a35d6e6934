//! What a player uses besides wall time: the CPU time and the resident memory of its whole
//! process tree (a `sh -c` wrapper, a Python script and the programs it starts, together), read
//! from the kernel's accounts in `/proc` while the judge waits for a reply.
//!
//! **The tree** is the player's `sh` and its descendants, found through the kernel's child
//! lists (`/proc/PID/task/TID/children`), plus the orphans that carry the player's tag
//! ([`PlayerTag`]) among marathon's own children (a program that left its parent with a double
//! fork is re-parented to marathon, its subreaper, and still counts). A sandboxed program's tree
//! starts with marathon's own processes (the sandbox's launcher and init, `own_levels` = 2,
//! [`crate::sandbox::OWN_LEVELS`]): their memory and CPU time are not the program's and are not
//! counted, but the CPU time of the children the init reaped (the program's orphans) is.
//!
//! **CPU time** is the sum over the tree of each process's user and system time, to the
//! nanosecond (its CPU-time clock, `clock_getcpuclockid`), and that of the children it has
//! reaped (`/proc/PID/stat` fields 16-17, in clock ticks of 10 ms): a child that ends keeps
//! counting through its parent. The time of a process reaped by marathon (an orphan, at the end
//! of a case) is not counted.
//!
//! **Memory** is what the tree holds: the sum over its processes of their resident sets
//! (`VmRSS`), read every [`SAMPLE_PERIOD`] while the judge waits for a reply and at replies.
//! Processes of one tree can share pages (a fork shares all of its parent's until either
//! writes; a wrapper that forks a big interpreter holds them once), and the plain sum would
//! count them twice: where the tree has more than one process and the sum could decide (raise
//! the peak, or pass the limit), the proportional sets (`Pss` of `/proc/PID/smaps_rollup`, a
//! shared page counted once across its sharers) are summed instead, at most every
//! [`PSS_PERIOD`] (they cost about 8 µs per MiB to read) unless the limit is at stake. A
//! vfork's child (Python's `subprocess`, `posix_spawn`) runs in its parent's very address space
//! until it runs its program: it reports all of its parent's pages as its own, in the resident
//! and the proportional sets alike, for as long as a busy machine leaves it waiting. Such a
//! child, one that has not run a program since it was forked (the kernel's `PF_FORKNOEXEC`)
//! and whose memory accounts (`Vm*` and `Rss*` of `status`) are its parent's line for line, is
//! not counted: its memory is its parent's. As a second guard the judge counts a sum only once
//! two readings in a row show it. Each process's own peak
//! (`VmHWM`, kept by the kernel) is read too, so no single process's peak is missed while it
//! lives; a peak of the sum shorter than two periods, or a process that allocates and exits
//! between two readings, can be missed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::process_tree::{self, PlayerTag};

/// How often the judge reads a waiting player's tree.
pub const SAMPLE_PERIOD: Duration = Duration::from_millis(10);

/// How often, at most, a tree of several processes is read for its proportional sets when
/// the limit is not at stake.
pub const PSS_PERIOD: Duration = Duration::from_millis(100);

/// One reading of a player's tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU time (user and system) of the tree's processes and the children they reaped.
    pub cpu: Duration,
    /// The tree's resident memory now, in KiB.
    pub rss_kib: u64,
    /// The largest peak (`VmHWM`) of any single process of the tree, in KiB.
    pub process_peak_kib: u64,
    /// The processes read.
    pub processes: usize,
}

/// Reads the CPU time and memory of the tree of the player whose `sh` is `root` (a pid not yet
/// reaped), its top `own_levels` levels marathon's own. Processes that vanish while it reads
/// are skipped.
pub fn sample_tree(root: i32, tag: &PlayerTag, own_levels: usize) -> Usage {
    let members = tree(root, tag);
    let mut usage = Usage::default();
    for member in &members {
        let counted = Counted::at(member.depth, own_levels);
        if let Some(cpu) = read_cpu(member.pid, &proc_dir(member.pid), counted) {
            usage.cpu += cpu;
        }
    }
    for (_, status) in memory_holders(&members, own_levels) {
        if let (Some(rss), Some(peak)) = (kib_field(&status, "VmRSS"), kib_field(&status, "VmHWM"))
        {
            usage.rss_kib = usage.rss_kib.saturating_add(rss);
            usage.process_peak_kib = usage.process_peak_kib.max(peak);
            usage.processes += 1;
        }
    }
    usage
}

/// The sum of the proportional set sizes of the tree's processes, in KiB: what the tree holds,
/// each page counted once however many of its processes share it.
pub fn tree_pss_kib(root: i32, tag: &PlayerTag, own_levels: usize) -> u64 {
    memory_holders(&tree(root, tag), own_levels)
        .into_iter()
        .filter_map(|(pid, _)| {
            let text = std::fs::read_to_string(proc_dir(pid).join("smaps_rollup")).ok()?;
            kib_field(&text, "Pss")
        })
        .fold(0, u64::saturating_add)
}

/// The tree's processes whose memory is the program's, each with its `status`: not marathon's
/// own levels, not a zombie, and not a child still running in its parent's address space (see
/// the module's doc).
fn memory_holders(members: &[Member], own_levels: usize) -> Vec<(i32, String)> {
    let statuses: Vec<Option<String>> = members
        .iter()
        .map(|member| {
            (member.depth >= own_levels)
                .then(|| std::fs::read_to_string(proc_dir(member.pid).join("status")).ok())
                .flatten()
                .filter(|status| status.lines().any(|line| line.starts_with("VmRSS:")))
        })
        .collect();
    let status_of = |pid: i32| {
        let at = members.iter().position(|member| member.pid == pid)?;
        statuses[at].as_deref()
    };
    members
        .iter()
        .zip(&statuses)
        .filter_map(|(member, status)| {
            let status = status.as_deref()?;
            let parent = member.parent.and_then(status_of);
            let borrowed = parent.is_some_and(|parent| {
                not_yet_exec(member.pid) && memory_accounts(status).eq(memory_accounts(parent))
            });
            (!borrowed).then(|| (member.pid, status.to_owned()))
        })
        .collect()
}

/// The lines of a `status` that account for its address space (`VmRSS`, `RssAnon`, ...).
fn memory_accounts(status: &str) -> impl Iterator<Item = &str> {
    status
        .lines()
        .filter(|line| line.starts_with("Vm") || line.starts_with("Rss"))
}

/// The kernel's `PF_FORKNOEXEC`: forked, and has not run a program since.
const PF_FORKNOEXEC: u64 = 0x40;

/// Whether process `pid` was forked and has not run a program since (field 9 of its `stat`).
fn not_yet_exec(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(proc_dir(pid).join("stat")) else {
        return false;
    };
    // `pid (comm) state ppid pgrp session tty_nr tpgid flags ...`: comm may hold anything.
    stat.rfind(')')
        .and_then(|end| stat[end + 1..].split_whitespace().nth(6))
        .and_then(|flags| flags.parse::<u64>().ok())
        .is_some_and(|flags| flags & PF_FORKNOEXEC != 0)
}

/// The CPU time of the tree of the player whose `sh` is `root`: [`sample_tree`]'s `cpu`
/// without reading memory (read twice a turn under the CPU clock).
pub fn tree_cpu(root: i32, tag: &PlayerTag, own_levels: usize) -> Duration {
    tree(root, tag)
        .into_iter()
        .filter_map(|member| {
            let counted = Counted::at(member.depth, own_levels);
            read_cpu(member.pid, &proc_dir(member.pid), counted)
        })
        .sum()
}

/// A process of a player's tree.
#[derive(Clone, Copy, Debug)]
struct Member {
    pid: i32,
    /// Below the root (an orphan's is counted from itself: it is a program's process).
    depth: usize,
    /// The member it was found as a child of.
    parent: Option<i32>,
}

/// `root`, its descendants, and the orphans carrying `tag` with theirs.
fn tree(root: i32, tag: &PlayerTag) -> Vec<Member> {
    let member = |pid, depth, parent| Member { pid, depth, parent };
    let mut todo = vec![member(root, 0, None)];
    todo.extend(
        process_tree::tagged_orphans(tag)
            .into_iter()
            .map(|pid| member(pid, usize::MAX, None)),
    );
    let mut seen: Vec<Member> = Vec::new();
    while let Some(next) = todo.pop() {
        if seen.iter().any(|done| done.pid == next.pid) {
            continue;
        }
        seen.push(next);
        let below = next.depth.saturating_add(1);
        todo.extend(
            children(&proc_dir(next.pid))
                .into_iter()
                .map(|child| member(child, below, Some(next.pid))),
        );
    }
    seen
}

/// Which CPU time of a process counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counted {
    /// Its own and its reaped children's: a program's process.
    All,
    /// Only its reaped children's: the sandbox's init, which reaps the program's orphans.
    Reaped,
    /// None: the sandbox's launcher (the init it reaps at the end is marathon's too).
    Nothing,
}

impl Counted {
    fn at(depth: usize, own_levels: usize) -> Self {
        match own_levels.checked_sub(depth) {
            None | Some(0) => Counted::All,
            Some(1) => Counted::Reaped,
            Some(_) => Counted::Nothing,
        }
    }
}

fn proc_dir(pid: i32) -> PathBuf {
    Path::new("/proc").join(pid.to_string())
}

/// The CPU time of the thread `tid` of this process (an in-process player), to the nanosecond
/// (`/proc/self/task/TID/schedstat`: time on a CPU).
pub fn thread_cpu(tid: i32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/schedstat")).ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// The calling thread's CPU time, for a player's own clock ([`crate::Clock`]).
pub fn this_thread_cpu() -> Duration {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map(Duration::from)
        .unwrap_or_default()
}

/// The CPU time of process `pid` (at `dir`) and of the children it has reaped, as `counted`:
/// its own to the nanosecond from its CPU-time clock (`clock_getcpuclockid`), else from its
/// `stat` in ticks; its reaped children's from its `stat`, in ticks.
fn read_cpu(pid: i32, dir: &Path, counted: Counted) -> Option<Duration> {
    if counted == Counted::Nothing {
        return None;
    }
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    // `pid (comm) state ...`: comm may hold anything, so count fields after the last ')'.
    // Fields 14-17 of the line (utime stime cutime cstime) are the 12th-15th after it.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let mut ticks = [0u64; 4];
    for (slot, field) in ticks.iter_mut().zip(fields.get(11..15)?) {
        *slot = field.parse().ok()?;
    }
    let [user, system, children_user, children_system] = ticks;
    let reaped = ticks_to_duration(children_user.saturating_add(children_system));
    if counted == Counted::Reaped {
        return Some(reaped);
    }
    let own =
        process_cpu_clock(pid).unwrap_or_else(|| ticks_to_duration(user.saturating_add(system)));
    Some(own + reaped)
}

/// The CPU time of process `pid`'s threads, live and ended, to the nanosecond.
fn process_cpu_clock(pid: i32) -> Option<Duration> {
    let clock = nix::time::clock_getcpuclockid(nix::unistd::Pid::from_raw(pid)).ok()?;
    nix::time::clock_gettime(clock).ok().map(Duration::from)
}

/// The kernel's clock ticks (`USER_HZ`, 100 on every Linux this runs on) as time.
fn ticks_to_duration(ticks: u64) -> Duration {
    let per_second = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .and_then(|hz| u64::try_from(hz).ok())
        .filter(|&hz| hz > 0)
        .unwrap_or(100);
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / per_second))
}

/// The value of a `NAME:   123 kB` line of a `/proc` file, in KiB.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?.strip_prefix(':')?;
        rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
    })
}

/// The children of every thread of the process at `dir`.
fn children(dir: &Path) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(dir.join("task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<i32>>()
        })
        .collect()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_a_cpu_time_and_a_resident_set() {
        let me = Path::new("/proc/self");
        let status = std::fs::read_to_string(me.join("status")).expect("status reads");
        let (rss, peak) = (kib_field(&status, "VmRSS"), kib_field(&status, "VmHWM"));
        let (rss, peak) = rss.zip(peak).expect("a live process has VmRSS and VmHWM");
        assert!(rss > 0 && peak >= rss, "{rss} {peak}");
        let pid = std::process::id() as i32;
        let before = read_cpu(pid, me, Counted::All).expect("stat reads");
        // Busy until this thread has had 50 ms of CPU (by its own clock, whatever the load):
        // the process's account, which includes this thread's, grows by at least as much.
        let start = this_thread_cpu();
        let mut x = 1u64;
        while this_thread_cpu() < start + Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
        }
        let grown = read_cpu(pid, me, Counted::All)
            .unwrap()
            .saturating_sub(before);
        assert!(grown >= Duration::from_millis(50), "{grown:?}");
    }

    #[test]
    fn the_sandbox_machinery_is_not_counted() {
        // A plain program: everything counts.
        assert_eq!(Counted::at(0, 0), Counted::All);
        assert_eq!(Counted::at(5, 0), Counted::All);
        // A sandboxed one: not the launcher, only the orphans the init reaped, all below.
        assert_eq!(Counted::at(0, 2), Counted::Nothing);
        assert_eq!(Counted::at(1, 2), Counted::Reaped);
        assert_eq!(Counted::at(2, 2), Counted::All);
        assert_eq!(Counted::at(usize::MAX, 2), Counted::All);
        let me = Path::new("/proc/self");
        let pid = std::process::id() as i32;
        assert_eq!(read_cpu(pid, me, Counted::Nothing), None);
        let reaped = read_cpu(pid, me, Counted::Reaped).expect("stat reads");
        assert!(reaped <= read_cpu(pid, me, Counted::All).expect("stat reads"));
    }

    #[test]
    fn ticks_are_hundredths_of_a_second() {
        assert_eq!(ticks_to_duration(250), Duration::from_millis(2500));
    }
}
