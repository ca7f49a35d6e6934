//! The one shape of a built-in player, whatever its game: at each of its turns it is shown what
//! the contest has shown a program by then and answers with the game's action. A game's
//! protocol loop (`ai::speak_protocol`, in-process under the judge and as `marathon solve`)
//! builds the observation from the judge's text and the player's own replies; its hint
//! (`GameSpec::hint`) builds the same observation from the position, never from the
//! environment's hidden parts (the chance to come, another player's strategy).

use std::fmt::Display;
use std::io;

use crate::clock::Clock;

/// A built-in player of one game; see the module's doc.
pub trait Player {
    /// What the player is shown at its turn: the contest's message as read, with what the
    /// player's own earlier replies imply (a board a protocol does not repeat, a piece handed
    /// out).
    type Observation: ?Sized;
    /// Its decision: the game's action, the environment's ([`crate::Environment::Action`]).
    type Action;

    /// The action for `observation`, shown at one of the player's turns (so one is legal), with
    /// the player's time on `clock` as the judge counts it.
    fn choose(&mut self, observation: &Self::Observation, clock: &Clock) -> Self::Action;
}

/// The error a built-in player does not start with: a name or settings its caller got wrong.
pub fn invalid_input(message: impl Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}

/// Refuses `name` unless it is one of `game`'s built-in `players`, naming them.
pub fn check_name(game: &str, players: &[&str], name: &str) -> io::Result<()> {
    if players.contains(&name) {
        return Ok(());
    }
    let players = players.join(", ");
    Err(invalid_input(format!(
        "no {game} player {name:?} (players: {players})"
    )))
}
