//! What a game crate provides ([`GameSpec`]): its facts, its environment, how a case is scored,
//! its built-in players and its replay viewer. Core builds the rest on it: the face the CLI and
//! the runner see ([`crate::Game`]) and the case in play every driver holds
//! ([`crate::CaseInPlay`]).

use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::time::Duration;

use serde_json::Value;

use crate::case::{CaseId, Metric, PlayConfig, SolveConfig};
use crate::clock::ClockKind;
use crate::endpoint::Endpoint;
use crate::env::Environment;
use crate::legend::Legend;
use crate::replay::Viewer;
use crate::settings::{Setting, Settings};
use crate::space::Spaces;
use crate::verdict::Verdict;

/// What a game crate provides: its facts, its environment, how its result is scored, its
/// built-in players and its replay viewer. Core turns every `GameSpec` into a [`crate::Game`] (the
/// face the CLI and the runner see) with one implementation of playing, recording, generating
/// and solving, so that the game loop exists once ([`crate::env::judge`]).
pub trait GameSpec: Clone + Send + Sync + 'static {
    /// The case in play, with its fixed action and observation spaces: every driver (the
    /// judge, the play page, the Python environments) steps it.
    type Env: Spaces<Event: Sync> + Sync;

    /// The name used on the command line (`linez`).
    const NAME: &'static str;
    /// Built-in player names; the first is the default.
    const PLAYERS: &'static [&'static str];
    /// The contest's time limit per case.
    const TIME_LIMIT: Duration;
    /// The clock the contest counted its time limit on.
    const CLOCK: ClockKind;
    /// The contest's memory limit, in MiB (`None`: the game has none).
    const MEMORY_LIMIT_MIB: Option<u64>;
    /// Whether a higher score is better (the runner's relative scores depend on it).
    const MAXIMIZE: bool = true;
    /// A reply that ends a game at once and validly, where the protocol has one (`GIVE UP`):
    /// the trust tests race it against the judge's writes.
    const FINAL_REPLY: Option<&'static str> = None;
    /// For a game whose official score counts the player's time, the metric that holds the
    /// moves' points alone (Polyomino's `raw`): two plays of one game compare on it.
    const UNTIMED_SCORE: Option<&'static str> = None;
    /// Whether the settings a built-in player lists are only where each case's own tuned
    /// values start (so that giving them explicitly plays another game).
    const SETTINGS_TUNED_PER_CASE: bool = false;
    /// A game that exists to test marathon itself (registered only in test builds): the
    /// user's documents do not list it.
    const FOR_TESTS: bool = false;
    /// The names of the parameters every case shows ([`Scored::params`]), in order.
    const PARAMS: &'static [&'static str] = &[];
    /// What the score, the parameters, the metrics ([`Scored::metrics`]), the players and the
    /// case ids mean, for the legend under a run's tables and `marathon players`.
    const LEGEND: &'static Legend;
    /// The built-in players' protocol loop: reads the judge's text on its input, answers on its
    /// output (in-process players and `marathon solve` both run it).
    const SOLVE: Solve;
    /// The game's half of a replay page.
    const VIEWER: Viewer;

    /// The case groups `--group` accepts, if the game has groups, and the default group.
    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        None
    }
    /// The contest's official cases (`--official`), if the game has them.
    fn official_cases(&self) -> Vec<CaseId> {
        Vec::new()
    }
    /// Built-in player `player`'s settings with `given` applied: every setting's name and
    /// value, or what is wrong with `given` (the default: a player without settings).
    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        given.apply(player, &mut []).map(|()| Vec::new())
    }
    /// The player's side of a new game, for programs that choose by the environment's
    /// observation ([`crate::Follower`]); `None` (the default) where the game has none yet.
    fn follower(&self) -> Option<Box<dyn crate::Follower>> {
        None
    }
    /// The case at its start; an error says what is wrong with the case id.
    fn environment(&self, case: &CaseId) -> Result<Self::Env, String>;
    /// The case's result once its game is over or failed: the official score (the contest's
    /// rule for failures applied; `time` is the player's time as the judge counted it), the
    /// case's parameters and the game's own figures.
    fn score(&self, case: &CaseId, env: &Self::Env, verdict: &Verdict, time: Duration) -> Scored;
    /// Starts built-in player `config.player` in a way of its own, with a report of figures it
    /// gives when the game is over; `None` (the default) starts it the usual way. For a player
    /// that needs what no program can be given (reversi's `oracle` knows the case's hidden
    /// opponents).
    fn start_builtin(&self, _env: &Self::Env, _config: &PlayConfig) -> Option<io::Result<Started>> {
        None
    }
    /// The start of a replay: the environment before any step, as the viewer reads it.
    fn replay_start(&self, env: &Self::Env) -> Value;
    /// One step of a replay, as the viewer reads it, carrying the score after it under
    /// `score`; `env` is the environment after it. `None` for an event a replay does not show
    /// (a closing `DONE`).
    fn replay_step(
        &self,
        env: &Self::Env,
        event: &<Self::Env as Environment>::Event,
    ) -> Option<Value>;
    /// The move the game's default built-in player (`ai`) would make now, searching at the
    /// fixed `effort` (so that the hint depends on the position alone), for a person playing the
    /// case (`marathon serve`). The player sees only what the contest has shown it: a game
    /// builds it from the position as the protocol's text tells it, never from hidden parts of
    /// the case. `None` when it is not the player's turn, or (the default) for a game without
    /// hints; otherwise a legal action.
    fn hint(&self, _env: &Self::Env, _effort: u64) -> Option<<Self::Env as Environment>::Action> {
        None
    }
}

/// A game's built-in players speaking its protocol ([`GameSpec::SOLVE`]).
pub type Solve = fn(&SolveConfig, &mut dyn BufRead, &mut dyn Write) -> io::Result<()>;

/// A game's figures of a finished case (see [`GameSpec::score`]).
#[derive(Clone, Debug, Default)]
pub struct Scored {
    pub score: f64,
    pub params: Vec<(&'static str, String)>,
    pub metrics: Vec<Metric>,
}

/// A player a game started itself ([`GameSpec::start_builtin`]), with the figures it reports
/// once its game is over.
pub struct Started {
    pub endpoint: Endpoint,
    pub report: Box<dyn FnOnce() -> Vec<Metric> + Send>,
}
