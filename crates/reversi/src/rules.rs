//! The rules of MultiplayerReversi as docs/rules.md#multiplayerreversi defines them: an n x n board
//! (7..=12), 3 players on odd boards and 4 on even ones, the centred start block, multi-player
//! captures, skipped turns and the end of the game. No IO, no randomness, no AI.
//!
//! Cells are numbered `row * STRIDE + col` with a fixed [`STRIDE`] of 13 whatever the board
//! size: column 12 is never on the board, so a shift by one column cannot wrap into the next
//! row, and bit order is row-major order (the order in which the opponents try their moves).
//! A board keeps both bitboards (one per player, for counting and for the frontier) and a
//! mailbox (the owner of each cell, off-board cells marked) for the capture walks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// The smallest board (docs/rules.md#reversi-board-and-players).
pub const MIN_SIZE: usize = 7;
/// The largest board.
pub const MAX_SIZE: usize = 12;
/// Cell numbers per row: one more than the largest board, so rows never touch.
pub const STRIDE: usize = MAX_SIZE + 1;
/// Cell numbers in use (the last row needs no padding column, but keeping it is simpler).
pub const CELL_SLOTS: usize = MAX_SIZE * STRIDE;
/// The most players of a game.
pub const MAX_PLAYERS: usize = 4;

/// A player, `1..=P` as the contest's board text shows it; player 1 is the contestant.
pub type Player = u8;

/// Players of a game on an `n x n` board: 3 for odd `n`, 4 for even `n`
/// (docs/rules.md#reversi-board-and-players).
pub const fn players_for_size(n: usize) -> usize {
    if n % 2 == 1 { 3 } else { 4 }
}

/// The cell of the start block at (`row`, `col`) within the block
/// (docs/rules.md#reversi-board-and-players: rows `123`, `231`, `312` for 3 players; `1234`,
/// `2341`, ... for 4).
pub const fn start_owner(row: usize, col: usize, players: usize) -> Player {
    ((row + col) % players) as Player + 1
}

/// One cell of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row`, `col` (0-based, (0,0) is the upper left corner).
    ///
    /// # Panics
    /// If `row` or `col` is not below [`MAX_SIZE`].
    #[inline]
    pub fn new(row: usize, col: usize) -> Self {
        assert!(
            row < MAX_SIZE && col < MAX_SIZE,
            "cell ({row}, {col}) is off every board"
        );
        Cell((row * STRIDE + col) as u8)
    }

    /// The cell with number `index` (`row * STRIDE + col`).
    #[inline]
    pub const fn from_index(index: usize) -> Self {
        Cell(index as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / STRIDE
    }

    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % STRIDE
    }
}

/// `(col,row)`, the contest's order.
impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.col(), self.row())
    }
}

const WORDS: usize = 3;

/// A set of cells (bit `i` = cell number `i`), 192 bits so that the 12 x 12 board with its
/// padding column fits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits([u64; WORDS]);

impl Bits {
    pub const NONE: Bits = Bits([0; WORDS]);

    #[inline]
    pub const fn single(cell: Cell) -> Self {
        let mut words = [0; WORDS];
        words[cell.0 as usize / 64] = 1u64 << (cell.0 % 64);
        Bits(words)
    }

    #[inline]
    pub const fn words(self) -> [u64; WORDS] {
        self.0
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    #[inline]
    pub fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        (self.0[cell.0 as usize / 64] >> (cell.0 % 64)) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.0 as usize / 64] |= 1u64 << (cell.0 % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.0 as usize / 64] &= !(1u64 << (cell.0 % 64));
    }

    /// The first cell in row-major order.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.iter().next()
    }

    #[inline]
    pub fn iter(self) -> BitsIter {
        let [current, next, last] = self.0;
        BitsIter {
            current,
            later: [next, last],
            base: 0,
        }
    }

    /// The bits moved `k` cell numbers up (towards higher numbers).
    #[inline]
    fn shl(self, k: u32) -> Bits {
        let [a, b, c] = self.0;
        Bits([
            a << k,
            (b << k) | (a >> (64 - k)),
            (c << k) | (b >> (64 - k)),
        ])
    }

    /// The bits moved `k` cell numbers down.
    #[inline]
    fn shr(self, k: u32) -> Bits {
        let [a, b, c] = self.0;
        Bits([
            (a >> k) | (b << (64 - k)),
            (b >> k) | (c << (64 - k)),
            c >> k,
        ])
    }

    /// The set and its 8-neighbours, not yet masked to a board.
    #[inline]
    pub fn dilate8_unmasked(self) -> Bits {
        let mut out = self;
        for k in [1, STRIDE as u32 - 1, STRIDE as u32, STRIDE as u32 + 1] {
            out |= self.shl(k) | self.shr(k);
        }
        out
    }
}

/// Cells of a [`Bits`], row-major. The words still to come move down into `current` rather
/// than being indexed, so that the state stays in registers (the iteration is in every hot
/// loop of the engine and the opponents' move choice).
#[derive(Clone, Copy, Debug)]
pub struct BitsIter {
    /// The word being read, its cells taken away as they are returned.
    current: u64,
    later: [u64; WORDS - 1],
    /// The cell number of bit 0 of `current`.
    base: u8,
}

impl Iterator for BitsIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.current == 0 {
            let [next, last] = self.later;
            if next | last == 0 {
                return None;
            }
            self.current = next;
            self.later = [last, 0];
            self.base += 64;
        }
        let cell = Cell(self.base + self.current.trailing_zeros() as u8);
        self.current &= self.current - 1;
        Some(cell)
    }
}

impl IntoIterator for Bits {
    type Item = Cell;
    type IntoIter = BitsIter;

    #[inline]
    fn into_iter(self) -> BitsIter {
        self.iter()
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
                Bits([self.0[0] $op rhs.0[0], self.0[1] $op rhs.0[1], self.0[2] $op rhs.0[2]])
            }
        }
        impl $assign_trait for Bits {
            #[inline]
            fn $assign_method(&mut self, rhs: Bits) {
                *self = *self $op rhs;
            }
        }
    };
}

bits_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bits_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

/// Set difference.
impl Sub for Bits {
    type Output = Bits;
    #[inline]
    fn sub(self, rhs: Bits) -> Bits {
        self & !rhs
    }
}

impl SubAssign for Bits {
    #[inline]
    fn sub_assign(&mut self, rhs: Bits) {
        *self = *self - rhs;
    }
}

/// Complement over all 192 bits (mask with a board's cells before use).
impl Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits([!self.0[0], !self.0[1], !self.0[2]])
    }
}

/// Mailbox slots before cell 0: one row and one cell, so that every neighbour of a board cell
/// has a slot.
const PAD: usize = STRIDE + 1;
const MAILBOX: usize = PAD + CELL_SLOTS + PAD;
/// Mailbox value of an empty cell.
const EMPTY: u8 = 0;
/// Mailbox value of a slot that is not on the board.
const OFF: u8 = 0xff;
/// The 8 directions as steps between cell numbers.
pub const DIRECTIONS: [isize; 8] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize),
    -(STRIDE as isize) + 1,
    -1,
    1,
    STRIDE as isize - 1,
    STRIDE as isize,
    STRIDE as isize + 1,
];

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// Column or row outside the board.
    OffBoard { col: usize, row: usize, size: usize },
    /// The cell already holds a piece.
    Occupied(Cell),
    /// No line from the cell captures anything.
    NoCapture(Cell),
    /// The game is over: nobody may move.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard { col, row, size } => {
                write!(f, "column {col}, row {row} is off the {size}x{size} board")
            }
            IllegalMove::Occupied(cell) => {
                write!(f, "column {}, row {} is occupied", cell.col(), cell.row())
            }
            IllegalMove::NoCapture(cell) => write!(
                f,
                "a piece at column {}, row {} captures nothing",
                cell.col(),
                cell.row()
            ),
            IllegalMove::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position: who owns which cell. Whose turn it is lives in [`State`].
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    size: u8,
    players: u8,
    /// Owner of each mailbox slot: [`EMPTY`], a player, or [`OFF`].
    owner: [u8; MAILBOX],
    /// Cells of each player (index 0 unused).
    pieces: [Bits; MAX_PLAYERS + 1],
    empty: Bits,
    cells: Bits,
}

impl Board {
    /// An empty `size x size` board for `players` players.
    ///
    /// # Panics
    /// If the size is not in `MIN_SIZE..=MAX_SIZE` or `players` not in `2..=MAX_PLAYERS`.
    pub fn empty(size: usize, players: usize) -> Self {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} not in {MIN_SIZE}..={MAX_SIZE}"
        );
        assert!((2..=MAX_PLAYERS).contains(&players), "{players} players");
        let mut owner = [OFF; MAILBOX];
        let mut cells = Bits::NONE;
        for row in 0..size {
            for col in 0..size {
                let cell = Cell::new(row, col);
                owner[cell.index() + PAD] = EMPTY;
                cells.insert(cell);
            }
        }
        Board {
            size: size as u8,
            players: players as u8,
            owner,
            pieces: [Bits::NONE; MAX_PLAYERS + 1],
            empty: cells,
            cells,
        }
    }

    /// The start of a game on an `n x n` board (docs/rules.md#reversi-board-and-players):
    /// [`players_for_size`] players and the centred start block of [`start_owner`].
    pub fn start(size: usize) -> Self {
        let players = players_for_size(size);
        let mut board = Board::empty(size, players);
        let corner = (size - players) / 2;
        for row in 0..players {
            for col in 0..players {
                let cell = Cell::new(corner + row, corner + col);
                board.put(cell, Some(start_owner(row, col, players)));
            }
        }
        board
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The cell at (`col`, `row`), if it is on this board.
    #[inline]
    pub fn cell_at(&self, col: usize, row: usize) -> Option<Cell> {
        (col < self.size() && row < self.size()).then(|| Cell::new(row, col))
    }

    /// All cells of the board.
    #[inline]
    pub fn cells(&self) -> Bits {
        self.cells
    }

    #[inline]
    pub fn empty_cells(&self) -> Bits {
        self.empty
    }

    #[inline]
    pub fn occupied(&self) -> Bits {
        self.cells - self.empty
    }

    /// Cells of `player`.
    #[inline]
    pub fn pieces(&self, player: Player) -> Bits {
        self.pieces[player as usize]
    }

    #[inline]
    pub fn count(&self, player: Player) -> u32 {
        self.pieces[player as usize].count()
    }

    /// The owner of `cell`, `None` when empty.
    ///
    /// # Panics
    /// (in debug builds) if the cell is not on this board.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Player> {
        let value = self.owner[cell.index() + PAD];
        debug_assert!(value != OFF, "{cell:?} is off the board");
        (value != EMPTY).then_some(value)
    }

    /// Sets the owner of a board cell (for building positions; no capture happens).
    pub fn put(&mut self, cell: Cell, owner: Option<Player>) {
        assert!(self.cells.contains(cell), "{cell:?} is off the board");
        if let Some(old) = self.get(cell) {
            self.pieces[old as usize].remove(cell);
        }
        match owner {
            Some(player) => {
                assert!(
                    (1..=self.players).contains(&player),
                    "no player {player} in a {}-player game",
                    self.players
                );
                self.pieces[player as usize].insert(cell);
                self.empty.remove(cell);
                self.owner[cell.index() + PAD] = player;
            }
            None => {
                self.empty.insert(cell);
                self.owner[cell.index() + PAD] = EMPTY;
            }
        }
    }

    /// Empty cells next to a piece: the only candidates for a legal move.
    #[inline]
    pub fn frontier(&self) -> Bits {
        self.occupied().dilate8_unmasked() & self.empty
    }

    /// Whether a piece of `player` on the empty `cell` captures in direction `step`: the length
    /// of the run of other players' pieces ended by one of `player`'s, or 0.
    #[inline]
    fn run(&self, player: Player, slot: usize, step: isize) -> usize {
        let mut at = slot.wrapping_add_signed(step);
        let mut length = 0;
        loop {
            let value = self.owner[at];
            if value == player {
                return length;
            }
            if value == EMPTY || value == OFF {
                return 0;
            }
            length += 1;
            at = at.wrapping_add_signed(step);
        }
    }

    /// Whether `player` may place a piece on `cell` (empty and capturing).
    #[inline]
    pub fn is_legal(&self, player: Player, cell: Cell) -> bool {
        if !self.empty.contains(cell) {
            return false;
        }
        let slot = cell.index() + PAD;
        DIRECTIONS
            .iter()
            .any(|&step| self.run(player, slot, step) > 0)
    }

    /// Cells where `player` may move.
    pub fn legal_moves(&self, player: Player) -> Bits {
        let mut legal = Bits::NONE;
        self.for_each_capture_run(player, &mut legal);
        legal
    }

    /// Calls `runs.run(d, length, moves)` for each direction `d` of [`DIRECTIONS`] in order and
    /// each run length: `moves` are the empty cells from which a piece of `player` captures
    /// exactly `length` pieces in direction `d` (the cells `1..=length` steps away). Runs of
    /// other players' pieces that start next to one of `player`'s are grown step by step
    /// (bitboard shifts; a shift that leaves the board lands on padding, which no set contains)
    /// and the empty cell just past a run captures back along it. Stops early when
    /// [`CaptureRuns::done`] says so.
    #[inline]
    pub fn for_each_capture_run(&self, player: Player, runs: &mut impl CaptureRuns) {
        let own = self.pieces[player as usize];
        let others = self.occupied() - own;
        let empty = self.empty;
        // A move captures towards `step` when its run lies that way: the runs grow from `player`'s
        // pieces against `step`.
        #[inline(always)]
        fn flood(own: Bits, others: Bits, empty: Bits, d: usize, runs: &mut impl CaptureRuns) {
            let step = DIRECTIONS[d];
            let k = step.unsigned_abs() as u32;
            let shift = |bits: Bits| if step < 0 { bits.shl(k) } else { bits.shr(k) };
            let mut run = shift(own) & others;
            let mut length = 0;
            while !run.is_empty() {
                length += 1;
                let next = shift(run);
                let moves = next & empty;
                if !moves.is_empty() {
                    runs.run(d, length, moves);
                }
                run = next & others;
            }
        }
        // (A macro, not a loop: the constant direction makes every shift a constant one.)
        macro_rules! directions {
            ($($d:literal)*) => {$(
                flood(own, others, empty, $d, runs);
                if runs.done() {
                    return;
                }
            )*};
        }
        directions!(0 1 2 3 4 5 6 7);
    }

    /// Whether `player` has a legal move (the runs stop at the first direction with one).
    pub fn has_move(&self, player: Player) -> bool {
        let mut found = AnyMove(false);
        self.for_each_capture_run(player, &mut found);
        found.0
    }

    /// The pieces a move of `player` on the empty `cell` flips (empty when it is not legal).
    pub fn flips(&self, player: Player, cell: Cell) -> Bits {
        let mut flips = Bits::NONE;
        if !self.empty.contains(cell) {
            return flips;
        }
        let slot = cell.index() + PAD;
        for step in DIRECTIONS {
            let length = self.run(player, slot, step);
            let mut at = slot;
            for _ in 0..length {
                at = at.wrapping_add_signed(step);
                flips.insert(Cell::from_index(at - PAD));
            }
        }
        flips
    }

    /// Calls `visit` with every cell a move of `player` on `cell` flips, direction by direction
    /// ([`DIRECTIONS`] order), nearest first; returns how many.
    #[inline]
    pub fn for_each_flip(&self, player: Player, cell: Cell, mut visit: impl FnMut(Cell)) -> u32 {
        let slot = cell.index() + PAD;
        let mut total = 0;
        for step in DIRECTIONS {
            let length = self.run(player, slot, step);
            let mut at = slot;
            for _ in 0..length {
                at = at.wrapping_add_signed(step);
                visit(Cell::from_index(at - PAD));
            }
            total += length as u32;
        }
        total
    }

    /// Calls `visit` with the cells a move of `player` on `cell` flips along the directions in
    /// the mask `directions` (bit `d` = [`DIRECTIONS`]`[d]`),
    /// direction by direction in [`DIRECTIONS`] order, nearest first. Checks nothing: each
    /// direction must capture, since the walk stops only at `player`'s own piece.
    #[inline]
    pub fn for_each_flip_along(
        &self,
        player: Player,
        cell: Cell,
        mut directions: u8,
        mut visit: impl FnMut(Cell),
    ) {
        let slot = cell.index() + PAD;
        while directions != 0 {
            let step = DIRECTIONS[directions.trailing_zeros() as usize];
            directions &= directions - 1;
            let mut at = slot.wrapping_add_signed(step);
            while self.owner[at] != player {
                visit(Cell::from_index(at - PAD));
                at = at.wrapping_add_signed(step);
            }
        }
    }

    /// Places `player`'s piece on `cell` and flips the captured pieces; returns them. Checks
    /// nothing: `cell` must be legal for `player`.
    pub fn play_unchecked(&mut self, player: Player, cell: Cell) -> Bits {
        let slot = cell.index() + PAD;
        let mut flipped = Bits::NONE;
        for step in DIRECTIONS {
            let length = self.run(player, slot, step);
            let mut at = slot;
            for _ in 0..length {
                at = at.wrapping_add_signed(step);
                let old = self.owner[at];
                let flip = Cell::from_index(at - PAD);
                self.pieces[old as usize].remove(flip);
                self.owner[at] = player;
                flipped.insert(flip);
            }
        }
        self.pieces[player as usize] |= flipped;
        self.pieces[player as usize].insert(cell);
        self.empty.remove(cell);
        self.owner[slot] = player;
        flipped
    }

    /// [`Board::play_unchecked`] when the directions in which the move captures are known
    /// (a mask as in [`Board::for_each_flip_along`]): only those are walked. Checks nothing.
    pub fn play_along(&mut self, player: Player, cell: Cell, directions: u8) {
        let mut flipped = Bits::NONE;
        self.for_each_flip_along(player, cell, directions, |flip| flipped.insert(flip));
        for other in 1..=self.players as usize {
            self.pieces[other] -= flipped;
        }
        for flip in flipped {
            self.owner[flip.index() + PAD] = player;
        }
        self.pieces[player as usize] |= flipped;
        self.pieces[player as usize].insert(cell);
        self.empty.remove(cell);
        self.owner[cell.index() + PAD] = player;
    }

    /// [`Board::play_unchecked`] after checking that the move is legal.
    pub fn play(&mut self, player: Player, cell: Cell) -> Result<Bits, IllegalMove> {
        if !self.cells.contains(cell) {
            return Err(IllegalMove::OffBoard {
                col: cell.col(),
                row: cell.row(),
                size: self.size(),
            });
        }
        if !self.empty.contains(cell) {
            return Err(IllegalMove::Occupied(cell));
        }
        if !self.is_legal(player, cell) {
            return Err(IllegalMove::NoCapture(cell));
        }
        Ok(self.play_unchecked(player, cell))
    }

    /// The player after `player` in turn order.
    #[inline]
    pub fn next_player(&self, player: Player) -> Player {
        player % self.players + 1
    }

    /// The next player from `after` on (in turn order, `after` itself last) who has a legal
    /// move: the one whose turn it is after `after` moved; `None` when nobody can move.
    pub fn next_to_move(&self, after: Player) -> Option<Player> {
        let mut player = after;
        for _ in 0..self.players {
            player = self.next_player(player);
            if self.has_move(player) {
                return Some(player);
            }
        }
        None
    }
}

/// Receives the runs of [`Board::for_each_capture_run`]: a trait rather than a closure so that
/// an implementation can insist on being inlined into each of the eight unrolled directions
/// (a closure called from eight places is not, and the calls cost about a fifth of a choice).
pub trait CaptureRuns {
    /// The moves that capture exactly `length` pieces in direction `direction` (an index into
    /// [`DIRECTIONS`]).
    fn run(&mut self, direction: usize, length: u32, moves: Bits);

    /// Whether the remaining directions may be skipped (checked after each direction).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Whether any move exists.
struct AnyMove(bool);

impl CaptureRuns for AnyMove {
    #[inline(always)]
    fn run(&mut self, _: usize, _: u32, _: Bits) {
        self.0 = true;
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Collects the legal moves.
impl CaptureRuns for Bits {
    #[inline(always)]
    fn run(&mut self, _: usize, _: u32, moves: Bits) {
        *self |= moves;
    }
}

/// The board as the contest's rows, one per line.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.size() {
            for col in 0..self.size() {
                let c = match self.get(Cell::new(row, col)) {
                    None => '.',
                    Some(p) => (b'0' + p) as char,
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A game in progress: the board and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Board,
    /// The player to move, always one with a legal move; `None` once nobody can move.
    pub to_move: Option<Player>,
    /// Moves played so far (by all players).
    pub moves: u32,
}

impl State {
    /// A new game on an `n x n` board; player 1 moves first.
    pub fn new(size: usize) -> Self {
        State::from_board(Board::start(size), 1)
    }

    /// The game at `board` with `player` (or the next one who can) to move.
    pub fn from_board(board: Board, player: Player) -> Self {
        let before = if player == 1 {
            board.players() as Player
        } else {
            player - 1
        };
        let to_move = board.next_to_move(before);
        State {
            board,
            to_move,
            moves: 0,
        }
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// Plays the mover's piece on `cell` after checking it, then passes the turn on (skipping
    /// players without a move).
    pub fn play(&mut self, cell: Cell) -> Result<Bits, IllegalMove> {
        let player = self.to_move.ok_or(IllegalMove::GameOver)?;
        let flipped = self.board.play(player, cell)?;
        self.after_move(player);
        Ok(flipped)
    }

    /// [`State::play`] without the checks.
    pub fn play_unchecked(&mut self, cell: Cell) -> Bits {
        let player = self.to_move.expect("the game is not over");
        let flipped = self.board.play_unchecked(player, cell);
        self.after_move(player);
        flipped
    }

    /// Lets the mover play through `play`, which must make a legal move of that player on the
    /// board (as `strategy::choose_and_play` does) and return
    /// it; then passes the turn on.
    pub fn play_by(&mut self, play: impl FnOnce(&mut Board, Player) -> Cell) -> Cell {
        let player = self.to_move.expect("the game is not over");
        let cell = play(&mut self.board, player);
        self.after_move(player);
        cell
    }

    #[inline]
    fn after_move(&mut self, player: Player) {
        self.moves += 1;
        self.to_move = self.board.next_to_move(player);
    }

    /// Player 1's score (docs/rules.md#reversi-scoring): owned cells * P / n^2.
    pub fn score(&self) -> f64 {
        score(&self.board)
    }
}

/// Player 1's score on `board` (docs/rules.md#reversi-scoring): owned cells * P / n^2.
pub fn score(board: &Board) -> f64 {
    board.count(1) as f64 * board.players() as f64 / (board.size() * board.size()) as f64
}
