//! Cases and pieces from a seed (docs/rules.md#polyomino-generation), on Java's SHA1PRNG as every
//! TopCoder tester used it. The original tester is lost; the draw order below is ours and is the
//! definition: the board first ([`PolyominoCase::new`]), then the same stream deals the pieces
//! ([`PieceGenerator`]).
//!
//! Pieces grow by [`grow_piece`], which any [`Draw`] can drive: the judge's SHA1PRNG, or a
//! player's own [`FastRng`] to sample pieces like the ones it will receive.

use marathon_core::rng::{FastRng, JavaSecureRandom};

use crate::rules::{Board, Piece, PieceSource};

/// The smallest board side (docs/rules.md#polyomino-generation: `20 + nextInt(181)`).
pub const MIN_SIDE: usize = 20;
/// The number of board sides: sides are `MIN_SIDE..MIN_SIDE + SIDE_CHOICES`.
pub const SIDE_CHOICES: usize = 181;
/// The largest board side.
pub const MAX_SIDE: usize = MIN_SIDE + SIDE_CHOICES - 1;

/// The range of the number of covered cells for a `width` x `height` board: from
/// ceil(0.1 * W * H) to floor(0.7 * W * H), computed exactly in integers
/// (docs/rules.md#polyomino-generation).
pub fn covered_range(width: usize, height: usize) -> (usize, usize) {
    let area = width * height;
    (area.div_ceil(10), area * 7 / 10)
}

/// A uniform draw in `0..n`.
pub trait Draw {
    fn below(&mut self, n: u32) -> u32;
}

impl Draw for JavaSecureRandom {
    /// Java's `nextInt(n)`.
    fn below(&mut self, n: u32) -> u32 {
        self.next_int(n as i32) as u32
    }
}

impl Draw for FastRng {
    fn below(&mut self, n: u32) -> u32 {
        FastRng::below(self, n)
    }
}

/// The order in which a new cell's neighbours join the frontier: right, down, left, up
/// (docs/rules.md#polyomino-piece-generation; marathon's choice).
pub const NEIGHBOUR_ORDER: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Grows pieces (docs/rules.md#polyomino-piece-generation) with reusable scratch space.
///
/// A piece of `size` cells starts as one cell; the frontier is the list of distinct empty cells
/// 4-adjacent to the piece. Each step draws `i = below(frontier length)`, moves frontier cell
/// `i` into the piece (the last frontier cell takes its place in the list: a swap-remove), and
/// appends the new cell's neighbours that are neither in the piece nor in the frontier, in
/// [`NEIGHBOUR_ORDER`]. The start cell's neighbours form the first frontier in that order. The
/// result is boxed at (0, 0).
#[derive(Clone, Debug, Default)]
pub struct Grower {
    /// `seen[i] == stamp`: cell `i` of the scratch square is in the piece or the frontier.
    seen: Vec<u32>,
    side: usize,
    stamp: u32,
    frontier: Vec<(i32, i32)>,
    cells: Vec<(i64, i64)>,
}

impl Grower {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn grow(&mut self, size: usize, draw: &mut impl Draw) -> Piece {
        assert!(size >= 1, "a piece has at least one cell");
        // Cells stay within size - 1 of the start, their neighbours within size.
        let side = 2 * size + 1;
        if side > self.side {
            self.side = side;
            self.seen = vec![0; side * side];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let (stamp, side) = (self.stamp, self.side as i32);
        let centre = side / 2;
        let index = |x: i32, y: i32| ((y + centre) * side + (x + centre)) as usize;
        self.frontier.clear();
        self.cells.clear();
        let add = |grower: &mut Self, x: i32, y: i32| {
            grower.cells.push((x as i64, y as i64));
            for (dx, dy) in NEIGHBOUR_ORDER {
                let (nx, ny) = (x + dx, y + dy);
                let i = index(nx, ny);
                if grower.seen[i] != stamp {
                    grower.seen[i] = stamp;
                    grower.frontier.push((nx, ny));
                }
            }
        };
        self.seen[index(0, 0)] = stamp;
        add(self, 0, 0);
        while self.cells.len() < size {
            let i = draw.below(self.frontier.len() as u32) as usize;
            let (x, y) = self.frontier.swap_remove(i);
            add(self, x, y);
        }
        Piece::from_cells(&self.cells).expect("a grown piece is connected")
    }
}

/// One piece with fresh scratch space (see [`Grower`]).
pub fn grow_piece(size: usize, draw: &mut impl Draw) -> Piece {
    Grower::new().grow(size, draw)
}

/// The judge's pieces: the case's SHA1PRNG stream, continued after the board.
#[derive(Clone, Debug)]
pub struct PieceGenerator {
    rng: JavaSecureRandom,
    grower: Grower,
}

impl PieceSource for PieceGenerator {
    fn next_piece(&mut self, size: usize) -> Piece {
        self.grower.grow(size, &mut self.rng)
    }
}

/// A case: the board and the covered cells in the order they were drawn.
#[derive(Clone, Debug)]
pub struct PolyominoCase {
    pub width: usize,
    pub height: usize,
    /// The covered cells `(x, y)`, in draw order.
    pub covered: Vec<(usize, usize)>,
    /// The stream after the board, where the pieces come from.
    rng: JavaSecureRandom,
}

impl PolyominoCase {
    /// The case for `seed` (read as Java's `long`): `W = 20 + nextInt(181)`,
    /// `H = 20 + nextInt(181)`, `K = lo + nextInt(hi - lo + 1)` with `(lo, hi)` =
    /// [`covered_range`], then K distinct cells, each drawn as `x = nextInt(W)`, `y = nextInt(H)`
    /// and drawn again while it is already covered.
    pub fn new(seed: u64) -> Self {
        let mut rng = JavaSecureRandom::new(seed as i64);
        let width = MIN_SIDE + rng.below(SIDE_CHOICES as u32) as usize;
        let height = MIN_SIDE + rng.below(SIDE_CHOICES as u32) as usize;
        let (lo, hi) = covered_range(width, height);
        let count = lo + rng.below((hi - lo + 1) as u32) as usize;
        let mut board = Board::new(width, height);
        let mut covered = Vec::with_capacity(count);
        while covered.len() < count {
            let x = rng.below(width as u32) as usize;
            let y = rng.below(height as u32) as usize;
            if !board.is_covered(x, y) {
                board.cover(x, y);
                covered.push((x, y));
            }
        }
        PolyominoCase {
            width,
            height,
            covered,
            rng,
        }
    }

    pub fn board(&self) -> Board {
        let mut board = Board::new(self.width, self.height);
        for &(x, y) in &self.covered {
            board.cover(x, y);
        }
        board
    }

    /// The piece generator, continuing the case's stream.
    pub fn pieces(&self) -> PieceGenerator {
        PieceGenerator {
            rng: self.rng.clone(),
            grower: Grower::new(),
        }
    }
}
