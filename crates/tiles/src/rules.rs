//! The rules of TilesMatching as docs/rules.md#tilesmatching defines them: the board,
//! where a tile may go, line clears, the discard counter, the move cap and the score. No IO, no
//! randomness (the tile stream is the generator's), no AI.
//!
//! The board is stored with a one-cell empty border (stride [`STRIDE`]), so that the four
//! neighbours of any board cell can be read without bounds checks. Cell contents are one byte:
//! [`EMPTY`], [`WILD`], or `REGULAR_BASE + kind` where `kind = color * N + shape`.

use std::fmt;

/// Smallest and largest number of colours (= shapes), statement constraints.
pub const MIN_N: u8 = 4;
pub const MAX_N: u8 = 10;
/// Smallest and largest board side.
pub const MIN_SIZE: u8 = 8;
pub const MAX_SIZE: u8 = 12;
/// Smallest and largest discard limit.
pub const MIN_D: u8 = 2;
pub const MAX_D: u8 = 4;

/// The game stops after this many moves; every reply but `GIVE UP` is a move
/// (docs/rules.md#tiles-end-of-game).
pub const MAX_MOVES: u32 = 10_000;

/// Distance between vertically adjacent cells in [`Board`]'s padded array.
pub const STRIDE: usize = MAX_SIZE as usize + 2;
/// Cells of the padded array (board plus a one-cell border all round).
pub const PADDED: usize = STRIDE * STRIDE;

/// Cell content: nothing.
pub const EMPTY: u8 = 0;
/// Cell content: a wildcard.
pub const WILD: u8 = 1;
/// Cell content of the regular tile of kind `k` is `REGULAR_BASE + k`.
pub const REGULAR_BASE: u8 = 2;

/// The parameters of a case: `N` colours and shapes, an `S` x `S` board, discard limit `D`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub n: u8,
    pub s: u8,
    pub d: u8,
}

/// Why a set of parameters is outside the statement's constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    pub name: &'static str,
    pub value: u8,
    pub min: u8,
    pub max: u8,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is outside {}..={}",
            self.name, self.value, self.min, self.max
        )
    }
}

impl std::error::Error for ParamsError {}

impl Params {
    /// Checked constructor: N in 4..=10, S in 8..=12, D in 2..=4.
    pub fn new(n: u8, s: u8, d: u8) -> Result<Self, ParamsError> {
        for (name, value, min, max) in [
            ("N", n, MIN_N, MAX_N),
            ("S", s, MIN_SIZE, MAX_SIZE),
            ("D", d, MIN_D, MAX_D),
        ] {
            if !(min..=max).contains(&value) {
                return Err(ParamsError {
                    name,
                    value,
                    min,
                    max,
                });
            }
        }
        Ok(Params { n, s, d })
    }

    /// Number of regular tile kinds, `N * N`.
    #[inline]
    pub fn kinds(self) -> usize {
        self.n as usize * self.n as usize
    }
}

/// A tile as the judge hands it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// `W`: matches anything, placed next to a tile (anywhere on an empty board).
    Wild,
    /// `R`: placed over a tile, removing both.
    Remove,
    /// `CS`: colour and shape in `0..N`.
    Regular { color: u8, shape: u8 },
}

impl Tile {
    /// The byte a placed tile leaves on the board (`None` for `R`, which never stays).
    #[inline]
    pub fn code(self, n: u8) -> Option<u8> {
        match self {
            Tile::Wild => Some(WILD),
            Tile::Remove => None,
            Tile::Regular { color, shape } => Some(REGULAR_BASE + color * n + shape),
        }
    }
}

/// A cell of the board, 0-based `row` and `col` as the protocol writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub row: u8,
    pub col: u8,
}

impl Pos {
    #[inline]
    pub fn new(row: u8, col: u8) -> Self {
        Pos { row, col }
    }

    /// Index in the padded array.
    #[inline]
    pub fn index(self) -> usize {
        (self.row as usize + 1) * STRIDE + self.col as usize + 1
    }

    /// The cell at padded index `index` (which must be a board cell).
    #[inline]
    pub fn from_index(index: usize) -> Self {
        Pos {
            row: (index / STRIDE - 1) as u8,
            col: (index % STRIDE - 1) as u8,
        }
    }
}

/// A reply: place (or, for `R`, apply) the tile at a cell, discard it, or give up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Pos),
    Discard,
    GiveUp,
}

/// Why a move is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended (cap reached or given up).
    GameOver,
    /// The tile is not a tile of this case (colour or shape not below `N`).
    BadTile {
        tile: Tile,
    },
    OffBoard {
        pos: Pos,
        size: u8,
    },
    /// A `W` or regular tile on a cell that holds a tile.
    Occupied {
        pos: Pos,
    },
    /// A `W` or regular tile on a cell with no placed neighbour (board not empty).
    NotAdjacent {
        pos: Pos,
    },
    /// A regular tile that matches neither colour nor shape of the neighbour at `neighbour`.
    Mismatch {
        pos: Pos,
        neighbour: Pos,
    },
    /// `R` on an empty cell.
    RemoveOnEmpty {
        pos: Pos,
    },
    /// A discard while the counter already equals `D`.
    DiscardLimit {
        limit: u8,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::BadTile { tile } => write!(f, "tile {tile:?} is not a tile of this case"),
            MoveError::OffBoard { pos, size } => write!(
                f,
                "cell {} {} is off the {size}x{size} board",
                pos.row, pos.col
            ),
            MoveError::Occupied { pos } => {
                write!(f, "cell {} {} already holds a tile", pos.row, pos.col)
            }
            MoveError::NotAdjacent { pos } => write!(
                f,
                "cell {} {} is not adjacent to any placed tile",
                pos.row, pos.col
            ),
            MoveError::Mismatch { pos, neighbour } => write!(
                f,
                "the tile at {} {} matches neither colour nor shape of its neighbour at {} {}",
                pos.row, pos.col, neighbour.row, neighbour.col
            ),
            MoveError::RemoveOnEmpty { pos } => write!(
                f,
                "a remove tile must go on a placed tile, cell {} {} is empty",
                pos.row, pos.col
            ),
            MoveError::DiscardLimit { limit } => write!(
                f,
                "cannot discard: the discard counter is already at its limit D = {limit}"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A `W` or regular tile was placed; `row`/`col` say which lines it completed and cleared.
    Placed {
        row: bool,
        col: bool,
    },
    /// An `R` removed the tile under it.
    Removed,
    Discarded,
    GaveUp,
}

/// Score of the clears one placement makes: `S` for one line, `3S` for a row and a column at once
/// (docs/rules.md#tiles-scoring).
#[inline]
pub fn clear_bonus(s: u8, row: bool, col: bool) -> u32 {
    match (row, col) {
        (true, true) => 3 * s as u32,
        (true, false) | (false, true) => s as u32,
        (false, false) => 0,
    }
}

/// Whether a regular tile `kind` may sit next to `neighbour` (a cell byte): any tile next to a
/// wildcard or empty cell; otherwise same colour or same shape.
#[inline]
pub fn kinds_match(n: u8, kind: u8, neighbour: u8) -> bool {
    if neighbour < REGULAR_BASE {
        return true;
    }
    let other = neighbour - REGULAR_BASE;
    kind / n == other / n || kind % n == other % n
}

/// An `S` x `S` board with its row and column fill counts.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    n: u8,
    cells: [u8; PADDED],
    row_fill: [u8; MAX_SIZE as usize],
    col_fill: [u8; MAX_SIZE as usize],
    tiles: u16,
}

/// The four orthogonal neighbour offsets in the padded array.
pub const NEIGHBOURS: [isize; 4] = [-(STRIDE as isize), -1, 1, STRIDE as isize];

impl Board {
    pub fn empty(params: Params) -> Self {
        Board {
            size: params.s,
            n: params.n,
            cells: [EMPTY; PADDED],
            row_fill: [0; MAX_SIZE as usize],
            col_fill: [0; MAX_SIZE as usize],
            tiles: 0,
        }
    }

    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    #[inline]
    pub fn n(&self) -> u8 {
        self.n
    }

    /// Number of tiles on the board.
    #[inline]
    pub fn tile_count(&self) -> u32 {
        self.tiles as u32
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// The cell byte at padded `index`.
    #[inline]
    pub fn at(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// The padded array (border cells are always [`EMPTY`]).
    #[inline]
    pub fn cells(&self) -> &[u8; PADDED] {
        &self.cells
    }

    #[inline]
    pub fn get(&self, pos: Pos) -> u8 {
        self.cells[pos.index()]
    }

    #[inline]
    pub fn row_fill(&self, row: usize) -> u8 {
        self.row_fill[row]
    }

    #[inline]
    pub fn col_fill(&self, col: usize) -> u8 {
        self.col_fill[col]
    }

    #[inline]
    pub fn contains(&self, pos: Pos) -> bool {
        pos.row < self.size && pos.col < self.size
    }

    /// Padded indices of the board cells, row-major.
    pub fn indices(&self) -> impl Iterator<Item = usize> + use<> {
        let size = self.size as usize;
        (0..size).flat_map(move |r| (0..size).map(move |c| (r + 1) * STRIDE + c + 1))
    }

    /// Whether the cell at `index` has a placed orthogonal neighbour.
    #[inline]
    pub fn has_neighbour(&self, index: usize) -> bool {
        NEIGHBOURS
            .iter()
            .any(|&d| self.cells[index.wrapping_add_signed(d)] != EMPTY)
    }

    /// Puts the byte `code` on an empty cell without any check and without clearing.
    #[inline]
    pub fn put(&mut self, index: usize, code: u8) {
        debug_assert_eq!(self.cells[index], EMPTY);
        debug_assert_ne!(code, EMPTY);
        self.cells[index] = code;
        let pos = Pos::from_index(index);
        self.row_fill[pos.row as usize] += 1;
        self.col_fill[pos.col as usize] += 1;
        self.tiles += 1;
    }

    /// Empties an occupied cell.
    #[inline]
    pub fn take(&mut self, index: usize) {
        debug_assert_ne!(self.cells[index], EMPTY);
        self.cells[index] = EMPTY;
        let pos = Pos::from_index(index);
        self.row_fill[pos.row as usize] -= 1;
        self.col_fill[pos.col as usize] -= 1;
        self.tiles -= 1;
    }

    /// Why the tile `code` (a `W` or regular byte) may not go at `pos`, if it may not.
    pub fn check_place(&self, pos: Pos, code: u8) -> Result<(), MoveError> {
        if !self.contains(pos) {
            return Err(MoveError::OffBoard {
                pos,
                size: self.size,
            });
        }
        let index = pos.index();
        if self.cells[index] != EMPTY {
            return Err(MoveError::Occupied { pos });
        }
        if self.tiles == 0 {
            // An empty board only ever deals `W`, which may go anywhere; a regular tile (only
            // in hand-made positions) has nothing to be adjacent to.
            return if code == WILD {
                Ok(())
            } else {
                Err(MoveError::NotAdjacent { pos })
            };
        }
        if !self.has_neighbour(index) {
            return Err(MoveError::NotAdjacent { pos });
        }
        if code >= REGULAR_BASE {
            let kind = code - REGULAR_BASE;
            for d in NEIGHBOURS {
                let other = index.wrapping_add_signed(d);
                if !kinds_match(self.n, kind, self.cells[other]) {
                    return Err(MoveError::Mismatch {
                        pos,
                        neighbour: Pos::from_index(other),
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether the tile `code` may go at padded `index` (a board cell); the fast form of
    /// [`Board::check_place`].
    #[inline]
    pub fn can_place(&self, index: usize, code: u8) -> bool {
        if self.cells[index] != EMPTY {
            return false;
        }
        if self.tiles == 0 {
            return code == WILD;
        }
        let mut any = false;
        for d in NEIGHBOURS {
            let other = self.cells[index.wrapping_add_signed(d)];
            if other != EMPTY {
                any = true;
                if code >= REGULAR_BASE && !kinds_match(self.n, code - REGULAR_BASE, other) {
                    return false;
                }
            }
        }
        any
    }

    /// Places `code` at `index` without checks, then clears the full row and/or column through
    /// it; returns which lines were cleared.
    #[inline]
    pub fn place_unchecked(&mut self, index: usize, code: u8) -> (bool, bool) {
        self.put(index, code);
        let pos = Pos::from_index(index);
        let full_row = self.row_fill[pos.row as usize] == self.size;
        let full_col = self.col_fill[pos.col as usize] == self.size;
        if full_row {
            let start = (pos.row as usize + 1) * STRIDE + 1;
            for i in start..start + self.size as usize {
                self.take(i);
            }
        }
        if full_col {
            let mut i = STRIDE + pos.col as usize + 1;
            for _ in 0..self.size {
                if self.cells[i] != EMPTY {
                    self.take(i);
                }
                i += STRIDE;
            }
        }
        (full_row, full_col)
    }

    /// Parses the picture [`Board`]'s `Debug` prints: `S` lines of `S` cells separated by
    /// spaces, `.` empty, `W` wildcard, `CS` digits for a regular tile. For tests and tools.
    pub fn from_picture(params: Params, picture: &str) -> Result<Self, String> {
        let mut board = Board::empty(params);
        let rows: Vec<&str> = picture
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if rows.len() != params.s as usize {
            return Err(format!("expected {} rows, got {}", params.s, rows.len()));
        }
        for (r, line) in rows.iter().enumerate() {
            let cells: Vec<&str> = line.split_whitespace().collect();
            if cells.len() != params.s as usize {
                return Err(format!(
                    "row {r}: expected {} cells, got {}",
                    params.s,
                    cells.len()
                ));
            }
            for (c, text) in cells.iter().enumerate() {
                let code = match *text {
                    "." => continue,
                    "W" => WILD,
                    _ => {
                        let digits: Vec<u8> = text
                            .bytes()
                            .map(|b| b.wrapping_sub(b'0'))
                            .filter(|&d| d < params.n)
                            .collect();
                        if digits.len() != 2 || text.len() != 2 {
                            return Err(format!("row {r} col {c}: bad cell {text:?}"));
                        }
                        REGULAR_BASE + digits[0] * params.n + digits[1]
                    }
                };
                board.put(Pos::new(r as u8, c as u8).index(), code);
            }
        }
        Ok(board)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.size {
            for c in 0..self.size {
                if c > 0 {
                    f.write_str(" ")?;
                }
                match self.get(Pos::new(r, c)) {
                    EMPTY => f.write_str(".")?,
                    WILD => f.write_str("W")?,
                    code => {
                        let kind = code - REGULAR_BASE;
                        write!(f, "{}{}", kind / self.n, kind % self.n)?;
                    }
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// A game in progress: the board, the discard counter and the tallies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub params: Params,
    pub board: Board,
    /// The discard counter (docs/rules.md#tiles-discards): +1 per discard, -1 (not below 0) per
    /// tile used.
    pub counter: u8,
    /// Tiles used: placed, or `R` applied.
    pub used: u32,
    /// Moves made: tiles used plus discards.
    pub moves: u32,
    /// Placements that cleared exactly one line.
    pub single_clears: u32,
    /// Placements that cleared a row and a column at once.
    pub double_clears: u32,
    pub gave_up: bool,
}

impl State {
    pub fn new(params: Params) -> Self {
        State {
            params,
            board: Board::empty(params),
            counter: 0,
            used: 0,
            moves: 0,
            single_clears: 0,
            double_clears: 0,
            gave_up: false,
        }
    }

    /// A game at `board` with the counter at `counter` and nothing scored yet.
    pub fn with_board(params: Params, board: Board, counter: u8) -> Self {
        State {
            board,
            counter,
            ..State::new(params)
        }
    }

    /// The score so far (docs/rules.md#tiles-scoring): tiles used, plus `S` per single clear and
    /// `3S` per double clear.
    pub fn score(&self) -> u32 {
        let s = self.params.s as u32;
        self.used + s * self.single_clears + 3 * s * self.double_clears
    }

    /// The game has ended: the player gave up or made [`MAX_MOVES`] moves.
    pub fn is_over(&self) -> bool {
        self.gave_up || self.moves >= MAX_MOVES
    }

    /// Whether discarding is allowed now: the counter is below `D` (docs/rules.md#tiles-discards: a
    /// discard when it equals `D` is invalid).
    #[inline]
    pub fn can_discard(&self) -> bool {
        self.counter < self.params.d
    }

    /// Why `mv` with `tile` is not allowed, if it is not.
    pub fn check(&self, tile: Tile, mv: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if let Tile::Regular { color, shape } = tile
            && (color >= self.params.n || shape >= self.params.n)
        {
            return Err(MoveError::BadTile { tile });
        }
        match mv {
            Move::GiveUp => Ok(()),
            Move::Discard if self.can_discard() => Ok(()),
            Move::Discard => Err(MoveError::DiscardLimit {
                limit: self.params.d,
            }),
            Move::Place(pos) => match tile.code(self.params.n) {
                Some(code) => self.board.check_place(pos, code),
                None if !self.board.contains(pos) => Err(MoveError::OffBoard {
                    pos,
                    size: self.params.s,
                }),
                None if self.board.get(pos) == EMPTY => Err(MoveError::RemoveOnEmpty { pos }),
                None => Ok(()),
            },
        }
    }

    /// Plays `mv` with `tile` after checking it; the state is unchanged on error.
    pub fn play(&mut self, tile: Tile, mv: Move) -> Result<Outcome, MoveError> {
        self.check(tile, mv)?;
        Ok(self.play_unchecked(tile, mv))
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, tile: Tile, mv: Move) -> Outcome {
        let pos = match mv {
            Move::GiveUp => {
                self.gave_up = true;
                return Outcome::GaveUp;
            }
            Move::Discard => {
                self.counter += 1;
                self.moves += 1;
                return Outcome::Discarded;
            }
            Move::Place(pos) => pos,
        };
        self.moves += 1;
        self.used += 1;
        self.counter = self.counter.saturating_sub(1);
        match tile.code(self.params.n) {
            None => {
                self.board.take(pos.index());
                Outcome::Removed
            }
            Some(code) => {
                let (row, col) = self.board.place_unchecked(pos.index(), code);
                match (row, col) {
                    (true, true) => self.double_clears += 1,
                    (true, false) | (false, true) => self.single_clears += 1,
                    (false, false) => {}
                }
                Outcome::Placed { row, col }
            }
        }
    }

    /// Every legal move for `tile` but `GIVE UP`: placements in row-major order, then `DISCARD`
    /// if allowed.
    pub fn legal_moves(&self, tile: Tile) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.is_over() {
            return moves;
        }
        match tile.code(self.params.n) {
            Some(code) => moves.extend(
                self.board
                    .indices()
                    .filter(|&i| self.board.can_place(i, code))
                    .map(|i| Move::Place(Pos::from_index(i))),
            ),
            None => moves.extend(
                self.board
                    .indices()
                    .filter(|&i| self.board.at(i) != EMPTY)
                    .map(|i| Move::Place(Pos::from_index(i))),
            ),
        }
        if self.can_discard() {
            moves.push(Move::Discard);
        }
        moves
    }
}
