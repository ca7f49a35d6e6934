//! One environment per game: a case being played, stepped by the player's actions. It owns the
//! case's chance stream and the state under the rules, so that everything that plays a game
//! drives the same code: the judge (over a program's text), replays, tests, tuners, and the
//! Python environments. It does no IO and clones cheaply (a search can copy it).
//!
//! Like OpenSpiel's states, an environment says whose turn it is: the player's, or an automatic
//! step (chance dealt after the player's move is part of that move, but the other players'
//! moves and forced passes are steps of their own, as replays show them), or the end.

use std::fmt::{Debug, Display};

use crate::endpoint::Endpoint;
use crate::verdict::Verdict;

/// Who acts next in an [`Environment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The player decides: [`Environment::step`].
    Player,
    /// The game moves by itself (another player, a forced pass): [`Environment::advance`].
    Auto,
    /// The game is over.
    Over,
}

/// A case of a game in play. Each game's environment reproduces the judge's games exactly:
/// the same case gives the same draws in the same order whoever drives it.
pub trait Environment: Clone + Send + 'static {
    /// A decision of the player, as a reply line of the protocol reads.
    type Action: Copy + Debug + PartialEq + Send;
    /// What a step caused: the move, and what chance or the rules did after it.
    type Event: Clone + Debug + Send;
    /// Why a reply line is not an action.
    type ParseError: Display;
    /// Why an action is not allowed here.
    type RuleError: Display;

    fn turn(&self) -> Turn;

    /// Plays the automatic step due when [`Environment::turn`] is [`Turn::Auto`].
    fn advance(&mut self) -> Self::Event;

    /// Plays the player's `action` (and the chance it draws); an action the rules refuse
    /// changes nothing.
    fn step(&mut self, action: Self::Action) -> Result<Self::Event, Self::RuleError>;

    /// The player's legal actions now, in a fixed order (empty unless it is the player's turn).
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The contest's text the judge writes before the player's decision; `last` is the event
    /// that led here (`None` at the start of the game).
    fn message(&self, last: Option<&Self::Event>) -> String;

    /// Reads a reply line of the protocol.
    fn parse_action(&self, line: &str) -> Result<Self::Action, Self::ParseError>;

    /// The reply line that says `action` (what [`Environment::parse_action`] reads back).
    fn format_action(&self, action: Self::Action) -> String;

    /// The rules' score so far (before the contest's rule for failures).
    fn score(&self) -> f64;

    /// The player's moves so far, as the runner counts them.
    fn moves(&self) -> u64;

    /// Plays the automatic steps due, if any, giving each event to `seen`.
    fn advance_while_auto(&mut self, mut seen: impl FnMut(&Self, &Self::Event)) {
        while self.turn() == Turn::Auto {
            let event = self.advance();
            seen(self, &event);
        }
    }
}

/// Plays `env` to its end or to the player's first failure, talking to the player over
/// `endpoint` in the contest's text; `seen` gets the environment and each event after it
/// happens. This is the judge of every game: the one game loop that talks to programs.
pub fn judge<E: Environment>(
    env: &mut E,
    endpoint: &mut Endpoint,
    seen: impl FnMut(&E, &E::Event),
) -> Verdict {
    judge_from(env, None, endpoint, seen)
}

/// [`judge`] from a game under way, `last` the event that led to where `env` stands (`None`
/// at the start).
pub fn judge_from<E: Environment>(
    env: &mut E,
    mut last: Option<E::Event>,
    endpoint: &mut Endpoint,
    mut seen: impl FnMut(&E, &E::Event),
) -> Verdict {
    loop {
        env.advance_while_auto(|env, event| {
            seen(env, event);
            last = Some(event.clone());
        });
        if env.turn() == Turn::Over {
            return Verdict::Ok;
        }
        if let Err(failure) = endpoint.send(&env.message(last.as_ref())) {
            return failure.into();
        }
        let line = match endpoint.receive_line() {
            Ok(line) => line,
            Err(failure) => return failure.into(),
        };
        let event = match env.parse_action(&line) {
            Ok(action) => env.step(action).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match event {
            Ok(event) => {
                seen(env, &event);
                last = Some(event);
            }
            Err(reason) => return Verdict::invalid(&line, reason),
        }
    }
}
