//! One side of a conversation with a player: the judge sends text, the player answers line by
//! line. The player is either an external program (`sh -c COMMAND`, any language) or a function
//! running on a thread of this process; both are reached through OS pipes and the same line
//! reader, so the built-in AIs see exactly the interface external programs see.
//!
//! Only the time the judge spends waiting for a reply counts against the limit. Every path that
//! ends the conversation kills and reaps the child (its whole process group).
//!
//! Each endpoint has helper threads that own the pipes: a reader that splits the player's output
//! into lines, a writer that feeds its input, and (for `StderrMode::Prefixed`) a stderr copier.
//! They are never joined: a grandchild of the player may keep a pipe open after the player is
//! dead, and the judge must not wait for it. They end by themselves once their pipe closes or
//! the endpoint is gone. Only the stderr copier is waited for, briefly, once the player's group
//! is dead, so that its last lines are not lost when our process exits right after.

use std::any::Any;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

use crate::machine_load;

/// The longest reply line accepted; longer output is a protocol error, not a memory hazard.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How long a player whose output ended gets to report why (its exit status), before it is
/// judged to have closed its output while still running.
const EXIT_PATIENCE: Duration = Duration::from_millis(200);

/// How long a player whose input was closed gets to exit by itself before it is killed.
const GRACE: Duration = Duration::from_millis(100);

/// How long the stderr copier gets to forward what the dead player left in the pipe. It is only
/// needed in full when a process that escaped the player's group still holds the pipe.
const STDERR_DRAIN: Duration = Duration::from_millis(100);

const READ_CHUNK: usize = 64 * 1024;

/// Lines read ahead of the judge; beyond that the reader stops reading and the player blocks on
/// its writes, so a flooding player cannot exhaust our memory.
const LINES_AHEAD: usize = 16;

/// Stderr is forwarded in pieces of at most this size, so a huge line without a newline is
/// forwarded as it comes instead of being held in memory.
const STDERR_PIECE: u64 = 64 * 1024;

/// Why a conversation ended before the judge was done with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The player's total waiting time went past the limit.
    Timeout { limit: Duration },
    /// The player exited with a non-zero status, died from a signal, or (a thread) panicked.
    Crash { detail: String },
    /// The player broke the line protocol: closed its output early with status 0, wrote an
    /// overlong line, or wrote bytes that are not UTF-8.
    Protocol { detail: String },
}

/// Where an external program's stderr goes.
#[derive(Clone, Debug)]
pub enum StderrMode {
    /// Copied to our stderr, each line behind `prefix` (e.g. `[seed 17] `).
    Prefixed(String),
    Discard,
}

/// A conversation with one player. Dropping it has the same effect as [`Endpoint::close`].
pub struct Endpoint {
    limit: Duration,
    used: Duration,
    /// The first failure; every later call returns it again.
    failure: Option<Failure>,
    /// `None` once the player's input is closed.
    input: Option<Input>,
    lines: Receiver<Event>,
    player: Player,
    /// Disconnects when the stderr copier has finished (`None` without one).
    stderr_done: Option<Receiver<()>>,
}

/// The judge's side of the writer thread, which owns the player's input pipe and closes it
/// when `texts` is dropped.
struct Input {
    texts: Sender<Vec<u8>>,
    /// The result of writing each text.
    results: Receiver<io::Result<()>>,
}

/// What the reader thread reports, in stream order.
enum Event {
    Line(String),
    /// The output broke the protocol; the reader has stopped.
    Invalid(String),
    /// The output ended (or could no longer be read).
    End,
}

enum Player {
    Process(Process),
    /// `None` once the thread has been joined.
    Thread(Option<JoinHandle<io::Result<()>>>),
}

/// How a player process ended, as far as the verdict is concerned.
#[derive(Clone)]
enum Exit {
    Clean,
    Crashed(String),
}

/// The child `sh`, leader of its own process group. Dropping it kills the group and reaps the
/// child, so every way out of `Endpoint` (including a failed spawn halfway) cleans up.
struct Process {
    child: Child,
    exit: Option<Exit>,
    /// Set once the child is killed and reaped: its pid may then belong to a stranger.
    reaped: bool,
}

impl Process {
    fn pid(&self) -> Pid {
        Pid::from_raw(self.child.id() as i32)
    }

    /// Whether the child has exited, without reaping it: an unreaped child keeps its pid (and
    /// so its process group id) reserved, so the later `killpg` cannot hit a stranger that
    /// reused the number.
    fn poll_exit(&mut self) -> Option<Exit> {
        if self.exit.is_none() {
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
            self.exit = match waitid(Id::Pid(self.pid()), flags) {
                Ok(WaitStatus::Exited(_, 0)) => Some(Exit::Clean),
                Ok(WaitStatus::Exited(_, code)) => {
                    Some(Exit::Crashed(format!("exit status {code}")))
                }
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
}

impl Process {
    /// Kills the group and reaps the child; does nothing the second time.
    fn terminate(&mut self) {
        if self.reaped {
            return;
        }
        // Grandchildren may still hold the pipes or burn CPU; they share the group.
        let _ = killpg(self.pid(), Signal::SIGKILL);
        // In case the child moved itself to another group. The child is not reaped yet, so
        // its pid is still ours to signal.
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// The environment variable that tells a judged program its time limit per case, in seconds
/// (the contest's protocols carry none): `marathon solve` takes it as its default, so that
/// `--exec "marathon solve GAME"` under `--time-limit S` plans for S seconds.
pub const TIME_LIMIT_ENV: &str = "MARATHON_TIME_LIMIT";

impl Endpoint {
    /// Starts `sh -c command` in its own process group, with the case's time limit in its
    /// environment ([`TIME_LIMIT_ENV`]).
    pub fn spawn_process(command: &str, limit: Duration, stderr: StderrMode) -> io::Result<Self> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .env(TIME_LIMIT_ENV, limit.as_secs_f64().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                StderrMode::Prefixed(_) => Stdio::piped(),
                StderrMode::Discard => Stdio::null(),
            })
            .process_group(0)
            .spawn()?;
        let (stdin, stdout, errors) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        // From here on, any early return kills and reaps the child.
        let process = Process {
            child,
            exit: None,
            reaped: false,
        };
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
        let lines = spawn_reader(stdout)?;
        let mut endpoint = Self::new(limit, input, lines, Player::Process(process));
        endpoint.stderr_done = stderr_done;
        Ok(endpoint)
    }

    /// Runs `player` on a new thread; it reads the judge's text from its `BufRead` and writes
    /// its replies to its `Write` (it must flush). A panic counts as a crash.
    pub fn spawn_thread<F>(limit: Duration, player: F) -> io::Result<Self>
    where
        F: FnOnce(&mut dyn BufRead, &mut dyn Write) -> io::Result<()> + Send + 'static,
    {
        let (from_player, player_output) = io::pipe()?;
        let (player_input, to_player) = io::pipe()?;
        let handle = thread::Builder::new()
            .name("player".into())
            .spawn(move || {
                // Records the thread's CPU account however the player ends, panics included.
                let _account = PlayerAccount;
                let mut input = BufReader::new(player_input);
                let mut output = BufWriter::new(player_output);
                // Returning (or unwinding) drops both pipe ends: the judge sees end of output.
                player(&mut input, &mut output)
            })?;
        let input = spawn_writer(to_player)?;
        let lines = spawn_reader(from_player)?;
        Ok(Self::new(limit, input, lines, Player::Thread(Some(handle))))
    }

    fn new(limit: Duration, input: Input, lines: Receiver<Event>, player: Player) -> Self {
        Self {
            limit,
            used: Duration::ZERO,
            failure: None,
            input: Some(input),
            lines,
            player,
            stderr_done: None,
        }
    }

    /// Writes `text` (the caller includes the newlines) and flushes.
    ///
    /// The writing happens on the writer thread, so a player that stops reading its input
    /// cannot block the judge: if the text is not taken within the time left of the limit,
    /// that is a timeout. This wait is not counted in [`Endpoint::time_used`].
    pub fn send(&mut self, text: &str) -> Result<(), Failure> {
        self.check()?;
        let patience = self.limit.saturating_sub(self.used);
        if patience.is_zero() {
            return self.fail(Failure::Timeout { limit: self.limit });
        }
        let outcome = match &self.input {
            Some(input) if input.texts.send(text.as_bytes().to_vec()).is_ok() => {
                input.results.recv_timeout(patience)
            }
            _ => Err(RecvTimeoutError::Disconnected),
        };
        match outcome {
            Ok(Ok(())) => Ok(()),
            Err(RecvTimeoutError::Timeout) => self.fail(Failure::Timeout { limit: self.limit }),
            // A write error is (almost always) a broken pipe: nobody reads the input any more.
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                let failure = self.player_gone("closed its input before the judge was done");
                self.fail(failure)
            }
        }
    }

    /// The next reply line, without its line terminator (`\n` or `\r\n`). Waits at most for the
    /// time left of the limit.
    pub fn receive_line(&mut self) -> Result<String, Failure> {
        self.check()?;
        let patience = self.limit.saturating_sub(self.used);
        if patience.is_zero() {
            return self.fail(Failure::Timeout { limit: self.limit });
        }
        let started = Instant::now();
        let event = self.lines.recv_timeout(patience);
        self.used += started.elapsed();
        match event {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::Invalid(detail)) => self.fail(Failure::Protocol { detail }),
            Err(RecvTimeoutError::Timeout) => self.fail(Failure::Timeout { limit: self.limit }),
            Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => {
                let failure = self.player_gone("closed its output before replying");
                self.fail(failure)
            }
        }
    }

    /// Total time spent waiting in `receive_line`.
    pub fn time_used(&self) -> Duration {
        self.used
    }

    /// The process id of an external player (also its process group id); `None` for a thread.
    pub fn pid(&self) -> Option<u32> {
        match &self.player {
            Player::Process(process) => Some(process.child.id()),
            Player::Thread(_) => None,
        }
    }

    /// Closes the player's input, gives it a short grace period to exit, then kills and reaps
    /// it. A thread player cannot be killed: it is left to finish on its own once it sees its
    /// input end.
    pub fn close(self) {
        drop(self);
    }

    fn check(&self) -> Result<(), Failure> {
        match &self.failure {
            Some(failure) => Err(failure.clone()),
            None => Ok(()),
        }
    }

    fn fail<T>(&mut self, failure: Failure) -> Result<T, Failure> {
        self.failure = Some(failure.clone());
        Err(failure)
    }

    /// Why the player stopped talking: its exit status, or that it is still running (or
    /// exited cleanly) and just closed a pipe, which `what` describes.
    fn player_gone(&mut self, what: &str) -> Failure {
        let protocol = |how: &str| Failure::Protocol {
            detail: format!("{what} ({how})"),
        };
        match &mut self.player {
            Player::Process(process) => match poll_until(EXIT_PATIENCE, || process.poll_exit()) {
                Some(Exit::Clean) => protocol("exit status 0"),
                Some(Exit::Crashed(detail)) => Failure::Crash { detail },
                None => protocol("still running"),
            },
            Player::Thread(handle) => {
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

impl Drop for Endpoint {
    fn drop(&mut self) {
        // The player's cue to finish.
        self.input = None;
        // A player that already failed gets no grace: it is stuck, misbehaving or gone.
        if let (None, Player::Process(process)) = (&self.failure, &mut self.player) {
            poll_until(GRACE, || process.poll_exit());
        }
        if let Player::Process(process) = &mut self.player {
            process.terminate();
        }
        // With the group dead, its stderr pipe is closed: let the copier forward the last
        // lines, which would otherwise be lost if our process exits right after.
        if let Some(finished) = self.stderr_done.take() {
            let _ = finished.recv_timeout(STDERR_DRAIN);
        }
        // Dropping the fields then ends the helper threads as their channels or pipes close.
    }
}

/// Adds the current thread to the players' CPU account when dropped.
struct PlayerAccount;

impl Drop for PlayerAccount {
    fn drop(&mut self) {
        machine_load::record_thread_player();
    }
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

/// Starts the thread that feeds the player's input; it answers each text with the result of
/// writing it, and closes the input when the queue closes or a write fails.
fn spawn_writer(mut sink: impl Write + Send + 'static) -> io::Result<Input> {
    let (texts, queue) = mpsc::channel::<Vec<u8>>();
    let (done, results) = mpsc::channel();
    thread::Builder::new()
        .name("endpoint-writer".into())
        .spawn(move || {
            for text in queue {
                let result = sink.write_all(&text).and_then(|()| sink.flush());
                let failed = result.is_err();
                if done.send(result).is_err() || failed {
                    break;
                }
            }
        })?;
    Ok(Input { texts, results })
}

fn spawn_reader(source: impl Read + Send + 'static) -> io::Result<Receiver<Event>> {
    let (events, lines) = mpsc::sync_channel(LINES_AHEAD);
    thread::Builder::new()
        .name("endpoint-reader".into())
        .spawn(move || read_lines(source, &events))?;
    Ok(lines)
}

/// Splits the player's output into lines and sends them on, until the output ends, breaks the
/// protocol, or nobody listens any more.
fn read_lines(mut source: impl Read, events: &SyncSender<Event>) {
    let mut chunk = vec![0; READ_CHUNK];
    // The unfinished line, starting at byte `offset` of the output.
    let mut pending = Vec::new();
    let mut offset = 0;
    let mut line_number = 0;
    loop {
        let count = match source.read(&mut chunk) {
            Ok(0) => break,
            Ok(count) => count,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            // Nothing more can be read; the exit status will tell what happened.
            Err(_) => break,
        };
        let mut searched = pending.len();
        pending.extend_from_slice(&chunk[..count]);
        let mut start = 0;
        while let Some(found) = pending[searched..].iter().position(|&byte| byte == b'\n') {
            let end = searched + found;
            line_number += 1;
            if !forward(
                events,
                decode_line(&pending[start..end], line_number, offset + start),
            ) {
                return;
            }
            start = end + 1;
            searched = start;
        }
        pending.drain(..start);
        offset += start;
        // One more byte may be the `\r` of a `\r\n`.
        if pending.len() > MAX_LINE_BYTES + 1 {
            forward(events, Event::Invalid(too_long()));
            return;
        }
    }
    if !pending.is_empty() {
        // A last line without its newline still counts; what follows is end of output anyway.
        line_number += 1;
        if !forward(events, decode_line(&pending, line_number, offset)) {
            return;
        }
    }
    let _ = events.send(Event::End);
}

/// Sends `event`; false when reading should stop (the protocol is broken or nobody listens).
fn forward(events: &SyncSender<Event>, event: Event) -> bool {
    let invalid = matches!(event, Event::Invalid(_));
    events.send(event).is_ok() && !invalid
}

fn decode_line(bytes: &[u8], line_number: usize, offset: usize) -> Event {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.len() > MAX_LINE_BYTES {
        return Event::Invalid(too_long());
    }
    match std::str::from_utf8(bytes) {
        Ok(line) => Event::Line(line.to_owned()),
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
