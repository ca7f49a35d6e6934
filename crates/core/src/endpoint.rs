//! One side of a conversation with a player: the judge sends text, the player answers line by
//! line. The player is either an external program (`sh -c COMMAND`, any language) or a function
//! running on a thread of this process; both are reached through OS pipes and the same line
//! reader, so the built-in AIs see exactly the interface external programs see.
//!
//! Only the time the judge spends waiting for a reply counts against the limit. Every path that
//! ends the conversation kills and reaps the child (its whole process group).

use std::io::{self, BufRead, Write};
use std::time::Duration;

/// The longest reply line accepted; longer output is a protocol error, not a memory hazard.
pub const MAX_LINE_BYTES: usize = 1 << 20;

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

pub struct Endpoint {
    _todo: (),
}

impl Endpoint {
    /// Starts `sh -c command` in its own process group.
    pub fn spawn_process(command: &str, limit: Duration, stderr: StderrMode) -> io::Result<Self> {
        let _ = (command, limit, stderr);
        todo!()
    }

    /// Runs `player` on a new thread; it reads the judge's text from its `BufRead` and writes
    /// its replies to its `Write` (it must flush). A panic counts as a crash.
    pub fn spawn_thread<F>(limit: Duration, player: F) -> io::Result<Self>
    where
        F: FnOnce(&mut dyn BufRead, &mut dyn Write) -> io::Result<()> + Send + 'static,
    {
        let _ = (limit, player);
        todo!()
    }

    /// Writes `text` (the caller includes the newlines) and flushes.
    pub fn send(&mut self, text: &str) -> Result<(), Failure> {
        let _ = text;
        todo!()
    }

    /// The next reply line, without its line terminator (`\n` or `\r\n`). Waits at most for the
    /// time left of the limit.
    pub fn receive_line(&mut self) -> Result<String, Failure> {
        todo!()
    }

    /// Total time spent waiting in `receive_line`.
    pub fn time_used(&self) -> Duration {
        todo!()
    }

    /// Closes the player's input, gives it a short grace period to exit, then kills and reaps
    /// it.
    pub fn close(self) {}
}
