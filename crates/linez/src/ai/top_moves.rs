//! The best few scored moves, kept sorted without allocating: both evaluations score every
//! legal move fast and value only the best few exactly.

use crate::rules::{Cell, Move};

/// The best few moves by fast score, best first, without allocating.
pub(crate) struct TopMoves<const N: usize> {
    moves: [(Move, f32, u32); N],
    len: usize,
    /// How many are kept: `N`, or fewer when the count is a setting.
    keep: usize,
}

impl<const N: usize> TopMoves<N> {
    pub(crate) fn new() -> Self {
        Self::keeping(N)
    }

    /// The best `keep` moves (1 to `N`; clamped there).
    pub(crate) fn keeping(keep: usize) -> Self {
        let none = Move::new(Cell::from_index(0), Cell::from_index(1));
        Self {
            moves: [(none, f32::NEG_INFINITY, 0); N],
            len: 0,
            keep: keep.clamp(1, N),
        }
    }

    #[inline]
    pub(crate) fn offer(&mut self, mv: Move, value: f32, removed: u32) {
        let keep = self.keep;
        if self.len == keep && value <= self.moves[keep - 1].1 {
            return;
        }
        let mut i = self.len.min(keep - 1);
        while i > 0 && self.moves[i - 1].1 < value {
            self.moves[i] = self.moves[i - 1];
            i -= 1;
        }
        self.moves[i] = (mv, value, removed);
        self.len = (self.len + 1).min(keep);
    }

    pub(crate) fn moves(&self) -> &[(Move, f32, u32)] {
        &self.moves[..self.len]
    }
}
