//! The `ai` player: a one-ply scan, an expectimax over the next tile, then over two.
//!
//! 1. Every legal reply is scored one ply deep: its immediate points plus the evaluation of the
//!    board it leaves ([`super::eval`]).
//! 2. The best few replies (the effort, or as many as the time budget allows) are scored again
//!    as their points plus the expectation, over the next tile, of the best one-ply worth of
//!    the reply to that tile. The next tile's law is known exactly: `W` and `R` each with
//!    probability `1/(32-N)`, each of the `N^2` regular kinds with the rest shared evenly. A
//!    next tile with no home costs a discard, or, with the counter at `D`, the game
//!    ([`Weights::death`]).
//! 3. The best two or more of those ([`Weights::deep_replies`], time allowing) are scored two
//!    tiles deep: each next tile's best one-ply reply is worth its own expectation over the
//!    tile after. That costs an expectation per next kind, so only a few kinds with a home
//!    are drawn ([`Weights::deep_kinds`]) and correct their one-ply worth by what looking
//!    deeper changes, the same draw for every reply.
//!
//! On an empty board the `W` goes to the centre, where the board has the most room to grow.
//!
//! With a fixed effort the player never reads the clock; with a time limit it spends up to
//! `BURST` even shares of what is left on a move and keeps [`RESERVE`] of the limit untouched,
//! besides what the moves still to come cost outside their lookahead (measured as it plays).

use std::time::{Duration, Instant};

#[cfg(doc)]
use super::eval::Placements;
use super::eval::{Evaluator, Weights};
use super::{Clock, Observation, Player};
use crate::generator::TILE_TYPE_BOUND;
use crate::rules::{
    Board, EMPTY, MAX_MOVES, MAX_SIZE, Move, Params, Pos, REGULAR_BASE, State, Tile, WILD,
    clear_bonus,
};
use marathon_core::rng::FastRng;

/// The share of the time limit never planned for (scheduling noise, the judge's pipes).
pub const RESERVE: f64 = 0.2;

/// How many even shares of the time left one move may spend: the moves worth a wide
/// lookahead (many candidates, a crowded board) cost several times the cheap ones, which
/// bank their time; each share is taken afresh from what is left, so an expensive stretch
/// only narrows the moves after it.
const BURST: u32 = 4;

/// The weights for a case's parameters, tuned on seeds above 100 (seeds 1-100 stay a test set):
/// first one ply deep by coordinate search, then the discard cost and the lookahead's breadth
/// at each N's own effort. The measurements behind each choice are in
/// docs/results.md#measurements-behind-the-weights.
pub fn tuned_weights(params: Params) -> Weights {
    let base = Weights::default();
    let weights = match params.n {
        // Few kinds: the game is safe, so the points are in double clears; valuing every
        // setup besides the best (cross_sum) makes more of them.
        ..=4 => Weights {
            cross: 1.0,
            cross_sum: 0.5,
            ..base
        },
        // A discard costs a move: with the wider lookahead it finds a home for more tiles.
        5 => Weights {
            cross: 1.5,
            discard: 1.0,
            ..base
        },
        // With three or four discards in hand on a 10x10 to 12x12 board N=6 too throws away
        // tiles it could place; dearer discards and a dearer full board keep them (on smaller
        // boards, or with two in hand, the same loses games).
        6 if params.d >= 3 && large_board(params) => Weights {
            discard: 2.0,
            crowd: 40.0,
            ..base
        },
        6 => Weights {
            discard: 1.0,
            ..base
        },
        // With four discards in hand on a 10x10 to 12x12 board N=7 discarded more and scored
        // less than with two; dearer discards and a dearer full board keep its tiles (with
        // three in hand it gains nothing sure; on smaller boards it loses games).
        7 if params.d >= 4 && large_board(params) => Weights {
            discard: 3.0,
            crowd: 80.0,
            ..base
        },
        7 => Weights {
            discard: 1.0,
            ..base
        },
        // Many kinds: keeping every kind a home and the frontier flexible is all.
        8.. => {
            let (discard, crowd) = many_kinds_costs(params);
            Weights {
                homeless: 60.0,
                single: 5.0,
                flex: 2.0,
                dead: 1.5,
                dead_line: 3.0,
                line: 20.0,
                crowd,
                counter: 20.0,
                discard,
                ..base
            }
        }
    };
    let weights = Weights {
        line_rate: line_rate_weight(params),
        ..weights
    };
    if params.n >= 8 && !large_board(params) {
        small_board(params, weights)
    } else {
        weights
    }
}

/// How much the player values how soon each line can clear ([`Weights::line_rate`]): where
/// games die because lines stall on gaps few kinds fit. The survivors discard more with it and
/// score less, so it is on only where games die (docs/results.md#the-line-rate).
fn line_rate_weight(params: Params) -> f32 {
    match params.n {
        7 => 2.0,
        6 if !large_board(params) => 1.0,
        8.. if !large_board(params) => 4.0,
        _ => 0.0,
    }
}

/// What a discard costs N >= 8 besides its counter, and what a tile on the board costs
/// ([`Weights::crowd`]): `(discard, crowd)`. On 10x10 to 12x12 boards with discards to spare
/// few games are lost but a player charged little for a discard throws tiles away, so the cost
/// grows with the discards in hand; where so high a cost alone would run the counter out (the
/// player places what it used to discard until the board is full), a tile on the board costs
/// more as well (docs/results.md#discards-and-crowding-for-many-kinds).
fn many_kinds_costs(params: Params) -> (f32, f32) {
    let large = large_board(params);
    let usual_crowd = 20.0;
    match (params.n, params.d) {
        (8, 2) if large => (4.0, 120.0),
        (8, 3..) if large => (6.0, usual_crowd),
        (9, 3) if large => (5.0, 160.0),
        (9, 4) if large => (5.0, usual_crowd),
        (8, _) => (1.0, usual_crowd),
        (10, _) => (0.5, usual_crowd),
        _ => (0.0, usual_crowd),
    }
}

/// A 10x10 to 12x12 board, where the weights for many kinds part from those for 8x8 and 9x9
/// (see [`small_board`] and [`many_kinds_costs`]).
fn large_board(params: Params) -> bool {
    params.s >= 10
}

/// The weights for N >= 8 on an 8x8 or 9x9 board, where most games die: the board fills faster
/// than lines clear it, so a tile on the board costs more (the player discards more, and a clear
/// gains more), and N >= 9 deepens four replies (docs/results.md#small-boards-for-many-kinds).
fn small_board(params: Params, weights: Weights) -> Weights {
    Weights {
        crowd: 160.0,
        deep_replies: if params.n >= 9 {
            4
        } else {
            weights.deep_replies
        },
        ..weights
    }
}

/// The most replies the time budget may look ahead on: with a discard cost (see
/// [`tuned_weights`]) a wider lookahead pays for N = 5-7; without one it discards more
/// (docs/results.md#the-lookaheads-breadth).
pub fn max_expansions(params: Params) -> usize {
    match params.n {
        ..=4 => 3,
        5..=7 => 6,
        8 => 8,
        _ => 4,
    }
}

/// The relative slack of a bound on a worth (see [`SearchPlayer::best_replies`]): far above
/// the rounding of a few dozen `f32` additions, far below any difference that decides.
const BOUND_SLACK: f32 = 1e-4;

/// The most cells a board has.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// A reply with the board it leaves.
#[derive(Clone)]
struct Candidate {
    mv: Move,
    points: u32,
    board: Board,
    counter: u8,
    worth: f32,
}

pub struct SearchPlayer {
    eval: Evaluator,
    effort: Option<u64>,
    candidates: Vec<Candidate>,
    /// The one-tile lookahead's worth of the candidates it scored, with their ranks.
    scored: Vec<(f32, usize)>,
    /// What one lookahead has cost lately, one tile and two tiles deep.
    expansion_cost: Duration,
    deep_cost: Duration,
    /// A running mean of what a turn costs besides the lookahead: the judge's turn and the
    /// pipes (the player's clock counts everything since the game started), the one-ply scan.
    /// At 0.5 s a 10,000-move game's turns cost more than the limit by this clock on a loaded
    /// machine (15-60 us each), so their cost is kept for every move still to come.
    turn_cost: Option<Duration>,
    /// The clock's `used` when the current decision started, and its lookahead's time.
    turn: Option<(Duration, Duration)>,
}

impl SearchPlayer {
    pub fn new(params: Params, weights: Weights, effort: Option<u64>) -> Self {
        SearchPlayer {
            eval: Evaluator::new(params, weights),
            effort,
            candidates: Vec::new(),
            scored: Vec::new(),
            expansion_cost: Duration::ZERO,
            deep_cost: Duration::ZERO,
            turn_cost: None,
            turn: None,
        }
    }

    /// Starts a decision on `clock`, learning what the turn since the last one cost besides
    /// its lookahead.
    fn start_turn(&mut self, clock: &Clock) {
        if let Some((used, looked)) = self.turn {
            let extra = clock.used.saturating_sub(used).saturating_sub(looked);
            self.turn_cost = Some(match self.turn_cost {
                Some(mean) => (mean * 7 + extra) / 8,
                None => extra,
            });
        }
        self.turn = Some((clock.used, Duration::ZERO));
    }

    /// Counts `spent` as the current decision's lookahead.
    fn looked(&mut self, spent: Duration) {
        if let Some((_, looked)) = &mut self.turn {
            *looked += spent;
        }
    }

    /// The mask of kinds `code` stands for: one bit for a regular tile, all for `W`.
    fn code_bits(&self, code: u8) -> u128 {
        if code == WILD {
            self.eval.masks.all
        } else {
            1u128 << (code - REGULAR_BASE)
        }
    }

    /// Whether `code` may go at the empty cell `index`.
    #[inline]
    fn fits(&self, board: &Board, index: usize, code: u8) -> bool {
        if board.is_empty() {
            return code == WILD;
        }
        let (mask, any) = self.eval.masks.cell(board, index);
        any && (code == WILD || mask & self.code_bits(code) != 0)
    }

    /// Every placement (or removal) of `tile` on `board`, with its points and the board after.
    fn for_each_placement(
        &self,
        board: &Board,
        tile: Tile,
        mut visit: impl FnMut(usize, u32, &Board),
    ) {
        let params = self.eval.masks.params;
        match tile.code(params.n) {
            None => {
                for index in board.indices().filter(|&i| board.at(i) != EMPTY) {
                    let mut next = board.clone();
                    next.take(index);
                    visit(index, 1, &next);
                }
            }
            Some(code) => {
                for index in board.indices() {
                    if board.at(index) != EMPTY || !self.fits(board, index, code) {
                        continue;
                    }
                    let mut next = board.clone();
                    let (row, col) = next.place_unchecked(index, code);
                    visit(index, 1 + clear_bonus(params.s, row, col), &next);
                }
            }
        }
    }

    /// The one-ply candidates for `tile`, best first.
    fn scan(&mut self, state: &State, tile: Tile) {
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let used = state.counter.saturating_sub(1);
        self.for_each_placement(&state.board, tile, |index, points, next| {
            candidates.push(Candidate {
                mv: Move::Place(Pos::from_index(index)),
                points,
                board: next.clone(),
                counter: used,
                worth: points as f32 + self.eval.value(next, used),
            });
        });
        if state.can_discard() {
            candidates.push(Candidate {
                mv: Move::Discard,
                points: 0,
                board: state.board.clone(),
                counter: state.counter + 1,
                worth: self.eval.value(&state.board, state.counter + 1) - self.eval.weights.discard,
            });
        }
        candidates.sort_by(|a, b| b.worth.total_cmp(&a.worth));
        self.candidates = candidates;
    }

    /// The best one-ply reply to each next tile on `board` (not empty) with the discard
    /// counter at `counter`: per regular kind and for `W`, its worth and the cell it goes on
    /// (a worth of minus infinity: no home; among equal worths the first cell in row-major
    /// order).
    ///
    /// A `W` on a cell is worth at least what any regular tile is worth there (it takes no
    /// kind from a neighbour and gives new frontier cells every kind: see
    /// [`Placements::value`]), so the cells are visited best `W` first and a kind is scored on
    /// a cell only while that bound can still beat its best: the same replies for half the
    /// per-kind evaluations (N=6 and N=10 mid-games; a decision at effort 4 costs N=6 40%
    /// less, N=10 8% less, whose cells accept few kinds each).
    fn best_replies(&self, board: &Board, counter: u8) -> Replies {
        let used = counter.saturating_sub(1);
        let mut replies = Replies {
            kinds: [(f32::NEG_INFINITY, 0); 128],
            wild: (f32::NEG_INFINITY, 0),
        };
        let analysis = self.eval.analyse(board);
        let size = self.eval.masks.params.s;
        // Whether `worth` on `cell` replaces `best`: higher, or equal on an earlier cell.
        let beats = |worth: f32, cell: u16, best: (f32, u16)| {
            worth > best.0 || (worth == best.0 && cell < best.1)
        };
        // Each frontier cell's worth for a `W`, which bounds every tile's there, with whether
        // it is every tile's worth (a clear: the tile goes with its line).
        let mut cells = [(0.0f32, 0u16, false); MAX_CELLS];
        let mut count = 0;
        for (index, mask) in analysis.frontier(board) {
            let pos = Pos::from_index(index);
            let cell = index as u16;
            let clears = board.row_fill(pos.row as usize) + 1 == size
                || board.col_fill(pos.col as usize) + 1 == size;
            let bound = if clears {
                let mut next = board.clone();
                let (row, col) = next.place_unchecked(index, WILD);
                (1 + clear_bonus(size, row, col)) as f32 + self.eval.value(&next, used)
            } else {
                1.0 + self
                    .eval
                    .placements(&analysis, board, index)
                    .value(WILD, used)
            };
            if beats(bound, cell, replies.wild) {
                replies.wild = (bound, cell);
            }
            if mask == 0 {
                continue;
            }
            cells[count] = (bound, cell, clears);
            count += 1;
        }
        let cells = &mut cells[..count];
        cells.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(bound, cell, clears) in cells.iter() {
            let index = cell as usize;
            // The kinds this cell may still give a better home (the bound's rounding differs
            // from the worth's: a little slack keeps the replies exact).
            let reach = bound + BOUND_SLACK * (1.0 + bound.abs());
            let mut open = 0u128;
            for_each_kind(analysis.mask(index), |kind| {
                if beats(reach, cell, replies.kinds[kind]) {
                    open |= 1 << kind;
                }
            });
            if open == 0 {
                continue;
            }
            if clears {
                for_each_kind(open, |kind| {
                    if beats(bound, cell, replies.kinds[kind]) {
                        replies.kinds[kind] = (bound, cell);
                    }
                });
                continue;
            }
            let placements = self.eval.placements(&analysis, board, index);
            for_each_kind(open, |kind| {
                let worth = 1.0 + placements.value(REGULAR_BASE + kind as u8, used);
                if beats(worth, cell, replies.kinds[kind]) {
                    replies.kinds[kind] = (worth, cell);
                }
            });
        }
        replies
    }

    /// The laws of the next tile: the chance of `W` (and of `R`), and of each regular kind.
    fn chances(&self) -> (f32, f32) {
        let params = self.eval.masks.params;
        let special = 1.0 / (TILE_TYPE_BOUND - params.n as i32) as f32;
        (special, (1.0 - 2.0 * special) / params.kinds() as f32)
    }

    /// The expected one-ply worth of the best reply to the next tile on `board`.
    fn expectation(&self, board: &Board, counter: u8) -> f32 {
        let params = self.eval.masks.params;
        let w = &self.eval.weights;
        let (special, regular) = self.chances();
        let used = counter.saturating_sub(1);
        if board.is_empty() {
            // The next tile is surely `W` (docs/rules.md#tiles-generation), and the player puts it
            // in the centre.
            let mut next = board.clone();
            next.put(first_wild(params).index(), WILD);
            return 1.0 + self.eval.value(&next, used);
        }
        // What a tile with no home costs.
        let homeless = if counter < params.d {
            self.eval.value(board, counter + 1) - w.discard
        } else {
            -w.death
        };
        let replies = self.best_replies(board, counter);
        let mut total = 0.0;
        for &(worth, _) in &replies.kinds[..params.kinds()] {
            total += regular * worth.max(homeless);
        }
        // R: its worth is approximated as a free point on the same board (or a discard).
        let remove = (1.0 + self.eval.value(board, used)).max(homeless);
        total + special * (replies.wild.0.max(homeless) + remove)
    }

    /// [`Self::expectation`] one tile deeper: the expectation, over the next tile, of its
    /// best one-ply reply scored by its own expectation over the tile after. With `sample`
    /// above 0, only that many of the regular kinds with a home are deepened (drawn with
    /// `seed`), each correcting its one-ply worth by its deepening's gain: the one-ply sum is
    /// exact, so the draw only adds the noise of the gains.
    fn deep_expectation(&self, board: &Board, counter: u8, sample: usize, seed: u64) -> f32 {
        if board.is_empty() {
            return self.expectation(board, counter);
        }
        let params = self.eval.masks.params;
        let w = &self.eval.weights;
        let (special, regular) = self.chances();
        let used = counter.saturating_sub(1);
        let (homeless, homeless_deep) = if counter < params.d {
            (
                self.eval.value(board, counter + 1) - w.discard,
                self.expectation(board, counter + 1) - w.discard,
            )
        } else {
            (-w.death, -w.death)
        };
        let deepen = |best, code| self.deep_reply(board, best, code, used, homeless_deep);
        let replies = self.best_replies(board, counter);
        let mut homed = [0u8; 128];
        let mut homed_count = 0;
        let mut total = 0.0;
        for (kind, &(worth, _)) in replies.kinds[..params.kinds()].iter().enumerate() {
            if worth == f32::NEG_INFINITY {
                total += homeless_deep;
            } else {
                total += worth.max(homeless);
                homed[homed_count] = kind as u8;
                homed_count += 1;
            }
        }
        let drawn = if sample == 0 {
            homed_count
        } else {
            sample.min(homed_count)
        };
        let mut rng = FastRng::new(seed);
        let mut gains = 0.0;
        for i in 0..drawn {
            let j = i + (rng.next_u64() % (homed_count - i) as u64) as usize;
            homed.swap(i, j);
            let kind = homed[i] as usize;
            let shallow = replies.kinds[kind].0.max(homeless);
            gains += deepen(replies.kinds[kind], REGULAR_BASE + kind as u8) - shallow;
        }
        if drawn > 0 {
            total += gains * homed_count as f32 / drawn as f32;
        }
        let remove = (1.0 + self.expectation(board, used)).max(homeless_deep);
        regular * total + special * (deepen(replies.wild, WILD) + remove)
    }

    /// The worth two tiles deep of the tile `code` on `board` given its best one-ply reply
    /// `best` (a worth and a cell): the reply's points and expectation, with the counter then
    /// at `used`, or `no_home` (a discard's, or death's) if that is better or it has no home.
    fn deep_reply(&self, board: &Board, best: (f32, u16), code: u8, used: u8, no_home: f32) -> f32 {
        let (worth, cell) = best;
        if worth == f32::NEG_INFINITY {
            return no_home;
        }
        let mut next = board.clone();
        let (row, col) = next.place_unchecked(cell as usize, code);
        let points = (1 + clear_bonus(self.eval.masks.params.s, row, col)) as f32;
        (points + self.expectation(&next, used)).max(no_home)
    }

    /// How many candidates to look ahead on, from the effort or the clock.
    fn budget(&self, state: &State, clock: &Clock) -> Budget {
        match self.effort {
            Some(effort) => Budget::Count(effort as usize),
            None => {
                let moves_left = MAX_MOVES.saturating_sub(state.moves).max(1);
                let turns = self.turn_cost.unwrap_or_default() * moves_left;
                let usable = clock
                    .limit
                    .mul_f64(1.0 - RESERVE)
                    .saturating_sub(clock.used + clock.elapsed() + turns);
                Budget::Time((usable / moves_left * BURST).min(usable / BURST))
            }
        }
    }
}

/// Where the player puts the `W` an empty board deals: the centre. The evaluation tells only
/// the edge cells apart there (they have fewer frontier cells), so the inner cells tie, and a
/// `W` by the edge leaves the board less room to grow: in the centre, N=9-10 seeds 101-2200
/// (622 games, effort 4) lose 10 games in the first 100 moves, not 24.
fn first_wild(params: Params) -> Pos {
    let middle = params.s / 2;
    Pos::new(middle, middle)
}

/// Calls `visit` with each kind in `mask`.
#[inline]
fn for_each_kind(mask: u128, mut visit: impl FnMut(usize)) {
    let mut bits = mask;
    while bits != 0 {
        visit(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The best one-ply reply to each possible next tile ([`SearchPlayer::best_replies`]).
struct Replies {
    kinds: [(f32, u16); 128],
    wild: (f32, u16),
}

enum Budget {
    Count(usize),
    Time(Duration),
}

impl Budget {
    /// Whether the `rank`-th lookahead of a kind costing `cost` (a running mean) may start:
    /// under a count, within it; under a time share, if it fits and, for the first, a second
    /// fits too (one alone decides nothing).
    fn allows(&self, rank: usize, cap: usize, clock: &Clock, cost: Duration) -> bool {
        match *self {
            Budget::Count(count) => rank < count.min(cap),
            Budget::Time(share) => {
                let needed = if rank == 0 { 2 } else { 1 };
                rank < cap && clock.elapsed() + cost * needed < share
            }
        }
    }
}

/// Updates a running mean of what one lookahead costs.
fn note_cost(mean: &mut Duration, started: Instant) {
    *mean = (*mean * 7 + started.elapsed()) / 8;
}

impl Player for SearchPlayer {
    type Observation = Observation;
    type Action = Move;

    fn choose(&mut self, seen: &Observation, clock: &Clock) -> Move {
        let (state, tile) = (&seen.state, seen.tile);
        self.start_turn(clock);
        if state.board.is_empty() && tile == Tile::Wild {
            return Move::Place(first_wild(state.params));
        }
        self.scan(state, tile);
        let Some(first) = self.candidates.first() else {
            return Move::GiveUp;
        };
        if self.candidates.len() == 1 {
            return first.mv;
        }
        let budget = self.budget(state, clock);
        if let Budget::Count(0..=1) = budget {
            return first.mv;
        }
        let started = Instant::now();
        let chosen = self.look_ahead(state, clock, &budget);
        self.looked(started.elapsed());
        chosen
    }
}

impl SearchPlayer {
    /// The reply chosen by looking ahead from the one-ply scan's candidates (at least two),
    /// as far as `budget` allows.
    fn look_ahead(&mut self, state: &State, clock: &Clock, budget: &Budget) -> Move {
        let weights = self.eval.weights;
        let immediate = |candidate: &Candidate| {
            let penalty = if candidate.mv == Move::Discard {
                weights.discard
            } else {
                0.0
            };
            candidate.points as f32 - penalty
        };
        // One tile deep, in the one-ply order.
        let breadth = match budget {
            Budget::Count(_) => usize::MAX,
            Budget::Time(_) => max_expansions(state.params),
        };
        let mut scored = std::mem::take(&mut self.scored);
        scored.clear();
        for rank in 0..self.candidates.len() {
            if !budget.allows(rank, breadth, clock, self.expansion_cost) {
                break;
            }
            let started = Instant::now();
            let candidate = &self.candidates[rank];
            let worth =
                immediate(candidate) + self.expectation(&candidate.board, candidate.counter);
            scored.push((worth, rank));
            note_cost(&mut self.expansion_cost, started);
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        // Under a time limit the scan alone may have spent the move's share.
        let Some(&(_, best_rank)) = scored.first() else {
            self.scored = scored;
            return self.candidates[0].mv;
        };
        let mut chosen = self.candidates[best_rank].mv;
        // The best of those two tiles deep, as many as the budget allows; two at the least,
        // or the one-tile order stands.
        let deep_count = weights.deep_replies.min(scored.len());
        let mut deepest = (chosen, f32::NEG_INFINITY);
        let mut deepened = 0;
        for (rank, &(_, index)) in scored.iter().enumerate().take(deep_count) {
            if !budget.allows(rank, deep_count, clock, self.deep_cost) {
                break;
            }
            let started = Instant::now();
            let candidate = &self.candidates[index];
            let worth = immediate(candidate)
                + self.deep_expectation(
                    &candidate.board,
                    candidate.counter,
                    weights.deep_kinds,
                    state.moves as u64,
                );
            note_cost(&mut self.deep_cost, started);
            deepened += 1;
            if worth > deepest.1 {
                deepest = (candidate.mv, worth);
            }
        }
        if deepened >= 2 {
            chosen = deepest.0;
        }
        self.scored = scored;
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::TilesCase;

    /// Boards from the ai's own play of `seed`, every `every` moves, with their counters.
    fn boards(seed: u64, moves: u32, every: u32) -> Vec<(Board, u8)> {
        let mut case = TilesCase::new(seed);
        let mut state = State::new(case.params);
        let mut player = SearchPlayer::new(state.params, tuned_weights(state.params), Some(3));
        let clock = Clock::stopped(Duration::from_secs(20), Duration::ZERO);
        let mut boards = Vec::new();
        while !state.is_over() && state.moves < moves {
            if state.moves.is_multiple_of(every) {
                boards.push((state.board.clone(), state.counter));
            }
            let tile = case.next_tile(state.board.is_empty());
            let seen = Observation {
                state: state.clone(),
                tile,
            };
            let mv = player.choose(&seen, &clock);
            if mv == Move::GiveUp {
                break;
            }
            state.play(tile, mv).unwrap();
        }
        boards
    }

    /// The deep expectation summed plainly: every next tile's best one-ply reply, scored by
    /// its own expectation (or the discard's, or death).
    fn plain_deep_expectation(player: &SearchPlayer, board: &Board, counter: u8) -> f32 {
        let params = player.eval.masks.params;
        let w = &player.eval.weights;
        let (special, regular) = player.chances();
        let used = counter.saturating_sub(1);
        let no_home = if counter < params.d {
            player.expectation(board, counter + 1) - w.discard
        } else {
            -w.death
        };
        let deepen = |best, code| player.deep_reply(board, best, code, used, no_home);
        let replies = player.best_replies(board, counter);
        let kinds: f32 = (0..params.kinds())
            .map(|kind| deepen(replies.kinds[kind], REGULAR_BASE + kind as u8))
            .sum();
        let remove = (1.0 + player.expectation(board, used)).max(no_home);
        regular * kinds + special * (deepen(replies.wild, WILD) + remove)
    }

    /// Drawing every kind with a home gives the plain sum, whatever the draw's order: the
    /// one-ply sum plus every kind's gain.
    #[test]
    fn a_full_draw_is_the_plain_deep_expectation() {
        let mut checked = 0;
        for seed in [1, 2, 3, 4] {
            let params = TilesCase::new(seed).params;
            let player = SearchPlayer::new(params, tuned_weights(params), Some(3));
            for (board, counter) in boards(seed, 300, 29) {
                if board.is_empty() {
                    continue;
                }
                let plain = plain_deep_expectation(&player, &board, counter);
                for (kinds, draw_seed) in [(0, 1), (128, 2), (128, 3)] {
                    let drawn = player.deep_expectation(&board, counter, kinds, draw_seed);
                    let tolerance = 1e-4 * plain.abs().max(1.0);
                    assert!(
                        (plain - drawn).abs() < tolerance,
                        "seed {seed}: {plain} vs {drawn}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }

    /// Each next tile's best reply, found from the board's analysis (one evaluation per
    /// clearing cell, incremental elsewhere), is worth what the best of its placements is
    /// worth when each is played out and evaluated in full.
    #[test]
    fn best_replies_are_the_best_full_evaluations() {
        let mut clearing = 0;
        for seed in [1, 2, 4, 7] {
            let params = TilesCase::new(seed).params;
            let player = SearchPlayer::new(params, tuned_weights(params), Some(3));
            for (board, counter) in boards(seed, 400, 13) {
                if board.is_empty() {
                    continue;
                }
                let used = counter.saturating_sub(1);
                let replies = player.best_replies(&board, counter);
                let tiles = (0..params.n)
                    .flat_map(|color| {
                        (0..params.n).map(move |shape| Tile::Regular { color, shape })
                    })
                    .chain([Tile::Wild]);
                for tile in tiles {
                    let mut best = f32::NEG_INFINITY;
                    player.for_each_placement(&board, tile, |_, points, next| {
                        clearing += usize::from(points > 1);
                        best = best.max(points as f32 + player.eval.value(next, used));
                    });
                    let found = match tile.code(params.n) {
                        Some(WILD) => replies.wild.0,
                        Some(code) => replies.kinds[(code - REGULAR_BASE) as usize].0,
                        None => unreachable!("no R among the tiles"),
                    };
                    let tolerance = 1e-4 * best.abs().max(1.0);
                    assert!(
                        found == best || (found - best).abs() < tolerance,
                        "seed {seed} {tile:?}: {found} vs {best}\n{board:?}"
                    );
                }
            }
        }
        assert!(clearing > 100, "{clearing}");
    }

    /// The first `W` goes to the centre on every board size, even or odd.
    #[test]
    fn the_first_wildcard_goes_to_the_centre() {
        let clock = Clock::stopped(Duration::from_secs(20), Duration::ZERO);
        for (s, middle) in [(8, 4), (9, 4), (12, 6)] {
            let params = Params::new(10, s, 2).unwrap();
            let state = State::new(params);
            let mut player = SearchPlayer::new(params, tuned_weights(params), Some(4));
            let seen = Observation {
                state,
                tile: Tile::Wild,
            };
            let mv = player.choose(&seen, &clock);
            assert_eq!(mv, Move::Place(Pos::new(middle, middle)), "S={s}");
        }
    }

    /// With no time left the player still answers, from the one-ply order alone.
    #[test]
    fn the_time_budget_keeps_what_the_turns_to_come_cost() {
        let state = State::new(TilesCase::new(3).params);
        let mut player = SearchPlayer::new(state.params, tuned_weights(state.params), None);
        let share = |player: &SearchPlayer, used_us: u64| {
            let clock = Clock::stopped(Duration::from_secs(20), Duration::from_micros(used_us));
            match player.budget(&state, &clock) {
                Budget::Time(share) => share,
                Budget::Count(_) => unreachable!("no effort"),
            }
        };
        let fresh = share(&player, 0);
        assert!(fresh > Duration::from_micros(6_000), "{fresh:?}");
        // A turn that cost 1 ms besides 0.2 ms of lookahead: 10,000 more such turns would
        // take 10 s of the 16 planned for.
        player.start_turn(&Clock::stopped(Duration::from_secs(20), Duration::ZERO));
        player.looked(Duration::from_micros(200));
        player.start_turn(&Clock::stopped(
            Duration::from_secs(20),
            Duration::from_micros(1_200),
        ));
        assert_eq!(player.turn_cost, Some(Duration::from_millis(1)));
        let paced = share(&player, 1_200);
        assert!(
            paced < fresh / 2 && paced > fresh / 3,
            "{paced:?} of {fresh:?}"
        );
    }

    #[test]
    fn a_spent_clock_still_gets_a_legal_move() {
        let mut case = TilesCase::new(3);
        let mut state = State::new(case.params);
        let mut player = SearchPlayer::new(state.params, tuned_weights(state.params), None);
        let spent = Clock::stopped(Duration::from_secs(1), Duration::from_secs(1));
        while state.moves < 200 && !state.is_over() {
            let tile = case.next_tile(state.board.is_empty());
            let seen = Observation {
                state: state.clone(),
                tile,
            };
            let mv = player.choose(&seen, &spent);
            state.play(tile, mv).expect("a legal move");
        }
        assert_eq!(state.moves, 200);
    }
}
