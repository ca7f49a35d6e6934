//! The game itself (docs/rules.md#polyomino): the board, pieces, their rotation, and the
//! [`Session`] that validates every `getNext`/`placeNext` call and keeps the score. No IO, no AI:
//! the judge drives a session through the line protocol, built-in players reach one through the
//! [`Contest`] trait, and the pieces come from any [`PieceSource`] (the judge's is
//! `generator::PieceGenerator`).

use std::fmt;
use std::time::Duration;

/// The smallest piece `getNext` accepts (docs/rules.md#polyomino-pieces).
pub const MIN_SIZE: i64 = 3;
/// The largest piece `getNext` accepts (docs/rules.md#polyomino-pieces).
pub const MAX_SIZE: i64 = 1000;
/// At most this many `getNext` calls per case (docs/rules.md#polyomino-pieces).
pub const MAX_REQUESTS: usize = 10_000;
/// The score loses this fraction per second of the solution's time
/// (docs/rules.md#polyomino-scoring).
pub const TIME_PENALTY_PER_SECOND: f64 = 0.01;
/// The contest's time limit per case, in seconds (docs/rules.md#polyomino-time-and-failures).
pub const TIME_LIMIT_SECONDS: u64 = 30;
/// Rotations are `0..ROTATIONS`, each a quarter turn counter-clockwise
/// (docs/rules.md#polyomino-placement).
pub const ROTATIONS: i64 = 4;

/// A piece as `getNext` returns it: the cells of its minimal bounding box, `(x, y)` = (column,
/// row), sorted by row then column.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    width: usize,
    height: usize,
    cells: Vec<(usize, usize)>,
}

/// Why a set of cells is not a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    Empty,
    /// Some row or column of the bounding box has no cell (the box is not minimal).
    NotTight,
    /// The cells are not 4-connected.
    NotConnected,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Empty => write!(f, "a piece has at least one cell"),
            ShapeError::NotTight => write!(f, "the bounding box is not minimal"),
            ShapeError::NotConnected => write!(f, "the cells are not 4-connected"),
        }
    }
}

impl std::error::Error for ShapeError {}

impl Piece {
    /// The piece made of `cells` (any order, duplicates ignored), moved so that its bounding
    /// box starts at (0, 0). Checks that the cells are 4-connected.
    pub fn from_cells(cells: &[(i64, i64)]) -> Result<Self, ShapeError> {
        let (Some(min_x), Some(min_y)) = (
            cells.iter().map(|c| c.0).min(),
            cells.iter().map(|c| c.1).min(),
        ) else {
            return Err(ShapeError::Empty);
        };
        let mut moved: Vec<(usize, usize)> = cells
            .iter()
            .map(|&(x, y)| ((x - min_x) as usize, (y - min_y) as usize))
            .collect();
        moved.sort_unstable_by_key(|&(x, y)| (y, x));
        moved.dedup();
        let width = moved.iter().map(|c| c.0).max().expect("not empty") + 1;
        let height = moved.iter().map(|c| c.1).max().expect("not empty") + 1;
        let piece = Piece {
            width,
            height,
            cells: moved,
        };
        if !piece.is_connected() {
            return Err(ShapeError::NotConnected);
        }
        Ok(piece)
    }

    /// The piece drawn by `rows` (`X` = cell, anything else = empty), which must be its minimal
    /// bounding box and 4-connected.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Self, ShapeError> {
        let cells: Vec<(i64, i64)> = rows
            .iter()
            .enumerate()
            .flat_map(|(y, row)| {
                row.as_ref()
                    .chars()
                    .enumerate()
                    .filter(|&(_, c)| c == 'X')
                    .map(move |(x, _)| (x as i64, y as i64))
            })
            .collect();
        let piece = Self::from_cells(&cells)?;
        let tight = rows.len() == piece.height
            && piece.cells.first().is_some_and(|c| c.1 == 0)
            && piece.cells.iter().any(|c| c.0 == 0)
            && rows
                .iter()
                .all(|row| row.as_ref().trim_end_matches(' ').chars().count() <= piece.width);
        if !tight {
            return Err(ShapeError::NotTight);
        }
        Ok(piece)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The number of cells (the piece's order).
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The cells, `(x, y)` in the bounding box, sorted by row then column.
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// The piece turned `rotation` quarter turns counter-clockwise
    /// (docs/rules.md#polyomino-placement: the top-right corner of the box becomes its top-left
    /// corner), boxed at (0, 0) again.
    pub fn rotated(&self, rotation: u8) -> Piece {
        let mut piece = self.clone();
        for _ in 0..rotation % 4 {
            piece = piece.quarter_turn();
        }
        piece
    }

    /// One quarter turn counter-clockwise: `(x, y)` in a `w`x`h` box goes to `(y, w - 1 - x)`
    /// in the `h`x`w` box.
    fn quarter_turn(&self) -> Piece {
        let mut cells: Vec<(usize, usize)> = self
            .cells
            .iter()
            .map(|&(x, y)| (y, self.width - 1 - x))
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        Piece {
            width: self.height,
            height: self.width,
            cells,
        }
    }

    /// The bounding box as text rows, `X` for a cell and `.` for none
    /// (docs/rules.md#polyomino-pieces).
    pub fn rows(&self) -> Vec<String> {
        let mut rows = vec![vec![b'.'; self.width]; self.height];
        for &(x, y) in &self.cells {
            rows[y][x] = b'X';
        }
        rows.into_iter()
            .map(|row| String::from_utf8(row).expect("ASCII"))
            .collect()
    }

    fn is_connected(&self) -> bool {
        let index = |x: usize, y: usize| self.cells.binary_search_by_key(&(y, x), |&(x, y)| (y, x));
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![0];
        seen[0] = true;
        let mut reached = 1;
        while let Some(i) = stack.pop() {
            let (x, y) = self.cells[i];
            let neighbours = [
                (x.wrapping_add(1), y),
                (x, y.wrapping_add(1)),
                (x.wrapping_sub(1), y),
                (x, y.wrapping_sub(1)),
            ];
            for (nx, ny) in neighbours {
                if let Ok(j) = index(nx, ny)
                    && !seen[j]
                {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
        reached == self.cells.len()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// The board: `width` columns by `height` rows, each cell covered or free.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    covered: Vec<bool>,
}

impl Board {
    /// An all-free board.
    pub fn new(width: usize, height: usize) -> Self {
        Board {
            width,
            height,
            covered: vec![false; width * height],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn is_covered(&self, x: usize, y: usize) -> bool {
        self.covered[y * self.width + x]
    }

    pub fn cover(&mut self, x: usize, y: usize) {
        self.covered[y * self.width + x] = true;
    }

    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }

    /// Where `piece` goes with its box's upper-left corner at `(x, y)`: that corner as board
    /// coordinates if the whole piece lies on the board on free cells, else the first problem
    /// (the x range, then the y range, then the covered cells in the piece's order). The
    /// coordinates come from the player, so any `i64` is checked without overflow.
    pub fn check_fit(&self, piece: &Piece, x: i64, y: i64) -> Result<(usize, usize), PlaceProblem> {
        let x = fit_span(Axis::X, x, piece.width, self.width)?;
        let y = fit_span(Axis::Y, y, piece.height, self.height)?;
        for &(cx, cy) in piece.cells() {
            let (bx, by) = (x + cx, y + cy);
            if self.is_covered(bx, by) {
                return Err(PlaceProblem::Covered { x: bx, y: by });
            }
        }
        Ok((x, y))
    }

    /// Covers the cells of `piece` with its box at `(x, y)`; the fit must have been checked.
    pub fn cover_piece(&mut self, piece: &Piece, x: usize, y: usize) {
        for &(cx, cy) in piece.cells() {
            self.cover(x + cx, y + cy);
        }
    }

    /// The sizes of the 4-connected regions of free cells, in row-major order of their first
    /// cell.
    pub fn free_regions(&self) -> Vec<usize> {
        let mut seen = self.covered.clone();
        let mut sizes = Vec::new();
        let mut stack = Vec::new();
        for start in 0..seen.len() {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                let (x, y) = (i % self.width, i / self.width);
                let mut visit = |j: usize| {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                };
                if x + 1 < self.width {
                    visit(i + 1);
                }
                if x > 0 {
                    visit(i - 1);
                }
                if y + 1 < self.height {
                    visit(i + self.width);
                }
                if y > 0 {
                    visit(i - self.width);
                }
            }
            sizes.push(size);
        }
        sizes
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}x{}", self.width, self.height)?;
        for y in 0..self.height {
            for x in 0..self.width {
                f.write_str(if self.is_covered(x, y) { "#" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A board direction: x counts columns (the board's width), y counts rows (its height).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// The box's start `at` along `axis` as a board coordinate, if a box `extent` cells long
/// starting there stays within a board `length` cells long.
fn fit_span(axis: Axis, at: i64, extent: usize, length: usize) -> Result<usize, PlaceProblem> {
    let off = || PlaceProblem::OffBoard {
        axis,
        at,
        extent,
        length,
    };
    let start = usize::try_from(at).map_err(|_| off())?;
    // `start < length` first, so the subtraction cannot wrap.
    if start < length && extent <= length - start {
        Ok(start)
    } else {
        Err(off())
    }
}

/// Why a piece cannot go where it was placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceProblem {
    /// Along `axis`, the piece's box (`extent` cells long) starting at `at` does not lie
    /// within the board's `length` cells (`0..length`).
    OffBoard {
        axis: Axis,
        at: i64,
        extent: usize,
        length: usize,
    },
    /// The piece would cover the already covered cell `(x, y)`.
    Covered { x: usize, y: usize },
}

impl fmt::Display for PlaceProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlaceProblem::OffBoard {
                axis,
                at,
                extent,
                length,
            } => {
                let (name, long) = match axis {
                    Axis::X => ("x", "wide"),
                    Axis::Y => ("y", "high"),
                };
                match usize::try_from(at) {
                    Ok(start) if start < length => write!(
                        f,
                        "its {extent}-{long} box at {name} = {at} reaches past the \
                         {length}-{long} board (at most {name} = {})",
                        length.saturating_sub(extent)
                    ),
                    _ => write!(f, "{name} = {at} is off the {length}-{long} board"),
                }
            }
            PlaceProblem::Covered { x, y } => write!(f, "covers the covered cell ({x}, {y})"),
        }
    }
}

/// A call the rules refuse; any of them scores 0 for the case
/// (docs/rules.md#polyomino-time-and-failures).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    BadSize {
        size: i64,
    },
    TooManyRequests,
    BadIndex {
        index: i64,
        requested: usize,
    },
    AlreadyPlaced {
        index: usize,
    },
    BadRotation {
        rotation: i64,
    },
    Place {
        index: usize,
        x: i64,
        y: i64,
        rotation: u8,
        problem: PlaceProblem,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::BadSize { size } => {
                write!(f, "piece size {size} is outside {MIN_SIZE}..={MAX_SIZE}")
            }
            RuleError::TooManyRequests => {
                write!(f, "more than {MAX_REQUESTS} pieces requested")
            }
            RuleError::BadIndex { index, requested } => write!(
                f,
                "piece index {index} does not exist ({requested} pieces requested so far)"
            ),
            RuleError::AlreadyPlaced { index } => {
                write!(f, "piece {index} was already placed")
            }
            RuleError::BadRotation { rotation } => {
                write!(f, "rotation {rotation} is outside 0..=3")
            }
            RuleError::Place {
                index,
                x,
                y,
                rotation,
                problem,
            } => {
                write!(f, "piece {index} at ({x}, {y}) rotation {rotation} ")?;
                match problem {
                    PlaceProblem::OffBoard { .. } => write!(f, "leaves the board: {problem}"),
                    PlaceProblem::Covered { .. } => write!(f, "{problem}"),
                }
            }
        }
    }
}

impl std::error::Error for RuleError {}

/// Where pieces come from: the judge's generator, or a player's own sampler.
pub trait PieceSource {
    /// A new piece of `size` cells (`MIN_SIZE..=MAX_SIZE`).
    fn next_piece(&mut self, size: usize) -> Piece;
}

/// The two library calls of the contest, as a built-in player sees them. Implemented by
/// [`Session`] (in-process, no IO) and by the AI's protocol client (through the judge's pipes).
pub trait Contest {
    type Error;
    /// `getNext(size)`: the new piece's index and the piece.
    fn get_next(&mut self, size: i64) -> Result<(usize, Piece), Self::Error>;
    /// `placeNext(index, x, y, rotation)`: the running total of placed size^2.
    fn place_next(&mut self, index: i64, x: i64, y: i64, rotation: i64)
    -> Result<u64, Self::Error>;
}

/// One case in play: the board with everything placed so far, the pieces handed out, and the
/// score. Every call is validated; a refused call leaves the session unchanged (the judge then
/// ends the case with 0).
#[derive(Clone, Debug)]
pub struct Session<S> {
    board: Board,
    /// Free cells at the start.
    free_at_start: usize,
    source: S,
    pieces: Vec<Piece>,
    placed: Vec<bool>,
    placed_score: u64,
    placed_count: usize,
    placed_cells: usize,
}

impl<S: PieceSource> Session<S> {
    pub fn new(board: Board, source: S) -> Self {
        let free_at_start = board.width() * board.height() - board.covered_count();
        Session {
            board,
            free_at_start,
            source,
            pieces: Vec::new(),
            placed: Vec::new(),
            placed_score: 0,
            placed_count: 0,
            placed_cells: 0,
        }
    }

    /// `getNext(size)`.
    pub fn get_next(&mut self, size: i64) -> Result<(usize, &Piece), RuleError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RuleError::BadSize { size });
        }
        if self.pieces.len() >= MAX_REQUESTS {
            return Err(RuleError::TooManyRequests);
        }
        let piece = self.source.next_piece(size as usize);
        debug_assert_eq!(piece.size(), size as usize);
        self.pieces.push(piece);
        self.placed.push(false);
        let index = self.pieces.len() - 1;
        Ok((index, &self.pieces[index]))
    }

    /// `placeNext(index, x, y, rotation)`: returns the running total of placed size^2.
    pub fn place_next(
        &mut self,
        index: i64,
        x: i64,
        y: i64,
        rotation: i64,
    ) -> Result<u64, RuleError> {
        self.place(index, x, y, rotation).map(|placed| placed.total)
    }

    /// [`Session::place_next`], also telling where the piece went (for the judge's replay):
    /// every argument is the player's, so each is range-checked before it is converted.
    pub fn place(
        &mut self,
        index: i64,
        x: i64,
        y: i64,
        rotation: i64,
    ) -> Result<Placement, RuleError> {
        let requested = self.pieces.len();
        let Some(index) = usize::try_from(index).ok().filter(|&i| i < requested) else {
            return Err(RuleError::BadIndex { index, requested });
        };
        let Some(turns) = u8::try_from(rotation)
            .ok()
            .filter(|&r| i64::from(r) < ROTATIONS)
        else {
            return Err(RuleError::BadRotation { rotation });
        };
        if self.placed[index] {
            return Err(RuleError::AlreadyPlaced { index });
        }
        let piece = self.pieces[index].rotated(turns);
        let (bx, by) = self
            .board
            .check_fit(&piece, x, y)
            .map_err(|problem| RuleError::Place {
                index,
                x,
                y,
                rotation: turns,
                problem,
            })?;
        self.board.cover_piece(&piece, bx, by);
        self.placed[index] = true;
        let size = piece.size() as u64;
        self.placed_score += size * size;
        self.placed_count += 1;
        self.placed_cells += piece.size();
        Ok(Placement {
            index,
            x: bx,
            y: by,
            piece,
            total: self.placed_score,
        })
    }
}

/// A piece the session accepted: piece `index`, turned as placed (`piece`), its box's
/// upper-left corner at column `x`, row `y`; `total` is the running total after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub index: usize,
    pub x: usize,
    pub y: usize,
    pub piece: Piece,
    pub total: u64,
}

impl<S> Session<S> {
    /// The board with the initial covered cells and every placed piece.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The pieces handed out so far, by index.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    pub fn is_placed(&self, index: usize) -> bool {
        self.placed[index]
    }

    pub fn requested(&self) -> usize {
        self.pieces.len()
    }

    pub fn placed_count(&self) -> usize {
        self.placed_count
    }

    /// The cells the placed pieces cover: the sum of their sizes.
    pub fn placed_cells(&self) -> usize {
        self.placed_cells
    }

    /// The pieces requested and never placed (each costs its size^2).
    pub fn unplaced_count(&self) -> usize {
        self.pieces.len() - self.placed_count
    }

    /// The mean size of the placed pieces (0 when none is placed).
    pub fn mean_placed_size(&self) -> f64 {
        if self.placed_count == 0 {
            0.0
        } else {
            self.placed_cells as f64 / self.placed_count as f64
        }
    }

    /// The placed size^2 per cell the placed pieces cover (0 when none is placed): a piece of
    /// size `s` scores `s` per cell, so this is the size of the piece on a covered cell,
    /// averaged over the covered cells, and [`Session::placed_score`] is exactly the cells
    /// covered times it. At least [`Session::mean_placed_size`], equal when all sizes are equal.
    pub fn points_per_cell(&self) -> f64 {
        if self.placed_cells == 0 {
            0.0
        } else {
            self.placed_score as f64 / self.placed_cells as f64
        }
    }

    /// Sum of size^2 over placed pieces.
    pub fn placed_score(&self) -> u64 {
        self.placed_score
    }

    /// Sum of size^2 over requested pieces not placed.
    pub fn unplaced_penalty(&self) -> u64 {
        self.pieces
            .iter()
            .zip(&self.placed)
            .filter(|&(_, &placed)| !placed)
            .map(|(piece, _)| (piece.size() * piece.size()) as u64)
            .sum()
    }

    /// The score before the time factor: placed minus unplaced, floored at 0.
    pub fn raw_score(&self) -> u64 {
        self.placed_score.saturating_sub(self.unplaced_penalty())
    }

    /// The fraction of the initially free cells that pieces cover (1 when none were free).
    pub fn covered_fraction(&self) -> f64 {
        if self.free_at_start == 0 {
            1.0
        } else {
            self.placed_cells as f64 / self.free_at_start as f64
        }
    }
}

impl<S: PieceSource> Contest for Session<S> {
    type Error = RuleError;

    fn get_next(&mut self, size: i64) -> Result<(usize, Piece), RuleError> {
        Session::get_next(self, size).map(|(index, piece)| (index, piece.clone()))
    }

    fn place_next(&mut self, index: i64, x: i64, y: i64, rotation: i64) -> Result<u64, RuleError> {
        Session::place_next(self, index, x, y, rotation)
    }
}

/// The final score: `raw * (1 - 0.01 * seconds)`, floored at 0 (docs/rules.md#polyomino-scoring).
pub fn final_score(raw: u64, time: Duration) -> f64 {
    let factor = (1.0 - TIME_PENALTY_PER_SECOND * time.as_secs_f64()).max(0.0);
    raw as f64 * factor
}
