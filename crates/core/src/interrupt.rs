//! A request to stop a run (Ctrl-C, SIGTERM, SIGHUP), seen by everything that waits on a player: the
//! runner starts no new case, every endpoint's wait for a reply ends at once with an
//! interruption (within `endpoint::INTERRUPT_POLL`), and its player is killed. The binary
//! installs the signal handlers and calls [`request`]; the library only reads the flag.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked to stop, 0 while nobody has.
static REQUESTED_BY: AtomicI32 = AtomicI32::new(0);

/// Asks every run of this process to stop, because of `signal` (its number, e.g. 2 for SIGINT).
/// Returns false when a stop had already been asked for (the caller may then exit at once).
pub fn request(signal: i32) -> bool {
    REQUESTED_BY
        .compare_exchange(0, signal.max(1), Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// Forgets a stop that was asked for and has been handled: for a library's host that goes on
/// after an interrupted run (Python after `KeyboardInterrupt`). The binary never clears it.
pub fn clear() {
    REQUESTED_BY.store(0, Ordering::SeqCst);
}

/// The signal that asked to stop, if one did.
pub fn requested() -> Option<i32> {
    match REQUESTED_BY.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}
