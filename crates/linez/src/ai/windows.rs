//! The 140 windows of five cells in a line (45 horizontal, 45 vertical, 25 on each diagonal
//! direction): every line of five that could ever clear passes through exactly these, so they
//! are the unit of the evaluation's line potential.

/// Cells per window: the shortest run that clears.
pub const LEN: usize = 5;
pub const COUNT: usize = 140;

const SIDE: usize = 9;

/// The eight symmetries of the square board as maps of (row, col): bit 2 transposes, then bit
/// 0 mirrors the rows and bit 1 the columns.
pub fn symmetry(s: usize, row: usize, col: usize) -> (usize, usize) {
    let last = SIDE - 1;
    let (r, c) = if s & 4 != 0 { (col, row) } else { (row, col) };
    let r = if s & 1 != 0 { last - r } else { r };
    let c = if s & 2 != 0 { last - c } else { c };
    (r, c)
}

/// Each window as a mask over the 81 cells (bit = row * 9 + col).
pub static WINDOWS: [u128; COUNT] = build_windows();

/// For each cell, the indices of the windows containing it (at most 20), padded with `u8::MAX`.
pub static WINDOWS_OF_CELL: [[u8; 20]; 81] = build_windows_of_cell();

const fn build_windows() -> [u128; COUNT] {
    let mut windows = [0u128; COUNT];
    let mut n = 0;
    // (row step, col step) for horizontal, vertical, diagonal, anti-diagonal.
    let steps: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = steps[d];
        let mut r = 0;
        while r < SIDE as isize {
            let mut c = 0;
            while c < SIDE as isize {
                let end_r = r + dr * (LEN as isize - 1);
                let end_c = c + dc * (LEN as isize - 1);
                if end_r >= 0 && end_r < SIDE as isize && end_c >= 0 && end_c < SIDE as isize {
                    let mut mask = 0u128;
                    let mut i = 0;
                    while i < LEN as isize {
                        mask |= 1u128 << ((r + dr * i) * SIDE as isize + c + dc * i);
                        i += 1;
                    }
                    windows[n] = mask;
                    n += 1;
                }
                c += 1;
            }
            r += 1;
        }
        d += 1;
    }
    assert!(n == COUNT);
    windows
}

const fn build_windows_of_cell() -> [[u8; 20]; 81] {
    let windows = build_windows();
    let mut table = [[u8::MAX; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut k = 0;
        let mut w = 0;
        while w < COUNT {
            if windows[w] & (1u128 << cell) != 0 {
                table[cell][k] = w as u8;
                k += 1;
            }
            w += 1;
        }
        cell += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_distinct_lines_of_five() {
        for (i, w) in WINDOWS.iter().enumerate() {
            assert_eq!(w.count_ones(), 5);
            assert!(w >> 81 == 0);
            assert!(!WINDOWS[..i].contains(w), "window {i} repeats");
        }
    }

    #[test]
    fn centre_lies_in_twenty_windows_and_corner_in_three() {
        let count = |cell: usize| {
            WINDOWS_OF_CELL[cell]
                .iter()
                .filter(|&&w| w != u8::MAX)
                .count()
        };
        assert_eq!(count(40), 20);
        assert_eq!(count(0), 3);
        for (cell, windows) in WINDOWS_OF_CELL.iter().enumerate() {
            for &w in windows.iter().filter(|&&w| w != u8::MAX) {
                assert!(WINDOWS[w as usize] & (1 << cell) != 0);
            }
        }
    }
}
