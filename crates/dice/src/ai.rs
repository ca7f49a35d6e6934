//! The built-in players, speaking the protocol: `ai` rolls while the total is below 90 (the
//! bust risk of one more roll then outweighs its gain), `random` flips a coin.

use std::io::{self, BufRead, Write};

use marathon_core::rng::FastRng;
use marathon_core::{SolveConfig, invalid_data, read_line};

use crate::protocol::{format_action, parse_message};
use crate::rules::Action;

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "random"];

/// Below this total `ai` rolls.
pub const HOLD_AT: u32 = 90;

/// `ai`'s decision at `total`.
pub fn decide(total: u32) -> Action {
    if total < HOLD_AT {
        Action::Roll
    } else {
        Action::Stop
    }
}

pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut coin = FastRng::new(config.effort.unwrap_or(0) ^ 0xd1ce);
    let mut line = String::new();
    while read_line(input, &mut line)? {
        let total = parse_message(&line).ok_or_else(|| invalid_data(format!("{line:?}")))?;
        let action = match config.player.as_str() {
            "random" if coin.below(2) == 0 => Action::Roll,
            "random" => Action::Stop,
            "ai" => decide(total),
            other => return Err(invalid_data(format!("no player {other:?}"))),
        };
        writeln!(output, "{}", format_action(action))?;
        output.flush()?;
    }
    Ok(())
}
