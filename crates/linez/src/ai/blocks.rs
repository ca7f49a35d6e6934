//! The 112 blocks of two by three cells (56 lying, 56 standing): the n-tuple network's second
//! kind of tuple. Windows of five see lines; blocks see the board in two dimensions, where
//! balls of one colour gather and where the empty space is cut into pockets, which decide
//! whether the next line can be built and whether the board still breathes.
//!
//! A block's pattern names each cell empty or coloured, colours by order of first appearance
//! (877 patterns of six cells: the Bell number B7). Blocks that a symmetry of the board maps
//! onto each other share one table and read their cells in corresponding order; a block that a
//! reflection maps onto itself (three columns or rows about the middle) reads the lesser of its
//! pattern and its mirrored pattern, so that a board and its mirror image have one value.

use std::sync::OnceLock;

use super::windows::symmetry;
use crate::rules::{CELLS, SIZE};

/// Cells per block.
pub const BLOCK_LEN: usize = 6;
/// Blocks on the board: 8 x 7 lying and 7 x 8 standing.
pub const BLOCK_COUNT: usize = 112;
/// Colour patterns of a block.
pub const BLOCK_PATTERNS: usize = 877;

/// Raw codes: the six cells' colours (0 empty, 1..=7), three bits each, the first slot lowest.
const RAW_BITS: usize = 3 * BLOCK_LEN;
const RAW_CODES: usize = 1 << RAW_BITS;

/// Blocks through one cell: six lying and six standing.
pub const MAX_BLOCKS_OF_CELL: usize = 12;

/// The fixed layout of the blocks: cell orders, tables, pattern codes.
pub struct BlockGeometry {
    /// Each block's cells in reading order.
    pub cells: [[u8; BLOCK_LEN]; BLOCK_COUNT],
    /// Each block's table's offset within one stage's block tables.
    pub table: [u32; BLOCK_COUNT],
    /// One stage's block tables' length.
    pub tables_len: usize,
    /// Per block, the bits above the raw code's digits that select its pattern reading: 0 for
    /// most, 1 for the self-mirrored blocks. Set when a code is read off the board and kept by
    /// the digit updates.
    pub flag: [u32; BLOCK_COUNT],
    /// Pattern per raw code, for flag 0 and then for flag 1.
    pattern: Vec<u16>,
    /// For each cell, the blocks holding it and the shift of its digit in their raw codes.
    of_cell: [[(u8, u8); MAX_BLOCKS_OF_CELL]; CELLS],
    of_cell_len: [u8; CELLS],
}

pub fn block_geometry() -> &'static BlockGeometry {
    static GEOMETRY: OnceLock<BlockGeometry> = OnceLock::new();
    GEOMETRY.get_or_init(BlockGeometry::new)
}

/// Every block's cells in increasing order.
fn natural_blocks() -> Vec<[u8; BLOCK_LEN]> {
    let mut blocks = Vec::with_capacity(BLOCK_COUNT);
    for (rows, cols) in [(2, 3), (3, 2)] {
        for top in 0..=SIZE - rows {
            for left in 0..=SIZE - cols {
                let mut cells = [0u8; BLOCK_LEN];
                let mut slot = 0;
                for r in top..top + rows {
                    for c in left..left + cols {
                        cells[slot] = (r * SIZE + c) as u8;
                        slot += 1;
                    }
                }
                blocks.push(cells);
            }
        }
    }
    assert_eq!(blocks.len(), BLOCK_COUNT);
    blocks
}

impl BlockGeometry {
    fn new() -> Self {
        let natural = natural_blocks();
        let mask_of = |cells: &[u8]| cells.iter().fold(0u128, |m, &c| m | 1u128 << c);
        let masks: Vec<u128> = natural.iter().map(|cells| mask_of(cells)).collect();
        let mut cells = [[0u8; BLOCK_LEN]; BLOCK_COUNT];
        let mut class_of = [usize::MAX; BLOCK_COUNT];
        let mut mirror_of_slot: Option<[usize; BLOCK_LEN]> = None;
        let mut self_mirrored = [false; BLOCK_COUNT];
        let mut classes = 0;
        let map = |s: usize, cell: u8| {
            let (r, c) = symmetry(s, cell as usize / SIZE, cell as usize % SIZE);
            (r * SIZE + c) as u8
        };
        for block in 0..BLOCK_COUNT {
            // The representative is the lowest-numbered block of the orbit; this block reads
            // its cells in the order the symmetry taking it there gives the representative's
            // natural order.
            let mut best: Option<(usize, [u8; BLOCK_LEN])> = None;
            for s in 0..8 {
                let mapped: Vec<u8> = natural[block].iter().map(|&c| map(s, c)).collect();
                let image = masks
                    .iter()
                    .position(|&m| m == mask_of(&mapped))
                    .expect("a symmetry maps blocks to blocks");
                if best.is_none_or(|(b, _)| image < b) {
                    let mut order = [0u8; BLOCK_LEN];
                    for (slot, &rep_cell) in natural[image].iter().enumerate() {
                        let i = mapped.iter().position(|&c| c == rep_cell).expect("same");
                        order[slot] = natural[block][i];
                    }
                    best = Some((image, order));
                }
            }
            let (representative, order) = best.expect("eight symmetries");
            cells[block] = order;
            class_of[block] = if representative == block {
                classes += 1;
                classes - 1
            } else {
                class_of[representative]
            };
            // A symmetry other than the identity that maps the block onto itself permutes its
            // reading order: slot i reads what slot perm[i] read.
            for s in 1..8 {
                let mapped: Vec<u8> = order.iter().map(|&c| map(s, c)).collect();
                if mask_of(&mapped) == masks[block] {
                    let perm: [usize; BLOCK_LEN] = std::array::from_fn(|slot| {
                        order.iter().position(|&c| c == mapped[slot]).expect("same")
                    });
                    assert!(
                        mirror_of_slot.is_none_or(|p| p == perm),
                        "one mirroring of slots for every self-mirrored block"
                    );
                    mirror_of_slot = Some(perm);
                    self_mirrored[block] = true;
                }
            }
        }
        let mut table = [0u32; BLOCK_COUNT];
        for (block, offset) in table.iter_mut().enumerate() {
            *offset = (class_of[block] * BLOCK_PATTERNS) as u32;
        }
        let mut flag = [0u32; BLOCK_COUNT];
        for (block, f) in flag.iter_mut().enumerate() {
            *f = u32::from(self_mirrored[block]) << RAW_BITS;
        }
        let perm = mirror_of_slot.expect("some blocks are self-mirrored");
        let plain: Vec<u16> = (0..RAW_CODES)
            .map(|raw| pattern_index(digits(raw)))
            .collect();
        let mirrored = (0..RAW_CODES).map(|raw| {
            let d = digits(raw);
            plain[raw].min(pattern_index(std::array::from_fn(|slot| d[perm[slot]])))
        });
        let pattern = plain.iter().copied().chain(mirrored).collect();
        let mut of_cell = [[(0u8, 0u8); MAX_BLOCKS_OF_CELL]; CELLS];
        let mut of_cell_len = [0u8; CELLS];
        for (block, block_cells) in cells.iter().enumerate() {
            for (slot, &cell) in block_cells.iter().enumerate() {
                let cell = cell as usize;
                of_cell[cell][of_cell_len[cell] as usize] = (block as u8, (3 * slot) as u8);
                of_cell_len[cell] += 1;
            }
        }
        BlockGeometry {
            cells,
            table,
            tables_len: classes * BLOCK_PATTERNS,
            flag,
            pattern,
            of_cell,
            of_cell_len,
        }
    }

    /// The blocks through `cell` with the shift of its digit in each one's raw code.
    #[inline]
    pub fn blocks_of(&self, cell: usize) -> &[(u8, u8)] {
        &self.of_cell[cell][..self.of_cell_len[cell] as usize]
    }

    /// The raw code of `block` (with its flag) on a board with these cell colours.
    #[inline]
    pub fn raw_code(&self, block: usize, colors: &[u8; CELLS]) -> u32 {
        let mut raw = self.flag[block];
        for (slot, &cell) in self.cells[block].iter().enumerate() {
            raw |= u32::from(colors[cell as usize]) << (3 * slot);
        }
        raw
    }

    /// Where in one stage's block tables `block` reads when its raw code is `raw`.
    #[inline]
    pub fn feature(&self, block: usize, raw: u32) -> u32 {
        self.table[block] + u32::from(self.pattern(raw))
    }

    /// The pattern a raw code (with its block's flag) reads, within its block's table.
    #[inline]
    pub fn pattern(&self, raw: u32) -> u16 {
        self.pattern[raw as usize]
    }
}

/// The six colours of a raw code (no flag).
fn digits(raw: usize) -> [u8; BLOCK_LEN] {
    std::array::from_fn(|slot| (raw >> (3 * slot)) as u8 & 7)
}

/// The index of the pattern of six colours among the [`BLOCK_PATTERNS`]: colours renamed by
/// first appearance give a base-7 code, ranked among the codes that are so named.
fn pattern_index(colors: [u8; BLOCK_LEN]) -> u16 {
    static RANK: OnceLock<Vec<u16>> = OnceLock::new();
    let rank = RANK.get_or_init(|| {
        let mut rank = vec![u16::MAX; 7usize.pow(BLOCK_LEN as u32)];
        let mut next = 0u16;
        for (code, slot) in rank.iter_mut().enumerate() {
            if names_in_order(code) {
                *slot = next;
                next += 1;
            }
        }
        assert_eq!(next as usize, BLOCK_PATTERNS);
        rank
    });
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
        code = code * 7 + digit as usize;
    }
    rank[code]
}

/// Whether a base-7 code names its colours 1, 2, ... in order of first appearance.
fn names_in_order(mut code: usize) -> bool {
    let mut digits = [0usize; BLOCK_LEN];
    for digit in digits.iter_mut().rev() {
        *digit = code % 7;
        code /= 7;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_fall_into_the_board_symmetry_classes() {
        let g = block_geometry();
        // Lying blocks by (top, left) under the left-right and top-bottom mirrors: tops 0-3
        // (rows 0-7 fold to 4) and lefts 0-3 (0-6 fold to 4); standing ones are their
        // transposes.
        assert_eq!(g.tables_len / BLOCK_PATTERNS, 4 * 4);
        let self_mirrored = g.flag.iter().filter(|&&f| f != 0).count();
        // Lying blocks over columns 3-5, one per top row, and their transposes.
        assert_eq!(self_mirrored, 2 * 8);
        for cell in 0..CELLS {
            for &(block, shift) in g.blocks_of(cell) {
                assert_eq!(g.cells[block as usize][shift as usize / 3] as usize, cell);
            }
        }
        assert_eq!(g.blocks_of(0).len(), 2);
        assert_eq!(g.blocks_of(40).len(), MAX_BLOCKS_OF_CELL);
    }

    #[test]
    fn patterns_name_colours_by_first_appearance() {
        assert_eq!(
            pattern_index([3, 3, 0, 5, 3, 1]),
            pattern_index([1, 1, 0, 7, 1, 2])
        );
        assert_ne!(
            pattern_index([3, 3, 0, 5, 3, 1]),
            pattern_index([3, 3, 0, 5, 3, 3])
        );
        assert_eq!(pattern_index([0; BLOCK_LEN]), 0);
        let distinct: std::collections::HashSet<u16> = (0..RAW_CODES)
            .map(|raw| pattern_index(digits(raw)))
            .collect();
        assert_eq!(distinct.len(), BLOCK_PATTERNS);
    }
}
