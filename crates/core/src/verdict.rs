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
    /// one). Built by [`Verdict::invalid`]: `line` is the reply as received, cut to
    /// [`QUOTE_BYTES`] (then ending in `…`), `line_bytes` its whole length.
    Invalid {
        line: String,
        line_bytes: usize,
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
            Verdict::Crash { .. } => "crash",
            Verdict::Protocol { .. } => "protocol",
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
