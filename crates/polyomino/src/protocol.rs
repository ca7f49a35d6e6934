//! The contest's text (docs/rules.md#polyomino-protocol). The judge writes the case as `W H K`
//! then K lines `x y`; the program sends `GET s` (answered by `i h w` then h rows of `X` and
//! `.`), `PLACE i x y r` (answered by the running total of placed size^2) and finally `DONE`.
//! Every `format_*` has a `parse_*` that reads its output back unchanged; parse errors name the
//! line and the token. Numbers are decimal integers (a leading `-` or `+` allowed) and tokens
//! are separated by whitespace.

use std::fmt;
use std::num::IntErrorKind;
use std::ops::RangeBounds;

use marathon_core::verdict::excerpt;

use crate::rules::{Board, Piece, ShapeError};

/// What the program sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `GET s`: `getNext(s)`.
    Get { size: i64 },
    /// `PLACE i x y r`: `placeNext(i, x, y, r)`.
    Place {
        index: i64,
        x: i64,
        y: i64,
        rotation: i64,
    },
    /// `DONE`: the program has finished.
    Done,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Get { size } => write!(f, "GET {size}"),
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => write!(f, "PLACE {index} {x} {y} {rotation}"),
            Command::Done => write!(f, "DONE"),
        }
    }
}

/// Why a line of the program is not a command. Tokens count from 1 (the command word is 1).
/// A token quoted here is cut to [`marathon_core::verdict::QUOTE_BYTES`], so a megabyte of
/// garbage makes a short error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Empty,
    /// The first word is not `GET`, `PLACE` or `DONE` (they are uppercase).
    Unknown {
        word: String,
    },
    /// The command has the wrong number of arguments.
    Arity {
        command: &'static str,
        expected: usize,
        found: usize,
    },
    /// Token `token` is not an integer.
    Number {
        token: usize,
        found: String,
    },
    /// Token `token` is an integer too large for 64 bits (either sign).
    TooLarge {
        token: usize,
        found: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => write!(f, "empty line; expected GET, PLACE or DONE"),
            CommandError::Unknown { word } => {
                write!(f, "unknown command {word:?}; expected GET, PLACE or DONE")
            }
            CommandError::Arity {
                command,
                expected,
                found,
            } => write!(f, "{command} takes {expected} numbers, got {found}"),
            CommandError::Number { token, found } => {
                write!(f, "token {token} must be an integer, got {found:?}")
            }
            CommandError::TooLarge { token, found } => write!(
                f,
                "token {token} must be a 64-bit integer ({}..={}), got {found:?}",
                i64::MIN,
                i64::MAX
            ),
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads one command line (surrounding whitespace ignored).
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let mut tokens = line.split_whitespace();
    let Some(word) = tokens.next() else {
        return Err(CommandError::Empty);
    };
    let (command, expected) = match word {
        "GET" => ("GET", 1),
        "PLACE" => ("PLACE", 4),
        "DONE" => ("DONE", 0),
        _ => {
            return Err(CommandError::Unknown {
                word: excerpt(word),
            });
        }
    };
    let args: Vec<&str> = tokens.collect();
    if args.len() != expected {
        return Err(CommandError::Arity {
            command,
            expected,
            found: args.len(),
        });
    }
    let mut numbers = [0i64; 4];
    for (i, arg) in args.iter().enumerate() {
        numbers[i] = arg.parse().map_err(|e: std::num::ParseIntError| {
            let (token, found) = (i + 2, excerpt(arg));
            match e.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    CommandError::TooLarge { token, found }
                }
                _ => CommandError::Number { token, found },
            }
        })?;
    }
    Ok(match command {
        "GET" => Command::Get { size: numbers[0] },
        "PLACE" => Command::Place {
            index: numbers[0],
            x: numbers[1],
            y: numbers[2],
            rotation: numbers[3],
        },
        _ => Command::Done,
    })
}

/// The command line, with its newline.
pub fn format_command(command: Command) -> String {
    format!("{command}\n")
}

/// Why the judge's text could not be read (by a player). Lines count from 1 within what the
/// parser was given; tokens count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// The text ended early.
    MissingLines { expected: usize, found: usize },
    /// A line has the wrong number of tokens.
    Tokens {
        line: usize,
        expected: usize,
        found: usize,
    },
    /// Token `token` of line `line` is not an integer.
    Number {
        line: usize,
        token: usize,
        found: String,
    },
    /// A number is outside its range (`what` names it).
    Range {
        line: usize,
        what: &'static str,
        value: i64,
    },
    /// A covered cell is listed twice.
    Duplicate { line: usize, x: usize, y: usize },
    /// A piece row is not `w` characters of `X` and `.`.
    PieceRow {
        line: usize,
        expected: usize,
        found: String,
    },
    /// The rows do not draw a piece.
    Shape { error: ShapeError },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::MissingLines { expected, found } => {
                write!(f, "expected {expected} lines, got {found}")
            }
            TextError::Tokens {
                line,
                expected,
                found,
            } => write!(f, "line {line}: expected {expected} numbers, got {found}"),
            TextError::Number { line, token, found } => write!(
                f,
                "line {line}, token {token}: expected an integer, got {found:?}"
            ),
            TextError::Range { line, what, value } => {
                write!(f, "line {line}: {what} {value} is out of range")
            }
            TextError::Duplicate { line, x, y } => {
                write!(f, "line {line}: cell ({x}, {y}) is listed twice")
            }
            TextError::PieceRow {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {line}: expected {expected} characters of X and ., got {found:?}"
            ),
            TextError::Shape { error } => write!(f, "not a piece: {error}"),
        }
    }
}

impl std::error::Error for TextError {}

/// The integers of `text`, which must be exactly `N` of them.
pub fn parse_numbers<const N: usize>(text: &str, line: usize) -> Result<[i64; N], TextError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != N {
        return Err(TextError::Tokens {
            line,
            expected: N,
            found: tokens.len(),
        });
    }
    let mut numbers = [0; N];
    for (i, token) in tokens.iter().enumerate() {
        numbers[i] = token.parse().map_err(|_| TextError::Number {
            line,
            token: i + 1,
            found: excerpt(token),
        })?;
    }
    Ok(numbers)
}

/// `value` as a `usize` if it lies in `range`.
fn in_range(
    value: i64,
    range: impl RangeBounds<usize>,
    line: usize,
    what: &'static str,
) -> Result<usize, TextError> {
    usize::try_from(value)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or(TextError::Range { line, what, value })
}

/// The case as the judge sends it: `W H K` then the K covered cells `x y`, in order.
pub fn format_case(width: usize, height: usize, covered: &[(usize, usize)]) -> String {
    let mut out = format!("{width} {height} {}\n", covered.len());
    for &(x, y) in covered {
        out.push_str(&format!("{x} {y}\n"));
    }
    out
}

/// Reads the first line `W H K` (W, H at least 1; K at most W*H).
pub fn parse_case_header(text: &str) -> Result<(usize, usize, usize), TextError> {
    let [w, h, k] = parse_numbers::<3>(text, 1)?;
    let width = in_range(w, 1..=1 << 16, 1, "width")?;
    let height = in_range(h, 1..=1 << 16, 1, "height")?;
    let count = in_range(k, 0..=width * height, 1, "covered count")?;
    Ok((width, height, count))
}

/// Reads a covered cell `x y` of a `width` x `height` board; `line` is its line number.
pub fn parse_cell(
    text: &str,
    line: usize,
    width: usize,
    height: usize,
) -> Result<(usize, usize), TextError> {
    let [x, y] = parse_numbers::<2>(text, line)?;
    Ok((
        in_range(x, 0..width, line, "x")?,
        in_range(y, 0..height, line, "y")?,
    ))
}

/// Reads a whole case text (what [`format_case`] writes) into its board and covered cells.
pub fn parse_case<S: AsRef<str>>(lines: &[S]) -> Result<(Board, Vec<(usize, usize)>), TextError> {
    let Some(first) = lines.first() else {
        return Err(TextError::MissingLines {
            expected: 1,
            found: 0,
        });
    };
    let (width, height, count) = parse_case_header(first.as_ref())?;
    if lines.len() != count + 1 {
        return Err(TextError::MissingLines {
            expected: count + 1,
            found: lines.len(),
        });
    }
    let mut board = Board::new(width, height);
    let mut covered = Vec::with_capacity(count);
    for (i, text) in lines[1..].iter().enumerate() {
        let line = i + 2;
        let (x, y) = parse_cell(text.as_ref(), line, width, height)?;
        if board.is_covered(x, y) {
            return Err(TextError::Duplicate { line, x, y });
        }
        board.cover(x, y);
        covered.push((x, y));
    }
    Ok((board, covered))
}

/// The judge's answer to `GET`: `i h w` then the h rows.
pub fn format_piece(index: usize, piece: &Piece) -> String {
    let mut out = format!("{index} {} {}\n", piece.height(), piece.width());
    for row in piece.rows() {
        out.push_str(&row);
        out.push('\n');
    }
    out
}

/// Reads the `i h w` line of a `GET` answer (h, w at least 1).
pub fn parse_piece_header(text: &str) -> Result<(usize, usize, usize), TextError> {
    let [i, h, w] = parse_numbers::<3>(text, 1)?;
    Ok((
        in_range(i, 0.., 1, "index")?,
        in_range(h, 1..=1 << 16, 1, "piece height")?,
        in_range(w, 1..=1 << 16, 1, "piece width")?,
    ))
}

/// Reads the rows of a `GET` answer whose header gave `width`; row `k` (from 0) is line `k + 2`.
pub fn parse_piece_rows<S: AsRef<str>>(rows: &[S], width: usize) -> Result<Piece, TextError> {
    for (k, row) in rows.iter().enumerate() {
        let row = row.as_ref().trim();
        if row.chars().count() != width || !row.chars().all(|c| c == 'X' || c == '.') {
            return Err(TextError::PieceRow {
                line: k + 2,
                expected: width,
                found: excerpt(row),
            });
        }
    }
    let rows: Vec<&str> = rows.iter().map(|r| r.as_ref().trim()).collect();
    let piece = Piece::from_rows(&rows).map_err(|error| TextError::Shape { error })?;
    if piece.width() != width {
        return Err(TextError::Shape {
            error: ShapeError::NotTight,
        });
    }
    Ok(piece)
}

/// Reads a whole `GET` answer (what [`format_piece`] writes).
pub fn parse_piece<S: AsRef<str>>(lines: &[S]) -> Result<(usize, Piece), TextError> {
    let Some(first) = lines.first() else {
        return Err(TextError::MissingLines {
            expected: 1,
            found: 0,
        });
    };
    let (index, height, width) = parse_piece_header(first.as_ref())?;
    if lines.len() != height + 1 {
        return Err(TextError::MissingLines {
            expected: height + 1,
            found: lines.len(),
        });
    }
    Ok((index, parse_piece_rows(&lines[1..], width)?))
}

/// The judge's answer to `PLACE`: the running total.
pub fn format_total(total: u64) -> String {
    format!("{total}\n")
}

/// Reads the answer to `PLACE`.
pub fn parse_total(text: &str) -> Result<u64, TextError> {
    let [total] = parse_numbers::<1>(text, 1)?;
    u64::try_from(total).map_err(|_| TextError::Range {
        line: 1,
        what: "total",
        value: total,
    })
}
