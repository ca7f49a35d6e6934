//! The face every game crate shows the runner and the CLI.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::case::{CaseId, CaseOutcome, PlayConfig, PlayerSpec, SolveConfig};
use crate::clock::ClockKind;
use crate::endpoint::{Endpoint, Limits, StderrMode};
use crate::env::{Environment, Turn};
use crate::in_play::{CaseInPlay, InPlay, Refusal};
use crate::legend::Legend;
use crate::replay::{Recording, Viewer};
use crate::rng::FastRng;
use crate::settings::{Setting, Settings};
use crate::space::{Field, Spaces};
use crate::spec::{GameSpec, Solve, Started};
use crate::verdict::Verdict;

/// A game as the CLI, the runner and the tests see it, whatever its environment: implemented
/// once, for every [`GameSpec`], so that `&dyn Game` can list the games.
pub trait Game: Sync {
    /// The name used on the command line (`linez`).
    fn name(&self) -> &'static str;
    /// Built-in player names; the first is the default.
    fn players(&self) -> &'static [&'static str];
    /// The contest's time limit per case.
    fn default_time_limit(&self) -> Duration;
    /// The clock the contest counted its time limit on.
    fn default_clock(&self) -> ClockKind;
    /// The contest's memory limit in MiB, if it has one.
    fn default_memory_limit(&self) -> Option<u64>;
    /// Whether a higher score is better (the runner's relative scores depend on it).
    fn maximize(&self) -> bool;
    /// A reply that ends a game at once and validly, if the protocol has one.
    fn final_reply(&self) -> Option<&'static str>;
    /// The metric holding the moves' points alone, for a game whose score counts time.
    fn untimed_score(&self) -> Option<&'static str>;
    /// Whether the listed settings are only where each case's tuned values start.
    fn settings_tuned_per_case(&self) -> bool;
    /// Whether the game exists to test marathon itself (see [`GameSpec::FOR_TESTS`]).
    fn for_tests(&self) -> bool;
    /// The points of a finished case without the player's time: the score, or the
    /// [`Game::untimed_score`] metric where the score counts time.
    fn points(&self, outcome: &CaseOutcome) -> f64 {
        self.untimed_score()
            .and_then(|name| outcome.metrics.iter().find(|m| m.name == name))
            .map_or(outcome.score, |m| m.value)
    }
    /// The case groups `--group` accepts, if the game has groups, and the default group.
    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)>;
    /// The contest's official cases (`--official`), if the game has them.
    fn official_cases(&self) -> Vec<CaseId>;
    /// The names of the parameters every case shows (`N`, `S`, `D`), in the tables' order.
    fn params(&self) -> &'static [&'static str];
    /// What the game's tables show and its players are, in words, and each figure's decimals.
    fn legend(&self) -> &'static Legend;
    /// Built-in player `player`'s settings with `given` applied (`--set`): every setting's
    /// name, value and meaning, or what is wrong with `given`.
    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String>;
    /// What a program reads of the case before its first reply, in the protocol's text; an
    /// error says what is wrong with the case id.
    fn generate(&self, case: &CaseId) -> Result<String, String>;
    /// Plays one case through the judge. Never panics on a misbehaving player; an error only
    /// for what the caller asked wrongly (a case the game does not have, a built-in player's
    /// bad settings), before any player starts.
    fn play(&self, case: &CaseId, config: &PlayConfig) -> Result<CaseOutcome, PlayError>;
    /// Plays one case like [`Game::play`] and records it for a replay page.
    fn record(&self, case: &CaseId, config: &PlayConfig) -> Result<Recording, PlayError>;
    /// The game's half of a replay page.
    fn viewer(&self) -> Viewer;
    /// Runs a built-in player speaking the protocol on `input`/`output` (in-process players
    /// and `marathon solve` both run it).
    fn solve(
        &self,
        config: &SolveConfig,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<()>;
    /// The case played by a uniformly random legal player seeded with `seed`, for at most
    /// `max_steps` of its decisions, written out: every message the judge would write, every
    /// reply, and the score after each step (a golden playthrough). An error says which step
    /// went wrong.
    fn playthrough(&self, case: &CaseId, seed: u64, max_steps: usize) -> Result<String, String>;
    /// Plays `replies` (a program's reply lines) through the case's environment, apart from the
    /// judge; returns where the game stands after them, or why a reply was refused.
    fn replay(&self, case: &CaseId, replies: &[String]) -> Result<Replayed, String>;
    /// The size of the game's action space (every case's, see [`crate::space::Spaces`]).
    fn action_count(&self) -> usize;
    /// The arrays of the game's observations.
    fn fields(&self) -> &'static [Field];
    /// The case at the player's first decision, to be played by any driver ([`CaseInPlay`]);
    /// with `record`, its replay is kept. An error says what is wrong with the case id.
    fn start(&self, case: &CaseId, record: bool) -> Result<Box<dyn CaseInPlay>, PlayError>;
    /// The player's side of a new game, if the game has one ([`crate::Follower`]).
    fn follower(&self) -> Option<Box<dyn crate::Follower>>;
}

/// What a caller asked wrongly of [`Game::play`] (a usage error, not a player's failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The case id names no case of the game: the id and why.
    NoSuchCase { case: String, reason: String },
    /// The built-in player cannot start with the settings given: why.
    Settings(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::NoSuchCase { case, reason } => write!(f, "no such case {case}: {reason}"),
            PlayError::Settings(reason) => write!(f, "cannot start the player: {reason}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl PlayError {
    fn no_such_case(case: &CaseId, reason: String) -> Self {
        PlayError::NoSuchCase {
            case: case.to_string(),
            reason,
        }
    }
}

/// Where a game stands after a program's replies ([`Game::replay`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replayed {
    /// The rules' score (before the contest's rule for failures).
    pub score: f64,
    pub moves: u64,
    /// Whether the game is over.
    pub over: bool,
}

impl<G: GameSpec> Game for G {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn players(&self) -> &'static [&'static str] {
        G::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        G::TIME_LIMIT
    }

    fn default_clock(&self) -> ClockKind {
        G::CLOCK
    }

    fn default_memory_limit(&self) -> Option<u64> {
        G::MEMORY_LIMIT_MIB
    }

    fn maximize(&self) -> bool {
        G::MAXIMIZE
    }

    fn final_reply(&self) -> Option<&'static str> {
        G::FINAL_REPLY
    }

    fn untimed_score(&self) -> Option<&'static str> {
        G::UNTIMED_SCORE
    }

    fn settings_tuned_per_case(&self) -> bool {
        G::SETTINGS_TUNED_PER_CASE
    }

    fn for_tests(&self) -> bool {
        G::FOR_TESTS
    }

    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        GameSpec::groups(self)
    }

    fn official_cases(&self) -> Vec<CaseId> {
        GameSpec::official_cases(self)
    }

    fn params(&self) -> &'static [&'static str] {
        G::PARAMS
    }

    fn legend(&self) -> &'static Legend {
        G::LEGEND
    }

    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        GameSpec::settings(self, player, given)
    }

    fn generate(&self, case: &CaseId) -> Result<String, String> {
        let mut env = self.environment(case)?;
        env.advance_while_auto(|_, _| {});
        Ok(env.message(None))
    }

    fn play(&self, case: &CaseId, config: &PlayConfig) -> Result<CaseOutcome, PlayError> {
        Ok(play_case(self, case, config, false)?.0)
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Result<Recording, PlayError> {
        let (outcome, start, steps) = play_case(self, case, config, true)?;
        Ok(Recording {
            outcome,
            player: config.player.describe(),
            start,
            steps,
        })
    }

    fn viewer(&self) -> Viewer {
        G::VIEWER
    }

    fn solve(
        &self,
        config: &SolveConfig,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<()> {
        G::SOLVE(config, input, output)
    }

    fn playthrough(&self, case: &CaseId, seed: u64, max_steps: usize) -> Result<String, String> {
        let mut env = self.environment(case)?;
        let mut rng = FastRng::new(seed);
        let mut out = String::new();
        let mut last = None;
        let mut decisions = 0;
        let show = |out: &mut String, env: &G::Env, what: &str, text: &str| {
            for line in text.lines() {
                let _ = writeln!(out, "{what} {line}");
            }
            let _ = writeln!(out, "  score {}", env.score());
        };
        loop {
            env.advance_while_auto(|env, event| {
                // The replay's text of the step: a format the viewers read, not Rust's names.
                let step = self.replay_step(env, event).unwrap_or(Value::Null);
                show(&mut out, env, "auto", &step.to_string());
                last = Some(event.clone());
            });
            if env.turn() == Turn::Over || decisions == max_steps {
                break;
            }
            write_message(&mut out, &env.message(last.as_ref()));
            let legal = env.legal_actions();
            let Some(action) = random_action(&env, &legal, &mut rng) else {
                return Err(format!("step {decisions}: no legal action"));
            };
            let reply = env.format_action(action);
            if env.parse_action(&reply).ok() != Some(action) {
                return Err(format!("step {decisions}: {reply:?} does not read back"));
            }
            let event = env
                .step(action)
                .map_err(|e| format!("step {decisions}: legal {reply:?} refused: {e}"))?;
            show(&mut out, &env, ">", &reply);
            last = Some(event);
            decisions += 1;
        }
        let stands = match env.turn() {
            Turn::Over => "over",
            Turn::Player | Turn::Auto => "going on",
        };
        let _ = writeln!(
            out,
            "end after {decisions} decisions: {stands}, score {}, moves {}",
            env.score(),
            env.moves()
        );
        Ok(out)
    }

    fn replay(&self, case: &CaseId, replies: &[String]) -> Result<Replayed, String> {
        let mut play = InPlay::started(self, case, false)?;
        for (number, reply) in replies.iter().enumerate() {
            play.step_reply(reply).map_err(|refusal| match refusal {
                Refusal::Over => format!("reply {}: {reply:?} after the end", number + 1),
                refusal => format!("reply {}: {reply:?}: {}", number + 1, refusal.reason()),
            })?;
        }
        Ok(Replayed {
            score: play.score(),
            moves: play.moves(),
            over: play.is_over(),
        })
    }

    fn action_count(&self) -> usize {
        G::Env::ACTIONS
    }

    fn fields(&self) -> &'static [Field] {
        G::Env::FIELDS
    }

    fn start(&self, case: &CaseId, record: bool) -> Result<Box<dyn CaseInPlay>, PlayError> {
        match InPlay::started(self, case, record) {
            Ok(play) => Ok(Box::new(play)),
            Err(reason) => Err(PlayError::no_such_case(case, reason)),
        }
    }

    fn follower(&self) -> Option<Box<dyn crate::Follower>> {
        GameSpec::follower(self)
    }
}

/// A message as a playthrough shows it: every line behind `< `, or for a long one (a polyomino
/// board) its first lines, its length and a digest of the whole.
pub fn write_message(out: &mut String, message: &str) {
    const SHOWN: usize = 12;
    let lines: Vec<&str> = message.lines().collect();
    for line in lines
        .iter()
        .take(if lines.len() > SHOWN { 3 } else { SHOWN })
    {
        let _ = writeln!(out, "< {line}");
    }
    if lines.len() > SHOWN {
        let digest = <sha1::Sha1 as sha1::Digest>::digest(message.as_bytes());
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        let _ = writeln!(out, "< ... {} lines in all, sha1 {hex}", lines.len());
    }
}

/// A uniformly random action of `legal`, but one that ends the game (`GIVE UP`, `DONE`, `0 0`)
/// only when a few draws found nothing else: a random player that stopped at once would show
/// little of the game.
fn random_action<E: Environment>(
    env: &E,
    legal: &[E::Action],
    rng: &mut FastRng,
) -> Option<E::Action> {
    let count = u32::try_from(legal.len()).unwrap_or(u32::MAX);
    let mut action = None;
    for _ in 0..8 {
        let candidate = *legal.get(rng.below(count) as usize)?;
        action = Some(candidate);
        let mut trial = env.clone();
        let ends = trial.step(candidate).is_ok() && trial.turn() == Turn::Over;
        if !ends {
            break;
        }
    }
    action
}

/// Plays `case` with the player of `config` through the judge ([`CaseInPlay::judge`]), its
/// replay kept with `record`; returns the outcome and the replay's start and steps.
fn play_case<G: GameSpec>(
    game: &G,
    case: &CaseId,
    config: &PlayConfig,
    record: bool,
) -> Result<(CaseOutcome, Value, Vec<Value>), PlayError> {
    // The game's contest decides the clock and the memory limit the configuration leaves open.
    let config = &config.resolved(G::CLOCK, G::MEMORY_LIMIT_MIB);
    let mut play =
        InPlay::new(game, case, record).map_err(|reason| PlayError::no_such_case(case, reason))?;
    if let PlayerSpec::Builtin(name) = &config.player {
        game.settings(name, &config.settings)
            .map_err(PlayError::Settings)?;
    }
    let finish = |play: &InPlay<G>, time: Duration| {
        let start = play.replay_start().cloned().unwrap_or(Value::Null);
        (play.outcome(time), start, play.replay_steps().to_vec())
    };
    let started = match &config.player {
        PlayerSpec::Builtin(_) => game.start_builtin(play.env(), config),
        PlayerSpec::Exec(_) => None,
    };
    let started = started.unwrap_or_else(|| {
        start_player(G::NAME, case, config, G::SOLVE).map(|endpoint| Started {
            endpoint,
            report: Box::new(Vec::new),
        })
    });
    Ok(match started {
        Ok(Started {
            mut endpoint,
            report,
        }) => {
            let verdict = play.judge(&mut endpoint);
            // A peak between the last two readings still fails a game that went well.
            if verdict.is_ok()
                && let Err(failure) = endpoint.final_memory_check()
            {
                play.end(failure.into());
            }
            let time = endpoint.time_used();
            let max_rss_kib = endpoint.peak_memory_kib();
            let cpu = endpoint.close();
            let (mut outcome, start, steps) = finish(&play, time);
            outcome.metrics.extend(report());
            outcome.cpu = cpu;
            outcome.max_rss_kib = max_rss_kib;
            (outcome, start, steps)
        }
        // A program that cannot be started (no such file, no processes left) is the player's
        // failure, as a crash at its first reply would be.
        Err(e) => {
            play.end(Verdict::Crash {
                detail: format!("cannot start the player: {e}"),
            });
            finish(&play, Duration::ZERO)
        }
    })
}

/// Starts the case's player: the external program of `config` (its stderr prefixed with
/// `[game seed N]` or `[game CASE]` unless quiet), or a built-in player running `solve` on a thread, reached
/// through the same pipes.
pub fn start_player(
    game: &str,
    case: &CaseId,
    config: &PlayConfig,
    solve: impl FnOnce(&SolveConfig, &mut dyn BufRead, &mut dyn Write) -> io::Result<()>
    + Send
    + 'static,
) -> io::Result<Endpoint> {
    match &config.player {
        PlayerSpec::Exec(command) => {
            let stderr = if config.quiet {
                StderrMode::Discard
            } else {
                let plain_seed = case.name.is_none() && case.group.is_none();
                let what = if plain_seed { "seed " } else { "" };
                StderrMode::Prefixed(format!("[{game} {what}{case}] "))
            };
            Endpoint::spawn_process_in(command, config.limits(), stderr, config.sandbox.as_deref())
        }
        PlayerSpec::Builtin(name) => {
            let solve_config = config.solve_config(name);
            Endpoint::spawn_thread(config.limits(), move |input, output| {
                solve(&solve_config, input, output)
            })
        }
    }
}

/// Everything a player wrote, kept by [`spawn_recorded_player`].
#[derive(Clone, Debug, Default)]
pub struct Transcript(Arc<Mutex<Vec<u8>>>);

impl Transcript {
    /// The lines written so far (lossy UTF-8; a built-in player writes text).
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// Passes writes through and keeps a copy.
struct Tee<'a> {
    inner: &'a mut dyn Write,
    copy: Transcript,
}

impl Write for Tee<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.copy
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A built-in player on a thread, as the judge runs it, with a transcript of its replies: tests
/// replay them under the rules, independently of the judge.
pub fn spawn_recorded_player(
    config: SolveConfig,
    solve: Solve,
) -> io::Result<(Endpoint, Transcript)> {
    let transcript = Transcript::default();
    let copy = transcript.clone();
    let limits = Limits::new(config.time_limit, config.clock, None);
    let endpoint = Endpoint::spawn_thread(limits, move |input, output| {
        let mut tee = Tee {
            inner: output,
            copy,
        };
        solve(&config, input, &mut tee)
    })?;
    Ok((endpoint, transcript))
}
