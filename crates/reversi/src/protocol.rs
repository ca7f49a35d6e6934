//! The contest's text (docs/rules.md#reversi-protocol): on each of player 1's turns
//! the judge sends a line `n`, then one line holding the n rows separated by single spaces
//! (`1`..`4` for a player's piece, `.` for empty); the player answers `col row` (0-based, column
//! first). Parsing and printing are symmetric.

use std::fmt;

use marathon_core::verdict::excerpt;

use crate::rules::{Board, Cell, MAX_PLAYERS, MAX_SIZE, MIN_SIZE, players_for_size};

/// Lines of one observation: the size and the rows.
pub const OBSERVATION_LINES: usize = 2;

/// Why an observation could not be read. Lines count from 1 within the observation, rows and
/// columns from 0 as the board does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObservationError {
    LineCount {
        found: usize,
    },
    /// Line 1 is not a board size 7..=12.
    Size {
        found: String,
    },
    /// Line 2 does not hold n rows.
    RowCount {
        expected: usize,
        found: usize,
    },
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    BadChar {
        row: usize,
        col: usize,
        found: char,
    },
}

impl fmt::Display for ObservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObservationError::LineCount { found } => {
                write!(f, "expected 2 lines (size, rows), got {found}")
            }
            ObservationError::Size { found } => write!(
                f,
                "line 1: expected a board size {MIN_SIZE}..={MAX_SIZE}, got {found:?}"
            ),
            ObservationError::RowCount { expected, found } => {
                write!(f, "line 2: expected {expected} rows, got {found}")
            }
            ObservationError::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "line 2, row {row}: expected {expected} characters, got {found}"
            ),
            ObservationError::BadChar { row, col, found } => write!(
                f,
                "line 2, row {row}, column {col}: unexpected character {found:?}"
            ),
        }
    }
}

impl std::error::Error for ObservationError {}

/// Why a reply is not a move text. A token quoted here is cut to
/// [`marathon_core::verdict::QUOTE_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not exactly two whitespace-separated tokens.
    TokenCount { found: usize },
    /// A token is not a non-negative integer; `position` 1 = column, 2 = row.
    NotANumber { position: usize, found: String },
    /// A token is a non-negative integer too large for any board (it does not fit a `usize`).
    TooLarge { position: usize, found: String },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::TokenCount { found } => {
                write!(f, "a move is two numbers `col row`, got {found} tokens")
            }
            MoveParseError::NotANumber { position, found } => {
                let what = if *position == 1 { "column" } else { "row" };
                write!(
                    f,
                    "token {position} ({what}) is not a non-negative integer: {found:?}"
                )
            }
            MoveParseError::TooLarge { position, found } => {
                let what = if *position == 1 { "column" } else { "row" };
                write!(
                    f,
                    "token {position} ({what}) {found} is off every board (at most \
                     {MAX_SIZE}x{MAX_SIZE})"
                )
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A move as the player wrote it: column and row, not yet checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub col: usize,
    pub row: usize,
}

impl MoveText {
    /// The cell on `board`, if it is on it.
    pub fn cell(self, board: &Board) -> Option<Cell> {
        board.cell_at(self.col, self.row)
    }
}

/// The rows of `board` separated by single spaces (no newline).
pub fn format_rows(board: &Board) -> String {
    let n = board.size();
    let mut out = String::with_capacity(n * (n + 1));
    for row in 0..n {
        if row > 0 {
            out.push(' ');
        }
        for col in 0..n {
            out.push(match board.get(Cell::new(row, col)) {
                None => '.',
                Some(p) => (b'0' + p) as char,
            });
        }
    }
    out
}

/// One observation: `n`, then the rows, each line ending in `'\n'`.
pub fn format_observation(board: &Board) -> String {
    format!("{}\n{}\n", board.size(), format_rows(board))
}

/// Reads an observation (surrounding whitespace ignored). The number of players follows from
/// the size; every digit must be a player of the game.
pub fn parse_observation(lines: &[&str]) -> Result<Board, ObservationError> {
    if lines.len() != OBSERVATION_LINES {
        return Err(ObservationError::LineCount { found: lines.len() });
    }
    let size_text = lines[0].trim();
    let size = size_text
        .parse::<usize>()
        .ok()
        .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
        .ok_or_else(|| ObservationError::Size {
            found: excerpt(size_text),
        })?;
    let rows: Vec<&str> = lines[1].split_whitespace().collect();
    if rows.len() != size {
        return Err(ObservationError::RowCount {
            expected: size,
            found: rows.len(),
        });
    }
    parse_rows(size, &rows)
}

/// Reads `size` rows of a board (`.` or a player digit each cell).
pub fn parse_rows(size: usize, rows: &[&str]) -> Result<Board, ObservationError> {
    let players = players_for_size(size);
    let mut board = Board::empty(size, players);
    for (row, text) in rows.iter().enumerate() {
        let found = text.chars().count();
        if found != size {
            return Err(ObservationError::RowLength {
                row,
                expected: size,
                found,
            });
        }
        for (col, c) in text.chars().enumerate() {
            let owner = match c {
                '.' => None,
                '1'..='4' if (c as usize - '0' as usize) <= players.min(MAX_PLAYERS) => {
                    Some(c as u8 - b'0')
                }
                _ => return Err(ObservationError::BadChar { row, col, found: c }),
            };
            board.put(Cell::new(row, col), owner);
        }
    }
    Ok(board)
}

/// The reply for a move on `cell`: `col row`.
pub fn format_move(cell: Cell) -> String {
    format!("{} {}", cell.col(), cell.row())
}

/// Reads a reply `col row` (any whitespace between and around).
pub fn parse_move(text: &str) -> Result<MoveText, MoveParseError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != 2 {
        return Err(MoveParseError::TokenCount {
            found: tokens.len(),
        });
    }
    let number = |position: usize| {
        let token = tokens[position - 1];
        // `usize::from_str` accepts a leading `+`; the contest's ints are plain digits.
        let digits = token.bytes().all(|b| b.is_ascii_digit());
        match token.parse::<usize>() {
            Ok(value) if digits => Ok(value),
            _ if digits => Err(MoveParseError::TooLarge {
                position,
                found: excerpt(token),
            }),
            _ => Err(MoveParseError::NotANumber {
                position,
                found: excerpt(token),
            }),
        }
    };
    Ok(MoveText {
        col: number(1)?,
        row: number(2)?,
    })
}
