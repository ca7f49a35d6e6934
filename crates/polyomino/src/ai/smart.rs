//! The `ai` player.
//!
//! **Which size to ask for.** For a ladder of sizes it keeps a pool of sample pieces grown with
//! its own generator (the judge's growth rule, [`Grower`] on a [`FastRng`]), each with a
//! witness position where it still fits. Fitting only gets harder as the board fills, so a
//! sample that fits nowhere is dropped for good, and after a placement only the samples whose
//! witness was hit are searched again. The fraction `p` of live samples estimates the chance
//! that a piece of that size fits somewhere; a piece that fits scores `s^2` and one that does
//! not costs `s^2`, so asking until one fits gains `s^2 (2 - 1/p)` per placed piece, over `s`
//! cells: the player asks for the size with the best `s^alpha (2 - 1/p)` and stops when no size
//! gains. Every piece received joins its size's pool (one that fit nowhere as a dead sample),
//! so bad luck lowers the estimate. Sizes above the first one with `p` below a cut-off are no
//! longer tracked. Small sizes come last by themselves: they are the only ones that still fit.
//!
//! **Where to place.** A bitboard scan over all positions and rotations counts, with bit-sliced
//! counters, each position's contact (piece edges against covered cells or the border); among
//! the positions of the largest contact it takes the one that leaves the least damage: closed
//! free pockets too small for any piece (under 3 cells) cost their cells, other small pockets a
//! little.
//!
//! **Holding pieces.** With `Params::hand > 1` it holds up to that many pieces while the size it
//! asks for fits easily (`p >= hold`), and places the largest held piece, the one whose best
//! position fits its perimeter best among equals. Measured at effort 24 on seeds 1-30 this
//! lost 0.6% to 3% (held pieces that no longer fit cost more than the better fits gain), so the
//! default holds one piece. Wider candidate sets (`slack`), filling from the top, guarding the
//! witnesses of larger sizes, and a lookahead that tried the best positions and counted the
//! samples still fitting afterwards were tried too and gained under 0.5% (or lost).
//!
//! With a fixed effort (the number of samples per size) it never reads the clock; otherwise it
//! uses [`DEFAULT_SAMPLES`] and stops asking once 90% of the time limit is used (a piece held
//! then stays unplaced; with the default hand of one, none is).

use std::time::Duration;

use marathon_core::rng::FastRng;

use crate::ai::bits::{BitBoard, Oriented, Shape, Spot};
use crate::ai::{Clock, Observation, Player};
use crate::generator::Grower;
use crate::protocol::Command;
use crate::rules::{Board, MAX_REQUESTS, MAX_SIZE, MIN_SIZE};

/// Samples per size without a fixed effort.
pub const DEFAULT_SAMPLES: u64 = 24;

/// Tunable numbers of the player.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// The value of asking for size `s` is `s^alpha * (2 - 1/p)`.
    pub alpha: f64,
    /// Sizes above the first whose fit estimate falls below this are dropped.
    pub cutoff: f64,
    /// Penalty per cell of a closed pocket smaller than `MIN_SIZE`.
    pub waste: f64,
    /// Penalty per closed pocket of `MIN_SIZE..POCKET` cells.
    pub pocket: f64,
    /// Weight of contact.
    pub contact: f64,
    /// Pieces held at once: the player places the held piece that fits best, then asks again.
    pub hand: usize,
    /// Positions whose contact is within `slack` of the largest are candidates.
    pub slack: u32,
    /// Candidate positions taken per anchor row and rotation.
    pub per_row: usize,
    /// The sizes tracked: every size up to `every`, then sizes `step` times apart.
    pub every: usize,
    pub step: f64,
    /// A placed piece joins its size's pool while the pool has fewer samples than this (pieces
    /// that fit nowhere always join).
    pub pool_limit: usize,
    /// More than one piece is held only while the size asked for fits with at least this `p`.
    pub hold: f64,
}

marathon_core::tunable!(Params {
    alpha: "asking for size s is worth s^alpha * (2 - 1/p), p the share of samples that fit",
    cutoff: "sizes above the first whose p falls below this are no longer tracked",
    waste: "cost per cell of a closed pocket too small for any piece (under 3 cells)",
    pocket: "cost per closed pocket of 3 to 11 cells",
    contact: "weight of a position's contact (piece edges against covered cells or the border)",
    hand: "pieces held at once; the one that fits best is placed",
    slack: "positions whose contact is within this of the largest are candidates",
    per_row: "candidate positions taken per anchor row and rotation (none: all)",
    every: "the sizes tracked: every size up to this one ...",
    step: "... then sizes this factor apart",
    pool_limit: "a placed piece joins its size's samples while they are fewer than this \
                 (none: always)",
    hold: "more than one piece is held only while the size asked for fits with at least this p",
} check = Params::check);

impl Params {
    /// Refuses values the player cannot run with: a ladder of sizes that never reaches the
    /// largest (`step` at most 1) or starts beyond it, an empty hand.
    pub fn check(&self) -> Result<(), String> {
        if self.step <= 1.0 {
            return Err(format!("step={}: expected more than 1", self.step));
        }
        if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&self.every) {
            return Err(format!(
                "every={}: expected {MIN_SIZE} to {MAX_SIZE}",
                self.every
            ));
        }
        if self.hand == 0 {
            return Err("hand=0: expected at least 1".into());
        }
        // Contacts are sums over a piece's cells; the slack is added to them unchecked.
        if self.slack > MAX_SLACK {
            return Err(format!(
                "slack={}: expected at most {MAX_SLACK}",
                self.slack
            ));
        }
        Ok(())
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            // 0.5 beat 1.0 (and 0.25, 0.75, 1.25, 1.5, 2) at effort 24 on seeds 1-30 and 101-160.
            alpha: 0.5,
            cutoff: 0.1,
            waste: 3.0,
            pocket: 1.0,
            contact: 1.0,
            hand: 1,
            hold: 0.95,
            slack: 0,
            per_row: usize::MAX,
            pool_limit: usize::MAX,
            every: 16,
            step: 1.1,
        }
    }
}

/// The largest [`Params::slack`]: more than any contact a piece of `MAX_SIZE` cells can have.
const MAX_SLACK: u32 = 4 * MAX_SIZE as u32;

/// Pockets of at least this many cells are not counted as damage.
const POCKET: usize = 12;
/// Positions of the largest contact examined for damage.
const CANDIDATES: usize = 48;
/// Time kept in reserve when playing on the clock.
const RESERVE_FRACTION: f64 = 0.1;

/// The sizes tracked: every size up to 16, then about 10% apart up to `MAX_SIZE`.
fn ladder(every: usize, step: f64) -> Vec<usize> {
    let mut sizes: Vec<usize> = (MIN_SIZE as usize..=every).collect();
    let mut s = every;
    while s < MAX_SIZE as usize {
        s = ((s as f64 * step).ceil() as usize).min(MAX_SIZE as usize);
        sizes.push(s);
    }
    sizes
}

struct Sample {
    piece: Oriented,
    witness: Option<Spot>,
}

struct Pool {
    size: usize,
    samples: Vec<Sample>,
    alive: usize,
}

impl Pool {
    fn p(&self) -> f64 {
        if self.samples.is_empty() {
            0.0
        } else {
            self.alive as f64 / self.samples.len() as f64
        }
    }
}

/// A byte grid of the board for pocket floods.
struct Grid {
    width: usize,
    height: usize,
    covered: Vec<bool>,
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<usize>,
}

impl Grid {
    fn new(board: &Board) -> Self {
        let (width, height) = (board.width(), board.height());
        let mut covered = vec![false; width * height];
        for y in 0..height {
            for x in 0..width {
                covered[y * width + x] = board.is_covered(x, y);
            }
        }
        Grid {
            width,
            height,
            covered,
            stamp: vec![0; width * height],
            current: 0,
            stack: Vec::new(),
        }
    }

    fn set(&mut self, shape: &Shape, x: usize, y: usize, value: bool) {
        for &(cx, cy) in &shape.cells {
            self.covered[(y + cy) * self.width + x + cx] = value;
        }
    }

    /// The damage of `shape` at `(x, y)`: the closed pockets it leaves next to it.
    fn damage(&mut self, shape: &Shape, x: usize, y: usize, params: &Params) -> f64 {
        self.set(shape, x, y, true);
        self.current += 1;
        let mut damage = 0.0;
        for &(cx, cy) in &shape.cells {
            let (px, py) = (x + cx, y + cy);
            let neighbours = [
                (px + 1 < self.width).then(|| (px + 1, py)),
                (py + 1 < self.height).then(|| (px, py + 1)),
                (px > 0).then(|| (px - 1, py)),
                (py > 0).then(|| (px, py - 1)),
            ];
            for (nx, ny) in neighbours.into_iter().flatten() {
                let i = ny * self.width + nx;
                if self.covered[i] || self.stamp[i] == self.current {
                    continue;
                }
                if let Some(size) = self.pocket(i) {
                    damage += if size < MIN_SIZE as usize {
                        params.waste * size as f64
                    } else {
                        params.pocket
                    };
                }
            }
        }
        self.set(shape, x, y, false);
        damage
    }

    /// The size of the free region of cell `start` if it is below `POCKET` cells.
    fn pocket(&mut self, start: usize) -> Option<usize> {
        self.stack.clear();
        self.stack.push(start);
        self.stamp[start] = self.current;
        let mut size = 0;
        while let Some(i) = self.stack.pop() {
            size += 1;
            if size >= POCKET {
                return None;
            }
            let (x, y) = (i % self.width, i / self.width);
            let visit = |j: usize, grid: &mut Grid| {
                if !grid.covered[j] && grid.stamp[j] != grid.current {
                    grid.stamp[j] = grid.current;
                    grid.stack.push(j);
                }
            };
            if x + 1 < self.width {
                visit(i + 1, self);
            }
            if x > 0 {
                visit(i - 1, self);
            }
            if y + 1 < self.height {
                visit(i + self.width, self);
            }
            if y > 0 {
                visit(i - self.width, self);
            }
        }
        Some(size)
    }
}

/// The best position for `piece`, if it fits anywhere.
fn best_spot(
    bits: &BitBoard,
    grid: &mut Grid,
    piece: &Oriented,
    params: &Params,
) -> Option<(f64, Spot)> {
    let mut candidates: Vec<(f64, u32, Spot)> = Vec::new();
    let top = bits.best_contacts(piece, params.slack, params.per_row, |spot, contact| {
        candidates.push((params.contact * contact as f64, contact, spot));
    });
    candidates.retain(|c| c.1 + params.slack >= top);
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    candidates.truncate(CANDIDATES);
    let scored: Vec<(f64, Spot)> = candidates
        .into_iter()
        .map(|(value, _, spot)| {
            let shape = &piece.shapes[spot.shape];
            (value - grid.damage(shape, spot.x, spot.y, params), spot)
        })
        .collect();
    // The first of the best, in scan order.
    scored
        .into_iter()
        .reduce(|best, next| if next.0 > best.0 { next } else { best })
}

/// The `ai` player: the module's doc says how it plays. Its calls come one a turn, so that it
/// keeps where its plan stands between them.
pub struct SmartPlayer {
    params: Params,
    effort: Option<u64>,
    seed: u64,
    stage: Stage,
}

enum Stage {
    /// Before the first observation.
    New,
    Packing(Box<Packing>),
    /// It has said `DONE`.
    Done,
}

/// The player's game from its first observation on: its board, its samples, what it holds.
struct Packing {
    bits: BitBoard,
    grid: Grid,
    pools: Vec<Pool>,
    /// How long it may play, on a clock without a fixed effort.
    deadline: Option<Duration>,
    requests: usize,
    hand: Vec<(usize, Oriented)>,
    /// Whether it still asks for pieces (some size still gains).
    asking: bool,
    awaiting: Awaiting,
}

/// What the player's last call left to do when the answer comes.
enum Awaiting {
    Nothing,
    /// `GET`: the piece handed out joins the hand.
    Piece,
    /// `PLACE`: the piece placed at `spot` covers the player's boards and joins its pool.
    Placed(Oriented, Spot),
}

impl SmartPlayer {
    /// The player with `params`, `effort` samples per size (`None`: [`DEFAULT_SAMPLES`] and the
    /// clock), its generator seeded with `seed`.
    pub fn new(params: Params, effort: Option<u64>, seed: u64) -> Self {
        SmartPlayer {
            params,
            effort,
            seed,
            stage: Stage::New,
        }
    }
}

impl Player for SmartPlayer {
    type Observation = Observation;
    type Action = Command;

    fn choose(&mut self, seen: &Observation, clock: &Clock) -> Command {
        let params = &self.params;
        let (packing, asking) = match &mut self.stage {
            Stage::Done => return Command::Done,
            Stage::New => {
                let Some(mut packing) = Packing::start(seen, params, self.effort, self.seed, clock)
                else {
                    self.stage = Stage::Done;
                    return Command::Done;
                };
                // Started in the middle of a game (a hint): the piece handed out is held.
                if let Some((index, piece)) = &seen.pending {
                    packing.hand.push((*index, Oriented::new(piece)));
                }
                self.stage = Stage::Packing(Box::new(packing));
                let Stage::Packing(packing) = &mut self.stage else {
                    unreachable!("set above")
                };
                (packing, false)
            }
            Stage::Packing(packing) => match std::mem::replace(&mut packing.awaiting, Awaiting::Nothing) {
                Awaiting::Piece => {
                    let (index, piece) = seen.pending.as_ref().expect("a GET hands out a piece");
                    packing.hand.push((*index, Oriented::new(piece)));
                    (packing, true)
                }
                Awaiting::Placed(piece, spot) => {
                    packing.placed(piece, spot, params);
                    (packing, false)
                }
                Awaiting::Nothing => (packing, false),
            },
        };
        let command = packing.next_call(params, clock, asking);
        if command == Command::Done {
            self.stage = Stage::Done;
        }
        command
    }
}

impl Packing {
    /// The pools grown for the board `seen` shows, while their sizes still fit often enough;
    /// `None` for a board no piece fits on.
    fn start(
        seen: &Observation,
        params: &Params,
        effort: Option<u64>,
        seed: u64,
        clock: &Clock,
    ) -> Option<Packing> {
        let board = &seen.board;
        let bits = BitBoard::new(board)?;
        let grid = Grid::new(board);
        let mut rng = FastRng::new(seed);
        let mut grower = Grower::new();
        let samples = effort.unwrap_or(DEFAULT_SAMPLES).clamp(2, 4096) as usize;
        let deadline = effort.is_none().then(|| {
            clock
                .limit
                .mul_f64(1.0 - RESERVE_FRACTION)
                .saturating_sub(Duration::from_millis(20))
        });
        let max_region = board.free_regions().into_iter().max().unwrap_or(0);
        let mut pools: Vec<Pool> = Vec::new();
        for size in ladder(params.every, params.step) {
            // On a very short clock, leave time for playing.
            let late = deadline.is_some_and(|d| clock.spent() >= d / 2);
            if size > max_region || (late && !pools.is_empty()) {
                break;
            }
            let mut pool = Pool {
                size,
                samples: Vec::with_capacity(samples),
                alive: 0,
            };
            for _ in 0..samples {
                let piece = Oriented::new(&grower.grow(size, &mut rng));
                let witness = bits.find_fit(&piece, 0);
                pool.alive += witness.is_some() as usize;
                pool.samples.push(Sample { piece, witness });
            }
            let low = pool.p() < params.cutoff;
            pools.push(pool);
            if low {
                break;
            }
        }
        Some(Packing {
            bits,
            grid,
            pools,
            deadline,
            requests: seen.requested,
            hand: Vec::with_capacity(params.hand),
            asking: true,
            awaiting: Awaiting::Nothing,
        })
    }

    /// The next call: ask for the size of best gain while the hand has room, else place the
    /// held piece that fits best; `DONE` when nothing is held and nothing is worth asking for,
    /// or the time is up. `asking` resumes where a `GET` left the filling of the hand.
    fn next_call(&mut self, params: &Params, clock: &Clock, mut asking: bool) -> Command {
        loop {
            if !asking
                && let Some(deadline) = self.deadline
                && clock.spent() >= deadline
            {
                // Out of time: what is held stays unplaced.
                return Command::Done;
            }
            asking = false;
            while self.asking && self.hand.len() < params.hand.max(1) {
                match choose_size(&self.pools, params) {
                    // Holding more than one piece only while pieces of that size fit easily.
                    Some((_, p)) if !self.hand.is_empty() && p < params.hold => break,
                    Some((size, _)) if self.requests < MAX_REQUESTS => {
                        self.requests += 1;
                        self.awaiting = Awaiting::Piece;
                        return Command::Get { size: size as i64 };
                    }
                    _ => self.asking = false,
                }
            }
            if self.hand.is_empty() {
                return Command::Done;
            }
            // The held piece whose best position is the best fit for its perimeter.
            let mut best: Option<(f64, usize, Spot)> = None;
            let mut k = 0;
            while k < self.hand.len() {
                let piece = &self.hand[k].1;
                match best_spot(&self.bits, &mut self.grid, piece, params) {
                    Some((value, spot)) => {
                        // Larger pieces first (they are the first to find no room), then the
                        // best fit for the perimeter.
                        let rank =
                            piece.size() as f64 * 1e6 + value / piece.shapes[0].perimeter() as f64;
                        if best.is_none_or(|(r, _, _)| rank > r) {
                            best = Some((rank, k, spot));
                        }
                        k += 1;
                    }
                    None => {
                        // It fits nowhere, and never will: a dead sample.
                        let (_, piece) = self.hand.swap_remove(k);
                        if let Some(pool) = self.pools.iter_mut().find(|p| p.size == piece.size())
                        {
                            pool.samples.push(Sample {
                                piece,
                                witness: None,
                            });
                        }
                        if let Some((_, b, _)) = &mut best
                            && *b == self.hand.len()
                        {
                            *b = k;
                        }
                    }
                }
            }
            let Some((_, k, spot)) = best else {
                continue;
            };
            let (index, piece) = self.hand.swap_remove(k);
            let shape = &piece.shapes[spot.shape];
            let command = Command::Place {
                index: index as i64,
                x: spot.x as i64,
                y: spot.y as i64,
                rotation: shape.rotation as i64,
            };
            self.awaiting = Awaiting::Placed(piece, spot);
            return command;
        }
    }

    /// `piece`, placed at `spot`, covers the player's boards, joins its size's pool (while the
    /// pool is small enough), and the samples whose witness it covers are searched again.
    fn placed(&mut self, piece: Oriented, spot: Spot, params: &Params) {
        let shape = &piece.shapes[spot.shape];
        self.bits.place(shape, spot.x, spot.y);
        self.grid.set(shape, spot.x, spot.y, true);
        let placed = (spot.x, spot.y, shape.width, shape.height);
        if let Some(pool) = self
            .pools
            .iter_mut()
            .find(|p| p.size == piece.size() && p.samples.len() < params.pool_limit)
        {
            let witness = self.bits.find_fit(&piece, spot.y);
            pool.alive += witness.is_some() as usize;
            pool.samples.push(Sample { piece, witness });
        }
        refresh(&self.bits, &mut self.pools, placed, params.cutoff);
    }
}

/// The size with the best value `s^alpha (2 - 1/p)` and its `p`, if any gains.
fn choose_size(pools: &[Pool], params: &Params) -> Option<(usize, f64)> {
    let mut choice: Option<(f64, usize, f64)> = None;
    for pool in pools {
        let p = pool.p();
        if p <= 0.5 {
            continue;
        }
        let value = (pool.size as f64).powf(params.alpha) * (2.0 - 1.0 / p);
        if choice.is_none_or(|(v, _, _)| value > v) {
            choice = Some((value, pool.size, p));
        }
    }
    choice.map(|(_, size, p)| (size, p))
}

/// Searches again the samples whose witness overlaps the placed box `(x, y, w, h)`; drops the
/// sizes above the first whose estimate fell below `cutoff`.
fn refresh(
    bits: &BitBoard,
    pools: &mut Vec<Pool>,
    placed: (usize, usize, usize, usize),
    cutoff: f64,
) {
    let (px, py, pw, ph) = placed;
    let mut keep = pools.len();
    for (k, pool) in pools.iter_mut().enumerate() {
        for sample in &mut pool.samples {
            let Some(spot) = sample.witness else {
                continue;
            };
            let shape = &sample.piece.shapes[spot.shape];
            let overlaps = spot.x < px + pw
                && px < spot.x + shape.width
                && spot.y < py + ph
                && py < spot.y + shape.height;
            if !overlaps || bits.fits_at(shape, spot.x, spot.y) {
                continue;
            }
            sample.witness = bits.find_fit(&sample.piece, spot.y);
            if sample.witness.is_none() {
                pool.alive -= 1;
            }
        }
        if pool.p() < cutoff {
            keep = k + 1;
            break;
        }
    }
    pools.truncate(keep);
}
