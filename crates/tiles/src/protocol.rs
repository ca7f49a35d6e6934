//! The contest's text (docs/rules.md#tiles-protocol): the player first reads `N S D`,
//! then one tile per turn (`W`, `R`, or `CS` with colour and shape digits), and answers `R C`
//! (0-based row and column), `DISCARD` or `GIVE UP`. What `format_*` writes, `parse_*` reads
//! back unchanged.

use std::fmt;

use marathon_core::verdict::excerpt;

use crate::rules::{MAX_SIZE, Move, Params, ParamsError, Pos, Tile};

/// The reply that discards the tile.
pub const DISCARD: &str = "DISCARD";
/// The reply that ends the game.
pub const GIVE_UP: &str = "GIVE UP";

/// Why the first line (`N S D`) could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsParseError {
    /// Not exactly three whitespace-separated tokens.
    TokenCount {
        found: usize,
    },
    /// Token `token` (1-based) is not a number.
    NotANumber {
        token: usize,
        found: String,
    },
    OutOfRange(ParamsError),
}

impl fmt::Display for ParamsParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsParseError::TokenCount { found } => {
                write!(f, "the first line is `N S D`, got {found} tokens")
            }
            ParamsParseError::NotANumber { token, found } => {
                write!(f, "token {token} of `N S D` is not a number: {found:?}")
            }
            ParamsParseError::OutOfRange(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParamsParseError {}

/// Why a tile line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileParseError {
    /// Not `W`, `R` or two digits.
    Malformed { found: String },
    /// A digit (`what` = colour or shape) not below `N`.
    OutOfRange {
        what: &'static str,
        value: u8,
        n: u8,
    },
}

impl fmt::Display for TileParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileParseError::Malformed { found } => {
                write!(f, "a tile is W, R or two digits CS, got {found:?}")
            }
            TileParseError::OutOfRange { what, value, n } => {
                write!(f, "tile {what} {value} is not below N = {n}")
            }
        }
    }
}

impl std::error::Error for TileParseError {}

/// Why a reply could not be read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    Empty,
    /// Not `DISCARD`, `GIVE UP`, or two tokens.
    Malformed {
        found: String,
    },
    /// Token `token` (1 = row, 2 = column) is not a non-negative integer (`found` is cut to
    /// [`marathon_core::verdict::QUOTE_BYTES`], as are the others).
    BadIndex {
        token: usize,
        found: String,
    },
    /// Token `token` is a non-negative integer, but 256 or more: no board is that large.
    TooLarge {
        token: usize,
        found: String,
    },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Empty => write!(f, "empty reply (expected `R C`, DISCARD or GIVE UP)"),
            MoveParseError::Malformed { found } => {
                write!(f, "expected `R C`, DISCARD or GIVE UP, got {found:?}")
            }
            MoveParseError::BadIndex { token, found } => {
                write!(
                    f,
                    "the {} {found:?} is not a cell index",
                    index_name(*token)
                )
            }
            MoveParseError::TooLarge { token, found } => write!(
                f,
                "the {} {found} is off every board (S is at most {MAX_SIZE})",
                index_name(*token)
            ),
        }
    }
}

/// What token `token` of `R C` is.
fn index_name(token: usize) -> &'static str {
    if token == 1 { "row" } else { "column" }
}

impl std::error::Error for MoveParseError {}

/// `N S D`, without the newline.
pub fn format_params(params: Params) -> String {
    format!("{} {} {}", params.n, params.s, params.d)
}

/// Reads `N S D` (surrounding whitespace ignored) and checks the statement's ranges.
pub fn parse_params(line: &str) -> Result<Params, ParamsParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() != 3 {
        return Err(ParamsParseError::TokenCount {
            found: tokens.len(),
        });
    }
    let mut values = [0u8; 3];
    for (i, (slot, token)) in values.iter_mut().zip(&tokens).enumerate() {
        *slot = token.parse().map_err(|_| ParamsParseError::NotANumber {
            token: i + 1,
            found: excerpt(token),
        })?;
    }
    Params::new(values[0], values[1], values[2]).map_err(ParamsParseError::OutOfRange)
}

/// `W`, `R` or `CS`, without the newline.
pub fn format_tile(tile: Tile) -> String {
    match tile {
        Tile::Wild => "W".into(),
        Tile::Remove => "R".into(),
        Tile::Regular { color, shape } => format!("{color}{shape}"),
    }
}

/// Reads a tile line (surrounding whitespace ignored) of a case with `n` colours and shapes.
pub fn parse_tile(line: &str, n: u8) -> Result<Tile, TileParseError> {
    let text = line.trim();
    let malformed = || TileParseError::Malformed {
        found: excerpt(text),
    };
    match text.as_bytes() {
        b"W" => Ok(Tile::Wild),
        b"R" => Ok(Tile::Remove),
        &[c, s] if c.is_ascii_digit() && s.is_ascii_digit() => {
            let (color, shape) = (c - b'0', s - b'0');
            for (what, value) in [("colour", color), ("shape", shape)] {
                if value >= n {
                    return Err(TileParseError::OutOfRange { what, value, n });
                }
            }
            Ok(Tile::Regular { color, shape })
        }
        _ => Err(malformed()),
    }
}

/// `R C`, `DISCARD` or `GIVE UP`, without the newline.
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Place(pos) => format!("{} {}", pos.row, pos.col),
        Move::Discard => DISCARD.into(),
        Move::GiveUp => GIVE_UP.into(),
    }
}

/// Reads a reply: `R C` (two non-negative integers), `DISCARD` or `GIVE UP`. Surrounding
/// whitespace is ignored and tokens may be separated by any whitespace; words are
/// case-sensitive, as in the statement.
pub fn parse_move(line: &str) -> Result<Move, MoveParseError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.as_slice() {
        [] => Err(MoveParseError::Empty),
        [word] if *word == DISCARD => Ok(Move::Discard),
        ["GIVE", "UP"] => Ok(Move::GiveUp),
        [row, col] => {
            let index = |token: usize, text: &str| {
                // `u8::from_str` accepts a leading `+`; the contest's ints are plain digits.
                let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
                let found = excerpt(text);
                match text.parse::<u8>() {
                    Ok(value) if digits => Ok(value),
                    _ if digits => Err(MoveParseError::TooLarge { token, found }),
                    _ => Err(MoveParseError::BadIndex { token, found }),
                }
            };
            Ok(Move::Place(Pos::new(index(1, row)?, index(2, col)?)))
        }
        _ => Err(MoveParseError::Malformed {
            found: excerpt(line.trim()),
        }),
    }
}
