//! The text: the judge writes `TOTAL n` before each decision; the player answers `ROLL` or
//! `STOP`.

use std::fmt;

use crate::rules::Action;

pub fn format_message(total: u32) -> String {
    format!("TOTAL {total}\n")
}

/// The total of a message line.
pub fn parse_message(line: &str) -> Option<u32> {
    line.strip_prefix("TOTAL ")?.parse().ok()
}

pub fn format_action(action: Action) -> &'static str {
    match action {
        Action::Roll => "ROLL",
        Action::Stop => "STOP",
    }
}

/// A reply that is neither word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected ROLL or STOP, got {}", self.0)
    }
}

pub fn parse_action(line: &str) -> Result<Action, ParseError> {
    match line.trim() {
        "ROLL" => Ok(Action::Roll),
        "STOP" => Ok(Action::Stop),
        other => Err(ParseError(marathon_core::verdict::excerpt(other))),
    }
}
