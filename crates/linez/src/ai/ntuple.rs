//! A learned evaluation: an n-tuple network over the 140 windows of five, trained by
//! temporal-difference learning on afterstates (the board after the player's move, before the
//! spawn), the method that made 1-ply players strong at 2048 (Szubert and Jaśkowski, 2014).
//!
//! The value of an afterstate estimates the points still to come. It is a sum of table entries:
//! one per window, indexed by the window's colour pattern, and one per whole-board term (empty
//! cells, cells cut off from the largest empty region, lines of four ready to clear). A
//! pattern names each cell empty or coloured, colours by order of first appearance, so that
//! what is learned about one colour holds for all seven (203 patterns). Windows that a symmetry
//! of the board maps onto each other share one table and are read in corresponding cell order,
//! so a corner window learns from all four corners.

use std::sync::OnceLock;

use super::blocks::{BLOCK_COUNT, BLOCK_LEN, BlockGeometry, block_geometry};
use super::top_moves::TopMoves;
use super::windows::{COUNT, LEN, WINDOWS, symmetry};
use crate::rules::{Bits, Board, CELLS, COLORS, Cell, LegalMoves, Move, Region, SIZE, line_points};

/// Colour patterns of a window: each cell empty or one of at most five colours, named in order
/// of first appearance.
pub const PATTERNS: usize = 203;

/// Canonical codes: five base-6 digits (0 empty, 1..=5 colour names).
const CANONICAL_CODES: usize = 6 * 6 * 6 * 6 * 6;

/// Raw codes: the five cells' colours (0 empty, 1..=7), three bits each, the window's first
/// cell lowest. A move changes one cell of a window, which is one masked or or-ed digit.
const RAW_CODES: usize = 1 << (3 * LEN);

/// The raw-code bit above the five digits that marks a self-reversed window (see
/// `Geometry::pattern`).
const MIRRORED: usize = RAW_CODES;

/// Whole-board terms, each a table indexed by a small count.
const GLOBAL_TERMS: usize = 7;
/// Ready lines beyond this count share the last entry.
const MAX_READY: usize = 15;
/// Empty regions beyond this count share the last entry.
const MAX_REGIONS: usize = 15;
/// Promising windows beyond this count share the last entry.
const MAX_PROMISING: usize = 31;
/// Terms are only ever appended, so that a file of an older network (a prefix of them) still
/// reads, the new terms at zero.
const GLOBAL_SIZES: [usize; GLOBAL_TERMS] = [
    CELLS + 1,
    CELLS + 1,
    MAX_READY + 1,
    CELLS + 1,
    MAX_REGIONS + 1,
    COLORS as usize + 1,
    MAX_PROMISING + 1,
];

/// Table entries one afterstate reads: one per window, one per whole-board term, one per block.
pub const FEATURES: usize = COUNT + GLOBAL_TERMS + BLOCK_COUNT;

/// Where the blocks' entries start in [`Features`].
const BLOCKS_FROM: usize = COUNT + GLOBAL_TERMS;

/// The active table entries of one afterstate (indices into the weights).
pub type Features = [u32; FEATURES];

/// The fixed layout of the network: windows' cell orders and tables, pattern codes.
struct Geometry {
    /// Each window's cells, ordered so that windows of one symmetry class read alike.
    cells: [[u8; LEN]; COUNT],
    /// Offset of each window's table in the weights.
    table: [u32; COUNT],
    /// Offset of each whole-board term's table after all stages' window tables.
    global: [u32; GLOBAL_TERMS],
    /// Length of one stage's window tables.
    windows_len: usize,
    /// Pattern per raw code, twice: for most windows, and for raw codes with the [`MIRRORED`]
    /// bit, those of the windows a symmetry maps onto themselves reversed (the middle window of
    /// a row, a column or an odd diagonal), which read a pattern and its reverse as the lesser
    /// of the two, so that a board and its mirror image have one value.
    pattern: Vec<u16>,
    /// Per window, the bit its raw codes carry: [`MIRRORED`] for the self-reversed ones, else
    /// 0. It is set once when a code is read off the board and kept by the digit updates, so
    /// that the hot lookup in [`Geometry::feature`] needs nothing but the code.
    raw_flag: [u16; COUNT],
    /// Per pattern, the pattern of its cells read in the opposite order.
    reverse_pattern: Vec<u16>,
    /// Per raw code (with or without the [`MIRRORED`] flag), the balls if they are three or
    /// four of one colour with only gaps beside them (a line two or one balls from clearing),
    /// else 0.
    near: Vec<u8>,
    /// For each cell, the windows holding it and the shift of its digit in their raw codes.
    of_cell: [[(u8, u8); MAX_WINDOWS_OF_CELL]; CELLS],
    of_cell_len: [u8; CELLS],
}

/// Windows through one cell: five positions in each of four directions.
const MAX_WINDOWS_OF_CELL: usize = 20;

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(Geometry::new)
}

impl Geometry {
    fn new() -> Self {
        let natural: Vec<[u8; LEN]> = WINDOWS
            .iter()
            .map(|&mask| {
                let mut cells = [0u8; LEN];
                let mut bits = mask;
                for cell in cells.iter_mut() {
                    *cell = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                }
                cells
            })
            .collect();
        let index_of = |mask: u128| WINDOWS.iter().position(|&m| m == mask);
        let mut cells = [[0u8; LEN]; COUNT];
        let mut class_of = [usize::MAX; COUNT];
        let mut raw_flag = [0u16; COUNT];
        let mut classes = 0;
        for window in 0..COUNT {
            // The class representative is the lowest-numbered window of the orbit; this window
            // is read in the order that the symmetry taking it there gives the representative's
            // natural order.
            let mut best: Option<(usize, [u8; LEN])> = None;
            for s in 0..8 {
                let mapped: Vec<u8> = natural[window]
                    .iter()
                    .map(|&c| {
                        let (r, c) = symmetry(s, c as usize / SIZE, c as usize % SIZE);
                        (r * SIZE + c) as u8
                    })
                    .collect();
                let mask = mapped.iter().fold(0u128, |m, &c| m | 1u128 << c);
                let image = index_of(mask).expect("a symmetry maps windows to windows");
                if image == window && mapped.iter().eq(natural[window].iter().rev()) {
                    raw_flag[window] = MIRRORED as u16;
                }
                if best.is_none_or(|(b, _)| image < b) {
                    let mut order = [0u8; LEN];
                    for (slot, &rep_cell) in natural[image].iter().enumerate() {
                        let i = mapped
                            .iter()
                            .position(|&c| c == rep_cell)
                            .expect("same cells");
                        order[slot] = natural[window][i];
                    }
                    best = Some((image, order));
                }
            }
            let (representative, order) = best.expect("eight symmetries");
            cells[window] = order;
            class_of[window] = if representative == window {
                classes += 1;
                classes - 1
            } else {
                class_of[representative]
            };
            debug_assert!(class_of[window] != usize::MAX, "representatives come first");
        }
        let mut table = [0u32; COUNT];
        for (window, offset) in table.iter_mut().enumerate() {
            *offset = (class_of[window] * PATTERNS) as u32;
        }
        let mut global = [0u32; GLOBAL_TERMS];
        let mut offset = 0;
        for (term, slot) in global.iter_mut().enumerate() {
            *slot = offset as u32;
            offset += GLOBAL_SIZES[term];
        }
        let windows_len = classes * PATTERNS;
        let mut canonical = vec![u16::MAX; CANONICAL_CODES];
        let mut next = 0u16;
        for (code, slot) in canonical.iter_mut().enumerate() {
            if is_canonical(code) {
                *slot = next;
                next += 1;
            }
        }
        assert_eq!(next as usize, PATTERNS);
        let near: Vec<u8> = (0..RAW_CODES)
            .map(|raw| {
                let colors: [u8; LEN] = std::array::from_fn(|i| (raw >> (3 * i)) as u8 & 7);
                let first = colors.iter().copied().find(|&c| c != 0).unwrap_or(0);
                let balls = colors.iter().filter(|&&c| c != 0).count();
                let one_colour = colors.iter().all(|&c| c == 0 || c == first);
                if one_colour && (balls == LEN - 2 || balls == LEN - 1) {
                    balls as u8
                } else {
                    0
                }
            })
            .collect();
        let plain: Vec<u16> = (0..RAW_CODES)
            .map(|raw| {
                canonical[canonical_code(std::array::from_fn(|i| (raw >> (3 * i)) as u8 & 7))]
            })
            .collect();
        let unordered = (0..RAW_CODES).map(|raw| plain[raw].min(plain[reversed(raw)]));
        let pattern = plain.iter().copied().chain(unordered).collect();
        let mut reverse_pattern = vec![0u16; PATTERNS];
        for (raw, &p) in plain.iter().enumerate() {
            reverse_pattern[p as usize] = plain[reversed(raw)];
        }
        let near = near.iter().chain(&near).copied().collect();
        let mut of_cell = [[(0u8, 0u8); MAX_WINDOWS_OF_CELL]; CELLS];
        let mut of_cell_len = [0u8; CELLS];
        for (window, window_cells) in cells.iter().enumerate() {
            for (slot, &cell) in window_cells.iter().enumerate() {
                let cell = cell as usize;
                of_cell[cell][of_cell_len[cell] as usize] = (window as u8, (3 * slot) as u8);
                of_cell_len[cell] += 1;
            }
        }
        Geometry {
            cells,
            table,
            global,
            windows_len,
            pattern,
            raw_flag,
            reverse_pattern,
            near,
            of_cell,
            of_cell_len,
        }
    }

    /// The windows through `cell` with the shift of its digit in each one's raw code.
    #[inline]
    fn windows_of(&self, cell: Cell) -> &[(u8, u8)] {
        &self.of_cell[cell.index()][..self.of_cell_len[cell.index()] as usize]
    }

    /// The raw code of `window` on a board with these cell colours (with its flag).
    #[inline]
    fn raw_code(&self, window: usize, colors: &[u8; CELLS]) -> usize {
        let cells = &self.cells[window];
        let mut raw = usize::from(self.raw_flag[window]);
        for (slot, &cell) in cells.iter().enumerate() {
            raw |= (colors[cell as usize] as usize) << (3 * slot);
        }
        raw
    }

    /// The weight index `window` reads when its raw code is `raw`.
    #[inline]
    fn feature(&self, window: usize, raw: usize) -> u32 {
        self.table[window] + u32::from(self.pattern[raw])
    }
}

/// The raw code of a window's cells read in the opposite order.
fn reversed(raw: usize) -> usize {
    (0..LEN).fold(0, |reversed, slot| {
        reversed | ((raw >> (3 * slot)) & 7) << (3 * (LEN - 1 - slot))
    })
}

/// The canonical (base-6) code of five colours: colours renamed 1, 2, ... by first appearance.
fn canonical_code(colors: [u8; LEN]) -> usize {
    let mut name = [0u8; 8];
    let mut next = 1u8;
    let mut code = 0usize;
    for color in colors {
        let digit = if color == 0 {
            0
        } else {
            let slot = &mut name[color as usize];
            if *slot == 0 {
                *slot = next;
                next += 1;
            }
            *slot
        };
        code = code * 6 + digit as usize;
    }
    code
}

/// Whether a canonical-code candidate names its colours in order of first appearance.
fn is_canonical(mut code: usize) -> bool {
    let mut digits = [0usize; LEN];
    for digit in digits.iter_mut().rev() {
        *digit = code % 6;
        code /= 6;
    }
    let mut seen = 0;
    for digit in digits {
        if digit > seen + 1 {
            return false;
        }
        seen = seen.max(digit);
    }
    true
}

/// The whole-board terms of a board: empty cells, empty cells outside the largest empty
/// region, ready lines (four of a colour whose gap a fifth can reach), balls that can move into
/// the largest region, empty regions, colours with no ball that can, promising windows (three
/// of a colour whose two gaps balls of it from outside can reach). Only the `near` windows can
/// be ready or promising.
fn global_counts(board: &Board, moves: &LegalMoves, near: &NearLines) -> [usize; GLOBAL_TERMS] {
    let regions = moves.regions();
    let empty = board.empty_cells().count() as usize;
    let largest = regions
        .iter()
        .max_by_key(|r| r.cells.count())
        .copied()
        .unwrap_or_default();
    let completed = |windows: &WindowList| {
        windows
            .as_slice()
            .iter()
            .filter(|&&window| can_complete(board, regions, window as usize))
            .count()
    };
    let ready = completed(&near.four);
    let promising = completed(&near.three);
    let stuck_colours = (1..=COLORS)
        .filter(|&color| (board.color_bits(color) & largest.movers).is_empty())
        .count();
    [
        empty,
        empty - largest.cells.count() as usize,
        ready.min(MAX_READY),
        largest.movers.count() as usize,
        regions.len().min(MAX_REGIONS),
        stuck_colours,
        promising.min(MAX_PROMISING),
    ]
}

/// Whether balls of the colour of `window` (balls of one colour and gaps) from outside it can
/// reach every gap.
#[inline]
fn can_complete(board: &Board, regions: &[Region], window: usize) -> bool {
    let mask = WINDOWS[window];
    let occupied = board.occupied().raw();
    let ball = (occupied & mask).trailing_zeros() as usize;
    let same = board.color_bits(board.colors()[ball]).raw();
    let gaps = mask & !occupied;
    regions
        .iter()
        .filter(|region| region.cells.raw() & gaps != 0)
        .all(|region| region.movers.raw() & same & !mask != 0)
}

/// Some windows of a board, at most [`COUNT`].
#[derive(Clone, Copy)]
struct WindowList {
    windows: [u8; COUNT],
    len: usize,
}

impl WindowList {
    fn new() -> Self {
        WindowList {
            windows: [0; COUNT],
            len: 0,
        }
    }

    fn push(&mut self, window: usize) {
        self.windows[self.len] = window as u8;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u8] {
        &self.windows[..self.len]
    }
}

/// The windows of a board one or two balls from clearing: four or three balls of one colour
/// and only gaps beside them.
#[derive(Clone, Copy)]
struct NearLines {
    four: WindowList,
    three: WindowList,
}

impl NearLines {
    fn new() -> Self {
        NearLines {
            four: WindowList::new(),
            three: WindowList::new(),
        }
    }

    /// Adds `window` if its raw code `raw` makes it near.
    #[inline]
    fn offer(&mut self, window: usize, raw: usize) {
        match geometry().near[raw] as usize {
            balls if balls == LEN - 1 => self.four.push(window),
            balls if balls == LEN - 2 => self.three.push(window),
            _ => {}
        }
    }
}

/// The network: one weight per table entry.
///
/// The window tables come in stages by the number of balls on the board (a line of three
/// means more on a crowded board than on an open one, as in multi-stage networks for 2048);
/// the whole-board terms' tables are shared.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    stages: usize,
    weights: Vec<f32>,
}

/// File header of stored weights: version 1 has one stage and no stage count; versions 1 and 2
/// hold separate entries for a pattern and its reverse in the tables of self-reversed windows
/// (see `Geometry::pattern`), which read as their mean.
const MAGIC_V1: &[u8; 8] = b"LINEZNT1";
const MAGIC_V2: &[u8; 8] = b"LINEZNT2";
const MAGIC: &[u8; 8] = b"LINEZNT3";

/// Most stages a network may have.
pub const MAX_STAGES: usize = 8;

impl Default for Network {
    /// One stage, all weights zero.
    fn default() -> Self {
        Network::new(1)
    }
}

impl Network {
    /// A network of `stages` stages (1..=[`MAX_STAGES`]), all weights zero: the start of
    /// training.
    pub fn new(stages: usize) -> Self {
        assert!(
            (1..=MAX_STAGES).contains(&stages),
            "1..={MAX_STAGES} stages"
        );
        Network {
            stages,
            weights: vec![0.0; Self::len(stages)],
        }
    }

    fn len(stages: usize) -> usize {
        Self::len_with_terms(stages, GLOBAL_TERMS) + stages * block_geometry().tables_len
    }

    /// The weights' length of an older network: no blocks, and only the first `terms`
    /// whole-board terms.
    fn len_with_terms(stages: usize, terms: usize) -> usize {
        stages * geometry().windows_len + GLOBAL_SIZES[..terms].iter().sum::<usize>()
    }

    /// This network with `stages` stages, each starting as this one's stage that covers its
    /// middle: a trained network of fewer stages is a good start for one of more.
    #[cfg(feature = "lab")]
    pub fn restaged(&self, stages: usize) -> Network {
        let mut network = Network::new(stages);
        let windows_len = geometry().windows_len;
        for stage in 0..stages {
            let middle_balls = ((2 * stage + 1) * (CELLS + 1) / (2 * stages)) as u32;
            let from = self.stage_offset(middle_balls) as usize;
            network.weights[stage * windows_len..(stage + 1) * windows_len]
                .copy_from_slice(&self.weights[from..from + windows_len]);
        }
        let globals = self.global_offset(0) as usize..self.block_offset(0) as usize;
        let new_globals = network.global_offset(0) as usize..network.block_offset(0) as usize;
        network.weights[new_globals].copy_from_slice(&self.weights[globals]);
        let blocks_len = block_geometry().tables_len;
        for stage in 0..stages {
            let middle_balls = ((2 * stage + 1) * (CELLS + 1) / (2 * stages)) as u32;
            let from = self.block_offset(middle_balls) as usize;
            let to = network.block_offset(0) as usize + stage * blocks_len;
            network.weights[to..to + blocks_len]
                .copy_from_slice(&self.weights[from..from + blocks_len]);
        }
        network
    }

    /// The network whose values are the mean of `networks`' values (of one shape): a value is
    /// a sum of weights, so the mean of the weights. Independently trained networks err
    /// independently, and their mean errs less.
    #[cfg(feature = "lab")]
    pub fn mean_of(networks: &[Network]) -> Result<Network, String> {
        let first = networks.first().ok_or("no networks to average")?;
        if let Some(other) = networks.iter().find(|n| n.stages != first.stages) {
            return Err(format!(
                "{} stages and {} stages cannot be averaged",
                first.stages, other.stages
            ));
        }
        let mut mean = Network::new(first.stages);
        for network in networks {
            for (sum, w) in mean.weights.iter_mut().zip(&network.weights) {
                *sum += w / networks.len() as f32;
            }
        }
        Ok(mean)
    }

    /// The weights' length (for training state of the same shape).
    #[cfg(feature = "lab")]
    pub fn weight_count(&self) -> usize {
        self.weights.len()
    }

    /// The stage of a board with `balls` balls.
    #[inline]
    fn stage(&self, balls: u32) -> usize {
        (balls as usize * self.stages / (CELLS + 1)).min(self.stages - 1)
    }

    /// Where the window tables of the stage of a board with `balls` balls start.
    #[inline]
    fn stage_offset(&self, balls: u32) -> u32 {
        (self.stage(balls) * geometry().windows_len) as u32
    }

    /// Where the block tables of the stage of a board with `balls` balls start: after the
    /// whole-board terms, so that an older network's weights are a prefix.
    #[inline]
    fn block_offset(&self, balls: u32) -> u32 {
        let globals = self.global_offset(0) as usize + GLOBAL_SIZES.iter().sum::<usize>();
        (globals + self.stage(balls) * block_geometry().tables_len) as u32
    }

    /// Where the table of whole-board term `term` starts.
    #[inline]
    fn global_offset(&self, term: usize) -> u32 {
        (self.stages * geometry().windows_len) as u32 + geometry().global[term]
    }

    /// The trained network marathon ships (`linez.ntuple`, written by `marathon-tune
    /// linez-train`). Its windows and whole-board terms were trained first, one stage then two
    /// (340,000 games of TD(0.3) from zero, runs on at a tenth of the rate averaged, 120,000
    /// games in two stages: the network greedy scored 676.5 on seeds 1001-9000). Then the
    /// blocks were added at zero and the whole trained on: `linez-train 3000000 b1.bin --init
    /// that --stages 2 --rate 0.1 --lambda 0.3 --seed 101 --report 5000`, stopped at 175,000
    /// games (3,619 s on one core beside other work): the self-play mean went from 717 in the
    /// first 1,000 games to 845-862 from 100,000 games on.
    pub fn builtin() -> &'static Network {
        static BUILTIN: OnceLock<Network> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Network::from_bytes(include_bytes!("linez.ntuple")).expect("the shipped network reads")
        })
    }

    /// The active entries of an afterstate.
    pub fn features(&self, board: &Board) -> Features {
        let geometry = geometry();
        let colors = board.colors();
        let stage = self.stage_offset(board.ball_count());
        let mut features = [0u32; FEATURES];
        let mut near = NearLines::new();
        for (window, feature) in features[..COUNT].iter_mut().enumerate() {
            let raw = geometry.raw_code(window, colors);
            near.offer(window, raw);
            *feature = stage + geometry.feature(window, raw);
        }
        let counts = global_counts(board, &board.legal_moves(), &near);
        for (term, count) in counts.into_iter().enumerate() {
            features[COUNT + term] = self.global_offset(term) + count as u32;
        }
        let blocks = block_geometry();
        let block_stage = self.block_offset(board.ball_count());
        for (block, feature) in features[BLOCKS_FROM..].iter_mut().enumerate() {
            *feature = block_stage + blocks.feature(block, blocks.raw_code(block, colors));
        }
        features
    }

    /// The value of the afterstate with these entries.
    #[inline]
    pub fn value_of(&self, features: &Features) -> f32 {
        features.iter().map(|&f| self.weights[f as usize]).sum()
    }

    /// The value of the afterstate `board`: the points still to come, as learned.
    pub fn value(&self, board: &Board) -> f32 {
        self.value_of(&self.features(board))
    }

    /// The weights as a file: a magic header, the stage count and the weight count (`u32`
    /// each), then little-endian `f32`s.
    #[cfg(feature = "lab")]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(MAGIC.len() + 8 + 4 * self.weights.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(self.stages as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for w in &self.weights {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes
    }

    /// Reads weights written by [`Network::to_bytes`] (or by version 1, with one stage).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (stages, body, mirrored_apart) = if let Some(body) = bytes.strip_prefix(MAGIC) {
            let (stages, body) = read_u32(body)?;
            (stages, body, false)
        } else if let Some(body) = bytes.strip_prefix(MAGIC_V2) {
            let (stages, body) = read_u32(body)?;
            (stages, body, true)
        } else if let Some(body) = bytes.strip_prefix(MAGIC_V1) {
            (1, body, true)
        } else {
            return Err("not a Linez network (bad header)".into());
        };
        if !(1..=MAX_STAGES).contains(&stages) {
            return Err(format!("{stages} stages, at most {MAX_STAGES}"));
        }
        let (count, body) = read_u32(body)?;
        let expected = Self::len(stages);
        if count != expected
            && !(1..=GLOBAL_TERMS).any(|terms| count == Self::len_with_terms(stages, terms))
        {
            return Err(format!(
                "{count} weights, a {stages}-stage network has {expected}"
            ));
        }
        if body.len() != 4 * count {
            return Err(format!(
                "{} bytes of weights, expected {}",
                body.len(),
                4 * count
            ));
        }
        let mut weights: Vec<f32> = body
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes")))
            .collect();
        weights.resize(expected, 0.0);
        let mut network = Network { stages, weights };
        if mirrored_apart {
            network.merge_mirrored_patterns();
        }
        Ok(network)
    }

    /// Sets the entries of a pattern and its reverse in each self-reversed window's table to
    /// their mean (the lesser pattern's entry is the one read).
    fn merge_mirrored_patterns(&mut self) {
        let geometry = geometry();
        let mut tables: Vec<u32> = (0..COUNT)
            .filter(|&window| geometry.raw_flag[window] != 0)
            .map(|window| geometry.table[window])
            .collect();
        tables.sort_unstable();
        tables.dedup();
        for stage in 0..self.stages {
            for &table in &tables {
                let offset = stage * geometry.windows_len + table as usize;
                for (pattern, &reverse) in geometry.reverse_pattern.iter().enumerate() {
                    let (a, b) = (offset + pattern, offset + reverse as usize);
                    let mean = (self.weights[a] + self.weights[b]) / 2.0;
                    self.weights[a] = mean;
                    self.weights[b] = mean;
                }
            }
        }
    }

    /// The best legal move with its worth and the balls it removes. The worth of a move that
    /// clears nothing is the value of its afterstate (the spawn comes next); a move that clears
    /// is worth its points plus [`Network::continuation`] (the player moves again first).
    pub fn best_move(&self, board: &Board) -> Option<(Move, f32, u32)> {
        self.best_move_exact(board, EXACT_RESCORED)
    }

    /// The 1-ply player's move: [`Network::best_move`], or with `clear_first` the best clear
    /// whenever a move clears (as the search's replies play).
    pub fn greedy_move(&self, board: &Board, clear_first: bool) -> Option<(Move, f32, u32)> {
        if clear_first {
            self.best_move_clearing_first(board, EXACT_RESCORED)
        } else {
            self.best_move(board)
        }
    }

    /// [`Network::best_move`] after the best `exact` quiet moves by fast score (1 to
    /// [`MAX_EXACT`]) got their exact worth.
    pub fn best_move_exact(&self, board: &Board, exact: usize) -> Option<(Move, f32, u32)> {
        let mut best: Option<(Move, f32, u32)> = None;
        self.for_each_contender(board, exact, |mv, worth, removed| {
            if best.is_none_or(|(_, w, _)| worth > w) {
                best = Some((mv, worth, removed));
            }
        });
        best
    }

    /// [`Network::best_move_exact`], but a move that clears beats every move that does not.
    /// When one clears, the quiet moves are not scored at all: a third of the replies within
    /// the search's sampled futures can clear, and each saves the scoring of every legal move.
    pub fn best_move_clearing_first(
        &self,
        board: &Board,
        exact: usize,
    ) -> Option<(Move, f32, u32)> {
        let scorer = Scorer::new(self, board);
        if let Some(clear) = self.best_clear(&scorer, board) {
            return Some(clear);
        }
        let mut best: Option<(Move, f32, u32)> = None;
        self.contenders_of(&scorer, board, exact, |mv, worth, removed| {
            if best.is_none_or(|(_, w, _)| worth > w) {
                best = Some((mv, worth, removed));
            }
        });
        best
    }

    /// The clearing contender of [`Network::for_each_contender`] (the best clearing move by
    /// points and the value of the board after it, worth its points plus the continuation),
    /// found without scoring the quiet moves; `None` when no move clears.
    fn best_clear(&self, scorer: &Scorer, board: &Board) -> Option<(Move, f32, u32)> {
        let mut clearing = TopMoves::<MAX_CLEARING>::new();
        scorer.for_each_clearing(|mv, value, removed| clearing.offer(mv, value, removed));
        let &(mv, _, removed) = clearing.moves().first()?;
        let mut after = *board;
        after.move_ball(mv);
        Some((
            mv,
            line_points(removed) as f32 + self.continuation(&after),
            removed,
        ))
    }

    /// The best `n` moves, best first, after the best `exact` quiet moves by fast score (8 to
    /// [`MAX_EXACT`]: at least as many as [`Network::best_move`]'s) got their exact worth: the
    /// fast score takes the whole-board terms as the board's own, so a move that keeps the
    /// empty cells connected on a crowded board can rank low by it, and one search's root can
    /// afford to look further than every reply can. The best clearing move is among them
    /// however it ranks, last if below the `n`th: with more quiet moves valued exactly than
    /// `n` less one, they could push it out, and a search that clears first must see it.
    pub fn best_moves(&self, board: &Board, n: usize, exact: usize) -> Vec<(Move, f32, u32)> {
        let mut moves = Vec::new();
        self.for_each_contender(board, exact.max(EXACT_RESCORED), |mv, worth, removed| {
            moves.push((mv, worth, removed))
        });
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut rank = 0;
        moves.retain(|&(_, _, removed)| {
            rank += 1;
            rank <= n || removed > 0
        });
        moves
    }

    /// Calls `visit(move, worth, removed)` with the moves worth valuing exactly: the best
    /// `exact` quiet moves by fast score, and the best clearing moves.
    fn for_each_contender(&self, board: &Board, exact: usize, visit: impl FnMut(Move, f32, u32)) {
        self.contenders_of(&Scorer::new(self, board), board, exact, visit);
    }

    /// [`Network::for_each_contender`] with the board's scorer.
    fn contenders_of(
        &self,
        scorer: &Scorer,
        board: &Board,
        exact: usize,
        mut visit: impl FnMut(Move, f32, u32),
    ) {
        let mut quiet = TopMoves::<MAX_EXACT>::keeping(exact);
        let mut clearing = TopMoves::<MAX_CLEARING>::new();
        scorer.for_each_scored(|mv, value, removed| {
            if removed > 0 {
                clearing.offer(mv, value, removed);
            } else {
                quiet.offer(mv, value, removed);
            }
        });
        for &(mv, fast, removed) in quiet.moves() {
            visit(mv, scorer.exact(mv, fast, removed), removed);
        }
        for &(mv, _, removed) in clearing.moves() {
            let mut after = *board;
            after.move_ball(mv);
            let worth = line_points(removed) as f32 + self.continuation(&after);
            visit(mv, worth, removed);
        }
    }

    /// The worth of a board right after a clear, with the player to move again: the worth of
    /// the best move, or, when the clear left no ball, the value of the board as an afterstate
    /// (the spawn comes without a move).
    pub fn continuation(&self, board: &Board) -> f32 {
        match self.best_move(board) {
            Some((_, worth, _)) => worth,
            None => self.value(board),
        }
    }
}

/// A little-endian `u32` off the front of `bytes`, and the rest.
fn read_u32(bytes: &[u8]) -> Result<(usize, &[u8]), String> {
    let (word, rest) = bytes.split_at_checked(4).ok_or("truncated header")?;
    Ok((
        u32::from_le_bytes(word.try_into().expect("four bytes")) as usize,
        rest,
    ))
}

/// Training by TD with temporal-coherence learning rates (Beal and Smith; Jaśkowski for
/// 2048): each entry's rate is the share of its past errors that agreed in sign, so entries
/// still far from their value learn fast and entries that only see noise settle.
#[cfg(feature = "lab")]
pub struct Trainer {
    /// Sum of the errors each entry saw.
    net_error: Vec<f32>,
    /// Sum of their magnitudes.
    abs_error: Vec<f32>,
}

#[cfg(feature = "lab")]
impl Trainer {
    /// Fresh training state for `network`.
    pub fn new(network: &Network) -> Self {
        let len = network.weight_count();
        Trainer {
            net_error: vec![0.0; len],
            abs_error: vec![0.0; len],
        }
    }

    /// The sums as bytes (little-endian `f32`s, the net errors then the magnitudes), to resume
    /// training with [`Trainer::from_bytes`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(8 * self.net_error.len());
        for x in self.net_error.iter().chain(&self.abs_error) {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes
    }

    /// The training state [`Trainer::to_bytes`] wrote, for `network`'s shape.
    pub fn from_bytes(bytes: &[u8], network: &Network) -> Result<Self, String> {
        let len = network.weight_count();
        if bytes.len() != 8 * len {
            return Err(format!(
                "{} bytes of training sums, a network of {len} weights has {}",
                bytes.len(),
                8 * len
            ));
        }
        let mut values = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("four bytes")));
        let net_error: Vec<f32> = values.by_ref().take(len).collect();
        let abs_error: Vec<f32> = values.collect();
        Ok(Trainer {
            net_error,
            abs_error,
        })
    }

    /// Moves the value of the afterstate with entries `features` towards `target` by `rate`
    /// of the error (before the entries' own rates).
    pub fn learn(&mut self, network: &mut Network, features: &Features, target: f32, rate: f32) {
        let error = target - network.value_of(features);
        let step = rate * error / FEATURES as f32;
        for &f in features {
            let f = f as usize;
            let coherence = if self.abs_error[f] > 0.0 {
                self.net_error[f].abs() / self.abs_error[f]
            } else {
                1.0
            };
            network.weights[f] += step * coherence;
            self.net_error[f] += error;
            self.abs_error[f] += error.abs();
        }
    }
}

/// Scores every move from one board quickly: a move changes only the windows and blocks through
/// its two cells, and where the two share none the change is the sum of taking the ball away
/// (once per ball) and putting it down (once per empty cell and colour, `PutChanges`); where
/// they share one, that tuple's sum is corrected by reading its moved pattern, tuple by tuple of
/// the taken ball. The whole-board terms are taken as the board's own (they need flood fills);
/// [`Scorer::exact`] corrects them for the few best moves.
pub struct Scorer<'a> {
    network: &'a Network,
    board: &'a Board,
    /// Each window's raw code on the board.
    raw: [u16; COUNT],
    /// The weight each window reads on the board.
    window_weight: [f32; COUNT],
    /// The board's value.
    base: f32,
    /// The board's whole-board terms' part of `base`.
    global: f32,
    /// The board's windows that are one or two balls from clearing.
    near: NearLines,
    /// Each block's raw code on the board.
    block_raw: [u32; BLOCK_COUNT],
    /// The weight each block reads on the board.
    block_weight: [f32; BLOCK_COUNT],
    /// Per colour, the empty cells where a ball of it completes a line of five.
    completes: [u128; COLORS as usize],
    /// The board's empty regions and the balls that can move into each (found once: the
    /// whole-board terms, the clears and the scoring walk them).
    moves: LegalMoves,
    /// The network's weights, and where each window's and block's table of the board's stage
    /// starts in them (a quiet move keeps the ball count, so the stage; read for every put,
    /// take and moved pattern: kept at hand).
    weights: &'a [f32],
    window_table: [u32; COUNT],
    block_table: [u32; BLOCK_COUNT],
    geometry: &'static Geometry,
    blocks: &'static BlockGeometry,
}

impl<'a> Scorer<'a> {
    pub fn new(network: &'a Network, board: &'a Board) -> Self {
        let geometry = geometry();
        let colors = board.colors();
        let mut raw = [0u16; COUNT];
        let mut window_weight = [0.0; COUNT];
        let mut near = NearLines::new();
        let stage = network.stage_offset(board.ball_count());
        for window in 0..COUNT {
            let code = geometry.raw_code(window, colors);
            raw[window] = code as u16;
            window_weight[window] =
                network.weights[(stage + geometry.feature(window, code)) as usize];
            near.offer(window, code);
        }
        let mut completes = [0u128; COLORS as usize];
        for &window in near.four.as_slice() {
            let mask = WINDOWS[window as usize];
            let occupied = board.occupied().raw();
            let ball = (occupied & mask).trailing_zeros() as usize;
            completes[colors[ball] as usize - 1] |= mask & !occupied;
        }
        let moves = board.legal_moves();
        let global = global_counts(board, &moves, &near)
            .into_iter()
            .enumerate()
            .map(|(term, count)| network.weights[network.global_offset(term) as usize + count])
            .sum::<f32>();
        let blocks = block_geometry();
        let block_stage = network.block_offset(board.ball_count());
        let block_raw: [u32; BLOCK_COUNT] =
            std::array::from_fn(|block| blocks.raw_code(block, colors));
        let block_weight: [f32; BLOCK_COUNT] = std::array::from_fn(|block| {
            network.weights[(block_stage + blocks.feature(block, block_raw[block])) as usize]
        });
        Scorer {
            network,
            board,
            raw,
            window_weight,
            base: window_weight.iter().sum::<f32>() + global + block_weight.iter().sum::<f32>(),
            global,
            near,
            block_raw,
            block_weight,
            completes,
            moves,
            weights: &network.weights,
            window_table: std::array::from_fn(|window| stage + geometry.table[window]),
            block_table: std::array::from_fn(|block| block_stage + blocks.table[block]),
            geometry,
            blocks,
        }
    }

    /// The change of `block`'s weight when its raw code becomes `raw`.
    #[inline]
    fn block_change(&self, block: usize, raw: u32) -> f32 {
        self.weights[(self.block_table[block] + u32::from(self.blocks.pattern(raw))) as usize]
            - self.block_weight[block]
    }

    /// The change of `window`'s weight when its raw code becomes `raw`.
    #[inline]
    fn change(&self, window: usize, raw: usize) -> f32 {
        self.weights[(self.window_table[window] + u32::from(self.geometry.pattern[raw])) as usize]
            - self.window_weight[window]
    }

    /// Calls `offer(move, worth, balls removed)` for every legal move; the worth of a move that
    /// clears is its points plus the value of the board after it, the others' assume unchanged
    /// whole-board terms.
    pub fn for_each_scored(&self, offer: impl FnMut(Move, f32, u32)) {
        // The put changes per window and block (44 KiB; only the entries of empty cells are
        // written and read, so the scratch is not cleared between boards): one scratch per
        // thread, or a new one when `offer` itself scores moves.
        PUT_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut kept) => self.score_moves(&mut kept, offer),
            Err(_) => self.score_moves(&mut PutChanges::new(), offer),
        })
    }

    fn score_moves(&self, put: &mut PutChanges, mut offer: impl FnMut(Move, f32, u32)) {
        let colors = self.board.colors();
        put.fill(self);
        for region in self.moves.regions() {
            let targets = region.cells.raw();
            for from in region.movers {
                let color = colors[from.index()];
                let slot = color as usize - 1;
                // Per target, what the sum of the take and the put gets wrong for the windows
                // and blocks holding both cells: there the two change one pattern.
                let mut shared = [0.0f32; CELLS];
                let take = put.windows.correct(&Windows(self), from, color, targets, &mut shared)
                    + put.blocks.correct(&Blocks(self), from, color, targets, &mut shared);
                for to in region.cells {
                    let mv = Move { from, to };
                    // A line of five through the target clears, unless the moved ball was one
                    // of its four (then making the move finds nothing to clear).
                    if self.completes[slot] & 1u128 << to.index() != 0
                        && let Some((worth, removed)) = self.clearing_worth(mv)
                    {
                        offer(mv, worth, removed);
                        continue;
                    }
                    let value =
                        self.base + take + put.total[slot][to.index()] + shared[to.index()];
                    offer(mv, value, 0);
                }
            }
        }
    }

    /// The worth of `mv` and the balls it removes when it clears (its points plus the value of
    /// the board after it), else `None`.
    fn clearing_worth(&self, mv: Move) -> Option<(f32, u32)> {
        let mut after = *self.board;
        let removed = after.move_ball(mv);
        (removed > 0).then(|| (line_points(removed) as f32 + self.network.value(&after), removed))
    }

    /// Calls `offer(move, worth, balls removed)` for every move that clears, in the order of
    /// [`Scorer::for_each_scored`] and with the same worths.
    pub fn for_each_clearing(&self, mut offer: impl FnMut(Move, f32, u32)) {
        if self.completes.iter().all(|&cells| cells == 0) {
            return;
        }
        let colors = self.board.colors();
        for region in self.moves.regions() {
            for from in region.movers {
                let slot = colors[from.index()] as usize - 1;
                let targets = region.cells.raw() & self.completes[slot];
                for to in Bits::from_raw(targets) {
                    let mv = Move { from, to };
                    if let Some((worth, removed)) = self.clearing_worth(mv) {
                        offer(mv, worth, removed);
                    }
                }
            }
        }
    }

    /// The full worth of a move from its fast score: clears were exact; other moves get the
    /// change of the whole-board terms.
    pub fn exact(&self, mv: Move, fast: f32, removed: u32) -> f32 {
        if removed > 0 {
            return fast;
        }
        let mut after = *self.board;
        after.move_ball(mv);
        let geometry = geometry();
        // Only the windows through the move's two cells change their balls.
        let touched = |window: u8| {
            WINDOWS[window as usize] & (1u128 << mv.from.index() | 1u128 << mv.to.index()) != 0
        };
        let mut near = NearLines::new();
        for (list, kept) in [
            (&self.near.four, &mut near.four),
            (&self.near.three, &mut near.three),
        ] {
            for &window in list.as_slice() {
                if !touched(window) {
                    kept.push(window as usize);
                }
            }
        }
        let mut seen = [false; COUNT];
        for cell in [mv.from, mv.to] {
            for &(window, _) in geometry.windows_of(cell) {
                let window = window as usize;
                if !std::mem::replace(&mut seen[window], true) {
                    near.offer(window, geometry.raw_code(window, after.colors()));
                }
            }
        }
        let global: f32 = global_counts(&after, &after.legal_moves(), &near)
            .into_iter()
            .enumerate()
            .map(|(term, count)| {
                self.network.weights[self.network.global_offset(term) as usize + count]
            })
            .sum();
        fast - self.global + global
    }
}

/// Per colour and empty cell, the change of putting a ball of the colour there: per window and
/// block, and summed.
///
/// Patterns name colours by their order of appearance, so a put of any colour a window or block
/// does not hold yet reads one pattern: it is looked up once per empty cell of the tuple, and
/// only the colours the tuple holds (two or three on a typical board, of seven) get their own.
struct PutChanges {
    /// Per colour (`colour - 1`) and cell, the change of the put.
    total: [[f32; CELLS]; COLORS as usize],
    windows: TuplePuts<LEN, COUNT>,
    blocks: TuplePuts<BLOCK_LEN, BLOCK_COUNT>,
}

/// The put changes of one kind of tuple: `K` tuples of `N` cells.
struct TuplePuts<const N: usize, const K: usize> {
    /// Per tuple, its empty cells (bit `slot`).
    empty: [u8; K],
    /// Per tuple, empty cell of it (by slot) and colour (by itself, 1 to 7), the tuple's
    /// change by the put.
    put: [[[f32; 8]; N]; K],
}

impl PutChanges {
    fn new() -> Box<Self> {
        Box::new(PutChanges {
            total: [[0.0; CELLS]; COLORS as usize],
            windows: TuplePuts::new(),
            blocks: TuplePuts::new(),
        })
    }

    /// Computes every put's change on `scorer`'s board (the totals of occupied cells are left
    /// meaningless: no move puts there).
    fn fill(&mut self, scorer: &Scorer) {
        let mut fresh_total = [0.0f32; CELLS];
        self.total = [[0.0; CELLS]; COLORS as usize];
        self.windows
            .fill(&Windows(scorer), &mut self.total, &mut fresh_total);
        self.blocks
            .fill(&Blocks(scorer), &mut self.total, &mut fresh_total);
        for totals in &mut self.total {
            for (total, fresh) in totals.iter_mut().zip(fresh_total) {
                *total += fresh;
            }
        }
    }
}

impl<const N: usize, const K: usize> TuplePuts<N, K> {
    fn new() -> Self {
        TuplePuts {
            empty: [0; K],
            put: [[[0.0; 8]; N]; K],
        }
    }

    /// Computes the tuples' put changes, and adds them to the per-cell totals: `fresh_total`
    /// gets the change of a colour the tuple does not hold, `total` per colour what a colour it
    /// holds changes more.
    #[inline]
    fn fill(
        &mut self,
        tuples: &impl TupleKind<N>,
        total: &mut [[f32; CELLS]; COLORS as usize],
        fresh_total: &mut [f32; CELLS],
    ) {
        for tuple in 0..K {
            let raw = tuples.raw(tuple);
            let (present, empty, fresh) = digits_present::<N>(raw);
            self.empty[tuple] = empty;
            for_each_bit(empty, |slot| {
                let cell = tuples.cell(tuple, slot);
                let change = tuples.change(tuple, raw | fresh << (3 * slot));
                let puts = &mut self.put[tuple][slot];
                *puts = [change; 8];
                fresh_total[cell] += change;
                for_each_bit(present, |color| {
                    puts[color + 1] = tuples.change(tuple, raw | (color + 1) << (3 * slot));
                    total[color][cell] += puts[color + 1] - change;
                });
            });
        }
    }

    /// For a ball of `color` taken from `from`: adds to `shared[to]`, for each target in
    /// `targets`, what the sum of the take and the put gets wrong for the tuples holding both
    /// cells (there the two change one pattern), and returns the take's change.
    #[inline]
    fn correct(
        &self,
        tuples: &impl TupleKind<N>,
        from: Cell,
        color: u8,
        targets: u128,
        shared: &mut [f32; CELLS],
    ) -> f32 {
        let mut take = 0.0;
        for &(tuple, shift) in tuples.of_cell(from) {
            let tuple = tuple as usize;
            let taken_raw = tuples.raw(tuple) & !(7 << shift);
            let taken = tuples.change(tuple, taken_raw);
            take += taken;
            for_each_bit(self.empty[tuple], |to_slot| {
                let to = tuples.cell(tuple, to_slot);
                if targets & 1u128 << to != 0 {
                    let moved = taken_raw | (color as usize) << (3 * to_slot);
                    let put = self.put[tuple][to_slot][color as usize];
                    shared[to] += tuples.change(tuple, moved) - taken - put;
                }
            });
        }
        take
    }
}

/// One kind of tuple of `N` cells as a scorer reads it on its board.
trait TupleKind<const N: usize> {
    /// The tuple's raw code on the board.
    fn raw(&self, tuple: usize) -> usize;
    /// The change of the tuple's weight when its raw code becomes `raw`.
    fn change(&self, tuple: usize, raw: usize) -> f32;
    /// The tuple's cell in `slot`.
    fn cell(&self, tuple: usize, slot: usize) -> usize;
    /// The tuples through `cell`, with the shift of its digit in their raw codes.
    fn of_cell(&self, cell: Cell) -> &[(u8, u8)];
}

/// The windows of a scorer's board.
struct Windows<'s, 'a>(&'s Scorer<'a>);

impl TupleKind<LEN> for Windows<'_, '_> {
    #[inline]
    fn raw(&self, window: usize) -> usize {
        self.0.raw[window] as usize
    }
    #[inline]
    fn change(&self, window: usize, raw: usize) -> f32 {
        self.0.change(window, raw)
    }
    #[inline]
    fn cell(&self, window: usize, slot: usize) -> usize {
        self.0.geometry.cells[window][slot] as usize
    }
    #[inline]
    fn of_cell(&self, cell: Cell) -> &[(u8, u8)] {
        self.0.geometry.windows_of(cell)
    }
}

/// The blocks of a scorer's board.
struct Blocks<'s, 'a>(&'s Scorer<'a>);

impl TupleKind<BLOCK_LEN> for Blocks<'_, '_> {
    #[inline]
    fn raw(&self, block: usize) -> usize {
        self.0.block_raw[block] as usize
    }
    #[inline]
    fn change(&self, block: usize, raw: usize) -> f32 {
        self.0.block_change(block, raw as u32)
    }
    #[inline]
    fn cell(&self, block: usize, slot: usize) -> usize {
        self.0.blocks.cells[block][slot] as usize
    }
    #[inline]
    fn of_cell(&self, cell: Cell) -> &[(u8, u8)] {
        self.0.blocks.blocks_of(cell.index())
    }
}

/// Calls `visit` with the index of every set bit of `bits`, lowest first.
#[inline]
fn for_each_bit(mut bits: u8, mut visit: impl FnMut(usize)) {
    while bits != 0 {
        visit(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Of the first `N` digits of a raw code: the colours among them (bit `colour - 1`), the empty
/// ones (bit `slot`), and a colour not among them (any colour when all `N` hold balls: then no
/// cell is empty to put on).
fn digits_present<const N: usize>(raw: usize) -> (u8, u8, usize) {
    let mut present = 0u8;
    let mut empty = 0u8;
    for slot in 0..N {
        match (raw >> (3 * slot)) & 7 {
            0 => empty |= 1 << slot,
            digit => present |= 1 << (digit - 1),
        }
    }
    (present, empty, (!present).trailing_zeros() as usize + 1)
}

thread_local! {
    static PUT_SCRATCH: std::cell::RefCell<Box<PutChanges>> =
        std::cell::RefCell::new(PutChanges::new());
}

/// How many of the best moves by fast score get their exact whole-board terms.
const EXACT_RESCORED: usize = 8;

/// The most quiet moves [`Network::best_move_exact`] values exactly.
pub const MAX_EXACT: usize = 64;

/// Clearing moves whose continuation is searched: the best by points and the value of the
/// board after them. Each costs a whole move search, and the others rarely do better.
const MAX_CLEARING: usize = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::test_boards::{READY_LINES, SCATTERED};
    use crate::protocol::parse_board;
    use crate::rules::Color;
    use marathon_core::rng::FastRng;

    #[test]
    fn geometry_has_the_symmetry_classes_of_the_board() {
        let g = geometry();
        // Rows and columns: 5 row distances from the edge x 3 start distances; diagonals of
        // five: start (r, c) in 0..5 under transposition and the half turn.
        let classes = g.windows_len / PATTERNS;
        assert_eq!(classes, 15 + 9);
        // A window and its mirror image read their cells in mirrored order.
        let row0_left = window_of(0b11111);
        let row0_right = window_of(0b11111 << 4);
        assert_eq!(g.table[row0_left], g.table[row0_right]);
        assert_eq!(g.cells[row0_left], [0, 1, 2, 3, 4]);
        assert_eq!(g.cells[row0_right], [8, 7, 6, 5, 4]);
    }

    /// The raw code (no flag) of five colours, the first lowest.
    fn raw_of(colors: [u8; LEN]) -> usize {
        colors
            .iter()
            .enumerate()
            .fold(0, |raw, (slot, &c)| raw | (c as usize) << (3 * slot))
    }

    /// The index of the window of these cells.
    fn window_of(mask: u128) -> usize {
        WINDOWS.iter().position(|&m| m == mask).expect("a window")
    }

    /// The middle window of the middle row, one that a symmetry maps onto itself reversed.
    const MIDDLE_ROW_MIDDLE: u128 = 0b11111 << (4 * SIZE + 2);

    #[test]
    fn patterns_name_colours_by_first_appearance() {
        let g = geometry();
        let pattern = |colors: [u8; LEN]| g.pattern[raw_of(colors)];
        assert_eq!(pattern([3, 3, 0, 5, 3]), pattern([1, 1, 0, 7, 1]));
        assert_ne!(pattern([3, 3, 0, 5, 3]), pattern([3, 3, 0, 3, 3]));
        assert_ne!(pattern([0, 0, 0, 0, 1]), pattern([1, 0, 0, 0, 0]));
        assert_eq!(pattern([0; LEN]), 0);
        let distinct: std::collections::HashSet<u16> = g.pattern.iter().copied().collect();
        assert_eq!(distinct.len(), PATTERNS);
    }

    fn random_network(seed: u64, stages: usize) -> Network {
        let mut rng = FastRng::new(seed);
        let mut network = Network::new(stages);
        for w in &mut network.weights {
            *w = rng.next_f64() as f32 * 10.0 - 5.0;
        }
        network
    }

    #[test]
    fn fast_scores_agree_with_evaluating_every_afterstate() {
        let boards = [SCATTERED, READY_LINES];
        for (rows, stages) in boards.into_iter().zip([1, 3]) {
            let network = random_network(7, stages);
            let board = parse_board(&rows).expect("a board");
            let scorer = Scorer::new(&network, &board);
            let mut checked = 0;
            scorer.for_each_scored(|mv, fast, removed| {
                let exact = scorer.exact(mv, fast, removed);
                let mut after = board;
                let want_removed = after.move_ball(mv);
                let want = line_points(want_removed) as f32 + network.value(&after);
                assert_eq!(removed, want_removed, "{mv}");
                assert!((exact - want).abs() < 1e-2, "{mv}: {exact} vs {want}");
                checked += 1;
            });
            assert_eq!(checked, board.legal_move_count());
            assert!(checked > 200, "only {checked} moves");
        }
    }

    #[test]
    fn scoring_inside_a_scoring_gives_the_same_scores() {
        // The put changes live in one scratch per thread; an `offer` that scores again must
        // get its own, not overwrite the outer one's halfway.
        let network = random_network(11, 2);
        let board = parse_board(&SCATTERED).expect("a board");
        let scorer = Scorer::new(&network, &board);
        let mut alone = Vec::new();
        scorer.for_each_scored(|mv, fast, removed| alone.push((mv, fast, removed)));
        let mut nested = Vec::new();
        scorer.for_each_scored(|mv, fast, removed| {
            let mut inner = Vec::new();
            scorer.for_each_scored(|mv, fast, removed| inner.push((mv, fast, removed)));
            assert_eq!(inner, alone);
            nested.push((mv, fast, removed));
        });
        assert_eq!(nested, alone);
    }

    #[test]
    fn clearing_first_plays_the_best_contender_that_clears_else_the_best() {
        // The reply that clears is found without scoring the quiet moves; it must be the move
        // the contenders, scored in full, rank first when a clear beats any quiet move.
        let network = random_network(5, 2);
        let mut rng = FastRng::new(17);
        let mut clears = 0;
        for board in 0..300 {
            let board = random_board(&mut rng, 20 + board % 50, 2 + board % 3);
            let mut best: Option<(Move, f32, u32)> = None;
            network.for_each_contender(&board, 8, |mv, worth, removed| {
                if best.is_none_or(|(_, w, r)| (removed > 0, worth) > (r > 0, w)) {
                    best = Some((mv, worth, removed));
                }
            });
            clears += usize::from(best.is_some_and(|(_, _, removed)| removed > 0));
            assert_eq!(network.best_move_clearing_first(&board, 8), best);
        }
        assert!(clears > 50, "the boards hold clears: {clears}");
    }

    /// A board of `balls` balls of the first `colours` colours on uniform empty cells.
    fn random_board(rng: &mut FastRng, balls: u32, colours: u32) -> Board {
        let mut board = Board::empty();
        for _ in 0..balls {
            let empty = board.empty_cells();
            let cell = empty.nth(rng.below(empty.count())).expect("room");
            board.put(cell, 1 + rng.below(colours) as u8);
        }
        board
    }

    /// The count whole-board term `term` reads on `board`.
    fn term_count(board: &Board, term: usize) -> usize {
        let network = Network::default();
        (network.features(board)[COUNT + term] - network.global_offset(term)) as usize
    }

    #[test]
    fn ready_lines_found_from_patterns_match_a_scan_of_every_window() {
        let mut rng = FastRng::new(11);
        let mut ready_boards = 0;
        for _ in 0..300 {
            // Two colours, so that lines of four are common.
            let balls = 20 + rng.below(50);
            let board = random_board(&mut rng, balls, 2);
            let ready = term_count(&board, 2);
            let moves = board.legal_moves();
            let scanned = super::super::eval::ready_windows(&board, moves.regions()) as usize;
            assert_eq!(ready, scanned.min(MAX_READY), "{board:?}");
            ready_boards += usize::from(scanned > 0);
        }
        assert!(
            ready_boards > 50,
            "only {ready_boards} boards with ready lines"
        );
    }

    #[test]
    fn promising_windows_match_a_search_for_a_ball_that_reaches_each_gap() {
        let mut rng = FastRng::new(5);
        let mut promising_boards = 0;
        for _ in 0..300 {
            // Two colours and many balls: lines of three and walled-off gaps are common.
            let balls = 25 + rng.below(45);
            let board = random_board(&mut rng, balls, 2);
            let colors = board.colors();
            let scanned = WINDOWS
                .iter()
                .filter(|&&mask| {
                    let cells: Vec<Cell> = (0..CELLS)
                        .filter(|&i| mask >> i & 1 != 0)
                        .map(Cell::from_index)
                        .collect();
                    let balls: Vec<Color> = cells
                        .iter()
                        .map(|c| colors[c.index()])
                        .filter(|&color| color != 0)
                        .collect();
                    let gaps: Vec<Cell> = cells
                        .iter()
                        .copied()
                        .filter(|c| colors[c.index()] == 0)
                        .collect();
                    balls.len() == 3
                        && balls.iter().all(|&color| color == balls[0])
                        && gaps.iter().all(|&gap| {
                            board
                                .color_bits(balls[0])
                                .into_iter()
                                .filter(|ball| !cells.contains(ball))
                                .any(|ball| board.check_move(Move::new(ball, gap)).is_ok())
                        })
                })
                .count();
            let promising = term_count(&board, 6);
            assert_eq!(promising, scanned.min(MAX_PROMISING), "{board:?}");
            promising_boards += usize::from(scanned > 0);
        }
        assert!(
            promising_boards > 50,
            "only {promising_boards} boards with promising windows"
        );
    }

    #[test]
    fn the_mean_network_values_every_board_at_the_mean_value() {
        let networks = [random_network(1, 2), random_network(2, 2)];
        let mean = Network::mean_of(&networks).expect("same shape");
        let mut rng = FastRng::new(9);
        for _ in 0..20 {
            let balls = rng.below(60);
            let board = random_board(&mut rng, balls, u32::from(COLORS));
            let want = (networks[0].value(&board) + networks[1].value(&board)) / 2.0;
            assert!((mean.value(&board) - want).abs() < 1e-3);
        }
        assert!(Network::mean_of(&[random_network(1, 2), random_network(1, 3)]).is_err());
        assert!(Network::mean_of(&[]).is_err());
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_refused() {
        let network = random_network(3, 4);
        let bytes = network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).expect("readable"), network);
        let one_stage = Network::default();
        let mut version_1 = MAGIC_V1.to_vec();
        version_1.extend_from_slice(&one_stage.to_bytes()[MAGIC.len() + 4..]);
        assert_eq!(
            Network::from_bytes(&version_1).expect("readable"),
            one_stage
        );
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(b"not weights").is_err());
    }

    /// Random window weights, the whole-board terms at zero (their largest-region choice
    /// breaks ties between equal regions by order, which no symmetry preserves).
    fn random_window_network(seed: u64) -> Network {
        let mut network = random_network(seed, 2);
        let globals = network.global_offset(0) as usize..network.block_offset(0) as usize;
        network.weights[globals].fill(0.0);
        network
    }

    fn image(board: &Board, s: usize) -> Board {
        let mut image = Board::empty();
        for cell in Cell::all() {
            if let Some(color) = board.get(cell) {
                let (row, col) = symmetry(s, cell.row(), cell.col());
                image.put(Cell::new(row, col), color);
            }
        }
        image
    }

    #[test]
    fn a_board_and_its_images_under_the_symmetries_have_one_value() {
        let network = random_window_network(3);
        let mut rng = FastRng::new(8);
        for _ in 0..30 {
            let balls = 10 + rng.below(60);
            let board = random_board(&mut rng, balls, u32::from(COLORS));
            let value = network.value(&board);
            for s in 1..8 {
                let image_value = network.value(&image(&board, s));
                assert!(
                    (value - image_value).abs() < 1e-3,
                    "{value} vs {image_value}"
                );
            }
        }
        // The middle window of a row is one of those that a symmetry maps onto itself reversed.
        assert_ne!(geometry().raw_flag[window_of(MIDDLE_ROW_MIDDLE)], 0);
        assert_eq!(geometry().raw_flag[window_of(0b11111)], 0);
    }

    #[test]
    fn an_older_file_reads_a_pattern_and_its_reverse_as_their_mean() {
        let network = random_window_network(5);
        let mut version_2 = network.to_bytes();
        version_2[..MAGIC.len()].copy_from_slice(MAGIC_V2);
        let read = Network::from_bytes(&version_2).expect("readable");
        let g = geometry();
        let middle = window_of(MIDDLE_ROW_MIDDLE);
        let (forward, backward) = (raw_of([1, 1, 0, 2, 0]), raw_of([0, 2, 0, 1, 1]));
        // In the older file each has its own entry.
        let entry = |raw: usize| g.table[middle] as usize + g.pattern[raw] as usize;
        let mean = (network.weights[entry(forward)] + network.weights[entry(backward)]) / 2.0;
        let flag = usize::from(g.raw_flag[middle]);
        let read_entry = g.feature(middle, forward | flag) as usize;
        assert_eq!(read_entry, g.feature(middle, backward | flag) as usize);
        assert_eq!(read.weights[read_entry], mean);
        // Windows that no symmetry reverses keep their entries.
        let entry = g.feature(window_of(0b11111), forward) as usize;
        assert_eq!(read.weights[entry], network.weights[entry]);
    }
}
