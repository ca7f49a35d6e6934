//! One side of a conversation with a player: the judge sends text, the player answers line by
//! line. The player is either an external program (`sh -c COMMAND`, any language) or a function
//! running on a thread of this process; both are reached through OS pipes and the same line
//! reader, so the built-in AIs see exactly the interface external programs see.
//!
//! **Time.** The player's clock runs from the moment the judge starts writing a message to the
//! moment the reply line is complete (its last byte read by the judge's reader), whether or not
//! the write had to wait for the player to read: a program that does not read gains nothing.
//! The judge's own work between a reply and its next message is not counted. A reply already
//! written before the judge's message counts as instant. That is the wall clock; under the CPU
//! clock ([`ClockKind::Cpu`]) the same span counts the CPU time the player's processes use in it
//! ([`crate::usage`]; for a thread player, its thread's), read when the judge's message starts
//! and when the judge takes the reply, and the turns' wall time together may not pass
//! [`wall_cap`] of the limit: a program that sleeps or waits is ended too.
//!
//! **Memory.** While the judge waits for a reply, and at replies, it reads the program's whole
//! tree every [`SAMPLE_PERIOD`] ([`crate::usage`]: the sum of resident sets, and each process's
//! own peak). The largest reading is the case's peak; one over the memory limit kills the tree
//! with [`Failure::Memory`]. A thread player shares the judge's memory: it has none of its own.
//!
//! **Exit.** The player's exit decides, not the end of its output: a program that exits before
//! replying is judged as soon as it has exited (within [`EXIT_POLL`]) even while a child of its
//! own holds its output open. Everything it wrote before exiting is read first, so a complete
//! reply followed by an exit is a reply, however the exit races with the judge's writes; a
//! player may close its input early as long as its replies come.
//!
//! **Cleanup.** Every path that ends the conversation kills the player's whole process tree
//! ([`crate::process_tree`]) and reaps its `sh`.
//!
//! Each endpoint has helper threads that own the pipes: a reader that splits the player's output
//! into lines (and, for a program, watches for its exit), a writer that feeds its input, and (for
//! `StderrMode::Prefixed`) a stderr copier. They are never joined: a grandchild of the player may
//! keep a pipe open after the player is dead, and the judge must not wait for it. They end by
//! themselves once their pipe closes or the endpoint is gone. Only the stderr copier is waited
//! for, briefly, once the player's tree is dead, so that its last lines are not lost when our
//! process exits right after.

use std::any::Any;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

use crate::clock::{ClockKind, wall_cap};
use crate::cpu::CpuAccount;
use crate::interrupt;
use crate::process_tree::{self, PlayerTag};
use crate::sandbox::{self, Sandbox, Scratch};
use crate::usage::{self, SAMPLE_PERIOD};

/// The longest reply line accepted; longer output is a protocol error, not a memory hazard.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How often a program's reader looks for its exit while its output is quiet: the delay between
/// a program's exit and its verdict.
pub const EXIT_POLL: Duration = Duration::from_millis(5);

/// How often a wait for a reply looks for an interruption ([`crate::interrupt`]).
pub const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// How long a player whose output ended gets to report why (its exit status), before it is
/// judged to have closed its output while still running.
const EXIT_PATIENCE: Duration = Duration::from_millis(200);

/// How long a player whose input was closed gets to exit by itself before it is killed.
const GRACE: Duration = Duration::from_millis(100);

/// How long the stderr copier gets to forward what the dead player left in the pipe. With the
/// player's tree killed the pipe is closed and the copier ends as soon as it is scheduled; the
/// wait runs in full only when a process that escaped the tree still holds the pipe. 100 ms
/// lost a dying program's last line on a loaded machine (the copier was not scheduled in time).
const STDERR_DRAIN: Duration = Duration::from_secs(1);

const READ_CHUNK: usize = 64 * 1024;

/// Lines read ahead of the judge; beyond that the reader stops reading and the player blocks on
/// its writes, so a flooding player cannot exhaust our memory.
const LINES_AHEAD: usize = 16;

/// Once a program has exited, what is left in its output pipe is read, up to this much: a
/// child of its own that keeps writing cannot hold the verdict back.
const DRAIN_AFTER_EXIT: usize = 2 * MAX_LINE_BYTES + 2 * READ_CHUNK;

/// Stderr is forwarded in pieces of at most this size, so a huge line without a newline is
/// forwarded as it comes instead of being held in memory.
const STDERR_PIECE: u64 = 64 * 1024;

/// Why a conversation ended before the judge was done with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The player's time went past the limit. `used` is what was counted (at least `limit`);
    /// `unread_input` says the judge was still writing its last message: the player had not
    /// read what did not fit in the pipe.
    /// `clock` is the clock that counted; under the CPU clock `wall` is set when the turns'
    /// wall time passed its cap ([`wall_cap`]) first (`used` is then the CPU time counted).
    Timeout {
        limit: Duration,
        used: Duration,
        unread_input: bool,
        clock: ClockKind,
        wall: Option<Duration>,
    },
    /// The player's processes together held more memory than the limit: `peak_kib` is the
    /// largest reading, in KiB.
    Memory { peak_kib: u64, limit_kib: u64 },
    /// The player exited with a non-zero status, died from a signal, or (a thread) panicked.
    Crash { detail: String },
    /// The player broke the line protocol: exited or closed its output before replying with
    /// status 0, wrote an overlong line, or wrote bytes that are not UTF-8.
    Protocol { detail: String },
    /// The run was interrupted ([`crate::interrupt`]) before the conversation ended: the case
    /// is unfinished, not failed.
    Interrupted,
}

/// Where an external program's stderr goes.
#[derive(Clone, Debug)]
pub enum StderrMode {
    /// Copied to our stderr, each line behind `prefix` (e.g. `[seed 17] `).
    Prefixed(String),
    Discard,
}

/// What a player may use in a case: time on a clock, and memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub time: Duration,
    pub clock: ClockKind,
    /// The most resident memory the player's processes may hold together, in KiB; `None`: no
    /// limit (the peak is still measured).
    pub memory_kib: Option<u64>,
}

impl Limits {
    /// `time` on `clock`, with `memory_mib` MiB of memory (`None`: unlimited).
    pub fn new(time: Duration, clock: ClockKind, memory_mib: Option<u64>) -> Self {
        Limits {
            time,
            clock,
            memory_kib: memory_mib.map(|mib| mib.saturating_mul(1024)),
        }
    }
}

/// A time limit alone: on the wall clock, memory unlimited.
impl From<Duration> for Limits {
    fn from(time: Duration) -> Self {
        Limits::new(time, ClockKind::Wall, None)
    }
}

/// A conversation with one player. Dropping it has the same effect as [`Endpoint::close`].
pub struct Endpoint {
    limits: Limits,
    /// The time counted against the limit, on the clock in force.
    used: Duration,
    /// The wall time of the turns so far (the CPU clock's wall cap counts it).
    wall_used: Duration,
    /// When the player's current turn started: the judge's first message since its last reply.
    turn_started: Option<Instant>,
    /// The player's CPU time when its current turn started (CPU clock only).
    turn_cpu: Option<Duration>,
    /// The largest memory reading so far, in KiB (programs only).
    peak_kib: Option<u64>,
    /// The tree's last memory reading, in KiB.
    last_held: Option<u64>,
    /// When the player's tree was last read for its memory, and for its proportional sets.
    sampled: Option<Instant>,
    pss_read: Option<Instant>,
    /// The first failure; every later call returns it again.
    failure: Option<Failure>,
    /// `None` once the player's input is closed.
    input: Option<Input>,
    /// Messages handed to the writer and not yet written in full.
    unwritten: usize,
    events: Receiver<Event>,
    player: Player,
    /// Disconnects when the stderr copier has finished (`None` without one).
    stderr_done: Option<Receiver<()>>,
    /// A sandboxed program's scratch directory: the last field, dropped (removed) after `drop`
    /// has killed the tree.
    scratch: Option<Scratch>,
}

/// The judge's side of the writer thread, which owns the player's input pipe and closes it
/// when `texts` is dropped.
struct Input {
    texts: Sender<Vec<u8>>,
    /// One message per text written in full (or dropped after a failed write: the player
    /// closed its input, which is its right as long as its replies come).
    written: Receiver<()>,
}

/// What the reader thread reports, in stream order.
enum Event {
    /// A complete line, and when its last byte was read.
    Line(String, Instant),
    /// The output broke the protocol; the reader has stopped.
    Invalid(String),
    /// The output ended (or could no longer be read) while the program may still run.
    End,
    /// The program exited; everything it wrote before has been reported.
    Exited(Exit),
}

enum Player {
    Process(Arc<Mutex<Process>>),
    Thread {
        /// `None` once the thread has been joined.
        handle: Option<JoinHandle<io::Result<()>>>,
        /// The thread's id, set when it starts (its CPU time is read through it).
        tid: Arc<OnceLock<i32>>,
        /// The thread's CPU account, which it leaves when it ends (panics included).
        account: Arc<Mutex<Option<CpuAccount>>>,
    },
}

/// How a player process ended, as far as the verdict is concerned.
#[derive(Clone, Debug)]
enum Exit {
    Clean,
    Crashed(String),
}

/// The child `sh`, leader of its own process group. Dropping it kills the player's tree and
/// reaps the child, so every way out of `Endpoint` (including a failed spawn halfway) cleans up.
/// Shared with the reader, which watches for the exit; the lock orders that watch before the
/// reaping, after which the pid may belong to a stranger.
struct Process {
    child: Child,
    tag: PlayerTag,
    /// The top levels of its tree that are marathon's own, not the program's (the sandbox's
    /// launcher and init): not metered.
    own_levels: usize,
    exit: Option<Exit>,
    /// Set once the child is killed and reaped.
    reaped: bool,
}

impl Process {
    fn pid(&self) -> Pid {
        Pid::from_raw(self.child.id() as i32)
    }

    /// Whether the child has exited, without reaping it: an unreaped child keeps its pid (and
    /// so its process group id) reserved, so the later kill cannot hit a stranger that reused
    /// the number.
    fn poll_exit(&mut self) -> Option<Exit> {
        if self.exit.is_none() && !self.reaped {
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
            self.exit = match waitid(Id::Pid(self.pid()), flags) {
                Ok(WaitStatus::Exited(_, 0)) => Some(Exit::Clean),
                Ok(WaitStatus::Exited(_, code)) => Some(Exit::Crashed(exit_status(code))),
                Ok(WaitStatus::Signaled(_, signal, _)) => Some(Exit::Crashed(format!(
                    "killed by signal {}",
                    signal.as_str()
                ))),
                // nix names every standard signal, so only a real-time one is left.
                Err(Errno::EINVAL) => Some(Exit::Crashed("killed by a real-time signal".into())),
                _ => None,
            };
        }
        self.exit.clone()
    }

    /// Kills the player's tree and reaps the child; does nothing the second time.
    fn terminate(&mut self) {
        if self.reaped {
            return;
        }
        // The child is not reaped yet, so its pid and group are still ours to signal.
        process_tree::kill_tree(self.pid(), &self.tag);
        let _ = self.child.kill();
        process_tree::reap_player(&mut self.child);
        self.reaped = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.terminate();
    }
}

fn lock(process: &Mutex<Process>) -> MutexGuard<'_, Process> {
    process
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An exit status as the verdict shows it. `sh -c` reports a command killed by signal N as
/// status 128 + N, so such a status names the signal too.
fn exit_status(code: i32) -> String {
    let signal = code
        .checked_sub(128)
        .and_then(|n| nix::sys::signal::Signal::try_from(n).ok());
    match signal {
        Some(signal) => format!(
            "exit status {code}: signal {} by the shell's convention (128 + {})",
            signal.as_str(),
            signal as i32
        ),
        None => format!("exit status {code}"),
    }
}

/// The environment variable that tells a judged program its time limit per case, in seconds
/// (the contest's protocols carry none): `marathon solve` takes it as its default, so that
/// `--exec "marathon solve GAME"` under `--time-limit S` plans for S seconds.
pub const TIME_LIMIT_ENV: &str = "MARATHON_TIME_LIMIT";

/// The environment variable that tells a judged program the clock its time is counted on
/// (`wall` or `cpu`); `marathon solve` plans by it.
pub const CLOCK_ENV: &str = "MARATHON_CLOCK";

/// The environment variable that tells a judged program its memory limit in MiB; absent when
/// there is none.
pub const MEMORY_LIMIT_ENV: &str = "MARATHON_MEMORY_LIMIT_MIB";

impl Endpoint {
    /// Starts `sh -c command` in its own process group, with the case's limits in its
    /// environment ([`TIME_LIMIT_ENV`], [`CLOCK_ENV`], [`MEMORY_LIMIT_ENV`]) and its
    /// [`PlayerTag`].
    pub fn spawn_process(
        command: &str,
        limits: impl Into<Limits>,
        stderr: StderrMode,
    ) -> io::Result<Self> {
        Self::spawn_process_in(command, limits, stderr, None)
    }

    /// [`Endpoint::spawn_process`], in `sandbox` when there is one: the program is then a
    /// descendant of the sandbox's launcher, and its scratch directory is removed once its tree
    /// is dead.
    pub fn spawn_process_in(
        command: &str,
        limits: impl Into<Limits>,
        stderr: StderrMode,
        sandbox: Option<&Sandbox>,
    ) -> io::Result<Self> {
        let limits = limits.into();
        let tag = PlayerTag::new();
        let (mut shell, scratch) = sandbox::shell(command, sandbox)?;
        shell
            .env(TIME_LIMIT_ENV, limits.time.as_secs_f64().to_string())
            .env(CLOCK_ENV, limits.clock.name());
        match limits.memory_kib {
            Some(kib) => shell.env(MEMORY_LIMIT_ENV, (kib / 1024).to_string()),
            None => shell.env_remove(MEMORY_LIMIT_ENV),
        };
        let mut child = process_tree::spawn_player(
            shell
                .env(tag.name(), "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(match stderr {
                    StderrMode::Prefixed(_) => Stdio::piped(),
                    StderrMode::Discard => Stdio::null(),
                })
                .process_group(0),
            &tag,
        )?;
        let (stdin, stdout, errors) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        // From here on, any early return kills the tree and reaps the child.
        let process = Arc::new(Mutex::new(Process {
            child,
            tag,
            own_levels: if scratch.is_some() {
                sandbox::OWN_LEVELS
            } else {
                0
            },
            exit: None,
            reaped: false,
        }));
        let (Some(stdin), Some(stdout)) = (stdin, stdout) else {
            return Err(io::Error::other("the player's pipes were not created"));
        };
        let mut stderr_done = None;
        if let (StderrMode::Prefixed(prefix), Some(errors)) = (stderr, errors) {
            let (done, finished) = mpsc::channel::<()>();
            thread::Builder::new()
                .name("endpoint-stderr".into())
                .spawn(move || {
                    // Dropped when the copy ends, which disconnects `finished`.
                    let _done = done;
                    copy_stderr(errors, prefix.as_bytes());
                })?;
            stderr_done = Some(finished);
        }
        let input = spawn_writer(stdin)?;
        let watched = Arc::clone(&process);
        let events = spawn_reader(move |events| read_program(stdout, &watched, events))?;
        let mut endpoint = Self::new(limits, input, events, Player::Process(process));
        endpoint.stderr_done = stderr_done;
        endpoint.peak_kib = Some(0);
        endpoint.scratch = scratch;
        Ok(endpoint)
    }

    /// Runs `player` on a new thread; it reads the judge's text from its `BufRead` and writes
    /// its replies to its `Write` (it must flush). A panic counts as a crash.
    pub fn spawn_thread<F>(limits: impl Into<Limits>, player: F) -> io::Result<Self>
    where
        F: FnOnce(&mut dyn BufRead, &mut dyn Write) -> io::Result<()> + Send + 'static,
    {
        let (from_player, player_output) = io::pipe()?;
        let (player_input, to_player) = io::pipe()?;
        let account = Arc::new(Mutex::new(None));
        let left = Arc::clone(&account);
        let tid = Arc::new(OnceLock::new());
        let own_tid = Arc::clone(&tid);
        let handle = thread::Builder::new()
            .name("player".into())
            .spawn(move || {
                let _ = own_tid.set(nix::unistd::gettid().as_raw());
                // Leaves the thread's CPU account however the player ends, panics included.
                let _account = AccountOnExit(left);
                let mut input = BufReader::new(player_input);
                let mut output = BufWriter::new(player_output);
                // Returning (or unwinding) drops both pipe ends: the judge sees end of output.
                player(&mut input, &mut output)
            })?;
        let input = spawn_writer(to_player)?;
        // Only this process holds the thread's pipe, so the end of output is the player's end.
        let events = spawn_reader(move |events| read_lines(from_player, events))?;
        Ok(Self::new(
            limits.into(),
            input,
            events,
            Player::Thread {
                handle: Some(handle),
                tid,
                account,
            },
        ))
    }

    fn new(limits: Limits, input: Input, events: Receiver<Event>, player: Player) -> Self {
        Self {
            limits,
            used: Duration::ZERO,
            wall_used: Duration::ZERO,
            turn_started: None,
            turn_cpu: None,
            peak_kib: None,
            last_held: None,
            sampled: None,
            pss_read: None,
            failure: None,
            input: Some(input),
            unwritten: 0,
            events,
            player,
            stderr_done: None,
            scratch: None,
        }
    }

    /// Hands `text` (the caller includes the newlines) to the player's input and starts the
    /// player's clock, if it is not running already. Never waits: the writer thread writes, so a
    /// player that does not read cannot block the judge, and the wait counts as its time. Fails
    /// only with the conversation's earlier failure.
    pub fn send(&mut self, text: &str) -> Result<(), Failure> {
        self.check()?;
        if self.turn_started.is_none() {
            self.turn_started = Some(Instant::now());
            if self.limits.clock == ClockKind::Cpu {
                self.turn_cpu = Some(self.cpu_now());
            }
        }
        if let Some(input) = &self.input
            && input.texts.send(text.as_bytes().to_vec()).is_ok()
        {
            self.unwritten += 1;
        }
        Ok(())
    }

    /// The next reply line, without its line terminator (`\n` or `\r\n`). Waits at most for the
    /// time left of the limit.
    pub fn receive_line(&mut self) -> Result<String, Failure> {
        self.check()?;
        // Without a message since the last reply, the clock runs from now.
        let started = self.turn_started.take().unwrap_or_else(Instant::now);
        let cpu_start = match self.limits.clock {
            ClockKind::Wall => None,
            ClockKind::Cpu => Some(self.turn_cpu.take().unwrap_or_else(|| self.cpu_now())),
        };
        // The wall clock's limit, or the CPU clock's wall cap, bounds the wait.
        let wall_left = match self.limits.clock {
            ClockKind::Wall => self.limits.time.saturating_sub(self.used),
            ClockKind::Cpu => wall_cap(self.limits.time).saturating_sub(self.wall_used),
        };
        let deadline = far_instant(started, wall_left);
        // A program's memory is read while it thinks, and so is the CPU clock.
        let poll = match (&self.player, self.limits.clock) {
            (Player::Thread { .. }, ClockKind::Wall) => INTERRUPT_POLL,
            _ => SAMPLE_PERIOD,
        };
        loop {
            if interrupt::requested().is_some() {
                return self.fail(Failure::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return self.time_out(started, cpu_start);
            }
            if let Some(failure) = self.sample_memory(false) {
                return self.fail(failure);
            }
            if let Some(cpu_start) = cpu_start
                && self.used + self.cpu_now().saturating_sub(cpu_start) > self.limits.time
            {
                return self.time_out(started, Some(cpu_start));
            }
            let event = match self.events.recv_timeout((deadline - now).min(poll)) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => Event::End,
            };
            let ended = match &event {
                Event::Line(_, completed) => *completed,
                _ => Instant::now(),
            };
            let wall = ended.saturating_duration_since(started);
            self.wall_used += wall;
            self.used += match cpu_start {
                Some(cpu_start) => self.cpu_now().saturating_sub(cpu_start),
                None => wall,
            };
            return match event {
                Event::Line(line, _) => {
                    if let Some(failure) = self.sample_memory(false) {
                        return self.fail(failure);
                    }
                    if self.used > self.limits.time {
                        return self.timed_out(None);
                    }
                    Ok(line)
                }
                Event::Invalid(detail) => self.fail(Failure::Protocol { detail }),
                Event::Exited(exit) => self.fail(exited(exit)),
                Event::End => {
                    let failure = self.player_gone("closed its output before replying");
                    self.fail(failure)
                }
            };
        }
    }

    /// The player's CPU time as the CPU clock counts it: a program's whole tree, or a thread
    /// player's thread (zero before it has started).
    fn cpu_now(&self) -> Duration {
        match &self.player {
            Player::Process(process) => {
                let process = lock(process);
                if process.reaped {
                    return Duration::ZERO;
                }
                usage::tree_cpu(process.pid().as_raw(), &process.tag, process.own_levels)
            }
            Player::Thread { tid, .. } => tid
                .get()
                .and_then(|&tid| usage::thread_cpu(tid))
                .unwrap_or_default(),
        }
    }

    /// Reads a program's memory, at most once every [`SAMPLE_PERIOD`] unless `now`, and keeps
    /// its peak; over the limit, kills its tree and gives the failure. Nothing for a thread.
    fn sample_memory(&mut self, now: bool) -> Option<Failure> {
        let Player::Process(process) = &self.player else {
            return None;
        };
        if !now && self.sampled.is_some_and(|at| at.elapsed() < SAMPLE_PERIOD) {
            return None;
        }
        self.sampled = Some(Instant::now());
        let mut process = lock(process);
        if process.reaped {
            return None;
        }
        let (root, tag, own) = (process.pid().as_raw(), &process.tag, process.own_levels);
        let reading = usage::sample_tree(root, tag, own);
        let peak = self.peak_kib.unwrap_or(0);
        let mut held = reading.rss_kib;
        // Several processes may share pages the plain sum counts twice: where the sum decides,
        // count each page once ([`usage`]).
        let at_stake = self.limits.memory_kib.is_some_and(|limit| held > limit);
        let due = self
            .pss_read
            .is_none_or(|at| at.elapsed() >= usage::PSS_PERIOD);
        if reading.processes > 1 && held > peak && (at_stake || due) {
            held = held.min(usage::tree_pss_kib(root, tag, own));
            self.pss_read = Some(Instant::now());
        } else if reading.processes > 1 && held > peak {
            // Not read now: the proportional sets of the last reading stand.
            held = peak;
        }
        // A sum counts once two readings in a row show it: while a fork's or vfork's child has
        // not yet run its program it shares its parent's memory, which no sum counts once.
        let lasting = self.last_held.map_or(0, |last| last.min(held));
        self.last_held = Some(held);
        let peak = peak.max(lasting).max(reading.process_peak_kib);
        self.peak_kib = Some(peak);
        let limit_kib = self.limits.memory_kib.filter(|&limit| peak > limit)?;
        // Stopped at once: a program that keeps allocating must not take the machine with it.
        process.terminate();
        Some(Failure::Memory {
            peak_kib: peak,
            limit_kib,
        })
    }

    /// Reads a program's memory once more when its game is over (each process's own peak
    /// catches what fell between two readings): the failure if the case's peak passed the limit.
    /// Call before [`Endpoint::close`]; a conversation that already failed keeps its failure.
    pub fn final_memory_check(&mut self) -> Result<(), Failure> {
        self.check()?;
        match self.sample_memory(true) {
            Some(failure) => self.fail(failure),
            None => Ok(()),
        }
    }

    /// The largest memory reading of a program's processes together, in KiB; `None` for a
    /// thread player (it shares the judge's memory).
    pub fn peak_memory_kib(&self) -> Option<u64> {
        self.peak_kib
    }

    /// The limits the player is judged by.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Total time counted against the limit (see the module's doc).
    pub fn time_used(&self) -> Duration {
        self.used
    }

    /// The process id of an external player (also its process group id); `None` for a thread.
    pub fn pid(&self) -> Option<u32> {
        match &self.player {
            Player::Process(process) => Some(lock(process).child.id()),
            Player::Thread { .. } => None,
        }
    }

    /// Closes the player's input, gives it a short grace period to exit, then kills its tree and
    /// reaps it. A thread player cannot be killed: it is left to finish on its own once it sees
    /// its input end. Returns a thread player's CPU account if it ended within the grace period.
    pub fn close(mut self) -> Option<CpuAccount> {
        self.input = None;
        let Player::Thread {
            handle, account, ..
        } = &mut self.player
        else {
            return None;
        };
        let ended = match handle {
            Some(handle) => poll_until(GRACE, || handle.is_finished().then_some(())).is_some(),
            None => true,
        };
        if !ended {
            return None;
        }
        *account
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn check(&self) -> Result<(), Failure> {
        match &self.failure {
            Some(failure) => Err(failure.clone()),
            None => Ok(()),
        }
    }

    /// Ends the conversation with `failure`, unless the run was interrupted meanwhile: a player
    /// killed because of the interruption has not failed.
    fn fail<T>(&mut self, failure: Failure) -> Result<T, Failure> {
        let failure = match interrupt::requested() {
            Some(_) => Failure::Interrupted,
            None => failure,
        };
        self.failure = Some(failure.clone());
        Err(failure)
    }

    /// Ends the turn that started at `started` (with the player's CPU time at `cpu_start`
    /// under the CPU clock) as a timeout, once its wait ran out or its CPU time passed the limit.
    fn time_out<T>(&mut self, started: Instant, cpu_start: Option<Duration>) -> Result<T, Failure> {
        let wall = started.elapsed();
        self.wall_used += wall;
        match cpu_start {
            None => {
                // The wait ended at the deadline: at least the limit was used.
                self.used = (self.used + wall).max(self.limits.time);
                self.timed_out(None)
            }
            Some(cpu_start) => {
                self.used += self.cpu_now().saturating_sub(cpu_start);
                let capped = self.used <= self.limits.time;
                self.timed_out(capped.then_some(self.wall_used))
            }
        }
    }

    /// The timeout failure, with the time counted so far; `wall`: the CPU clock's wall cap ended
    /// it after that much wall time.
    fn timed_out<T>(&mut self, wall: Option<Duration>) -> Result<T, Failure> {
        let unread_input = self.unread_input();
        self.fail(Failure::Timeout {
            limit: self.limits.time,
            used: self.used,
            unread_input,
            clock: self.limits.clock,
            wall,
        })
    }

    /// Whether some message of the judge's has not been written in full: the player has not read
    /// what did not fit in the pipe. (A message that fits is written whether it is read or not.)
    fn unread_input(&mut self) -> bool {
        if let Some(input) = &self.input {
            while input.written.try_recv().is_ok() {
                self.unwritten = self.unwritten.saturating_sub(1);
            }
        }
        self.unwritten > 0
    }

    /// Why the player stopped talking: its exit status, or that it is still running (or
    /// exited cleanly) and just closed a pipe, which `what` describes.
    fn player_gone(&mut self, what: &str) -> Failure {
        let protocol = |how: &str| Failure::Protocol {
            detail: format!("{what} ({how})"),
        };
        match &mut self.player {
            Player::Process(process) => {
                match poll_until(EXIT_PATIENCE, || lock(process).poll_exit()) {
                    Some(exit) => exited(exit),
                    None => protocol("still running"),
                }
            }
            Player::Thread { handle, .. } => {
                let finished = poll_until(EXIT_PATIENCE, || {
                    handle.take_if(|handle| handle.is_finished())
                });
                match finished.map(JoinHandle::join) {
                    Some(Ok(Ok(()))) => protocol("the player function returned"),
                    Some(Ok(Err(error))) => Failure::Crash {
                        detail: format!("error: {error}"),
                    },
                    Some(Err(payload)) => Failure::Crash {
                        detail: format!("panicked: {}", panic_message(&*payload)),
                    },
                    None => protocol("still running"),
                }
            }
        }
    }
}

/// The verdict on a program that ended while the judge waited for a reply.
fn exited(exit: Exit) -> Failure {
    match exit {
        Exit::Clean => Failure::Protocol {
            detail: "exited before replying (exit status 0)".into(),
        },
        Exit::Crashed(detail) => Failure::Crash { detail },
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        // The player's cue to finish.
        self.input = None;
        if let Player::Process(process) = &self.player {
            // A player that already failed gets no grace: it is stuck, misbehaving or gone.
            if self.failure.is_none() {
                poll_until(GRACE, || lock(process).poll_exit());
            }
            lock(process).terminate();
        }
        // With the tree dead, its stderr pipe is closed: let the copier forward the last
        // lines, which would otherwise be lost if our process exits right after.
        if let Some(finished) = self.stderr_done.take() {
            let _ = finished.recv_timeout(STDERR_DRAIN);
        }
        // Dropping the fields then ends the helper threads as their channels or pipes close.
    }
}

/// Leaves the current thread's CPU account in its slot when dropped.
struct AccountOnExit(Arc<Mutex<Option<CpuAccount>>>);

impl Drop for AccountOnExit {
    fn drop(&mut self) {
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = CpuAccount::this_thread();
    }
}

/// `start + span`, or a moment centuries away when that cannot be represented (a limit given as
/// a huge number of seconds).
fn far_instant(start: Instant, span: Duration) -> Instant {
    start
        .checked_add(span)
        .or_else(|| start.checked_add(Duration::from_secs(1 << 32)))
        .unwrap_or(start)
}

/// Calls `probe` until it gives a value or `patience` has passed; cheap for a player that is
/// quick, without spinning for one that is not.
fn poll_until<T>(patience: Duration, mut probe: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + patience;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(value) = probe() {
            return Some(value);
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "(a panic payload that is not a string)".to_owned()
    }
}

/// Starts the thread that feeds the player's input; it reports each text written in full, and
/// closes the input when the queue closes. After a failed write (the player closed its input)
/// it drops the rest, still reporting each as done: nothing more will be read.
fn spawn_writer(mut sink: impl Write + Send + 'static) -> io::Result<Input> {
    let (texts, queue) = mpsc::channel::<Vec<u8>>();
    let (done, written) = mpsc::channel();
    thread::Builder::new()
        .name("endpoint-writer".into())
        .spawn(move || {
            let mut open = true;
            for text in queue {
                if open {
                    open = sink.write_all(&text).and_then(|()| sink.flush()).is_ok();
                }
                if done.send(()).is_err() {
                    break;
                }
            }
        })?;
    Ok(Input { texts, written })
}

fn spawn_reader(
    read: impl FnOnce(&SyncSender<Event>) + Send + 'static,
) -> io::Result<Receiver<Event>> {
    let (events, received) = mpsc::sync_channel(LINES_AHEAD);
    thread::Builder::new()
        .name("endpoint-reader".into())
        .spawn(move || read(&events))?;
    Ok(received)
}

/// Splits a line-oriented output into events: complete lines (stamped with the moment their
/// last byte was read), or the reason the output broke the protocol.
struct LineSplitter {
    /// The unfinished line, starting at byte `offset` of the output.
    pending: Vec<u8>,
    offset: usize,
    line_number: usize,
}

impl LineSplitter {
    fn new() -> Self {
        Self {
            pending: Vec::new(),
            offset: 0,
            line_number: 0,
        }
    }

    /// Takes `bytes` just read and forwards the lines they complete; false when reading should
    /// stop (the protocol is broken or nobody listens).
    fn feed(&mut self, bytes: &[u8], events: &SyncSender<Event>) -> bool {
        let read_at = Instant::now();
        let mut searched = self.pending.len();
        self.pending.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(found) = self.pending[searched..].iter().position(|&b| b == b'\n') {
            let end = searched + found;
            self.line_number += 1;
            let event = decode_line(
                &self.pending[start..end],
                self.line_number,
                self.offset + start,
                read_at,
            );
            if !forward(events, event) {
                return false;
            }
            start = end + 1;
            searched = start;
        }
        self.pending.drain(..start);
        self.offset += start;
        // One more byte may be the `\r` of a `\r\n`.
        if self.pending.len() > MAX_LINE_BYTES + 1 {
            forward(events, Event::Invalid(too_long()));
            return false;
        }
        true
    }

    /// The output ended: a last line without its newline still counts. False when reading
    /// should stop.
    fn finish(&mut self, events: &SyncSender<Event>) -> bool {
        if self.pending.is_empty() {
            return true;
        }
        self.line_number += 1;
        let line = std::mem::take(&mut self.pending);
        forward(
            events,
            decode_line(&line, self.line_number, self.offset, Instant::now()),
        )
    }
}

/// Reads a thread player's output until it ends, breaks the protocol, or nobody listens.
fn read_lines(mut source: impl Read, events: &SyncSender<Event>) {
    let mut splitter = LineSplitter::new();
    let mut chunk = vec![0; READ_CHUNK];
    loop {
        match source.read(&mut chunk) {
            Ok(0) => break,
            Ok(count) => {
                if !splitter.feed(&chunk[..count], events) {
                    return;
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            // Nothing more can be read; how the player ended will tell what happened.
            Err(_) => break,
        }
    }
    if splitter.finish(events) {
        let _ = events.send(Event::End);
    }
}

/// Reads a program's output and watches for its exit. Once the program has exited, what it left
/// in the pipe is read (everything it wrote, since its writes were complete when it exited) and
/// its exit reported after those lines, even if a child of its own still holds the pipe open.
fn read_program(mut source: ChildStdout, process: &Mutex<Process>, events: &SyncSender<Event>) {
    let mut splitter = LineSplitter::new();
    let mut chunk = vec![0; READ_CHUNK];
    let mut exit = None;
    let mut drained = 0;
    // A child of the program that floods the pipe must not keep us from seeing the exit.
    let mut probed = Instant::now();
    loop {
        if exit.is_none() && probed.elapsed() >= EXIT_POLL {
            exit = lock(process).poll_exit();
            probed = Instant::now();
        }
        let quiet = match exit {
            // Draining: what is in the pipe now, never waiting.
            Some(_) => PollTimeout::ZERO,
            None => PollTimeout::try_from(EXIT_POLL).unwrap_or(PollTimeout::ZERO),
        };
        let mut fds = [PollFd::new(source.as_fd(), PollFlags::POLLIN)];
        let readable = match poll(&mut fds, quiet) {
            Ok(ready) => ready > 0,
            Err(Errno::EINTR) => continue,
            Err(_) => true, // let read() report it
        };
        if !readable {
            if exit.is_some() {
                break;
            }
            exit = lock(process).poll_exit();
            probed = Instant::now();
            continue;
        }
        match source.read(&mut chunk) {
            Ok(0) => break,
            Ok(count) => {
                if !splitter.feed(&chunk[..count], events) {
                    return;
                }
                if exit.is_some() {
                    drained += count;
                    if drained > DRAIN_AFTER_EXIT {
                        break;
                    }
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    if !splitter.finish(events) {
        return;
    }
    let _ = events.send(match exit {
        Some(exit) => Event::Exited(exit),
        None => Event::End,
    });
}

/// Sends `event`; false when reading should stop (the protocol is broken or nobody listens).
fn forward(events: &SyncSender<Event>, event: Event) -> bool {
    let invalid = matches!(event, Event::Invalid(_));
    events.send(event).is_ok() && !invalid
}

fn decode_line(bytes: &[u8], line_number: usize, offset: usize, completed: Instant) -> Event {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.len() > MAX_LINE_BYTES {
        return Event::Invalid(too_long());
    }
    match std::str::from_utf8(bytes) {
        Ok(line) => Event::Line(line.to_owned(), completed),
        Err(error) => Event::Invalid(format!(
            "output is not UTF-8 (line {line_number}, byte offset {})",
            offset + error.valid_up_to()
        )),
    }
}

fn too_long() -> String {
    format!("line longer than {MAX_LINE_BYTES} bytes")
}

/// Copies the player's stderr to ours, line by line behind `prefix`. Keeps draining even when
/// our stderr is gone, so the player never blocks on a full stderr pipe.
fn copy_stderr(source: ChildStderr, prefix: &[u8]) {
    let mut source = BufReader::new(source);
    let mut piece = Vec::new();
    loop {
        piece.clear();
        piece.extend_from_slice(prefix);
        match (&mut source)
            .take(STDERR_PIECE)
            .read_until(b'\n', &mut piece)
        {
            Ok(0) => return,
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        }
        if !piece.ends_with(b"\n") {
            piece.push(b'\n');
        }
        // One write per line keeps lines of parallel players from interleaving; errors (our
        // stderr closed) are ignored rather than panicking like `eprintln!`.
        let _ = io::stderr().lock().write_all(&piece);
    }
}
