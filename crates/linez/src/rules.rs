//! The rules of Linez (Color Lines on 9x9) as docs/rules.md#linez defines them: board, legal moves,
//! line removal, scoring and the spawn of the preview balls. No IO, no randomness (spawns take the
//! choice of cells from the caller), no AI.
//!
//! Cells are numbered `row * 9 + col`, row 0 = top = letter `A`, col 0 = digit `1`, so that bit
//! order is row-major order: iterating a [`Bits`] visits cells the way the contest lists the
//! empty cells when it picks one.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

/// Rows and columns of the board.
pub const SIZE: usize = 9;
/// Cells of the board.
pub const CELLS: usize = SIZE * SIZE;
/// Number of ball colours; colours are `1..=COLORS`.
pub const COLORS: u8 = 7;
/// Balls shown in the preview (`nextThree`) and placed by one spawn.
pub const PREVIEW_LEN: usize = 3;
/// The shortest run of equal colours that is removed.
pub const LINE_LENGTH: u32 = 5;

/// A ball colour, `1..=COLORS`.
pub type Color = u8;

const ALL_MASK: u128 = (1u128 << CELLS) - 1;

const fn column_mask(col: usize) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < SIZE {
        mask |= 1u128 << (row * SIZE + col);
        row += 1;
    }
    mask
}

const FIRST_COLUMN: u128 = column_mask(0);
const LAST_COLUMN: u128 = column_mask(SIZE - 1);

/// One of the 81 cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row` (0 = top, letter `A`) and `col` (0 = left, digit `1`).
    ///
    /// # Panics
    /// If `row` or `col` is not below [`SIZE`].
    #[inline]
    pub fn new(row: usize, col: usize) -> Self {
        assert!(
            row < SIZE && col < SIZE,
            "cell ({row}, {col}) is off the board"
        );
        Cell((row * SIZE + col) as u8)
    }

    /// The cell with row-major `index`.
    ///
    /// # Panics
    /// If `index` is not below [`CELLS`].
    #[inline]
    pub fn from_index(index: usize) -> Self {
        assert!(index < CELLS, "cell index {index} is off the board");
        Cell(index as u8)
    }

    #[inline]
    pub fn row(self) -> usize {
        self.0 as usize / SIZE
    }

    #[inline]
    pub fn col(self) -> usize {
        self.0 as usize % SIZE
    }

    /// Row-major index, `row * 9 + col`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// All cells in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

/// The contest's name of the cell: row letter then column digit, `A1` .. `I9`.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.row() as u8) as char, self.col() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of cells as a bitboard (bit `i` = cell with index `i`). Bits above the board are always
/// clear, so counts and iteration only ever see real cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits(u128);

impl Bits {
    pub const NONE: Bits = Bits(0);
    pub const ALL: Bits = Bits(ALL_MASK);

    /// The set whose bit pattern is `raw`; bits beyond the board are dropped.
    #[inline]
    pub const fn from_raw(raw: u128) -> Self {
        Bits(raw & ALL_MASK)
    }

    #[inline]
    pub const fn raw(self) -> u128 {
        self.0
    }

    #[inline]
    pub const fn single(cell: Cell) -> Self {
        Bits(1u128 << cell.0)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        (self.0 >> cell.0) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.0;
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.0);
    }

    /// The first cell in row-major order.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell(self.0.trailing_zeros() as u8))
        }
    }

    /// The `n`-th cell (0-based) in row-major order, as the contest picks a cell among the empty
    /// ones.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Cell> {
        let low = self.0 as u64;
        let low_count = low.count_ones();
        if n < low_count {
            return Some(Cell(select_u64(low, n) as u8));
        }
        let high = (self.0 >> 64) as u64;
        let n = n - low_count;
        if n < high.count_ones() {
            Some(Cell(64 + select_u64(high, n) as u8))
        } else {
            None
        }
    }

    #[inline]
    pub fn iter(self) -> BitsIter {
        BitsIter(self.0)
    }

    /// The set and its 4-neighbours on the board (no wrap from one row's end to the next row).
    #[inline]
    pub const fn dilate4(self) -> Bits {
        let b = self.0;
        let grown =
            b | (b << SIZE) | (b >> SIZE) | ((b & !LAST_COLUMN) << 1) | ((b & !FIRST_COLUMN) >> 1);
        Bits(grown & ALL_MASK)
    }

    /// The cells 4-adjacent to the set, not in it.
    #[inline]
    pub const fn neighbours4(self) -> Bits {
        Bits(self.dilate4().0 & !self.0)
    }

    /// The cells of `within` connected to the set's cells in `within` by 4-steps that stay in
    /// `within` (seeds outside `within` start nothing).
    #[inline]
    pub fn flood_fill(self, within: Bits) -> Bits {
        let mut filled = self.0 & within.0;
        loop {
            let grown = Bits(filled).dilate4().0 & within.0;
            if grown == filled {
                return Bits(filled);
            }
            filled = grown;
        }
    }
}

/// Index of the `n`-th set bit of `word` (`n` below its popcount): halve the search window by
/// popcounts, then clear the few remaining lower bits.
#[inline]
fn select_u64(mut word: u64, mut n: u32) -> u32 {
    let mut base = 0;
    for width in [32u32, 16, 8] {
        let lower = (word & ((1u64 << width) - 1)).count_ones();
        if n >= lower {
            n -= lower;
            word >>= width;
            base += width;
        }
    }
    for _ in 0..n {
        word &= word - 1;
    }
    base + word.trailing_zeros()
}

/// Cells of a [`Bits`], lowest index (row-major) first.
#[derive(Clone, Copy, Debug)]
pub struct BitsIter(u128);

impl Iterator for BitsIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell(index as u8))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitsIter {}

impl IntoIterator for Bits {
    type Item = Cell;
    type IntoIter = BitsIter;

    #[inline]
    fn into_iter(self) -> BitsIter {
        BitsIter(self.0)
    }
}

impl FromIterator<Cell> for Bits {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut bits = Bits::NONE;
        for cell in iter {
            bits.insert(cell);
        }
        bits
    }
}

impl From<Cell> for Bits {
    #[inline]
    fn from(cell: Cell) -> Self {
        Bits::single(cell)
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

macro_rules! bits_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bits {
            type Output = Bits;
            #[inline]
            fn $method(self, rhs: Bits) -> Bits {
                Bits(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bits {
            #[inline]
            fn $assign_method(&mut self, rhs: Bits) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bits_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bits_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bits_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Set difference.
impl Sub for Bits {
    type Output = Bits;
    #[inline]
    fn sub(self, rhs: Bits) -> Bits {
        Bits(self.0 & !rhs.0)
    }
}

impl SubAssign for Bits {
    #[inline]
    fn sub_assign(&mut self, rhs: Bits) {
        self.0 &= !rhs.0;
    }
}

/// Complement within the board.
impl Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits(!self.0 & ALL_MASK)
    }
}

/// A ball goes from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
}

impl Move {
    #[inline]
    pub fn new(from: Cell, to: Cell) -> Self {
        Move { from, to }
    }
}

/// The contest's move text, e.g. `I8F6`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Why a move is not legal on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The source cell holds no ball.
    NoBall(Cell),
    /// The source and target are the same cell.
    SameCell(Cell),
    /// The target cell holds a ball.
    TargetOccupied(Cell),
    /// No path of 4-connected empty cells leads from the source to the target.
    Unreachable { from: Cell, to: Cell },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoBall(cell) => write!(f, "no ball at source cell {cell}"),
            IllegalMove::SameCell(cell) => write!(f, "source and target are both {cell}"),
            IllegalMove::TargetOccupied(cell) => write!(f, "target cell {cell} holds a ball"),
            IllegalMove::Unreachable { from, to } => {
                write!(f, "no path of empty cells from {from} to {to}")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// `10 + k*(k-5)/2` points for removing `k` balls at once (docs/rules.md#linez-lines-and-scoring),
/// 0 for none.
#[inline]
pub const fn line_points(removed: u32) -> u32 {
    if removed == 0 {
        0
    } else {
        debug_assert!(removed >= LINE_LENGTH);
        10 + removed * (removed - LINE_LENGTH) / 2
    }
}

/// A connected set of empty cells and the balls next to it: each of those balls can move to
/// each of its cells, and no other ball can.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Region {
    pub cells: Bits,
    pub movers: Bits,
}

impl Region {
    /// Legal moves into this region.
    #[inline]
    pub fn move_count(&self) -> u32 {
        self.cells.count() * self.movers.count()
    }
}

/// The empty regions of a board, found one flood fill at a time, lowest first cell first.
#[derive(Clone, Copy, Debug)]
pub struct Regions {
    unvisited: Bits,
    empty: Bits,
    occupied: Bits,
}

impl Iterator for Regions {
    type Item = Region;

    #[inline]
    fn next(&mut self) -> Option<Region> {
        let seed = self.unvisited.first()?;
        let cells = Bits::single(seed).flood_fill(self.empty);
        self.unvisited -= cells;
        Some(Region {
            cells,
            movers: cells.dilate4() & self.occupied,
        })
    }
}

/// Cells of different regions are never adjacent, so one cell per region is an
/// independent set of the 9x9 grid, which has at most 41 cells.
const MAX_REGIONS: usize = CELLS.div_ceil(2);

/// All legal moves of a board, held compactly as its regions, so that a search can count them
/// and draw the `i`-th without building a list.
#[derive(Clone, Copy, Debug)]
pub struct LegalMoves {
    regions: [Region; MAX_REGIONS],
    len: usize,
    count: u32,
}

impl LegalMoves {
    pub fn new(board: &Board) -> Self {
        let mut moves = LegalMoves {
            regions: [Region::default(); MAX_REGIONS],
            len: 0,
            count: 0,
        };
        for region in board.regions() {
            moves.regions[moves.len] = region;
            moves.len += 1;
            moves.count += region.move_count();
        }
        moves
    }

    /// Number of legal moves.
    #[inline]
    pub fn count(&self) -> u32 {
        self.count
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The board's empty regions (including those no ball touches, which only an empty board
    /// has).
    #[inline]
    pub fn regions(&self) -> &[Region] {
        &self.regions[..self.len]
    }

    /// The `i`-th legal move in the order [`Board::for_each_legal_move`] yields them.
    pub fn nth(&self, mut i: u32) -> Option<Move> {
        for region in self.regions() {
            let n = region.move_count();
            if i < n {
                let targets = region.cells.count();
                let from = region.movers.nth(i / targets)?;
                let to = region.cells.nth(i % targets)?;
                return Some(Move { from, to });
            }
            i -= n;
        }
        None
    }

    /// Calls `f` with every legal move.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        for region in self.regions() {
            for_each_move_into(region, &mut f);
        }
    }
}

#[inline]
fn for_each_move_into(region: &Region, f: &mut impl FnMut(Move)) {
    for from in region.movers {
        for to in region.cells {
            f(Move { from, to });
        }
    }
}

/// The ball line directions as (row step, column step): row, column, diagonal, anti-diagonal.
const LINE_DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The balls on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Colour per cell, 0 = empty: the lookup `get` and line scans need.
    colors: [u8; CELLS],
    by_color: [Bits; COLORS as usize],
    occupied: Bits,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Self {
        Board {
            colors: [0; CELLS],
            by_color: [Bits::NONE; COLORS as usize],
            occupied: Bits::NONE,
        }
    }

    /// The colour on every cell in row-major order, 0 for an empty cell: the evaluations read
    /// whole windows of cells, where a per-cell `Option` costs a branch each.
    #[inline]
    pub fn colors(&self) -> &[u8; CELLS] {
        &self.colors
    }

    /// The colour of the ball on `cell`, if any.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Color> {
        match self.colors[cell.index()] {
            0 => None,
            color => Some(color),
        }
    }

    /// Puts a ball of `color` on `cell`, replacing any ball there.
    ///
    /// # Panics
    /// If `color` is not in `1..=COLORS`.
    #[inline]
    pub fn put(&mut self, cell: Cell, color: Color) {
        assert!((1..=COLORS).contains(&color), "colour {color} is not 1..=7");
        self.take(cell);
        self.colors[cell.index()] = color;
        self.by_color[color as usize - 1].insert(cell);
        self.occupied.insert(cell);
    }

    /// Removes the ball on `cell` and returns its colour.
    #[inline]
    pub fn take(&mut self, cell: Cell) -> Option<Color> {
        let color = self.get(cell)?;
        self.colors[cell.index()] = 0;
        self.by_color[color as usize - 1].remove(cell);
        self.occupied.remove(cell);
        Some(color)
    }

    /// Removes every ball on `cells`.
    #[inline]
    pub fn clear_cells(&mut self, cells: Bits) {
        for cell in cells & self.occupied {
            self.colors[cell.index()] = 0;
        }
        for bits in &mut self.by_color {
            *bits -= cells;
        }
        self.occupied -= cells;
    }

    #[inline]
    pub fn empty_cells(&self) -> Bits {
        !self.occupied
    }

    #[inline]
    pub fn occupied(&self) -> Bits {
        self.occupied
    }

    /// The cells holding balls of `color`.
    ///
    /// # Panics
    /// If `color` is not in `1..=COLORS`.
    #[inline]
    pub fn color_bits(&self, color: Color) -> Bits {
        self.by_color[color as usize - 1]
    }

    #[inline]
    pub fn ball_count(&self) -> u32 {
        self.occupied.count()
    }

    /// The empty cells reachable from `cell` through 4-connected empty cells. For a ball that is
    /// where it can move; for an empty cell it is its region (the cell included).
    #[inline]
    pub fn reachable_from(&self, cell: Cell) -> Bits {
        let empty = self.empty_cells();
        Bits::single(cell).dilate4().flood_fill(empty)
    }

    /// The empty regions with the balls that can move into each.
    #[inline]
    pub fn regions(&self) -> Regions {
        let empty = self.empty_cells();
        Regions {
            unvisited: empty,
            empty,
            occupied: self.occupied,
        }
    }

    /// Calls `f` with every legal move once: region by region (a ball's targets are the union of
    /// the regions next to it), then ball, then target, each in row-major order.
    #[inline]
    pub fn for_each_legal_move(&self, mut f: impl FnMut(Move)) {
        for region in self.regions() {
            for_each_move_into(&region, &mut f);
        }
    }

    /// All legal moves, countable and indexable.
    #[inline]
    pub fn legal_moves(&self) -> LegalMoves {
        LegalMoves::new(self)
    }

    pub fn legal_move_count(&self) -> u32 {
        self.regions().map(|region| region.move_count()).sum()
    }

    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if !self.occupied.contains(mv.from) {
            return Err(IllegalMove::NoBall(mv.from));
        }
        if mv.from == mv.to {
            return Err(IllegalMove::SameCell(mv.from));
        }
        if self.occupied.contains(mv.to) {
            return Err(IllegalMove::TargetOccupied(mv.to));
        }
        if !self.reachable_from(mv.from).contains(mv.to) {
            return Err(IllegalMove::Unreachable {
                from: mv.from,
                to: mv.to,
            });
        }
        Ok(())
    }

    /// Every cell of a row, column, diagonal or anti-diagonal run of at least [`LINE_LENGTH`]
    /// equal colours through `cell`; empty if there is none (or `cell` is empty).
    #[inline]
    pub fn lines_through(&self, cell: Cell) -> Bits {
        let color = self.colors[cell.index()];
        if color == 0 {
            return Bits::NONE;
        }
        let (row, col) = (cell.row(), cell.col());
        let mut lines = Bits::NONE;
        for (row_step, col_step) in LINE_DIRECTIONS {
            let mut run = Bits::single(cell);
            for sign in [1isize, -1] {
                let (mut r, mut c) = (row, col);
                loop {
                    r = r.wrapping_add_signed(sign * row_step);
                    c = c.wrapping_add_signed(sign * col_step);
                    // Stepping off the top or left edge wraps to a huge value, so one bound
                    // check covers both edges.
                    if r >= SIZE || c >= SIZE || self.colors[r * SIZE + c] != color {
                        break;
                    }
                    run.insert(Cell((r * SIZE + c) as u8));
                }
            }
            if run.count() >= LINE_LENGTH {
                lines |= run;
            }
        }
        lines
    }

    /// Removes the union of the runs [`lines_through`](Self::lines_through) any of `cells`
    /// (found before anything is removed) and returns how many balls went.
    #[inline]
    pub fn clear_lines_through(&mut self, cells: Bits) -> u32 {
        let mut doomed = Bits::NONE;
        for cell in cells {
            doomed |= self.lines_through(cell);
        }
        if !doomed.is_empty() {
            self.clear_cells(doomed);
        }
        doomed.count()
    }

    /// Moves the ball without checking legality, then removes the lines through its new cell;
    /// returns the number of balls removed.
    #[inline]
    pub fn move_ball(&mut self, mv: Move) -> u32 {
        // Reachability is left to `check_move`: a flood fill here would double the cost of
        // every move in debug-assertion builds, where the AI's tests run.
        debug_assert!(
            self.occupied.contains(mv.from) && !self.occupied.contains(mv.to),
            "{mv} on {self:?}"
        );
        let color = self.colors[mv.from.index()];
        let slot = color as usize - 1;
        self.colors[mv.from.index()] = 0;
        self.colors[mv.to.index()] = color;
        let shift = Bits::single(mv.from) | Bits::single(mv.to);
        self.by_color[slot] ^= shift;
        self.occupied ^= shift;
        self.clear_lines_through(Bits::single(mv.to))
    }
}

/// The board as 9 rows of `1`..`7` and `.`, for test failures.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for row in 0..SIZE {
            for col in 0..SIZE {
                let c = match self.colors[row * SIZE + col] {
                    0 => '.',
                    color => (b'0' + color) as char,
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// What a played move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The move completed lines: `removed` balls went for `points`; the player moves again with
    /// the same preview.
    Cleared { removed: u32, points: u32 },
    /// No line: the preview must spawn ([`State::spawn`]) before the next move.
    SpawnDue,
}

/// A game in progress: the board, the preview, and the score and move count so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub board: Board,
    /// The colours of the next spawn (`nextThree`), placed in this order.
    pub preview: [Color; PREVIEW_LEN],
    pub score: u64,
    pub moves: u64,
}

impl State {
    pub fn new(board: Board, preview: [Color; PREVIEW_LEN]) -> Self {
        State {
            board,
            preview,
            score: 0,
            moves: 0,
        }
    }

    /// Plays an untrusted move.
    pub fn play(&mut self, mv: Move) -> Result<Turn, IllegalMove> {
        self.board.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (e.g. from [`Board::for_each_legal_move`]).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Turn {
        let removed = self.board.move_ball(mv);
        self.moves += 1;
        if removed == 0 {
            Turn::SpawnDue
        } else {
            let points = line_points(removed);
            self.score += u64::from(points);
            Turn::Cleared { removed, points }
        }
    }

    /// Places the preview balls in order, each on the empty cell `pick(number of empty cells)`
    /// counted in row-major order, stopping early if the board fills; then removes the runs
    /// through any placed ball as one removal, scores it and returns the number removed. The
    /// caller sets the next preview.
    ///
    /// # Panics
    /// If `pick` returns a number not below its argument.
    #[inline]
    pub fn spawn(&mut self, mut pick: impl FnMut(u32) -> u32) -> u32 {
        let mut placed = Bits::NONE;
        for color in self.preview {
            let empty = self.board.empty_cells();
            let free = empty.count();
            if free == 0 {
                break;
            }
            let choice = pick(free);
            let cell = empty
                .nth(choice)
                .unwrap_or_else(|| panic!("pick returned {choice} for {free} empty cells"));
            self.board.put(cell, color);
            placed.insert(cell);
        }
        let removed = self.board.clear_lines_through(placed);
        self.score += u64::from(line_points(removed));
        removed
    }

    /// The game ends when no empty cell remains.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.board.occupied() == Bits::ALL
    }

    /// Our rule for a case the statement does not settle (docs/rules.md#linez-end-of-game): a clear
    /// can leave the board without a single ball, and then no move exists although the game is not
    /// over. The player then passes: the preview spawns without a move (the judge calls
    /// [`State::spawn`] instead of asking for one).
    ///
    /// This is the only way to have no move while empty cells remain: any region of empty cells
    /// short of the whole board borders a ball, which can move into it.
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.board.occupied().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_coordinates_round_trip() {
        for cell in Cell::all() {
            assert_eq!(Cell::new(cell.row(), cell.col()), cell);
            assert_eq!(Cell::from_index(cell.index()), cell);
        }
        assert_eq!(Cell::new(8, 7).to_string(), "I8");
        assert_eq!(Cell::new(0, 0).index(), 0);
        assert_eq!(Cell::new(1, 0).index(), 9);
    }

    #[test]
    #[should_panic(expected = "off the board")]
    fn cell_new_rejects_column_nine() {
        Cell::new(0, 9);
    }

    #[test]
    fn dilate4_does_not_wrap_between_rows() {
        let right_end = Bits::single(Cell::new(3, 8));
        let grown = right_end.dilate4();
        let want: Bits = [(3, 8), (2, 8), (4, 8), (3, 7)]
            .into_iter()
            .map(|(r, c)| Cell::new(r, c))
            .collect();
        assert_eq!(grown, want);

        let left_end = Bits::single(Cell::new(4, 0));
        let want: Bits = [(4, 0), (3, 0), (5, 0), (4, 1)]
            .into_iter()
            .map(|(r, c)| Cell::new(r, c))
            .collect();
        assert_eq!(left_end.dilate4(), want);

        let corners = Bits::single(Cell::new(0, 0)) | Bits::single(Cell::new(8, 8));
        assert_eq!(corners.dilate4().count(), 6);
        assert_eq!(Bits::ALL.dilate4(), Bits::ALL);
    }

    #[test]
    fn nth_walks_row_major_across_the_word_boundary() {
        let cells: Vec<Cell> = [0, 5, 63, 64, 65, 80]
            .into_iter()
            .map(Cell::from_index)
            .collect();
        let bits: Bits = cells.iter().copied().collect();
        for (i, &cell) in cells.iter().enumerate() {
            assert_eq!(bits.nth(i as u32), Some(cell));
        }
        assert_eq!(bits.nth(6), None);
        assert_eq!(Bits::ALL.nth(80), Some(Cell::from_index(80)));
        assert_eq!(Bits::ALL.nth(81), None);
        assert_eq!(Bits::NONE.nth(0), None);
    }

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!((!Bits::NONE).count(), 81);
        assert_eq!(!Bits::ALL, Bits::NONE);
        assert_eq!(Bits::from_raw(u128::MAX), Bits::ALL);
    }

    #[test]
    fn line_points_follow_the_formula() {
        let got: Vec<u32> = (5..=10).map(line_points).collect();
        assert_eq!(got, [10, 13, 17, 22, 28, 35]);
        assert_eq!(line_points(0), 0);
    }

    #[test]
    fn put_replaces_and_take_empties() {
        let mut board = Board::empty();
        let cell = Cell::new(4, 4);
        board.put(cell, 3);
        board.put(cell, 5);
        assert_eq!(board.get(cell), Some(5));
        assert!(board.color_bits(3).is_empty());
        assert_eq!(board.color_bits(5), Bits::single(cell));
        assert_eq!(board.take(cell), Some(5));
        assert_eq!(board.take(cell), None);
        assert_eq!(board, Board::empty());
    }
}
