//! A Linez case in play: the state under the rules and the case's chance stream, stepped by
//! moves. The judge, replays, tests and tuners all drive it (`marathon_core::env`).

use marathon_core::env::{Environment, Turn};

use crate::generator::LinezCase;
use crate::protocol::{MoveParseError, format_move, format_observation, parse_move};
use crate::rules::{Bits, Cell, Color, IllegalMove, Move, PREVIEW_LEN, State, Turn as MoveTurn};

/// A case of Linez from its start.
#[derive(Clone, Debug)]
pub struct LinezEnv {
    case: LinezCase,
    state: State,
}

/// One step as a replay shows it: a move (or a forced pass) and what followed.
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

impl LinezEnv {
    /// The case of `seed` at its start.
    pub fn new(seed: u64) -> Self {
        let mut case = LinezCase::new(seed);
        let state = case.initial_state();
        LinezEnv { case, state }
    }

    /// What the player sees and has done: board, preview, score and moves.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Spawns the preview and records it in `step`.
    fn spawn(&mut self, step: &mut Step) {
        let preview = self.state.preview;
        let before = self.state.board.occupied();
        let spawn = self.case.spawn(&mut self.state);
        let mut placed = Bits::NONE;
        for (cell, color) in spawn.cells.iter().zip(preview) {
            if let Some(cell) = *cell {
                step.spawned.push((cell, color));
                placed.insert(cell);
            }
        }
        step.spawn_cleared = (before | placed) - self.state.board.occupied();
    }

    fn finish(&self, mut step: Step) -> Step {
        step.preview = self.state.preview;
        step.score = self.state.score;
        step
    }
}

impl Environment for LinezEnv {
    type Action = Move;
    type Event = Step;
    type ParseError = MoveParseError;
    type RuleError = IllegalMove;

    fn turn(&self) -> Turn {
        if self.state.is_over() {
            Turn::Over
        } else if self.state.must_pass() {
            Turn::Auto
        } else {
            Turn::Player
        }
    }

    /// The forced pass: the preview spawns without a move.
    fn advance(&mut self) -> Step {
        let mut step = empty_step();
        self.spawn(&mut step);
        self.finish(step)
    }

    fn step(&mut self, mv: Move) -> Result<Step, IllegalMove> {
        let before = self.state.board.occupied();
        let turn = self.state.play(mv)?;
        let mut step = empty_step();
        step.mv = Some(mv);
        let mut expected = before;
        expected.remove(mv.from);
        expected.insert(mv.to);
        step.cleared = expected - self.state.board.occupied();
        if turn == MoveTurn::SpawnDue {
            self.spawn(&mut step);
        }
        Ok(self.finish(step))
    }

    fn legal_actions(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.turn() == Turn::Player {
            self.state.board.for_each_legal_move(|mv| moves.push(mv));
        }
        moves
    }

    fn message(&self, _last: Option<&Step>) -> String {
        format_observation(&self.state.board, &self.state.preview)
    }

    fn parse_action(&self, line: &str) -> Result<Move, MoveParseError> {
        parse_move(line)
    }

    fn format_action(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn score(&self) -> f64 {
        self.state.score as f64
    }

    fn moves(&self) -> u64 {
        self.state.moves
    }
}

fn empty_step() -> Step {
    Step {
        mv: None,
        cleared: Bits::NONE,
        spawned: Vec::new(),
        spawn_cleared: Bits::NONE,
        preview: [0; PREVIEW_LEN],
        score: 0,
    }
}
