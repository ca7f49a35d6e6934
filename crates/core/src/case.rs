//! What a case is and what comes of it: the case's id, who plays it and how, and its outcome.
//! Plain data, shared by the games, the judge, the runner and the reports.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::clock::ClockKind;
use crate::cpu::CpuAccount;
use crate::endpoint::Limits;
use crate::sandbox::Sandbox;
use crate::settings::Settings;
use crate::verdict::Verdict;

/// Who plays a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A built-in player by name (`ai`, `greedy`, `random`, ...).
    Builtin(String),
    /// An external program, run as `sh -c COMMAND`.
    Exec(String),
}

impl PlayerSpec {
    /// How tables and replays name the player.
    pub fn describe(&self) -> String {
        match self {
            PlayerSpec::Builtin(name) => name.clone(),
            PlayerSpec::Exec(command) => format!("exec: {command}"),
        }
    }
}

/// Which case to play. Most games know a case by its seed alone; a game with case groups
/// (solitaire chess: the alphabet of pieces) also needs the group, and the contest's official
/// cases carry their name (`g6-1`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CaseId {
    pub seed: u64,
    pub group: Option<u32>,
    pub name: Option<String>,
}

impl CaseId {
    pub fn seed(seed: u64) -> Self {
        Self {
            seed,
            group: None,
            name: None,
        }
    }

    pub fn in_group(group: u32, seed: u64) -> Self {
        Self {
            seed,
            group: Some(group),
            name: None,
        }
    }

    pub fn named(name: &str, group: Option<u32>, seed: u64) -> Self {
        Self {
            seed,
            group,
            name: Some(name.to_string()),
        }
    }
}

/// How the case shows in tables, prefixes and best-score files: `17`, `g6:17`, or its name.
impl fmt::Display for CaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.name, self.group) {
            (Some(name), _) => f.write_str(name),
            (None, Some(group)) => write!(f, "g{group}:{}", self.seed),
            (None, None) => write!(f, "{}", self.seed),
        }
    }
}

/// How to play a case.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub player: PlayerSpec,
    /// The player's total thinking time for the case.
    pub time_limit: Duration,
    /// The clock `time_limit` is counted on; `None`: the game's contest's
    /// ([`crate::GameSpec::CLOCK`]).
    pub clock: Option<ClockKind>,
    /// The memory limit of the player's processes.
    pub memory: MemoryLimit,
    /// The total time a built-in player plans for, when not `time_limit`. Tests judge a player
    /// that plans for a short time against a limit far above it, so that a verdict never
    /// depends on how busy the machine is; an external program is told `time_limit`.
    pub plan_limit: Option<Duration>,
    /// Fixed search effort for built-in players (moves then depend on the case only, not on
    /// machine speed); `None` means: use the time limit.
    pub effort: Option<u64>,
    /// Discard external programs' stderr instead of passing it through.
    pub quiet: bool,
    /// A built-in player's settings (`--set NAME=VALUE`).
    pub settings: Settings,
    /// Where external programs run: in this sandbox, or (`None`) with the user's rights.
    pub sandbox: Option<Arc<Sandbox>>,
}

impl PlayConfig {
    /// The built-in player `name` (external programs' stderr would be discarded).
    pub fn builtin(name: &str, time_limit: Duration, effort: Option<u64>) -> Self {
        PlayConfig {
            player: PlayerSpec::Builtin(name.to_string()),
            time_limit,
            clock: None,
            memory: MemoryLimit::Contest,
            plan_limit: None,
            effort,
            quiet: true,
            settings: Settings::default(),
            sandbox: None,
        }
    }

    /// The external program `command`, its stderr discarded.
    pub fn exec(command: &str, time_limit: Duration) -> Self {
        PlayConfig {
            player: PlayerSpec::Exec(command.to_string()),
            time_limit,
            clock: None,
            memory: MemoryLimit::Contest,
            plan_limit: None,
            effort: None,
            quiet: true,
            settings: Settings::default(),
            sandbox: None,
        }
    }

    /// This configuration with the game's contest's clock and memory limit (`clock`,
    /// `memory_mib`) where it leaves them to the game.
    pub fn resolved(&self, clock: ClockKind, memory_mib: Option<u64>) -> PlayConfig {
        PlayConfig {
            clock: Some(self.clock.unwrap_or(clock)),
            memory: match self.memory {
                MemoryLimit::Contest => match memory_mib {
                    Some(mib) => MemoryLimit::Mib(mib),
                    None => MemoryLimit::Unlimited,
                },
                given => given,
            },
            ..self.clone()
        }
    }

    /// The limits the judge holds the player to (a configuration not [`resolved`] counts on the
    /// wall clock, without a memory limit).
    ///
    /// [`resolved`]: PlayConfig::resolved
    pub fn limits(&self) -> Limits {
        let memory_mib = match self.memory {
            MemoryLimit::Mib(mib) => Some(mib),
            MemoryLimit::Contest | MemoryLimit::Unlimited => None,
        };
        Limits::new(self.time_limit, self.clock.unwrap_or_default(), memory_mib)
    }

    /// How the built-in player `name` runs under this configuration.
    pub fn solve_config(&self, name: &str) -> SolveConfig {
        SolveConfig {
            player: name.to_string(),
            time_limit: self.plan_limit.unwrap_or(self.time_limit),
            clock: self.clock.unwrap_or_default(),
            effort: self.effort,
            settings: self.settings.clone(),
        }
    }
}

/// A player's memory limit as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoryLimit {
    /// The game's contest's ([`crate::GameSpec::MEMORY_LIMIT_MIB`]).
    #[default]
    Contest,
    /// None (`--memory-limit none`): the peak is still measured.
    Unlimited,
    /// This many MiB.
    Mib(u64),
}

impl MemoryLimit {
    /// `none` or a whole number of MiB (at least 1).
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.trim() {
            "none" => Ok(MemoryLimit::Unlimited),
            number => match number.parse::<u64>() {
                Ok(mib) if (1..=1 << 30).contains(&mib) => Ok(MemoryLimit::Mib(mib)),
                _ => Err(format!(
                    "{text:?} is not a memory limit: give whole MiB from 1 to {} or `none`",
                    1u64 << 30
                )),
            },
        }
    }
}

/// How a built-in player runs when it speaks the protocol itself (`marathon solve`).
#[derive(Clone, Debug)]
pub struct SolveConfig {
    pub player: String,
    pub time_limit: Duration,
    /// The clock the judge counts `time_limit` on: the player plans by it.
    pub clock: ClockKind,
    pub effort: Option<u64>,
    pub settings: Settings,
}

impl SolveConfig {
    pub fn new(player: &str, time_limit: Duration, effort: Option<u64>) -> Self {
        SolveConfig {
            player: player.to_string(),
            time_limit,
            clock: ClockKind::Wall,
            effort,
            settings: Settings::default(),
        }
    }
}

/// A game-specific figure of a case besides its score (solitaire's Kattis points, polyomino's
/// share of cells covered); the summary shows its mean and total.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    pub name: &'static str,
    pub value: f64,
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    pub game: &'static str,
    pub case: CaseId,
    /// The case's parameters as the table shows them, e.g. `("N", "6")`.
    pub params: Vec<(&'static str, String)>,
    /// The official score of the case (already reflecting the contest's rule for failures).
    pub score: f64,
    pub moves: u64,
    /// The player's time as the judge counted it.
    pub time: Duration,
    pub verdict: Verdict,
    pub metrics: Vec<Metric>,
    /// An in-process player's CPU account (see [`crate::cpu`]); `None` for programs.
    pub cpu: Option<CpuAccount>,
    /// A program's peak memory, its processes together, in KiB ([`crate::usage`]); `None` for
    /// an in-process player.
    pub max_rss_kib: Option<u64>,
}

/// Scores print as integers when they are integers (most games), else with up to three
/// decimals (a median of two integers prints as `620.5`).
pub fn format_score(score: f64) -> String {
    if score.fract() == 0.0 && score.abs() < 1e15 {
        format!("{score:.0}")
    } else {
        // A score just off an integer (polyomino's 142403.0004) rounds to `142403.000`: its
        // dot goes with the zeros.
        let text = format!("{score:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_ids_display_as_tables_show_them() {
        assert_eq!(CaseId::seed(17).to_string(), "17");
        assert_eq!(CaseId::in_group(6, 17).to_string(), "g6:17");
        assert_eq!(CaseId::named("g6-1", Some(6), 12).to_string(), "g6-1");
    }

    #[test]
    fn scores_print_without_trailing_zeros_or_dot() {
        assert_eq!(format_score(620.0), "620");
        assert_eq!(format_score(620.5), "620.5");
        assert_eq!(format_score(12.34567), "12.346");
        assert_eq!(format_score(142403.0004), "142403");
    }
}
