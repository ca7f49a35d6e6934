//! The face every game crate shows the runner and the CLI.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::verdict::Verdict;

/// Who plays a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in player by name (`ai`, `greedy`, `random`, ...).
    Builtin(String),
    /// An external program, run as `sh -c COMMAND`.
    Exec(String),
}

/// How to play a case.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub player: PlayerSpec,
    /// The player's total thinking time for the case.
    pub time_limit: Duration,
    /// Fixed search effort for built-in players (moves then depend on the case only, not on
    /// machine speed); `None` means: use the time limit.
    pub effort: Option<u64>,
    /// Discard external programs' stderr instead of passing it through.
    pub quiet: bool,
}

/// How a built-in player runs when it speaks the protocol itself (`marathon solve`).
#[derive(Clone, Debug)]
pub struct SolveConfig {
    pub player: String,
    pub time_limit: Duration,
    pub effort: Option<u64>,
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    pub game: &'static str,
    pub seed: u64,
    /// The case's parameters as the table shows them, e.g. `("N", "6")`.
    pub params: Vec<(&'static str, String)>,
    /// The official score of the case (already reflecting the contest's rule for failures).
    pub score: f64,
    pub moves: u64,
    /// The player's time as the judge counted it.
    pub time: Duration,
    pub verdict: Verdict,
}

pub trait Game: Sync {
    /// The name used on the command line (`linez`).
    fn name(&self) -> &'static str;
    /// Built-in player names; the first is the default.
    fn players(&self) -> &'static [&'static str];
    /// The contest's time limit per case.
    fn default_time_limit(&self) -> Duration;
    /// Whether a higher score is better (the runner's relative scores depend on it).
    fn maximize(&self) -> bool {
        true
    }
    /// The case's first observation, in the protocol's text.
    fn generate(&self, seed: u64) -> String;
    /// Plays one case through the judge. Never panics on a misbehaving player.
    fn play(&self, seed: u64, config: &PlayConfig) -> CaseOutcome;
    /// Runs a built-in player speaking the protocol on `input`/`output`.
    fn solve(
        &self,
        config: &SolveConfig,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<()>;
}
