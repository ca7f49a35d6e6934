//! The game itself (docs/rules.md#solitaire-chess): a 6x6 board of stacks of three pieces
//! (bronze on top, then silver, then gold), the moves each removed piece allows next, and the
//! scoring of the sequence of removed types. No IO, no AI.
//!
//! [`State`] is what the player knows: the visible top of every stack, how many pieces each
//! stack has lost, the last removed piece and the score so far. The judge, which holds the
//! whole deal (`generator::Deal`), tells it what each removal reveals.

use std::fmt;

/// Rows and columns.
pub const SIZE: usize = 6;
/// Cells of the board.
pub const CELLS: usize = SIZE * SIZE;
/// Pieces per stack: bronze, silver, gold (docs/rules.md#solitaire-board-and-reveals: the
/// statement's translation error, silver reveals gold).
pub const LEVELS: u8 = 3;
/// Every piece of the board removed.
pub const MAX_REMOVALS: u32 = CELLS as u32 * LEVELS as u32;
/// Every cell of the board, as a bit mask.
pub const ALL_CELLS: Mask = (1 << CELLS) - 1;

/// A set of cells: bit `row * 6 + col`.
pub type Mask = u64;

/// The eight piece types. The discriminant is the index used in tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Piece {
    One = 0,
    Two = 1,
    Three = 2,
    Four = 3,
    Torn = 4,
    Lopare = 5,
    Dam = 6,
    Springare = 7,
}

impl Piece {
    pub const ALL: [Piece; 8] = [
        Piece::One,
        Piece::Two,
        Piece::Three,
        Piece::Four,
        Piece::Torn,
        Piece::Lopare,
        Piece::Dam,
        Piece::Springare,
    ];

    pub fn from_index(index: u8) -> Piece {
        Piece::ALL[index as usize]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The name the protocol uses (`1`, `torn`, `springare`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Piece::One => "1",
            Piece::Two => "2",
            Piece::Three => "3",
            Piece::Four => "4",
            Piece::Torn => "torn",
            Piece::Lopare => "lopare",
            Piece::Dam => "dam",
            Piece::Springare => "springare",
        }
    }

    pub fn from_name(name: &str) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The letter of official_tests.txt's alphabets (`1`..`4`, `t`, `l`, `d`, `s`).
    pub fn letter(self) -> char {
        match self {
            Piece::One => '1',
            Piece::Two => '2',
            Piece::Three => '3',
            Piece::Four => '4',
            Piece::Torn => 't',
            Piece::Lopare => 'l',
            Piece::Dam => 'd',
            Piece::Springare => 's',
        }
    }

    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.letter() == letter)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cell of the board, `row * 6 + col` with 0-based row and column (the protocol counts
/// from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// Panics outside the board.
    pub fn new(row: usize, col: usize) -> Cell {
        assert!(
            row < SIZE && col < SIZE,
            "cell ({row}, {col}) is off the board"
        );
        Cell((row * SIZE + col) as u8)
    }

    pub fn from_index(index: usize) -> Cell {
        assert!(index < CELLS, "cell index {index} is off the board");
        Cell(index as u8)
    }

    /// The cell of the protocol's 1-based `r c`, if it is on the board.
    pub fn from_one_based(row: i64, col: i64) -> Option<Cell> {
        let on = |v: i64| (1..=SIZE as i64).contains(&v);
        (on(row) && on(col)).then(|| Cell::new(row as usize - 1, col as usize - 1))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn row(self) -> usize {
        self.index() / SIZE
    }

    pub fn col(self) -> usize {
        self.index() % SIZE
    }

    pub fn bit(self) -> Mask {
        1 << self.0
    }

    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

/// Written as the protocol writes it: 1-based `r c`.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.row() + 1, self.col() + 1)
    }
}

/// The statement's movement rule, formula by formula: whether `to` may be removed right after
/// a `piece` was removed at `from`. Never the same cell.
pub const fn reaches(piece: Piece, from: (usize, usize), to: (usize, usize)) -> bool {
    if from.0 == to.0 && from.1 == to.1 {
        return false;
    }
    let dr = from.0.abs_diff(to.0);
    let dc = from.1.abs_diff(to.1);
    let edge = SIZE - 1;
    let border_row = to.0 == 0 || to.0 == edge;
    let border_col = to.1 == 0 || to.1 == edge;
    let torn = (border_row && dc == 0) || (dr == 0 && border_col);
    let lopare = dr == dc && (border_row || border_col);
    match piece {
        Piece::One | Piece::Two | Piece::Three | Piece::Four => {
            let k = piece as usize + 1;
            (dr == 0 || dr == k) && (dc == 0 || dc == k)
        }
        Piece::Torn => torn,
        Piece::Lopare => lopare,
        Piece::Dam => torn || lopare,
        Piece::Springare => (dr == 2 && dc == 1) || (dr == 1 && dc == 2),
    }
}

const fn targets_table() -> [[Mask; CELLS]; 8] {
    let mut table = [[0; CELLS]; 8];
    let mut p = 0;
    while p < 8 {
        let piece = Piece::ALL[p];
        let mut from = 0;
        while from < CELLS {
            let mut to = 0;
            let mut mask = 0;
            while to < CELLS {
                if reaches(piece, (from / SIZE, from % SIZE), (to / SIZE, to % SIZE)) {
                    mask |= 1 << to;
                }
                to += 1;
            }
            table[p][from] = mask;
            from += 1;
        }
        p += 1;
    }
    table
}

static TARGETS: [[Mask; CELLS]; 8] = targets_table();

/// The cells a removed `piece` at `from` allows next (occupied or not).
#[inline]
pub fn targets(piece: Piece, from: Cell) -> Mask {
    TARGETS[piece.index()][from.index()]
}

/// The cells of `mask`, lowest first.
pub fn cells_of(mut mask: Mask) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let cell = Cell(mask.trailing_zeros() as u8);
            mask &= mask - 1;
            cell
        })
    })
}

/// The points of a game so far, kind by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Breakdown {
    /// One point per removal (the statement's tile score: bronze 0, silver 1, gold 2, empty 3).
    pub removals: u32,
    /// Runs of equal types: 2N for a run of N >= 2.
    pub runs: u32,
    /// Number sets (12 in order or reverse order, else 8) and piece sets (8).
    pub sets: u32,
    /// Alternating number and piece sets: 8K for K >= 2 in a row.
    pub alternation: u32,
}

impl Breakdown {
    pub fn total(&self) -> u32 {
        self.removals + self.runs + self.sets + self.alternation
    }

    pub fn bonus(&self) -> u32 {
        self.runs + self.sets + self.alternation
    }
}

/// Points for a number set `1 2 3 4` or `4 3 2 1` (this and the constants below:
/// docs/rules.md#solitaire-scoring).
pub const ORDERED_NUMBER_SET: u32 = 12;
/// Points for any other number set, and for a piece set.
pub const SET: u32 = 8;
/// Points at the second consecutive alternating set (docs/rules.md#solitaire-scoring: 8K for
/// K = 2) ...
pub const ALTERNATION_START: u32 = 16;
/// ... and for each further one.
pub const ALTERNATION_STEP: u32 = 8;
/// Points at the second equal type in a row (2N for N = 2) ...
pub const RUN_START: u32 = 4;
/// ... and for each further one.
pub const RUN_STEP: u32 = 2;

/// What a window of four removed types is worth as a set (docs/rules.md#solitaire-scoring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    Numbers,
    Pieces,
}

/// The window's set kind and points, if it is a set: four distinct numbers or four distinct
/// non-numbers.
pub fn classify_window(window: [Piece; 4]) -> Option<(SetKind, u32)> {
    let mask: u32 = window.iter().fold(0, |m, p| m | 1 << p.index());
    match mask {
        0x0f => {
            let ordered = window == [Piece::One, Piece::Two, Piece::Three, Piece::Four]
                || window == [Piece::Four, Piece::Three, Piece::Two, Piece::One];
            let points = if ordered { ORDERED_NUMBER_SET } else { SET };
            Some((SetKind::Numbers, points))
        }
        0xf0 => Some((SetKind::Pieces, SET)),
        _ => None,
    }
}

/// The score of a whole sequence of removed types, computed the way docs/rules.md#solitaire-scoring
/// words it: runs of equal types, then a greedy scan of windows of four from the left (a set
/// advances the scan by four, anything else by one) with the alternation count along it. The
/// reference the incremental [`Scorer`] is tested against.
pub fn score_sequence(sequence: &[Piece]) -> Breakdown {
    let mut b = Breakdown {
        removals: sequence.len() as u32,
        ..Breakdown::default()
    };
    let mut run = 0;
    for (i, piece) in sequence.iter().enumerate() {
        run = if i > 0 && sequence[i - 1] == *piece {
            run + 1
        } else {
            1
        };
        match run {
            1 => {}
            2 => b.runs += RUN_START,
            _ => b.runs += RUN_STEP,
        }
    }
    let mut i = 0;
    let mut alternating = 0;
    let mut last_kind = None;
    while i + 4 <= sequence.len() {
        let window = [
            sequence[i],
            sequence[i + 1],
            sequence[i + 2],
            sequence[i + 3],
        ];
        match classify_window(window) {
            Some((kind, points)) => {
                b.sets += points;
                alternating = match last_kind {
                    Some(last) if last != kind => alternating + 1,
                    _ => 1,
                };
                match alternating {
                    1 => {}
                    2 => b.alternation += ALTERNATION_START,
                    _ => b.alternation += ALTERNATION_STEP,
                }
                last_kind = Some(kind);
                i += 4;
            }
            None => {
                alternating = 0;
                last_kind = None;
                i += 1;
            }
        }
    }
    b
}

const NONE: u8 = u8::MAX;

/// The score of the removed types so far, kept incrementally: the same figures as
/// [`score_sequence`], one piece at a time, in a few bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scorer {
    pub breakdown: Breakdown,
    /// The last removed type (or `NONE`) and how many of it in a row.
    last: u8,
    run: u8,
    /// The types after the scan position (fewer than four).
    window: [u8; 3],
    window_len: u8,
    /// Consecutive alternating sets so far and the kind of the last one (`NONE`: the scan just
    /// passed a non-set window or nothing yet).
    alternating: u8,
    last_kind: u8,
}

impl Default for Scorer {
    fn default() -> Self {
        Self::new()
    }
}

impl Scorer {
    pub const fn new() -> Self {
        Scorer {
            breakdown: Breakdown {
                removals: 0,
                runs: 0,
                sets: 0,
                alternation: 0,
            },
            last: NONE,
            run: 0,
            window: [NONE; 3],
            window_len: 0,
            alternating: 0,
            last_kind: NONE,
        }
    }

    pub fn total(&self) -> u32 {
        self.breakdown.total()
    }

    /// The last removed type.
    pub fn last(&self) -> Option<Piece> {
        (self.last != NONE).then(|| Piece::from_index(self.last))
    }

    /// How many of the last type were removed in a row.
    pub fn run(&self) -> u32 {
        self.run as u32
    }

    /// The removed types the set scan has not passed yet (at most three).
    pub fn pending(&self) -> impl Iterator<Item = Piece> + '_ {
        self.window[..self.window_len as usize]
            .iter()
            .map(|&p| Piece::from_index(p))
    }

    /// Consecutive alternating sets ending at the scan position (0 after a non-set window).
    pub fn alternating(&self) -> u32 {
        self.alternating as u32
    }

    /// The kind of the set just before the scan position, if the scan's last window was one.
    pub fn last_set(&self) -> Option<SetKind> {
        match self.last_kind {
            0 => Some(SetKind::Numbers),
            1 => Some(SetKind::Pieces),
            _ => None,
        }
    }

    /// Scores one more removal of `piece`; returns the points it gained.
    #[inline]
    pub fn push(&mut self, piece: Piece) -> u32 {
        let before = self.total();
        let p = piece as u8;
        let b = &mut self.breakdown;
        b.removals += 1;
        if p == self.last {
            self.run += 1;
            b.runs += if self.run == 2 { RUN_START } else { RUN_STEP };
        } else {
            self.last = p;
            self.run = 1;
        }
        if self.window_len < 3 {
            self.window[self.window_len as usize] = p;
            self.window_len += 1;
        } else {
            let w = self.window.map(Piece::from_index);
            match classify_window([w[0], w[1], w[2], piece]) {
                Some((kind, points)) => {
                    b.sets += points;
                    let kind = kind as u8;
                    self.alternating = if self.last_kind != NONE && self.last_kind != kind {
                        self.alternating + 1
                    } else {
                        1
                    };
                    match self.alternating {
                        1 => {}
                        2 => b.alternation += ALTERNATION_START,
                        _ => b.alternation += ALTERNATION_STEP,
                    }
                    self.last_kind = kind;
                    self.window_len = 0;
                }
                None => {
                    self.alternating = 0;
                    self.last_kind = NONE;
                    self.window = [self.window[1], self.window[2], p];
                }
            }
        }
        self.total() - before
    }

    /// The points a removal of `piece` would gain, without making it.
    #[inline]
    pub fn gain(&self, piece: Piece) -> u32 {
        let mut copy = *self;
        copy.push(piece)
    }
}

/// Why a removal is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The cell's stack is used up (the protocol said `blank`).
    Blank { cell: Cell },
    /// The last removed piece does not allow this cell.
    Unreachable { last: Piece, from: Cell, to: Cell },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Blank { cell } => write!(f, "cell {cell} is blank (its stack is used up)"),
            MoveError::Unreachable { last, from, to } => write!(
                f,
                "cell {to} is not a {last} move away from {from}, where the last piece was removed"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a removal with its reveal cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Move(MoveError),
    /// A gold piece was removed but a piece was said to appear, or a bronze or silver piece was
    /// removed and nothing was said to appear.
    Reveal {
        cell: Cell,
        removed: u8,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Move(e) => e.fmt(f),
            PlayError::Reveal { cell, removed } => write!(
                f,
                "cell {cell} has lost {removed} of its 3 pieces: the reveal does not fit"
            ),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<MoveError> for PlayError {
    fn from(e: MoveError) -> Self {
        PlayError::Move(e)
    }
}

/// What the player knows: the visible tops, the stacks' depths, the last removal and the
/// score.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The visible piece of each cell; `None` once the stack is used up.
    top: [Option<Piece>; CELLS],
    /// Pieces removed from each cell, 0..=3.
    removed: [u8; CELLS],
    /// Cells that still hold a piece.
    occupied: Mask,
    /// The cells whose top is each type, by `Piece` index.
    by_type: [Mask; 8],
    last: Option<(Cell, Piece)>,
    pub scorer: Scorer,
}

impl State {
    /// The start: every stack full, `tops` the bronze pieces.
    pub fn new(tops: [Piece; CELLS]) -> State {
        let mut by_type = [0; 8];
        for (i, piece) in tops.iter().enumerate() {
            by_type[piece.index()] |= 1 << i;
        }
        State {
            top: tops.map(Some),
            removed: [0; CELLS],
            occupied: ALL_CELLS,
            by_type,
            last: None,
            scorer: Scorer::new(),
        }
    }

    pub fn top(&self, cell: Cell) -> Option<Piece> {
        self.top[cell.index()]
    }

    pub fn tops(&self) -> &[Option<Piece>; CELLS] {
        &self.top
    }

    /// Pieces removed from `cell` so far (0 bronze on top, 1 silver, 2 gold, 3 blank).
    pub fn removed(&self, cell: Cell) -> u8 {
        self.removed[cell.index()]
    }

    pub fn occupied(&self) -> Mask {
        self.occupied
    }

    /// The cells whose visible top is `piece`.
    #[inline]
    pub fn cells_of_type(&self, piece: Piece) -> Mask {
        self.by_type[piece.index()]
    }

    /// The last removal: where and which piece.
    pub fn last(&self) -> Option<(Cell, Piece)> {
        self.last
    }

    pub fn moves(&self) -> u32 {
        self.scorer.breakdown.removals
    }

    pub fn score(&self) -> u32 {
        self.scorer.total()
    }

    /// The cells that may be removed now (any occupied cell on the first move).
    #[inline]
    pub fn legal(&self) -> Mask {
        match self.last {
            None => self.occupied,
            Some((cell, piece)) => targets(piece, cell) & self.occupied,
        }
    }

    /// No move is left: the player can only end the game.
    pub fn is_over(&self) -> bool {
        self.legal() == 0
    }

    /// Whether `cell` may be removed now; the piece it would remove.
    pub fn check(&self, cell: Cell) -> Result<Piece, MoveError> {
        let piece = self.top[cell.index()].ok_or(MoveError::Blank { cell })?;
        if let Some((from, last)) = self.last
            && targets(last, from) & cell.bit() == 0
        {
            return Err(MoveError::Unreachable {
                last,
                from,
                to: cell,
            });
        }
        Ok(piece)
    }

    /// Whether removing `cell` reveals a piece (bronze and silver do, gold does not).
    pub fn reveals(&self, cell: Cell) -> bool {
        self.removed[cell.index()] + 1 < LEVELS
    }

    /// Removes the top of `cell`, which uncovers `reveal` (`None` for a gold piece); returns
    /// the points gained.
    pub fn play(&mut self, cell: Cell, reveal: Option<Piece>) -> Result<u32, PlayError> {
        self.check(cell)?;
        if self.reveals(cell) != reveal.is_some() {
            return Err(PlayError::Reveal {
                cell,
                removed: self.removed[cell.index()],
            });
        }
        Ok(self.play_unchecked(cell, reveal))
    }

    /// [`State::play`] without the checks, for searches that only generate legal moves.
    #[inline]
    pub fn play_unchecked(&mut self, cell: Cell, reveal: Option<Piece>) -> u32 {
        let i = cell.index();
        let piece = self.top[i].expect("a legal move removes a piece");
        self.removed[i] += 1;
        self.top[i] = reveal;
        self.by_type[piece.index()] &= !cell.bit();
        match reveal {
            Some(next) => self.by_type[next.index()] |= cell.bit(),
            None => self.occupied &= !cell.bit(),
        }
        self.last = Some((cell, piece));
        self.scorer.push(piece)
    }
}
