//! A Polyomino case in play: the board, the case's piece stream and the session's score,
//! stepped by the program's calls (`GET`, `PLACE`, `DONE`). The judge, replays, tests and tuners
//! all drive it (`marathon_core::env`).

use std::sync::Arc;

use marathon_core::env::{Environment, Turn};

use crate::generator::{PieceGenerator, PolyominoCase};
use crate::protocol::{
    Command, CommandError, format_case, format_piece, format_total, parse_command,
};
use crate::rules::{
    Contest, MAX_REQUESTS, MAX_SIZE, MIN_SIZE, Piece, ROTATIONS, RuleError, Session,
};

/// A case of Polyomino from its start.
#[derive(Clone, Debug)]
pub struct PolyominoEnv {
    /// The board as dealt (the opening message), shared between clones.
    case: Arc<PolyominoCase>,
    session: Session<PieceGenerator>,
    done: bool,
}

/// One accepted call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `GET`: piece `index` of `size` cells was handed out.
    Get { index: usize, size: usize },
    /// `PLACE`: piece `index` now covers `cells` (`y * W + x`).
    Place { index: usize, cells: Vec<usize> },
    /// `DONE`: the program has finished.
    Done,
}

impl PolyominoEnv {
    /// The case of `seed` at its start.
    pub fn new(seed: u64) -> Self {
        let case = PolyominoCase::new(seed);
        PolyominoEnv {
            session: Session::new(case.board(), case.pieces()),
            case: Arc::new(case),
            done: false,
        }
    }

    /// The case as dealt.
    pub fn case(&self) -> &PolyominoCase {
        &self.case
    }

    /// The board with everything placed, the pieces handed out, and the score.
    pub fn session(&self) -> &Session<PieceGenerator> {
        &self.session
    }
}

impl Environment for PolyominoEnv {
    type Action = Command;
    type Event = Step;
    type ParseError = CommandError;
    type RuleError = RuleError;

    fn turn(&self) -> Turn {
        if self.done { Turn::Over } else { Turn::Player }
    }

    fn advance(&mut self) -> Step {
        unreachable!("Polyomino has no automatic steps")
    }

    fn step(&mut self, command: Command) -> Result<Step, RuleError> {
        match command {
            Command::Get { size } => {
                let (index, piece) = self.session.get_next(size)?;
                Ok(Step::Get {
                    index,
                    size: piece.size(),
                })
            }
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => {
                let placed = self.session.place(index, x, y, rotation)?;
                let width = self.case.width;
                let cells = placed
                    .piece
                    .cells()
                    .iter()
                    .map(|&(dx, dy)| (placed.y + dy) * width + placed.x + dx)
                    .collect();
                Ok(Step::Place {
                    index: placed.index,
                    cells,
                })
            }
            Command::Done => {
                self.done = true;
                Ok(Step::Done)
            }
        }
    }

    /// Every `GET` the rules allow, every placement of every piece in hand, then `DONE`.
    fn legal_actions(&self) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.done {
            return commands;
        }
        if self.session.requested() < MAX_REQUESTS {
            commands.extend((MIN_SIZE..=MAX_SIZE).map(|size| Command::Get { size }));
        }
        let board = self.session.board();
        // A piece fits only inside one free region: most pieces a random player asks for are
        // larger than any, and need no scan of the board.
        let largest_region = board.free_regions().into_iter().max().unwrap_or(0);
        for (index, piece) in self.session.pieces().iter().enumerate() {
            if self.session.is_placed(index) || piece.size() > largest_region {
                continue;
            }
            for rotation in 0..ROTATIONS {
                let turned = piece.rotated(rotation as u8);
                for y in 0..board.height() as i64 {
                    for x in 0..board.width() as i64 {
                        if board.check_fit(&turned, x, y).is_ok() {
                            commands.push(Command::Place {
                                index: index as i64,
                                x,
                                y,
                                rotation,
                            });
                        }
                    }
                }
            }
        }
        commands.push(Command::Done);
        commands
    }

    /// The board at the start; the piece after a `GET`; the running total after a `PLACE`.
    fn message(&self, last: Option<&Step>) -> String {
        match last {
            None => format_case(self.case.width, self.case.height, &self.case.covered),
            Some(Step::Get { index, .. }) => format_piece(*index, &self.session.pieces()[*index]),
            Some(Step::Place { .. } | Step::Done) => format_total(self.session.placed_score()),
        }
    }

    fn parse_action(&self, line: &str) -> Result<Command, CommandError> {
        parse_command(line)
    }

    fn format_action(&self, command: Command) -> String {
        command.to_string()
    }

    /// The raw score: placed size² minus requested-but-unplaced size² (before the time factor).
    fn score(&self) -> f64 {
        self.session.raw_score() as f64
    }

    /// Pieces placed.
    fn moves(&self) -> u64 {
        self.session.placed_count() as u64
    }
}

/// The contest's library calls, for a built-in player that plays the environment directly
/// (without the protocol's text).
impl Contest for PolyominoEnv {
    type Error = RuleError;

    fn get_next(&mut self, size: i64) -> Result<(usize, Piece), RuleError> {
        match self.step(Command::Get { size })? {
            Step::Get { index, .. } => Ok((index, self.session.pieces()[index].clone())),
            _ => unreachable!("GET hands out a piece"),
        }
    }

    fn place_next(&mut self, index: i64, x: i64, y: i64, rotation: i64) -> Result<u64, RuleError> {
        self.step(Command::Place {
            index,
            x,
            y,
            rotation,
        })?;
        Ok(self.session.placed_score())
    }
}
