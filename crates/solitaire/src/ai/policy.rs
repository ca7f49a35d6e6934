//! The fast move heuristic and the playouts the search runs with it.
//!
//! A removal's worth is its points now, plus what it leaves for the next move: how many cells
//! the removed piece reaches (a piece that reaches nothing ends the game), whether one of them
//! continues the run of equal types, and whether the pending removals are the start of a set
//! (and of an alternation) that a reachable piece can carry on.

use marathon_core::rng::FastRng;

use crate::rules::{Cell, Piece, State, cells_of, targets};

/// The heuristic's weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per point gained now.
    pub gain: f32,
    /// For a removal after which no move is left.
    pub dead_end: f32,
    /// Per cell the removed piece reaches next, up to `mobility_cap` (negative: Warnsdorff,
    /// clear the hard-to-reach cells first).
    pub mobility: f32,
    pub mobility_cap: u32,
    /// When a reachable cell holds the same type (the run can go on).
    pub run_next: f32,
    /// Per pending piece of a set in the making ...
    pub set_progress: f32,
    /// ... and when a reachable cell holds a piece that carries it on.
    pub set_next: f32,
    /// Per pending piece of a set in the making that would alternate with the last set.
    pub alternation: f32,
    /// For taking the last piece of a stack (the cell is gone for good).
    pub empties: f32,
    /// Random noise added to each move's worth in playouts (uniform in [0, noise)).
    pub noise: f32,
}

marathon_core::tunable!(Weights {
    gain: "per point gained now",
    dead_end: "for a removal after which no move is left",
    mobility: "per cell the removed piece reaches next, up to mobility_cap",
    mobility_cap: "the most cells mobility counts",
    run_next: "when a reachable cell holds the same type (the run can go on)",
    set_progress: "per pending piece of a set in the making",
    set_next: "when a reachable cell holds a piece that carries the set on",
    alternation: "per pending piece of a set that would alternate with the last set",
    empties: "for taking the last piece of a stack",
    noise: "noise added to each removal's worth in playouts, uniform in [0, noise)",
});

impl Default for Weights {
    fn default() -> Self {
        Weights {
            gain: 1.0,
            dead_end: -30.0,
            mobility: 0.3,
            mobility_cap: 6,
            run_next: 3.0,
            set_progress: 1.5,
            set_next: 2.0,
            alternation: 1.5,
            empties: -0.5,
            noise: 2.0,
        }
    }
}

impl Weights {
    /// The weights of the `greedy` baseline: points now first, then mobility; no noise.
    pub fn greedy() -> Weights {
        Weights {
            gain: 100.0,
            dead_end: -50.0,
            mobility: 1.0,
            mobility_cap: 36,
            run_next: 0.0,
            set_progress: 0.0,
            set_next: 0.0,
            alternation: 0.0,
            empties: 0.0,
            noise: 0.0,
        }
    }

    /// For deterministic cases (one type): Warnsdorff's rule, fewest onward moves first.
    pub fn tour() -> Weights {
        Weights {
            mobility: -1.0,
            mobility_cap: 36,
            noise: 1.5,
            ..Weights::default()
        }
    }
}

const NUMBERS: u8 = 0x0f;
const PIECES: u8 = 0xf0;

/// The heuristic worth of removing `cell` (which must be legal) in `state`.
#[inline]
pub fn worth(state: &State, cell: Cell, w: &Weights) -> f32 {
    let piece = state.top(cell).expect("a legal cell holds a piece");
    let mut scorer = state.scorer;
    let gain = scorer.push(piece);
    let empties = !state.reveals(cell);
    let mut occupied = state.occupied();
    if empties {
        occupied &= !cell.bit();
    }
    let next = targets(piece, cell) & occupied;
    let mobility = next.count_ones();
    let mut value = w.gain * gain as f32;
    if mobility == 0 {
        return value + w.dead_end;
    }
    value += w.mobility * mobility.min(w.mobility_cap) as f32;
    if empties {
        value += w.empties;
    }
    if next & state.cells_of_type(piece) != 0 {
        value += w.run_next;
    }
    // A set in the making: the pending types, all distinct and of one kind.
    let mut pending = 0u8;
    let mut count = 0;
    for p in scorer.pending() {
        pending |= 1 << p.index();
        count += 1;
    }
    if count > 0 && pending.count_ones() == count {
        let kind = if pending & !NUMBERS == 0 {
            Some(NUMBERS)
        } else if pending & !PIECES == 0 {
            Some(PIECES)
        } else {
            None
        };
        if let Some(kind) = kind {
            value += w.set_progress * count as f32;
            let alternates = match scorer.last_set() {
                Some(crate::rules::SetKind::Numbers) => kind == PIECES,
                Some(crate::rules::SetKind::Pieces) => kind == NUMBERS,
                None => false,
            };
            if alternates {
                value += w.alternation * count as f32;
            }
            let missing = kind & !pending;
            let carries_on = (0..8)
                .filter(|i| missing & (1 << i) != 0)
                .any(|i| next & state.cells_of_type(Piece::from_index(i)) != 0);
            if carries_on {
                value += w.set_next;
            }
        }
    }
    value
}

/// The legal cell of best worth plus noise; `None` when no move is left.
#[inline]
pub fn pick(state: &State, w: &Weights, rng: &mut FastRng) -> Option<Cell> {
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    for cell in cells_of(state.legal()) {
        let mut value = worth(state, cell, w);
        if w.noise > 0.0 {
            value += w.noise * rng.next_f64() as f32;
        }
        if value > best_value {
            best_value = value;
            best = Some(cell);
        }
    }
    best
}

/// A hidden piece drawn from the model's alphabet, if removing `cell` reveals one.
#[inline]
pub fn sample_reveal(
    state: &State,
    cell: Cell,
    alphabet: &[Piece],
    rng: &mut FastRng,
) -> Option<Piece> {
    state
        .reveals(cell)
        .then(|| alphabet[rng.below(alphabet.len() as u32) as usize])
}

/// Plays `state` to its end with [`pick`] and sampled reveals; returns the points gained.
/// Each removal is pushed on `path` when one is given.
pub fn playout(
    state: &mut State,
    alphabet: &[Piece],
    w: &Weights,
    rng: &mut FastRng,
    mut path: Option<&mut Vec<Cell>>,
) -> u32 {
    let start = state.score();
    while let Some(cell) = pick(state, w, rng) {
        let reveal = sample_reveal(state, cell, alphabet, rng);
        state.play_unchecked(cell, reveal);
        if let Some(path) = path.as_deref_mut() {
            path.push(cell);
        }
    }
    state.score() - start
}
