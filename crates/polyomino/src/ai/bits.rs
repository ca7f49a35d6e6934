//! Bitboards for the players: each board row is a [`Row`] of 256 bits, and for every run length
//! `1..=MAX_RUN` the board keeps the row of "a free run of that length starts here" bits. A
//! piece row is a few runs of cells, so whether a piece fits at every column of an anchor row
//! at once is an AND of a few shifted run rows: no loop over cells or columns.

use crate::rules::{Board, Piece};

/// Words per row: boards up to 256 columns (the contest's are at most 200).
pub const WORDS: usize = 4;
/// The widest board the bitboards hold (one column is kept for the padding of `blocked`).
pub const MAX_WIDTH: usize = WORDS * 64 - 2;
/// The longest run kept per row; longer runs of a piece are split.
pub const MAX_RUN: usize = 32;

pub type Row = [u64; WORDS];

const ZERO: Row = [0; WORDS];

#[inline]
pub fn is_zero(row: &Row) -> bool {
    row.iter().all(|&w| w == 0)
}

#[inline]
fn and(a: &Row, b: &Row) -> Row {
    std::array::from_fn(|i| a[i] & b[i])
}

/// Bit `x` of the result is bit `x + s` of `a`.
#[inline]
pub fn shr(a: &Row, s: usize) -> Row {
    let (words, bits) = (s / 64, s % 64);
    std::array::from_fn(|i| {
        let lo = if i + words < WORDS { a[i + words] } else { 0 };
        if bits == 0 {
            lo
        } else {
            let hi = if i + words + 1 < WORDS {
                a[i + words + 1]
            } else {
                0
            };
            (lo >> bits) | (hi << (64 - bits))
        }
    })
}

#[inline]
fn lowest_bit(row: &Row) -> Option<usize> {
    row.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
}

fn row_bits(mut row: Row) -> impl Iterator<Item = usize> {
    let mut word = 0;
    std::iter::from_fn(move || {
        while word < WORDS {
            if row[word] != 0 {
                let bit = row[word].trailing_zeros() as usize;
                row[word] &= row[word] - 1;
                return Some(word * 64 + bit);
            }
            word += 1;
        }
        None
    })
}

/// One orientation of a piece, in the forms the scans need.
#[derive(Clone, Debug)]
pub struct Shape {
    pub width: usize,
    pub height: usize,
    /// The rotation (quarter turns counter-clockwise) that gives this shape.
    pub rotation: u8,
    /// `(dy, dx, len)`: the cells `dx..dx + len` of row `dy`, `len <= MAX_RUN`.
    runs: Vec<(usize, usize, usize)>,
    /// `(py, px, count)`: the cell `(dx, dy) = (px - 1, py - 1)` outside the piece borders
    /// `count` of its cells (coordinates shifted by 1 so the border row and column are >= 0).
    outer: Vec<(usize, usize, u32)>,
    pub cells: Vec<(usize, usize)>,
}

impl Shape {
    pub fn new(piece: &Piece, rotation: u8) -> Self {
        let piece = piece.rotated(rotation);
        let cells = piece.cells().to_vec();
        let mut runs = Vec::new();
        let mut i = 0;
        while i < cells.len() {
            let (x0, y) = cells[i];
            let mut len = 1;
            while i + len < cells.len() && cells[i + len] == (x0 + len, y) && len < MAX_RUN {
                len += 1;
            }
            runs.push((y, x0, len));
            i += len;
        }
        let (w, h) = (piece.width(), piece.height());
        let mut inside = vec![false; w * h];
        for &(x, y) in &cells {
            inside[y * w + x] = true;
        }
        let mut counts = vec![0u32; (w + 2) * (h + 2)];
        for &(x, y) in &cells {
            for (dx, dy) in [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)] {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                let within = nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h;
                if !(within && inside[ny as usize * w + nx as usize]) {
                    counts[(ny + 1) as usize * (w + 2) + (nx + 1) as usize] += 1;
                }
            }
        }
        let outer = counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(i, &c)| (i / (w + 2), i % (w + 2), c))
            .collect();
        Shape {
            width: w,
            height: h,
            rotation,
            runs,
            outer,
            cells,
        }
    }

    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The number of piece edges that do not touch another cell of the piece.
    pub fn perimeter(&self) -> u32 {
        self.outer.iter().map(|o| o.2).sum()
    }
}

/// The distinct orientations of a piece (a symmetric piece has fewer than 4), rotation 0 first.
#[derive(Clone, Debug)]
pub struct Oriented {
    pub shapes: Vec<Shape>,
}

impl Oriented {
    pub fn new(piece: &Piece) -> Self {
        let mut seen: Vec<Piece> = Vec::with_capacity(4);
        let mut shapes = Vec::with_capacity(4);
        for rotation in 0..4 {
            let turned = piece.rotated(rotation);
            if !seen.contains(&turned) {
                seen.push(turned);
                shapes.push(Shape::new(piece, rotation));
            }
        }
        Oriented { shapes }
    }

    pub fn size(&self) -> usize {
        self.shapes[0].size()
    }
}

/// A position of a piece: its shape index in [`Oriented::shapes`] and the box's corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub shape: usize,
    pub x: usize,
    pub y: usize,
}

/// The board as bit rows, kept up to date as pieces are placed.
#[derive(Clone, Debug)]
pub struct BitBoard {
    width: usize,
    height: usize,
    /// `runs[(len - 1) * height + y]`: bit `x` set iff cells `x..x + len` of row `y` are free.
    runs: Vec<Row>,
    /// `height + 2` rows: bit `x + 1` of row `y + 1` set iff cell (x, y) is covered or off the
    /// board.
    blocked: Vec<Row>,
    free: Vec<Row>,
}

impl BitBoard {
    /// `None` when the board is wider than [`MAX_WIDTH`].
    pub fn new(board: &Board) -> Option<Self> {
        let (width, height) = (board.width(), board.height());
        if width > MAX_WIDTH {
            return None;
        }
        let mut free = vec![ZERO; height];
        let mut blocked = vec![[u64::MAX; WORDS]; height + 2];
        for y in 0..height {
            for x in 0..width {
                if !board.is_covered(x, y) {
                    free[y][x / 64] |= 1 << (x % 64);
                    let b = x + 1;
                    blocked[y + 1][b / 64] &= !(1 << (b % 64));
                }
            }
        }
        let mut bits = BitBoard {
            width,
            height,
            runs: vec![ZERO; MAX_RUN * height],
            blocked,
            free,
        };
        for y in 0..height {
            bits.update_runs(y);
        }
        Some(bits)
    }

    #[cfg(feature = "lab")]
    pub fn width(&self) -> usize {
        self.width
    }

    #[cfg(feature = "lab")]
    pub fn height(&self) -> usize {
        self.height
    }

    pub fn is_free(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.free[y][x / 64] >> (x % 64) & 1 == 1
    }

    fn update_runs(&mut self, y: usize) {
        let free = self.free[y];
        let mut run = free;
        for len in 1..=MAX_RUN {
            if len > 1 {
                run = and(&run, &shr(&free, len - 1));
            }
            self.runs[(len - 1) * self.height + y] = run;
        }
    }

    #[inline]
    fn run(&self, len: usize, y: usize) -> &Row {
        &self.runs[(len - 1) * self.height + y]
    }

    /// The columns where `shape` fits with its box's top row at `y` (`y + height <= H`).
    #[inline]
    pub fn valid_row(&self, shape: &Shape, y: usize) -> Row {
        let mut valid = [u64::MAX; WORDS];
        for &(dy, dx, len) in &shape.runs {
            valid = and(&valid, &shr(self.run(len, y + dy), dx));
            if is_zero(&valid) {
                break;
            }
        }
        valid
    }

    pub fn fits_at(&self, shape: &Shape, x: usize, y: usize) -> bool {
        x + shape.width <= self.width
            && y + shape.height <= self.height
            && shape
                .cells
                .iter()
                .all(|&(cx, cy)| self.is_free(x + cx, y + cy))
    }

    /// Some position where the piece fits, searching anchor rows from `from_row` on (wrapping
    /// around); `None` if it fits nowhere.
    pub fn find_fit(&self, piece: &Oriented, from_row: usize) -> Option<Spot> {
        for (index, shape) in piece.shapes.iter().enumerate() {
            if shape.width > self.width || shape.height > self.height {
                continue;
            }
            let rows = self.height - shape.height + 1;
            for k in 0..rows {
                let y = (from_row + k) % rows;
                if let Some(x) = lowest_bit(&self.valid_row(shape, y)) {
                    return Some(Spot { shape: index, x, y });
                }
            }
        }
        None
    }

    /// The first fit in reading order: the smallest row, then the smallest column, then the
    /// smallest rotation (the baseline's rule).
    pub fn first_fit(&self, piece: &Oriented) -> Option<Spot> {
        let mut best: Option<Spot> = None;
        for (index, shape) in piece.shapes.iter().enumerate() {
            if shape.width > self.width || shape.height > self.height {
                continue;
            }
            let last = self.height - shape.height;
            let last = best.map_or(last, |b| b.y.min(last));
            for y in 0..=last {
                if let Some(x) = lowest_bit(&self.valid_row(shape, y)) {
                    let better = best.is_none_or(|b| {
                        (y, x, shape.rotation) < (b.y, b.x, piece.shapes[b.shape].rotation)
                    });
                    if better {
                        best = Some(Spot { shape: index, x, y });
                    }
                    break;
                }
            }
        }
        best
    }

    /// Calls `visit(spot, contact)` for the first `per_row` positions of each anchor row and
    /// shape where the piece fits with the row's largest contact (the number of piece edges
    /// against covered cells or the border), when that contact is at least the largest seen so
    /// far less `slack`; returns the largest contact, 0 if the piece fits nowhere.
    pub fn best_contacts(
        &self,
        piece: &Oriented,
        slack: u32,
        per_row: usize,
        mut visit: impl FnMut(Spot, u32),
    ) -> u32 {
        let mut top = 0;
        const LEVELS: usize = 14;
        for (index, shape) in piece.shapes.iter().enumerate() {
            if shape.width > self.width || shape.height > self.height {
                continue;
            }
            for y in 0..=self.height - shape.height {
                let valid = self.valid_row(shape, y);
                if is_zero(&valid) {
                    continue;
                }
                // Bit-sliced counters: bit x of level k is bit k of the contact at column x.
                let mut level = [ZERO; LEVELS];
                for &(py, px, count) in &shape.outer {
                    let hit = and(&shr(&self.blocked[y + py], px), &valid);
                    let mut k = 0;
                    let mut count = count;
                    while count > 0 {
                        if count & 1 == 1 {
                            let mut carry = hit;
                            let mut j = k;
                            while !is_zero(&carry) && j < LEVELS {
                                let next = and(&level[j], &carry);
                                for w in 0..WORDS {
                                    level[j][w] ^= carry[w];
                                }
                                carry = next;
                                j += 1;
                            }
                        }
                        count >>= 1;
                        k += 1;
                    }
                }
                // The columns of the row's largest contact.
                let mut best = valid;
                let mut value = 0u32;
                for k in (0..LEVELS).rev() {
                    let with = and(&best, &level[k]);
                    if !is_zero(&with) {
                        best = with;
                        value |= 1 << k;
                    }
                }
                if value + slack >= top {
                    top = top.max(value);
                    for x in row_bits(best).take(per_row) {
                        visit(Spot { shape: index, x, y }, value);
                    }
                }
            }
        }
        top
    }

    /// Covers the cells of `shape` at `(x, y)`; the fit must have been checked.
    pub fn place(&mut self, shape: &Shape, x: usize, y: usize) {
        for &(cx, cy) in &shape.cells {
            let (bx, by) = (x + cx, y + cy);
            self.free[by][bx / 64] &= !(1 << (bx % 64));
            let b = bx + 1;
            self.blocked[by + 1][b / 64] |= 1 << (b % 64);
        }
        for row in y..y + shape.height {
            self.update_runs(row);
        }
    }

    /// The number of free cells.
    #[cfg(feature = "lab")]
    pub fn free_count(&self) -> usize {
        self.free
            .iter()
            .map(|row| row.iter().map(|w| w.count_ones() as usize).sum::<usize>())
            .sum()
    }
}
