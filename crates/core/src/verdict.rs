//! How a case ended.

use std::fmt;

use serde::Serialize;

use crate::endpoint::Failure;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The game ran to its end under the rules.
    Ok,
    /// The player's reply was well-formed text but not an allowed move (or not parseable as
    /// one); `line` is the reply as received.
    Invalid {
        line: String,
        reason: String,
    },
    Timeout {
        limit_ms: u64,
    },
    Crash {
        detail: String,
    },
    Protocol {
        detail: String,
    },
}

impl Verdict {
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Invalid { .. } => "invalid",
            Verdict::Timeout { .. } => "timeout",
            Verdict::Crash { .. } => "crash",
            Verdict::Protocol { .. } => "protocol",
        }
    }

    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok)
    }
}

impl From<Failure> for Verdict {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Timeout { limit } => Verdict::Timeout {
                limit_ms: limit.as_millis() as u64,
            },
            Failure::Crash { detail } => Verdict::Crash { detail },
            Failure::Protocol { detail } => Verdict::Protocol { detail },
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ok => write!(f, "ok"),
            Verdict::Invalid { line, reason } => write!(f, "invalid: {reason} (reply {line:?})"),
            Verdict::Timeout { limit_ms } => {
                write!(
                    f,
                    "timeout: over the {:.1} s limit",
                    *limit_ms as f64 / 1000.0
                )
            }
            Verdict::Crash { detail } => write!(f, "crash: {detail}"),
            Verdict::Protocol { detail } => write!(f, "protocol: {detail}"),
        }
    }
}
