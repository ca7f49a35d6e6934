//! Drives a player through a Linez case under the contest's rules: the player sees the board
//! and the next three colours, answers a move, and the judge applies it and spawns. An invalid
//! move, a crash or a timeout ends the game with the points scored so far (the statement's
//! rule), and the verdict says why.

use std::time::Duration;

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, PlayConfig, SolveFn, Verdict, play_with_player,
};

use crate::ai;
use crate::generator::LinezCase;
use crate::protocol::{format_observation, parse_move};
use crate::rules::{Bits, Cell, Color, Move, PREVIEW_LEN, State, Turn};
use crate::vis;

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
        self.play_recorded(case, config, None)
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Option<Recording> {
        let mut steps = Vec::new();
        let outcome = self.play_recorded(case, config, Some(&mut steps));
        let start = LinezCase::new(case.seed).initial_state();
        Some(vis::recording(outcome, config, &start, &steps))
    }

    fn viewer(&self) -> Option<Viewer> {
        Some(vis::VIEWER)
    }

    fn solver(&self) -> SolveFn {
        ai::speak_protocol
    }
}

impl Linez {
    fn play_recorded(
        &self,
        case: &CaseId,
        config: &PlayConfig,
        steps: Option<&mut Vec<Step>>,
    ) -> CaseOutcome {
        let seed = case.seed;
        let (state, verdict, time) = play_with_player(
            self.name(),
            case,
            config,
            ai::speak_protocol,
            |endpoint| run_game(seed, endpoint, steps),
            || LinezCase::new(seed).initial_state(),
        );
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
}

/// One step of a game as a replay shows it: a move (or a pass) and what followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// `None` when the player had to pass (an empty board).
    pub mv: Option<Move>,
    /// Balls the move removed.
    pub cleared: Bits,
    /// The balls spawned after the move, in preview order (none after a clearing move).
    pub spawned: Vec<(Cell, Color)>,
    /// Balls removed by the lines the spawn completed.
    pub spawn_cleared: Bits,
    /// The preview after the step.
    pub preview: [Color; PREVIEW_LEN],
    pub score: u64,
}

/// Plays the case to its end or to the player's first failure; returns the final state and
/// the verdict. With `steps`, every step is recorded there.
pub fn run_game(
    seed: u64,
    endpoint: &mut Endpoint,
    mut steps: Option<&mut Vec<Step>>,
) -> (State, Verdict) {
    let mut case = LinezCase::new(seed);
    let mut state = case.initial_state();
    let verdict = loop {
        if state.is_over() {
            break Verdict::Ok;
        }
        let before = state.board;
        let mut step = Step {
            mv: None,
            cleared: Bits::NONE,
            spawned: Vec::new(),
            spawn_cleared: Bits::NONE,
            preview: state.preview,
            score: state.score,
        };
        let spawn_due = if state.must_pass() {
            true
        } else {
            match exchange(&mut state, endpoint) {
                Ok((mv, turn)) => {
                    step.mv = Some(mv);
                    let mut expected = before.occupied();
                    expected.remove(mv.from);
                    expected.insert(mv.to);
                    step.cleared = expected - state.board.occupied();
                    turn == Turn::SpawnDue
                }
                Err(verdict) => break verdict,
            }
        };
        if spawn_due {
            let preview = state.preview;
            let before_spawn = state.board.occupied();
            let spawn = case.spawn(&mut state);
            let mut placed = Bits::NONE;
            for (cell, color) in spawn.cells.iter().zip(preview) {
                if let Some(cell) = *cell {
                    step.spawned.push((cell, color));
                    placed.insert(cell);
                }
            }
            let with_spawn = before_spawn | placed;
            step.spawn_cleared = with_spawn - state.board.occupied();
        }
        step.preview = state.preview;
        step.score = state.score;
        if let Some(steps) = steps.as_deref_mut() {
            steps.push(step);
        }
    };
    (state, verdict)
}

/// One observation and one move.
fn exchange(state: &mut State, endpoint: &mut Endpoint) -> Result<(Move, Turn), Verdict> {
    endpoint
        .send(&format_observation(&state.board, &state.preview))
        .map_err(Verdict::from)?;
    let line = endpoint.receive_line().map_err(Verdict::from)?;
    let invalid = |reason: String| Verdict::invalid(&line, reason);
    let mv = parse_move(&line).map_err(|e| invalid(e.to_string()))?;
    let turn = state.play(mv).map_err(|e| invalid(e.to_string()))?;
    Ok((mv, turn))
}
