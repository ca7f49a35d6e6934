//! How a case ended.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::clock::ClockKind;
use crate::endpoint::Failure;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The game ran to its end under the rules.
    Ok,
    /// The player's reply was well-formed text but not an allowed move (or not parseable as
    /// one). Built by [`Verdict::invalid`]: `line` is the reply as received, cut to
    /// [`QUOTE_BYTES`] (then ending in `…`), `line_bytes` its whole length.
    Invalid {
        line: String,
        line_bytes: usize,
        reason: String,
    },
    /// The player's time went past the limit: `used_ms` counted (see [`crate::endpoint`]),
    /// `detail` says so in words, with what the player was doing.
    Timeout {
        limit_ms: u64,
        used_ms: u64,
        detail: String,
    },
    /// The player's processes held more memory together than the limit (see
    /// [`crate::usage`]): the largest reading and the limit, in KiB, and both in words.
    Memory {
        limit_kib: u64,
        peak_kib: u64,
        detail: String,
    },
    Crash {
        detail: String,
    },
    Protocol {
        detail: String,
    },
    /// The run was stopped (Ctrl-C, SIGTERM) before the case ended: not a result. The runner
    /// drops such cases.
    Interrupted,
}

/// How much of a player's text a verdict keeps: a reply of a megabyte must not fill the table
/// and the JSON with itself.
pub const QUOTE_BYTES: usize = 200;

/// `text` cut to at most [`QUOTE_BYTES`] bytes on a character boundary, `…` marking the cut.
pub fn excerpt(text: &str) -> String {
    if text.len() <= QUOTE_BYTES {
        return text.to_owned();
    }
    let mut end = QUOTE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl Verdict {
    /// A refused reply: `line` as received (quoted up to [`QUOTE_BYTES`] with its length) and
    /// the rule it broke (bounded the same way, since a reason may quote a token of the reply).
    pub fn invalid(line: &str, reason: impl Into<String>) -> Self {
        Verdict::Invalid {
            line: excerpt(line),
            line_bytes: line.len(),
            reason: bound_reason(reason.into()),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Invalid { .. } => "invalid",
            Verdict::Timeout { .. } => "timeout",
            Verdict::Memory { .. } => "memory",
            Verdict::Crash { .. } => "crash",
            Verdict::Protocol { .. } => "protocol",
            Verdict::Interrupted => "interrupted",
        }
    }

    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok)
    }
}

/// A reason longer than a few quotes is cut, keeping its start (which names the rule).
fn bound_reason(reason: String) -> String {
    if reason.len() <= 2 * QUOTE_BYTES {
        return reason;
    }
    let mut end = 2 * QUOTE_BYTES;
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &reason[..end], reason.len())
}

impl From<Failure> for Verdict {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Timeout {
                limit,
                used,
                unread_input,
                clock,
                wall,
            } => Verdict::timeout_on(clock, limit, used, wall, unread_input),
            Failure::Memory {
                peak_kib,
                limit_kib,
            } => Verdict::Memory {
                limit_kib,
                peak_kib,
                detail: format!(
                    "{} MiB held, over the {} MiB limit",
                    mib(peak_kib),
                    mib(limit_kib)
                ),
            },
            Failure::Crash { detail } => Verdict::Crash { detail },
            Failure::Protocol { detail } => Verdict::Protocol { detail },
            Failure::Interrupted => Verdict::Interrupted,
        }
    }
}

impl Verdict {
    /// A timeout after `used` of `limit`; `unread_input`: the judge was still writing its last
    /// message, the player not reading it (its clock ran all the same).
    pub fn timeout(limit: Duration, used: Duration, unread_input: bool) -> Self {
        Verdict::timeout_on(ClockKind::Wall, limit, used, None, unread_input)
    }

    /// A timeout on `clock`; under the CPU clock, `wall` is the wall time after which its cap
    /// ([`crate::clock::wall_cap`]) ended the case first (`used` is then the CPU time counted).
    pub fn timeout_on(
        clock: ClockKind,
        limit: Duration,
        used: Duration,
        wall: Option<Duration>,
        unread_input: bool,
    ) -> Self {
        let mut detail = match (clock, wall) {
            (ClockKind::Wall, _) => format!(
                "{:.2} s counted, over the {} s limit (wall clock)",
                used.as_secs_f64(),
                seconds(limit)
            ),
            (ClockKind::Cpu, None) => format!(
                "{:.2} s counted, over the {} s limit (CPU clock: the CPU time of the player's processes)",
                used.as_secs_f64(),
                seconds(limit)
            ),
            (ClockKind::Cpu, Some(wall)) => format!(
                "{:.2} s of wall time passed, the cap for a {} s CPU-time limit, with {:.2} s of CPU time counted (CPU clock: the player waited, slept or was kept from a CPU)",
                wall.as_secs_f64(),
                seconds(limit),
                used.as_secs_f64()
            ),
        };
        if unread_input {
            detail.push_str(" (it had not read the judge's last message in full)");
        }
        Verdict::Timeout {
            limit_ms: millis(limit),
            used_ms: millis(used),
            detail,
        }
    }
}

/// KiB as MiB, as given: `64`, `300.5`.
fn mib(kib: u64) -> String {
    let text = format!("{:.1}", kib as f64 / 1024.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A limit as given: `2`, `0.5`, `20`.
fn seconds(limit: Duration) -> String {
    let text = format!("{:.3}", limit.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ok => write!(f, "ok"),
            Verdict::Invalid {
                line,
                line_bytes,
                reason,
            } => {
                write!(f, "invalid: {reason} (reply {line:?}")?;
                if *line_bytes > line.len() {
                    write!(f, ", {line_bytes} bytes")?;
                }
                write!(f, ")")
            }
            Verdict::Timeout { detail, .. } => write!(f, "timeout: {detail}"),
            Verdict::Memory { detail, .. } => write!(f, "memory: {detail}"),
            Verdict::Crash { detail } => write!(f, "crash: {detail}"),
            Verdict::Protocol { detail } => write!(f, "protocol: {detail}"),
            Verdict::Interrupted => write!(f, "interrupted"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_reply_is_quoted_with_its_length() {
        let reply = "é".repeat(500_000);
        let verdict = Verdict::invalid(&reply, format!("bad token {reply}"));
        let Verdict::Invalid {
            line,
            line_bytes,
            reason,
        } = &verdict
        else {
            panic!("{verdict:?}")
        };
        assert_eq!(*line_bytes, 1_000_000);
        assert!(line.len() <= QUOTE_BYTES + '…'.len_utf8(), "{}", line.len());
        assert!(line.ends_with('…'));
        assert!(reason.len() < 3 * QUOTE_BYTES, "{}", reason.len());
        assert!(reason.ends_with("(1000010 bytes)"), "{reason}");
        let shown = verdict.to_string();
        assert!(shown.len() < 1000, "{}", shown.len());
        assert!(shown.ends_with(", 1000000 bytes)"), "{shown}");
    }

    #[test]
    fn a_short_reply_is_kept_whole() {
        let verdict = Verdict::invalid("Z9", "bad row");
        assert_eq!(verdict.to_string(), r#"invalid: bad row (reply "Z9")"#);
    }
}
