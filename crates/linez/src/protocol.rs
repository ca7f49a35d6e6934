//! The contest's text (docs/rules.md#linez-protocol): each turn the player reads 9 board rows
//! (top first, `1`..`7` or `.`) and the `nextThree` line, and answers a move such as `I8F6`.
//! Parsing and printing are symmetric: what `format_*` writes, `parse_*` reads back unchanged.

use std::fmt;
use std::str::FromStr;

use crate::rules::{Board, COLORS, Cell, Color, Move, PREVIEW_LEN, SIZE};

/// Lines of one observation: the board rows and the preview line.
pub const OBSERVATION_LINES: usize = SIZE + 1;

/// Why an observation (or a board picture) could not be read. Line and column numbers count
/// from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObservationError {
    LineCount {
        expected: usize,
        found: usize,
    },
    LineLength {
        line: usize,
        expected: usize,
        found: usize,
    },
    BadChar {
        line: usize,
        column: usize,
        found: char,
    },
}

impl fmt::Display for ObservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObservationError::LineCount { expected, found } => {
                write!(f, "expected {expected} lines, got {found}")
            }
            ObservationError::LineLength {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {line}: expected {expected} characters, got {found}"
            ),
            ObservationError::BadChar {
                line,
                column,
                found,
            } => write!(
                f,
                "line {line}, column {column}: unexpected character {found:?}"
            ),
        }
    }
}

impl std::error::Error for ObservationError {}

/// Why a move text could not be read. Positions count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not exactly 4 characters once surrounding whitespace is trimmed.
    Length { found: usize },
    /// Character 1 or 3 is not a row letter `A`..`I`.
    Row { position: usize, found: char },
    /// Character 2 or 4 is not a column digit `1`..`9`.
    Column { position: usize, found: char },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Length { found } => {
                write!(f, "a move is 4 characters like I8F6, got {found}")
            }
            MoveParseError::Row { position, found } => {
                write!(
                    f,
                    "character {position} must be a row letter A..I, got {found:?}"
                )?;
                if found.is_ascii_lowercase() {
                    write!(f, " (row letters are uppercase)")?;
                }
                Ok(())
            }
            MoveParseError::Column { position, found } => write!(
                f,
                "character {position} must be a column digit 1..9, got {found:?}"
            ),
        }
    }
}

impl std::error::Error for MoveParseError {}

fn color_char(color: Option<Color>) -> char {
    match color {
        None => '.',
        Some(color) => (b'0' + color) as char,
    }
}

fn parse_color(c: char) -> Option<Color> {
    let digit = c.to_digit(10)? as Color;
    (1..=COLORS).contains(&digit).then_some(digit)
}

/// The 9 board rows, top first, each ending in `'\n'`.
pub fn format_board(board: &Board) -> String {
    let mut out = String::with_capacity(SIZE * (SIZE + 1));
    for row in 0..SIZE {
        for col in 0..SIZE {
            out.push(color_char(board.get(Cell::new(row, col))));
        }
        out.push('\n');
    }
    out
}

/// The board rows then the `nextThree` line, each ending in `'\n'`.
pub fn format_observation(board: &Board, preview: &[Color; PREVIEW_LEN]) -> String {
    let mut out = format_board(board);
    out.extend(preview.iter().map(|&color| color_char(Some(color))));
    out.push('\n');
    out
}

/// Reads 9 board rows (surrounding whitespace ignored).
pub fn parse_board(rows: &[&str]) -> Result<Board, ObservationError> {
    if rows.len() != SIZE {
        return Err(ObservationError::LineCount {
            expected: SIZE,
            found: rows.len(),
        });
    }
    let mut board = Board::empty();
    for (row, text) in rows.iter().enumerate() {
        let line = row + 1;
        let text = exact_length(text.trim(), line, SIZE)?;
        for (col, c) in text.chars().enumerate() {
            if c == '.' {
                continue;
            }
            let color = parse_color(c).ok_or(ObservationError::BadChar {
                line,
                column: col + 1,
                found: c,
            })?;
            board.put(Cell::new(row, col), color);
        }
    }
    Ok(board)
}

/// Reads one observation: 9 board rows and the `nextThree` line (surrounding whitespace
/// ignored).
pub fn parse_observation(
    lines: &[&str],
) -> Result<(Board, [Color; PREVIEW_LEN]), ObservationError> {
    if lines.len() != OBSERVATION_LINES {
        return Err(ObservationError::LineCount {
            expected: OBSERVATION_LINES,
            found: lines.len(),
        });
    }
    let board = parse_board(&lines[..SIZE])?;
    let line = OBSERVATION_LINES;
    let text = exact_length(lines[SIZE].trim(), line, PREVIEW_LEN)?;
    let mut preview = [0; PREVIEW_LEN];
    for ((slot, c), column) in preview.iter_mut().zip(text.chars()).zip(1..) {
        *slot = parse_color(c).ok_or(ObservationError::BadChar {
            line,
            column,
            found: c,
        })?;
    }
    Ok((board, preview))
}

fn exact_length(text: &str, line: usize, expected: usize) -> Result<&str, ObservationError> {
    let found = text.chars().count();
    if found == expected {
        Ok(text)
    } else {
        Err(ObservationError::LineLength {
            line,
            expected,
            found,
        })
    }
}

/// The move as the contest writes it, e.g. `I8F6`.
pub fn format_move(mv: Move) -> String {
    mv.to_string()
}

/// Reads a move such as `I8F6` (surrounding whitespace ignored; row letters must be uppercase,
/// as in the statement).
pub fn parse_move(text: &str) -> Result<Move, MoveParseError> {
    let text = text.trim();
    let found = text.chars().count();
    if found != 4 {
        return Err(MoveParseError::Length { found });
    }
    let mut chars = ['\0'; 4];
    for (slot, c) in chars.iter_mut().zip(text.chars()) {
        *slot = c;
    }
    let from = parse_cell(chars[0], chars[1], 1)?;
    let to = parse_cell(chars[2], chars[3], 3)?;
    Ok(Move { from, to })
}

fn parse_cell(row: char, col: char, position: usize) -> Result<Cell, MoveParseError> {
    let row_index = match row {
        'A'..='I' => row as usize - 'A' as usize,
        _ => {
            return Err(MoveParseError::Row {
                position,
                found: row,
            });
        }
    };
    let col_index = match col {
        '1'..='9' => col as usize - '1' as usize,
        _ => {
            return Err(MoveParseError::Column {
                position: position + 1,
                found: col,
            });
        }
    };
    Ok(Cell::new(row_index, col_index))
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_move(text)
    }
}
