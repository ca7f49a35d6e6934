//! A TilesMatching case in play: the state under the rules, the case's tile stream and the tile
//! in hand, stepped by replies. The judge, replays, tests and tuners all drive it
//! (`marathon_core::env`).

use std::fmt;

use marathon_core::env::{Environment, Turn};

use crate::generator::TilesCase;
use crate::protocol::{MoveParseError, format_move, format_params, format_tile, parse_move};
use crate::rules::{Move, MoveError, Outcome, State, Tile};

/// A case of TilesMatching from its start.
#[derive(Clone, Debug)]
pub struct TilesEnv {
    case: TilesCase,
    state: State,
    /// The tile the player must place, discard or give up on; `None` once the game is over.
    tile: Option<Tile>,
}

/// One move as a replay shows it: the tile, the reply, what it did, and the counters after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub tile: Tile,
    pub mv: Move,
    pub outcome: Outcome,
    /// The discard counter after the move.
    pub counter: u8,
    pub score: u32,
}

/// A refused reply, with the tile it was for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub tile: Option<Tile>,
    pub error: MoveError,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tile {
            Some(tile) => write!(f, "tile {}: {}", format_tile(tile), self.error),
            None => self.error.fmt(f),
        }
    }
}

impl TilesEnv {
    /// The case of `seed` at its start, its first tile dealt.
    pub fn new(seed: u64) -> Self {
        let case = TilesCase::new(seed);
        let mut env = TilesEnv {
            state: State::new(case.params),
            case,
            tile: None,
        };
        env.deal();
        env
    }

    /// The board, the counter and the tallies.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The tile in hand (`None` once the game is over).
    pub fn tile(&self) -> Option<Tile> {
        self.tile
    }

    /// Deals the next tile while the game goes on (the stream depends on play only through an
    /// empty board, which deals `W`).
    fn deal(&mut self) {
        self.tile =
            (!self.state.is_over()).then(|| self.case.next_tile(self.state.board.is_empty()));
    }
}

impl Environment for TilesEnv {
    type Action = Move;
    type Event = Step;
    type ParseError = MoveParseError;
    type RuleError = Refused;

    fn turn(&self) -> Turn {
        if self.tile.is_some() {
            Turn::Player
        } else {
            Turn::Over
        }
    }

    fn advance(&mut self) -> Step {
        unreachable!("TilesMatching has no automatic steps")
    }

    fn step(&mut self, mv: Move) -> Result<Step, Refused> {
        let Some(tile) = self.tile else {
            return Err(Refused {
                tile: None,
                error: MoveError::GameOver,
            });
        };
        let outcome = self.state.play(tile, mv).map_err(|error| Refused {
            tile: Some(tile),
            error,
        })?;
        self.deal();
        Ok(Step {
            tile,
            mv,
            outcome,
            counter: self.state.counter,
            score: self.state.score(),
        })
    }

    /// The placements and `DISCARD` the rules allow, then `GIVE UP`.
    fn legal_actions(&self) -> Vec<Move> {
        match self.tile {
            Some(tile) => {
                let mut moves = self.state.legal_moves(tile);
                moves.push(Move::GiveUp);
                moves
            }
            None => Vec::new(),
        }
    }

    /// `N S D` before the first tile, then the tile in hand.
    fn message(&self, last: Option<&Step>) -> String {
        let tile = self.tile.map(format_tile).unwrap_or_default();
        match last {
            None => format!("{}\n{tile}\n", format_params(self.state.params)),
            Some(_) => format!("{tile}\n"),
        }
    }

    fn parse_action(&self, line: &str) -> Result<Move, MoveParseError> {
        parse_move(line)
    }

    fn format_action(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn score(&self) -> f64 {
        f64::from(self.state.score())
    }

    fn moves(&self) -> u64 {
        u64::from(self.state.moves)
    }
}
