//! Drives a player through a Linez case under the contest's rules: the player sees the board
//! and the next three colours, answers a move, and the judge applies it and spawns. An invalid
//! move, a crash or a timeout ends the game with the points scored so far (the statement's
//! rule), and the verdict says why.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, PlayConfig, SolveConfig, Verdict, start_player,
};

use crate::ai;
use crate::generator::LinezCase;
use crate::protocol::{format_observation, parse_move};
use crate::rules::{State, Turn};

/// The contest's limit: 20 s of the solution's time per case.
pub const TIME_LIMIT: Duration = Duration::from_secs(20);

pub struct Linez;

/// The game as the CLI and the runner see it.
pub static LINEZ: Linez = Linez;

impl Game for Linez {
    fn name(&self) -> &'static str {
        "linez"
    }

    fn players(&self) -> &'static [&'static str] {
        ai::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        TIME_LIMIT
    }

    fn generate(&self, case: &CaseId) -> String {
        let state = LinezCase::new(case.seed).initial_state();
        format_observation(&state.board, &state.preview)
    }

    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome {
        let seed = case.seed;
        let (state, verdict, time) =
            match start_player(self.name(), case, config, ai::speak_protocol) {
                Ok(mut endpoint) => {
                    let (state, verdict) = run_game(seed, &mut endpoint);
                    let time = endpoint.time_used();
                    endpoint.close();
                    (state, verdict, time)
                }
                Err(e) => (
                    LinezCase::new(seed).initial_state(),
                    Verdict::Crash {
                        detail: format!("cannot start the player: {e}"),
                    },
                    Duration::ZERO,
                ),
            };
        CaseOutcome {
            game: self.name(),
            case: case.clone(),
            params: Vec::new(),
            score: state.score as f64,
            moves: state.moves,
            time,
            verdict,
            metrics: Vec::new(),
        }
    }

    fn solve(
        &self,
        config: &SolveConfig,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<()> {
        ai::speak_protocol(config, input, output)
    }
}

/// Plays the case to its end or to the player's first failure; returns the final state and
/// the verdict.
pub fn run_game(seed: u64, endpoint: &mut Endpoint) -> (State, Verdict) {
    let mut case = LinezCase::new(seed);
    let mut state = case.initial_state();
    let verdict = loop {
        if state.is_over() {
            break Verdict::Ok;
        }
        if state.must_pass() {
            case.spawn(&mut state);
            continue;
        }
        match exchange(&mut state, endpoint) {
            Ok(Turn::SpawnDue) => {
                case.spawn(&mut state);
            }
            Ok(Turn::Cleared { .. }) => {}
            Err(verdict) => break verdict,
        }
    };
    (state, verdict)
}

/// One observation and one move.
fn exchange(state: &mut State, endpoint: &mut Endpoint) -> Result<Turn, Verdict> {
    endpoint
        .send(&format_observation(&state.board, &state.preview))
        .map_err(Verdict::from)?;
    let line = endpoint.receive_line().map_err(Verdict::from)?;
    let invalid = |reason: String| Verdict::Invalid {
        line: line.clone(),
        reason,
    };
    let mv = parse_move(&line).map_err(|e| invalid(e.to_string()))?;
    state.play(mv).map_err(|e| invalid(e.to_string()))
}
