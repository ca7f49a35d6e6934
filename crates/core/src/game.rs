//! The face every game crate shows the runner and the CLI.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::case::{CaseId, CaseOutcome, Metric, PlayConfig, PlayerSpec, SolveConfig};
use crate::clock::ClockKind;
use crate::endpoint::{Endpoint, Limits, StderrMode};
use crate::env::{self, Environment, Turn};
use crate::legend::Legend;
use crate::replay::{Recording, Viewer};
use crate::rng::FastRng;
use crate::settings::{Setting, Settings};
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
    /// Plays one case through the judge. Never panics on a misbehaving player.
    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome;
    /// Plays one case like [`Game::play`] and records it for a replay page.
    fn record(&self, case: &CaseId, config: &PlayConfig) -> Recording;
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

/// What a game crate provides: its facts, its environment, how its result is scored, its
/// built-in players and its replay viewer. Core turns every `GameSpec` into a [`Game`] (the
/// face the CLI and the runner see) with one implementation of playing, recording, generating
/// and solving, so that the game loop exists once ([`crate::env::judge`]).
pub trait GameSpec: Clone + Send + Sync + 'static {
    type Env: Environment;

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

    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome {
        play_case(self, case, config, |_, _| {}).0
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Recording {
        let mut steps = Vec::new();
        let (outcome, start) = play_case(self, case, config, |env, event| {
            steps.extend(self.replay_step(env, event));
        });
        Recording {
            outcome,
            player: config.player.describe(),
            start,
            steps,
        }
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
                show(&mut out, env, "auto", &format!("{event:?}"));
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
        let _ = writeln!(
            out,
            "end after {decisions} decisions: {:?}, score {}, moves {}",
            env.turn(),
            env.score(),
            env.moves()
        );
        Ok(out)
    }

    fn replay(&self, case: &CaseId, replies: &[String]) -> Result<Replayed, String> {
        let mut env = self.environment(case)?;
        for (number, reply) in replies.iter().enumerate() {
            env.advance_while_auto(|_, _| {});
            if env.turn() != Turn::Player {
                return Err(format!("reply {}: {reply:?} after the end", number + 1));
            }
            let action = env
                .parse_action(reply)
                .map_err(|e| format!("reply {}: {reply:?}: {e}", number + 1))?;
            env.step(action)
                .map_err(|e| format!("reply {}: {reply:?}: {e}", number + 1))?;
        }
        env.advance_while_auto(|_, _| {});
        Ok(Replayed {
            score: env.score(),
            moves: env.moves(),
            over: env.turn() == Turn::Over,
        })
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

/// Plays `case` with the player of `config` through the judge ([`crate::env::judge`]);
/// `seen` gets every event. Returns the outcome and the replay's start.
fn play_case<G: GameSpec>(
    game: &G,
    case: &CaseId,
    config: &PlayConfig,
    mut seen: impl FnMut(&G::Env, &<G::Env as Environment>::Event),
) -> (CaseOutcome, Value) {
    let outcome = |env: &G::Env, verdict: Verdict, time: Duration| {
        let scored = game.score(case, env, &verdict, time);
        CaseOutcome {
            game: G::NAME,
            case: case.clone(),
            params: scored.params,
            score: scored.score,
            moves: env.moves(),
            time,
            verdict,
            metrics: scored.metrics,
            cpu: None,
            max_rss_kib: None,
        }
    };
    // The game's contest decides the clock and the memory limit the configuration leaves open.
    let config = &config.resolved(G::CLOCK, G::MEMORY_LIMIT_MIB);
    let mut env = match game.environment(case) {
        Ok(env) => env,
        // The CLI checks case ids first; a library caller gets the reason as the verdict.
        Err(detail) => {
            let outcome = CaseOutcome {
                game: G::NAME,
                case: case.clone(),
                params: Vec::new(),
                score: 0.0,
                moves: 0,
                time: Duration::ZERO,
                verdict: Verdict::Crash {
                    detail: format!("no such case: {detail}"),
                },
                metrics: Vec::new(),
                cpu: None,
                max_rss_kib: None,
            };
            return (outcome, Value::Null);
        }
    };
    let start = game.replay_start(&env);
    // The CLI checks a built-in player's settings first; a library caller gets the reason.
    if let PlayerSpec::Builtin(name) = &config.player
        && let Err(detail) = game.settings(name, &config.settings)
    {
        let verdict = Verdict::Crash {
            detail: format!("cannot start the player: {detail}"),
        };
        return (outcome(&env, verdict, Duration::ZERO), start);
    }
    let started = match &config.player {
        PlayerSpec::Builtin(_) => game.start_builtin(&env, config),
        PlayerSpec::Exec(_) => None,
    };
    let started = started.unwrap_or_else(|| {
        start_player(G::NAME, case, config, G::SOLVE).map(|endpoint| Started {
            endpoint,
            report: Box::new(Vec::new),
        })
    });
    match started {
        Ok(Started {
            mut endpoint,
            report,
        }) => {
            let mut verdict = env::judge(&mut env, &mut endpoint, &mut seen);
            // A peak between the last two readings still fails a game that went well.
            if verdict.is_ok()
                && let Err(failure) = endpoint.final_memory_check()
            {
                verdict = failure.into();
            }
            let time = endpoint.time_used();
            let max_rss_kib = endpoint.peak_memory_kib();
            let cpu = endpoint.close();
            let mut outcome = outcome(&env, verdict, time);
            outcome.metrics.extend(report());
            outcome.cpu = cpu;
            outcome.max_rss_kib = max_rss_kib;
            (outcome, start)
        }
        Err(e) => {
            let verdict = Verdict::Crash {
                detail: format!("cannot start the player: {e}"),
            };
            (outcome(&env, verdict, Duration::ZERO), start)
        }
    }
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
