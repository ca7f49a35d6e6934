//! Drives player 1 through a MultiplayerReversi case: the judge plays the computer opponents
//! in-process with their evolved strategies, sends the board to player 1 on each of its turns
//! (skipping it when it has no move) and applies its reply. An illegal or malformed move, a
//! crash or a timeout ends the game and scores 0 (docs/rules.md#reversi-time-and-failures); the
//! verdict says why.
//!
//! The `oracle` player knows the opponents' true weights: the judge builds it itself on a
//! thread with the case's strategies (behind the same pipes as every player), since no program
//! started from the command line could know them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, Metric, PlayConfig, PlayerSpec, SolveConfig, SolveFn,
    Verdict, play_with_endpoint, start_player,
};

use crate::ai::{self, Predictions};
use crate::generator::{self, ReversiCase};
use crate::protocol::{format_observation, parse_move};
use crate::rules::{Bits, Cell, IllegalMove, Player, State};
use crate::vis;

/// The contest's limit: 30 s of the solution's time per case.
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

pub struct Reversi;

/// The game as the CLI and the runner see it.
pub static REVERSI: Reversi = Reversi;

impl Game for Reversi {
    fn name(&self) -> &'static str {
        "reversi"
    }

    fn players(&self) -> &'static [&'static str] {
        ai::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        TIME_LIMIT
    }

    /// The first observation: the start board (it needs only the size, not the opponents).
    fn generate(&self, case: &CaseId) -> String {
        format_observation(&State::new(generator::size_of(case.seed)).board)
    }

    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome {
        self.play_recorded(case, config, None)
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Option<Recording> {
        let mut steps = Vec::new();
        let outcome = self.play_recorded(case, config, Some(&mut steps));
        let start = State::new(generator::size_of(case.seed));
        Some(vis::recording(outcome, config, &start, &steps))
    }

    fn viewer(&self) -> Option<Viewer> {
        Some(vis::VIEWER)
    }

    fn solver(&self) -> SolveFn {
        ai::speak_protocol
    }
}

impl Reversi {
    fn play_recorded(
        &self,
        case: &CaseId,
        config: &PlayConfig,
        steps: Option<&mut Vec<Step>>,
    ) -> CaseOutcome {
        let reversi = generator::generate(case.seed);
        let predictions = Arc::new(Mutex::new(Predictions::default()));
        let started = match &config.player {
            PlayerSpec::Builtin(name) if name == ai::ORACLE => {
                ai::spawn_oracle(&reversi, config.time_limit, config.effort)
            }
            PlayerSpec::Builtin(name) => ai::spawn_reporting(
                SolveConfig {
                    player: name.clone(),
                    time_limit: config.time_limit,
                    effort: config.effort,
                },
                Arc::clone(&predictions),
            ),
            PlayerSpec::Exec(_) => start_player(self.name(), case, config, ai::speak_protocol),
        };
        let ((state, moves), verdict, time) = play_with_endpoint(
            started,
            |endpoint| {
                let (state, verdict, moves) = run_game(&reversi, endpoint, steps);
                ((state, moves), verdict)
            },
            || (reversi.initial_state(), 0),
        );
        let mut outcome = outcome(self.name(), case, &reversi, &state, verdict, time, moves);
        let predictions = *predictions.lock().unwrap_or_else(|e| e.into_inner());
        if predictions.total > 0 {
            outcome.metrics.push(Metric {
                name: "predicted",
                value: predictions.rate(),
            });
        }
        outcome
    }
}

/// The outcome of a finished (or failed) game: score 0 unless the verdict is ok
/// (docs/rules.md#reversi-time-and-failures).
pub fn outcome(
    game: &'static str,
    case: &CaseId,
    reversi: &ReversiCase,
    state: &State,
    verdict: Verdict,
    time: Duration,
    moves: u64,
) -> CaseOutcome {
    let owned = state.board.count(1);
    let score = if verdict.is_ok() { state.score() } else { 0.0 };
    CaseOutcome {
        game,
        case: case.clone(),
        params: vec![
            ("N", reversi.size.to_string()),
            ("P", reversi.players.to_string()),
        ],
        score,
        moves,
        time,
        verdict,
        metrics: vec![Metric {
            name: "owned",
            value: owned as f64,
        }],
    }
}

/// One move as a replay shows it: who played where, and the pieces it flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub player: Player,
    pub cell: Cell,
    pub flipped: Bits,
}

/// Plays the case to its end or to player 1's first failure; returns the final state, the
/// verdict and player 1's moves. With `steps`, every move (of every player) is recorded there.
pub fn run_game(
    case: &ReversiCase,
    endpoint: &mut Endpoint,
    mut steps: Option<&mut Vec<Step>>,
) -> (State, Verdict, u64) {
    let mut state = case.initial_state();
    let mut moves = 0;
    let verdict = loop {
        let (player, cell, flipped) = match state.to_move {
            None => break Verdict::Ok,
            Some(1) => match exchange(&mut state, endpoint) {
                Ok((cell, flipped)) => {
                    moves += 1;
                    (1, cell, flipped)
                }
                Err(verdict) => break verdict,
            },
            Some(player) => {
                let cell = case
                    .opponent_move(&state.board, player)
                    .expect("the player to move has a legal move");
                (player, cell, state.play_unchecked(cell))
            }
        };
        if let Some(steps) = steps.as_deref_mut() {
            steps.push(Step {
                player,
                cell,
                flipped,
            });
        }
    };
    (state, verdict, moves)
}

/// One observation and player 1's move; returns where it played and what it flipped.
fn exchange(state: &mut State, endpoint: &mut Endpoint) -> Result<(Cell, Bits), Verdict> {
    endpoint
        .send(&format_observation(&state.board))
        .map_err(Verdict::from)?;
    let line = endpoint.receive_line().map_err(Verdict::from)?;
    let invalid = |reason: String| Verdict::invalid(&line, reason);
    let mv = parse_move(&line).map_err(|e| invalid(e.to_string()))?;
    let cell = mv.cell(&state.board).ok_or_else(|| {
        invalid(
            IllegalMove::OffBoard {
                col: mv.col,
                row: mv.row,
                size: state.board.size(),
            }
            .to_string(),
        )
    })?;
    let flipped = state.play(cell).map_err(|e| invalid(e.to_string()))?;
    Ok((cell, flipped))
}
