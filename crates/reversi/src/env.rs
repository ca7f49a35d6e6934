//! A MultiplayerReversi case in play: the board under the rules and the case's computer
//! opponents, who move by themselves between player 1's turns. The judge, replays, tests and
//! tuners all drive it (`marathon_core::env`).

use std::sync::Arc;

use marathon_core::env::{Environment, Turn};

use crate::generator::{self, ReversiCase};
use crate::protocol::{MoveParseError, MoveText, format_move, format_observation, parse_move};
use crate::rules::{Bits, Cell, IllegalMove, Player, State};

/// A case of MultiplayerReversi from its start, player 1 being the one who decides.
#[derive(Clone, Debug)]
pub struct ReversiEnv {
    /// The case, opponents' strategies included (hidden from player 1), shared between clones.
    case: Arc<ReversiCase>,
    state: State,
    /// Player 1's moves so far.
    moves: u64,
}

/// One move of any player as a replay shows it: who played where, and the pieces it flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub player: Player,
    pub cell: Cell,
    pub flipped: Bits,
}

impl ReversiEnv {
    /// The case of `seed` (its opponents evolved as the generator defines) at its start.
    pub fn new(seed: u64) -> Self {
        Self::of_case(Arc::new(generator::generate(seed)))
    }

    /// The game of `case` at its start.
    pub fn of_case(case: Arc<ReversiCase>) -> Self {
        ReversiEnv {
            state: case.initial_state(),
            case,
            moves: 0,
        }
    }

    /// The case, with what player 1 is not told (the opponents' strategies).
    pub fn case(&self) -> &Arc<ReversiCase> {
        &self.case
    }

    /// The board and whose turn it is.
    pub fn state(&self) -> &State {
        &self.state
    }
}

impl Environment for ReversiEnv {
    /// A move as player 1 wrote it (checked against the board by [`Environment::step`]).
    type Action = MoveText;
    type Event = Step;
    type ParseError = MoveParseError;
    type RuleError = IllegalMove;

    fn turn(&self) -> Turn {
        match self.state.to_move {
            None => Turn::Over,
            Some(1) => Turn::Player,
            Some(_) => Turn::Auto,
        }
    }

    /// A computer opponent's move.
    fn advance(&mut self) -> Step {
        let player = self.state.to_move.expect("an opponent is to move");
        let cell = self
            .case
            .opponent_move(&self.state.board, player)
            .expect("the player to move has a legal move");
        let flipped = self.state.play_unchecked(cell);
        Step {
            player,
            cell,
            flipped,
        }
    }

    fn step(&mut self, mv: MoveText) -> Result<Step, IllegalMove> {
        let board = &self.state.board;
        let cell = mv.cell(board).ok_or(IllegalMove::OffBoard {
            col: mv.col,
            row: mv.row,
            size: board.size(),
        })?;
        let flipped = self.state.play(cell)?;
        self.moves += 1;
        Ok(Step {
            player: 1,
            cell,
            flipped,
        })
    }

    fn legal_actions(&self) -> Vec<MoveText> {
        if self.turn() != Turn::Player {
            return Vec::new();
        }
        self.state
            .board
            .legal_moves(1)
            .iter()
            .map(|cell| MoveText {
                col: cell.col(),
                row: cell.row(),
            })
            .collect()
    }

    fn message(&self, _last: Option<&Step>) -> String {
        format_observation(&self.state.board)
    }

    fn parse_action(&self, line: &str) -> Result<MoveText, MoveParseError> {
        parse_move(line)
    }

    fn format_action(&self, mv: MoveText) -> String {
        match mv.cell(&self.state.board) {
            Some(cell) => format_move(cell),
            None => format!("{} {}", mv.col, mv.row),
        }
    }

    fn score(&self) -> f64 {
        self.state.score()
    }

    fn moves(&self) -> u64 {
        self.moves
    }
}
