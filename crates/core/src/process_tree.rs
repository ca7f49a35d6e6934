//! Every process a judged program starts dies with its case.
//!
//! A player is `sh -c COMMAND` in a process group of its own, so one `killpg` reaches what it
//! starts in the ordinary way. A program can leave that group (`setsid`, a double fork), so on
//! Linux the judge also finds, in `/proc`:
//! - the player's descendants, by their parent links, whatever their group;
//! - every process carrying the player's tag, an environment variable of its own
//!   ([`PlayerTag`]) that children inherit, which finds an orphan that already lost its parent
//!   link;
//! - in a process that is not a subreaper (a library's host, such as Python), every process
//!   holding one of the player's pipes (its stdin, stdout or stderr), which children inherit
//!   and `env -i` does not clear;
//!
//! and kills them all, over several passes until none is left (a process may fork while we
//! look). With [`adopt_orphans`] (the `marathon` binary calls it) marathon is also a child
//! subreaper: orphans of its players are reparented to marathon, not to init, so even one that
//! cleared its environment and lost its parent is found: every child of marathon that is not a
//! running player's `sh` is such an orphan, and it is killed when any case ends. A subreaper
//! must also reap what it adopts, or each dead orphan stays a zombie, holding a process slot,
//! for the rest of the run: every kill and every reaped player ends with [`reap_orphans`].
//!
//! A host that is not a subreaper cannot tell an orphan that left the group, cleared its
//! environment and closed every pipe it inherited from its own children: such an orphan
//! outlives its case there (the `marathon` binary finds it as a subreaper).
//!
//! Elsewhere than Linux only the process group is killed: a program that leaves its group
//! there may outlive its case.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

/// The running players' `sh`, by pid: our children that are not orphans. Written while a
/// player is spawned and while it is reaped, so that a pid in the set is always a live player
/// (a reaped pid may be reused at once by the next spawn); read while orphans are picked.
static PLAYERS: RwLock<BTreeMap<i32, Registered>> = RwLock::new(BTreeMap::new());

/// What is known of a running player.
struct Registered {
    tag: PlayerTag,
    /// The inode numbers of its stdin, stdout and stderr pipes (looked for in `/proc`).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pipes: Vec<u64>,
}

/// Whether this process is a subreaper whose children are all players or their orphans.
static ADOPTING: AtomicBool = AtomicBool::new(false);

fn players_read() -> RwLockReadGuard<'static, BTreeMap<i32, Registered>> {
    PLAYERS
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn players_write() -> RwLockWriteGuard<'static, BTreeMap<i32, Registered>> {
    PLAYERS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Spawns a player's `sh` (`command` sets `tag` in its environment) and registers it as a
/// running player, with its pipes.
pub fn spawn_player(command: &mut Command, tag: &PlayerTag) -> io::Result<Child> {
    let mut players = players_write();
    let child = command.spawn()?;
    let ends = [
        child.stdin.as_ref().map(|end| end.as_fd()),
        child.stdout.as_ref().map(|end| end.as_fd()),
        child.stderr.as_ref().map(|end| end.as_fd()),
    ];
    let pipes = ends
        .into_iter()
        .flatten()
        .filter_map(|fd| {
            Some(
                File::from(fd.try_clone_to_owned().ok()?)
                    .metadata()
                    .ok()?
                    .ino(),
            )
        })
        .collect();
    players.insert(
        child.id() as i32,
        Registered {
            tag: tag.clone(),
            pipes,
        },
    );
    Ok(child)
}

/// Reaps a player's `sh` (already killed) and forgets it, in one step: see `PLAYERS`; then the
/// dead orphans it left, which were reparented to us when it exited.
pub fn reap_player(child: &mut Child) {
    {
        let mut players = players_write();
        let _ = child.wait();
        players.remove(&(child.id() as i32));
    }
    reap_orphans();
}

/// Reaps (as a subreaper) every dead child of ours that is not a running player's `sh`: the
/// orphans we adopted that have died, however they died. Those are only ever reaped here or
/// by the kills, never waited for elsewhere, and a player's `sh` is left to its endpoint, which
/// waits for its exit status. Does nothing for a process that is not a subreaper (its other
/// children belong to its own code).
pub fn reap_orphans() {
    #[cfg(target_os = "linux")]
    if ADOPTING.load(Ordering::SeqCst) {
        linux::reap_dead_orphans();
    }
}

/// The environment variable that tags a player's processes: `MARATHON_PLAYER_<pid>_<n>=1`,
/// unique to the judge's process and the case, so that a judged program that runs marathon
/// again (with players of its own) keeps both tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerTag {
    name: String,
}

impl PlayerTag {
    /// A tag no other player of this process has.
    pub fn new() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        PlayerTag {
            name: format!("MARATHON_PLAYER_{}_{n}", std::process::id()),
        }
    }

    /// The variable's name; its value is `1`.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Default for PlayerTag {
    fn default() -> Self {
        Self::new()
    }
}

/// Makes this process the reaper of its descendants' orphans (Linux); false where that is not
/// possible. Only for a process that starts no other children than players (it then reaps
/// adopted orphans, see [`kill_adopted`]).
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        let adopting = nix::sys::prctl::set_child_subreaper(true).is_ok();
        ADOPTING.store(adopting, Ordering::SeqCst);
        adopting
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// This process's children that are not running players' `sh` and carry `tag`: orphans of that
/// player adopted by this process as its subreaper ([`adopt_orphans`]).
pub fn tagged_orphans(tag: &PlayerTag) -> Vec<i32> {
    #[cfg(target_os = "linux")]
    {
        if !ADOPTING.load(Ordering::SeqCst) {
            return Vec::new();
        }
        linux::tagged_orphans(tag)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = tag;
        Vec::new()
    }
}

/// Kills the player whose `sh` is `root` (leader of its own group, not yet reaped: its pid and
/// group id stay ours) and everything it started, and (as a subreaper) every orphan we adopted;
/// reaps those of them that became our children. `root` itself is left for [`reap_player`].
pub fn kill_tree(root: Pid, tag: &PlayerTag) {
    let _ = killpg(root, Signal::SIGKILL);
    let _ = kill(root, Signal::SIGKILL);
    #[cfg(target_os = "linux")]
    linux::kill_descendants(root, tag);
    #[cfg(not(target_os = "linux"))]
    let _ = tag;
    reap_orphans();
}

/// Kills every running player's tree and every orphan we adopted: for a process about to exit
/// at once (a second Ctrl-C), whose endpoints will not get to clean up.
pub fn kill_every_player() {
    let players: Vec<(i32, PlayerTag)> = players_read()
        .iter()
        .map(|(&pid, player)| (pid, player.tag.clone()))
        .collect();
    for (pid, tag) in players {
        kill_tree(Pid::from_raw(pid), &tag);
    }
    kill_adopted();
}

/// Kills every child of this process but the running players' `sh` (as a subreaper: the
/// orphans it adopted) and their descendants, and reaps them. For the end of a run.
pub fn kill_adopted() {
    #[cfg(target_os = "linux")]
    linux::kill_children_and_descendants();
    reap_orphans();
}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::{BTreeSet, HashMap};
    use std::os::unix::fs::MetadataExt;
    use std::thread;
    use std::time::Duration;

    use nix::sys::signal::{Signal, kill};
    use nix::sys::wait::{WaitPidFlag, waitpid};
    use nix::unistd::{Pid, getpid};

    use super::{ADOPTING, Ordering, PlayerTag, players_read};

    /// A process that keeps forking could outrun one pass; each pass kills what it sees, so a
    /// few passes end any tree whose members cannot fork faster than we scan.
    const MAX_PASSES: usize = 50;

    #[derive(Clone, Copy, Debug)]
    struct Process {
        pid: i32,
        ppid: i32,
        pgid: i32,
        zombie: bool,
    }

    /// Every process in `/proc` (those that vanish while we read are skipped).
    fn snapshot() -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(read_process)
            .collect()
    }

    fn read_process(pid: i32) -> Option<Process> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid pgrp ...`: comm may hold anything, so cut at the last ')'.
        let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
        Some(Process {
            pid,
            ppid: fields.get(1)?.parse().ok()?,
            pgid: fields.get(2)?.parse().ok()?,
            zombie: matches!(*fields.first()?, "Z" | "X"),
        })
    }

    /// Whether `pid` runs with `tag` in its environment. Only our own user's processes are read
    /// (others are not ours to kill, and their environment is not readable anyway).
    fn carries(pid: i32, tag: &PlayerTag, uid: u32) -> bool {
        let path = format!("/proc/{pid}");
        if std::fs::metadata(&path).map(|m| m.uid()).ok() != Some(uid) {
            return false;
        }
        let Ok(environ) = std::fs::read(format!("{path}/environ")) else {
            return false;
        };
        let wanted = format!("{}=", tag.name());
        environ
            .split(|&byte| byte == 0)
            .any(|entry| entry.starts_with(wanted.as_bytes()))
    }

    /// Whether `pid` (one of our own user's processes) holds one of `pipes` open.
    fn holds(pid: i32, pipes: &[u64], uid: u32) -> bool {
        let path = format!("/proc/{pid}");
        if pipes.is_empty() || std::fs::metadata(&path).map(|m| m.uid()).ok() != Some(uid) {
            return false;
        }
        let Ok(fds) = std::fs::read_dir(format!("{path}/fd")) else {
            return false;
        };
        fds.flatten().any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|target| {
                target
                    .to_str()
                    .and_then(|t| t.strip_prefix("pipe:[")?.strip_suffix(']')?.parse().ok())
                    .is_some_and(|inode: u64| pipes.contains(&inode))
            })
        })
    }

    /// `roots` and every descendant of theirs in `processes`.
    fn with_descendants(processes: &[Process], roots: BTreeSet<i32>) -> BTreeSet<i32> {
        let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
        for p in processes {
            children.entry(p.ppid).or_default().push(p.pid);
        }
        let mut found = roots.clone();
        let mut todo: Vec<i32> = roots.into_iter().collect();
        while let Some(pid) = todo.pop() {
            for &child in children.get(&pid).into_iter().flatten() {
                if found.insert(child) {
                    todo.push(child);
                }
            }
        }
        found
    }

    /// Kills, pass after pass, what `select` picks from a fresh snapshot until it picks no live
    /// process; then reaps the picked ones that are our children, except `keep`.
    fn kill_until_gone(keep: i32, mut select: impl FnMut(&[Process]) -> BTreeSet<i32>) {
        let me = getpid().as_raw();
        let mut killed = BTreeSet::new();
        for pass in 0..MAX_PASSES {
            let processes = snapshot();
            let picked = select(&processes);
            let live: Vec<i32> = processes
                .iter()
                .filter(|p| picked.contains(&p.pid) && !p.zombie && p.pid != me)
                .map(|p| p.pid)
                .collect();
            if live.is_empty() {
                break;
            }
            for &pid in &live {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            killed.extend(live);
            // The killed need a moment to die; a fork between two passes shows in the next.
            thread::sleep(Duration::from_millis(1 << pass.min(4)));
        }
        reap(&killed, keep);
    }

    /// Reaps those of `pids` that are (or are becoming) zombie children of ours: orphans of a
    /// player reparented to us as its subreaper. A pid is reaped only once it is a zombie whose
    /// parent is us, so nothing that another thread of ours waits for is taken: those are
    /// players' `sh`, never orphans, and `keep` is excluded. A zombie whose parent is among
    /// `pids` is waited for: that parent is dying, and the zombie comes to us (or to init).
    fn reap(pids: &BTreeSet<i32>, keep: i32) {
        let me = getpid().as_raw();
        for _ in 0..100 {
            let mut waiting = false;
            for &pid in pids.iter().filter(|&&pid| pid != keep) {
                match read_process(pid) {
                    Some(p) if p.zombie && p.ppid == me => {
                        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
                    }
                    Some(p) if !p.zombie || (pids.contains(&p.ppid) && p.ppid != keep) => {
                        waiting = true
                    }
                    // Gone, or left to a parent that is not dying (init reaps its own).
                    _ => {}
                }
            }
            if !waiting {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    pub(super) fn kill_descendants(root: Pid, tag: &PlayerTag) {
        let root = root.as_raw();
        let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
            return;
        };
        let me = getpid().as_raw();
        let adopting = ADOPTING.load(Ordering::SeqCst);
        // A subreaper finds orphans as its children; a host that is not one looks for the
        // player's pipes too (we hold them ourselves: never pick ourselves).
        let pipes = match adopting {
            true => Vec::new(),
            false => players_read()
                .get(&root)
                .map(|player| player.pipes.clone())
                .unwrap_or_default(),
        };
        // Tagged processes stay tagged when they are killed and become zombies, but a zombie's
        // environment cannot be read: remember them.
        let mut tagged = BTreeSet::new();
        kill_until_gone(root, |processes| {
            let mut roots: BTreeSet<i32> = processes
                .iter()
                .filter(|p| p.pgid == root)
                .map(|p| p.pid)
                .collect();
            roots.insert(root);
            for p in processes {
                if !p.zombie
                    && p.pid != me
                    && !roots.contains(&p.pid)
                    && !tagged.contains(&p.pid)
                    && (carries(p.pid, tag, uid) || holds(p.pid, &pipes, uid))
                {
                    tagged.insert(p.pid);
                }
            }
            roots.extend(&tagged);
            if adopting {
                roots.extend(orphans(processes));
            }
            with_descendants(processes, roots)
        });
    }

    /// Our children that are not running players: orphans we adopted as a subreaper.
    fn orphans(processes: &[Process]) -> BTreeSet<i32> {
        let me = getpid().as_raw();
        let players = players_read();
        processes
            .iter()
            .filter(|p| p.ppid == me && !players.contains_key(&p.pid))
            .map(|p| p.pid)
            .collect()
    }

    pub(super) fn tagged_orphans(tag: &PlayerTag) -> Vec<i32> {
        let Ok(uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
            return Vec::new();
        };
        // The kernel hands an orphan to the subreaper's first live thread, its main thread:
        // only that thread's child list is read (marathon runs many threads; this is sampled
        // every few milliseconds).
        let me = getpid().as_raw();
        let Ok(text) = std::fs::read_to_string(format!("/proc/self/task/{me}/children")) else {
            return Vec::new();
        };
        let players = players_read();
        text.split_whitespace()
            .filter_map(|pid| pid.parse::<i32>().ok())
            .filter(|pid| !players.contains_key(pid) && carries(*pid, tag, uid))
            .collect()
    }

    /// See [`super::reap_orphans`]. A zombie child that is not in `PLAYERS` while we hold its
    /// read lock is an orphan: a player is registered before its pid can be seen (the spawn
    /// holds the write lock) and forgotten only once reaped.
    pub(super) fn reap_dead_orphans() {
        let me = getpid().as_raw();
        let players = players_read();
        for p in snapshot() {
            if p.ppid == me && p.zombie && !players.contains_key(&p.pid) {
                let _ = waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG));
            }
        }
    }

    pub(super) fn kill_children_and_descendants() {
        let me = getpid().as_raw();
        kill_until_gone(me, |processes| {
            let orphans = orphans(processes);
            with_descendants(processes, orphans)
        });
    }
}
