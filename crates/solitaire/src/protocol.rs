//! The Kattis text (docs/rules.md#solitaire-protocol): the judge prints 6 lines of 6
//! piece names separated by single spaces (the bronze tops); the program prints `r c` (1-based
//! row and column), and reads the name of the uncovered piece or `blank`; `0 0` ends the game.
//! What `format_*` writes, `parse_*` reads back unchanged.

use std::fmt;
use std::num::IntErrorKind;

use marathon_core::verdict::excerpt;

use crate::rules::{CELLS, Cell, Piece, SIZE};

/// What the judge answers after removing a gold piece.
pub const BLANK: &str = "blank";

/// Why the 6 lines of the board could not be read. Lines and tokens count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    LineCount {
        found: usize,
    },
    TokenCount {
        line: usize,
        found: usize,
    },
    UnknownPiece {
        line: usize,
        token: usize,
        found: String,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::LineCount { found } => write!(f, "expected {SIZE} lines, got {found}"),
            BoardError::TokenCount { line, found } => {
                write!(f, "line {line}: expected {SIZE} piece names, got {found}")
            }
            BoardError::UnknownPiece { line, token, found } => {
                write!(f, "line {line}, name {token}: unknown piece {found:?}")
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// Why a reply is not `r c`. A token quoted here is cut to
/// [`marathon_core::verdict::QUOTE_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyError {
    /// Not exactly two whitespace-separated tokens.
    TokenCount { found: usize },
    /// Token 1 (row) or 2 (column) is not an integer.
    NotANumber { token: usize, found: String },
    /// Token 1 (row) or 2 (column) is an integer beyond 64 bits, so surely not a cell.
    TooLarge { token: usize, found: String },
    /// Integers, but not a cell of the board (and not `0 0`).
    OffBoard { row: i64, col: i64 },
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::TokenCount { found } => {
                write!(f, "a reply is two integers `r c`, got {found} tokens")
            }
            ReplyError::NotANumber { token, found } => {
                let what = if *token == 1 { "row" } else { "column" };
                write!(f, "the {what} must be an integer, got {found:?}")
            }
            ReplyError::TooLarge { token, found } => {
                let what = if *token == 1 { "row" } else { "column" };
                write!(
                    f,
                    "the {what} {found} is not a cell (rows and columns are 1..6; `0 0` ends)"
                )
            }
            ReplyError::OffBoard { row, col } => write!(
                f,
                "({row}, {col}) is not a cell (rows and columns are 1..6; `0 0` ends)"
            ),
        }
    }
}

impl std::error::Error for ReplyError {}

/// Why a reveal line is neither a piece name nor `blank`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealError {
    pub found: String,
}

impl fmt::Display for RevealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a piece name or `blank`, got {:?}", self.found)
    }
}

impl std::error::Error for RevealError {}

/// A player's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Remove(Cell),
    /// `0 0`: the player stops.
    Stop,
}

/// The 6 lines of the start, each ending in `'\n'`.
pub fn format_board(tops: &[Piece; CELLS]) -> String {
    let mut out = String::new();
    for row in tops.chunks(SIZE) {
        let names: Vec<&str> = row.iter().map(|p| p.name()).collect();
        out.push_str(&names.join(" "));
        out.push('\n');
    }
    out
}

/// Reads the 6 lines of the start (names separated by any whitespace).
pub fn parse_board(lines: &[&str]) -> Result<[Piece; CELLS], BoardError> {
    if lines.len() != SIZE {
        return Err(BoardError::LineCount { found: lines.len() });
    }
    let mut tops = [Piece::One; CELLS];
    for (row, text) in lines.iter().enumerate() {
        let line = row + 1;
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() != SIZE {
            return Err(BoardError::TokenCount {
                line,
                found: tokens.len(),
            });
        }
        for (col, token) in tokens.into_iter().enumerate() {
            tops[row * SIZE + col] =
                Piece::from_name(token).ok_or_else(|| BoardError::UnknownPiece {
                    line,
                    token: col + 1,
                    found: excerpt(token),
                })?;
        }
    }
    Ok(tops)
}

/// The reply line (without newline): `r c` or `0 0`.
pub fn format_reply(reply: Reply) -> String {
    match reply {
        Reply::Remove(cell) => cell.to_string(),
        Reply::Stop => "0 0".to_string(),
    }
}

/// Reads `r c` (any whitespace around and between the two integers).
pub fn parse_reply(text: &str) -> Result<Reply, ReplyError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != 2 {
        return Err(ReplyError::TokenCount {
            found: tokens.len(),
        });
    }
    let number = |token: usize| {
        let text = tokens[token - 1];
        text.parse::<i64>().map_err(|e| {
            let found = excerpt(text);
            match e.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    ReplyError::TooLarge { token, found }
                }
                _ => ReplyError::NotANumber { token, found },
            }
        })
    };
    let (row, col) = (number(1)?, number(2)?);
    if (row, col) == (0, 0) {
        return Ok(Reply::Stop);
    }
    Cell::from_one_based(row, col)
        .map(Reply::Remove)
        .ok_or(ReplyError::OffBoard { row, col })
}

/// The judge's answer to a removal (without newline): the uncovered piece or `blank`.
pub fn format_reveal(reveal: Option<Piece>) -> &'static str {
    reveal.map_or(BLANK, Piece::name)
}

pub fn parse_reveal(text: &str) -> Result<Option<Piece>, RevealError> {
    let text = text.trim();
    if text == BLANK {
        return Ok(None);
    }
    Piece::from_name(text).map(Some).ok_or_else(|| RevealError {
        found: excerpt(text),
    })
}
