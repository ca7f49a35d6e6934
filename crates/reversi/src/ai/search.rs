//! Search over player 1's moves when the opponents' replies are predicted by a [`Model`]: with
//! the replies known the game is a one-player puzzle, so a beam search runs from the current
//! position to the end of the game (every line ends in a final count) and plays the first move
//! of the best line found.
//!
//! The beam ranks unfinished lines by [`evaluate`]: pieces, corners and edges of player 1.
//! With a time limit the beam widens (8, 16, 32, ...) while the decision's share of the time
//! lasts; with a fixed effort its width is the effort, and the clock is never read.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::{BuiltinPlayer, Clock, Player};
use crate::rules::{Bits, Board, Cell, Player as Seat, State};
use crate::strategy::{self, Weights};

/// Predicts the computer players' moves.
pub trait Model {
    /// The move of computer `player` (2..=P) on `board`, where it has a legal move.
    fn reply(&self, board: &Board, player: Seat) -> Cell;

    /// Plays the reply of the computer player to move in `state`.
    fn play_reply(&self, state: &mut State) {
        let player = state.to_move.expect("a player to move");
        state.play_unchecked(self.reply(&state.board, player));
    }
}

/// The opponents' strategies, players 2..=P in order.
impl Model for [Weights] {
    fn reply(&self, board: &Board, player: Seat) -> Cell {
        strategy::choose(board, player, &self[player as usize - 2])
            .expect("the player to move has a legal move")
    }

    fn play_reply(&self, state: &mut State) {
        state.play_by(|board, player| {
            strategy::choose_and_play(board, player, &self[player as usize - 2])
                .expect("the player to move has a legal move")
        });
    }
}

/// Lets the computer players move until player 1 is to move or the game is over.
pub fn advance<M: Model + ?Sized>(state: &mut State, model: &M) {
    while let Some(player) = state.to_move {
        if player == 1 {
            return;
        }
        model.play_reply(state);
    }
}

/// Bonus of a corner of player 1 over a plain piece in [`evaluate`].
pub const CORNER_BONUS: f64 = 4.0;
/// Bonus of an edge cell (not a corner).
pub const EDGE_BONUS: f64 = 1.0;
/// Penalty of a piece diagonal to an empty corner (it hands the corner over).
pub const X_PENALTY: f64 = 2.0;

/// Board regions for [`evaluate`].
#[derive(Clone, Copy, Debug)]
pub struct Regions {
    corners: Bits,
    edges: Bits,
    /// (corner, the cell diagonal to it)
    x_cells: [(Cell, Cell); 4],
}

impl Regions {
    pub fn new(size: usize) -> Self {
        let last = size - 1;
        let corner = |r, c| Cell::new(r, c);
        let corners: Bits = [(0, 0), (0, last), (last, 0), (last, last)]
            .into_iter()
            .map(|(r, c)| corner(r, c))
            .collect();
        let mut edges = Bits::NONE;
        for i in 0..size {
            for cell in [
                Cell::new(0, i),
                Cell::new(last, i),
                Cell::new(i, 0),
                Cell::new(i, last),
            ] {
                edges.insert(cell);
            }
        }
        edges -= corners;
        let x_cells = [
            (corner(0, 0), Cell::new(1, 1)),
            (corner(0, last), Cell::new(1, last - 1)),
            (corner(last, 0), Cell::new(last - 1, 1)),
            (corner(last, last), Cell::new(last - 1, last - 1)),
        ];
        Regions {
            corners,
            edges,
            x_cells,
        }
    }
}

/// How promising an unfinished line is for player 1 (the final count for a finished one).
pub fn evaluate(state: &State, regions: &Regions) -> f64 {
    let board = &state.board;
    let mine = board.pieces(1);
    if state.is_over() {
        return mine.count() as f64;
    }
    let mut value = mine.count() as f64
        + CORNER_BONUS * (mine & regions.corners).count() as f64
        + EDGE_BONUS * (mine & regions.edges).count() as f64;
    for (corner, x) in regions.x_cells {
        if board.get(corner).is_none() && mine.contains(x) {
            value -= X_PENALTY;
        }
    }
    value
}

/// A hash of the position (all players' pieces) for merging lines that meet.
fn position_key(board: &Board) -> u64 {
    let mut hash = 0x9e37_79b9_7f4a_7c15u64;
    for player in 1..=board.players() as Seat {
        for word in board.pieces(player).words() {
            hash = (hash ^ word).wrapping_mul(0xff51_afd7_ed55_8ccd);
            hash ^= hash >> 29;
        }
    }
    hash
}

/// The best line a beam search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub first: Cell,
    /// Player 1's final piece count at the end of the line (or its evaluation at the
    /// horizon).
    pub value: f64,
}

struct Node {
    state: State,
    first: Cell,
    value: f64,
}

/// Beam search of `width` from `root` (player 1 to move) to the end of the game with the
/// replies of `model`. `None` if `deadline` passed first.
pub fn beam_search<M: Model + ?Sized>(
    root: &State,
    model: &M,
    width: usize,
    deadline: Option<Instant>,
) -> Option<Plan> {
    beam_search_to(root, model, width, usize::MAX, deadline)
}

/// [`beam_search`] that stops after `horizon` of player 1's moves and scores the lines still
/// open by [`evaluate`] (so a plan's `value` mixes final counts and evaluations).
pub fn beam_search_to<M: Model + ?Sized>(
    root: &State,
    model: &M,
    width: usize,
    horizon: usize,
    deadline: Option<Instant>,
) -> Option<Plan> {
    let regions = Regions::new(root.board.size());
    let mut best: Option<(f64, Cell)> = None;
    let mut beam = vec![Node {
        state: root.clone(),
        first: Cell::from_index(0),
        value: 0.0,
    }];
    let mut depth = 0;
    let mut seen = HashSet::new();
    while !beam.is_empty() {
        let mut children = Vec::with_capacity(beam.len() * 8);
        seen.clear();
        for node in &beam {
            // A level of a wide beam takes long (thousands of nodes, each with its moves and
            // the opponents' replies), so the clock is read before every node's expansion.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            for cell in node.state.board.legal_moves(1) {
                let mut state = node.state.clone();
                state.play_unchecked(cell);
                advance(&mut state, model);
                let first = if depth == 0 { cell } else { node.first };
                if state.is_over() {
                    let count = state.board.count(1) as f64;
                    if best.is_none_or(|(most, _)| count > most) {
                        best = Some((count, first));
                    }
                    continue;
                }
                if state.to_move != Some(1) {
                    unreachable!("advance stops at player 1 or the end");
                }
                if !seen.insert(position_key(&state.board)) {
                    continue;
                }
                let value = evaluate(&state, &regions);
                children.push(Node {
                    state,
                    first,
                    value,
                });
            }
        }
        if children.len() > width.max(1) {
            let width = width.max(1);
            children.select_nth_unstable_by(width - 1, |a, b| b.value.total_cmp(&a.value));
            children.truncate(width);
        }
        beam = children;
        depth += 1;
        if depth >= horizon {
            for node in beam.drain(..) {
                if best.is_none_or(|(most, _)| node.value > most) {
                    best = Some((node.value, node.first));
                }
            }
        }
    }
    best.map(|(value, first)| Plan { first, value })
}

/// Perfect-information Monte Carlo over `members` (each a full set of opponent strategies,
/// e.g. posterior samples): every first move is followed, under every member's replies, by a
/// beam search of `width`, and the move with the best mean value is played. Unlike one search
/// with the majority's replies, no line relies on a single guess of every reply. `None` if
/// `deadline` passed first.
pub fn sampled_search(
    root: &State,
    members: &[Vec<Weights>],
    width: usize,
    deadline: Option<Instant>,
) -> Option<Plan> {
    let moves = surviving_moves_until(root, deadline)?;
    let first = moves.first().expect("player 1 has a legal move");
    if moves.count() == 1 || members.is_empty() {
        return Some(Plan { first, value: 0.0 });
    }
    let mut totals: Vec<(Cell, f64)> = moves.iter().map(|c| (c, 0.0)).collect();
    for member in members {
        let model = member.as_slice();
        for (cell, total) in &mut totals {
            let mut state = root.clone();
            state.play_unchecked(*cell);
            advance(&mut state, model);
            *total += if state.is_over() {
                state.board.count(1) as f64
            } else {
                beam_search(&state, model, width, deadline)?.value
            };
        }
    }
    let mut best = totals[0];
    for &(cell, total) in &totals[1..] {
        if total > best.1 {
            best = (cell, total);
        }
    }
    Some(Plan {
        first: best.0,
        value: best.1 / members.len() as f64,
    })
}

/// Player 1's pieces at or below which [`surviving_moves`] looks for moves that any replies
/// could wipe out (above it the reply tree is large and a wipe-out in one round unheard of).
pub const SURVIVAL_PIECES: u32 = 8;

/// Player 1's legal moves after which no sequence of the opponents' legal replies, up to
/// player 1's next turn, takes its last piece, if there are any and player 1 has at most
/// [`SURVIVAL_PIECES`]; else all its legal moves. A player with no piece scores 0 whatever
/// else happens, and the samples' replies are right only about 40% of the time, so a move
/// that some replies punish that way is not worth its mean.
#[cfg(feature = "lab")]
pub fn surviving_moves(root: &State) -> Bits {
    surviving_moves_until(root, None).expect("no deadline")
}

/// [`surviving_moves`], or `None` if `deadline` passed first (with four players the replies
/// to look through run to thousands; the clock is read before each position's).
pub fn surviving_moves_until(root: &State, deadline: Option<Instant>) -> Option<Bits> {
    let moves = root.board.legal_moves(1);
    if root.board.count(1) > SURVIVAL_PIECES {
        return Some(moves);
    }
    let mut safe = Bits::NONE;
    for cell in moves {
        let mut state = root.clone();
        state.play_unchecked(cell);
        if survives_every_reply(&state, root.board.players() - 1, deadline)? {
            safe.insert(cell);
        }
    }
    Some(if safe.is_empty() { moves } else { safe })
}

/// Whether player 1 keeps a piece through the next `plies` moves of the opponents, whichever
/// legal moves they make (up to its own turn or the end of the game); `None` if `deadline`
/// passed first.
fn survives_every_reply(state: &State, plies: usize, deadline: Option<Instant>) -> Option<bool> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return None;
    }
    if state.board.count(1) == 0 {
        return Some(false);
    }
    let Some(mover) = state.to_move else {
        return Some(true);
    };
    if mover == 1 || plies == 0 {
        return Some(true);
    }
    for cell in state.board.legal_moves(mover) {
        let mut next = state.clone();
        next.play_unchecked(cell);
        if !survives_every_reply(&next, plies - 1, deadline)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The share of the limit never planned for: the player's clock runs from the start of the
/// game, so it counts the judge's turns and the pipes too, which the judge does not.
pub const RESERVE: f64 = 0.1;

/// What a player's turns cost besides the budgeted work of its decisions: the judge's turn and
/// the pipes (the player's clock counts everything since the game started), reading the
/// opponents' moves, the steps past a deadline, the line played when no search finished. It is
/// kept for every turn still to come, so that a game's budgets leave room for them: at 0.5 s on
/// a loaded machine they measured 0.2-8 ms a turn, up to a third of what a 12x12 case has.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pace {
    /// A running mean of that cost per turn (`None` before one turn was measured).
    per_turn: Option<Duration>,
    /// The clock's `used` when the current decision started, and its budgeted work so far.
    turn: Option<(Duration, Duration)>,
}

impl Pace {
    /// Starts a decision on `clock`, learning from the turn since the last one started.
    pub fn start(&mut self, clock: &Clock) {
        if let Some((used, worked)) = self.turn {
            let extra = clock.used.saturating_sub(used).saturating_sub(worked);
            self.per_turn = Some(match self.per_turn {
                Some(mean) => (mean * 3 + extra) / 4,
                None => extra,
            });
        }
        self.turn = Some((clock.used, Duration::ZERO));
    }

    /// Counts `spent` of the current decision's budget as used.
    pub fn worked(&mut self, spent: Duration) {
        if let Some((_, worked)) = &mut self.turn {
            *worked += spent;
        }
    }

    /// The cost per turn besides the budgets, as measured so far.
    pub fn per_turn(&self) -> Duration {
        self.per_turn.unwrap_or_default()
    }
}

/// Player 1's moves still to come on `board` (each player takes about one empty cell a round).
fn own_moves_left(board: &Board) -> f64 {
    board.empty_cells().count() as f64 / board.players() as f64
}

/// The share of the remaining time one decision may spend: more early, where lines are long.
/// Kept back: [`RESERVE`] of the limit, and what the turns still to come cost besides their
/// budgets ([`Pace`]). Everything a decision does under a time limit stops at its budget (one
/// sampling step or one beam node past it at most), so the decisions together plan for at
/// most `1 - RESERVE` of the limit, by the player's own clock.
pub fn decision_budget(board: &Board, clock: &Clock, pace: &Pace) -> Duration {
    let moves_left = own_moves_left(board);
    let reserve = clock.limit.mul_f64(RESERVE) + pace.per_turn().mul_f64(moves_left.ceil());
    let remaining = clock.remaining().saturating_sub(reserve);
    remaining.mul_f64((2.0 / (moves_left + 2.0)).min(0.5))
}

/// Beam width per unit of a fixed effort: the width is `effort * EFFORT_WIDTH`.
pub const EFFORT_WIDTH: usize = 1;
/// The first width tried under a time limit.
const FIRST_WIDTH: usize = 8;
/// The widest beam tried under a time limit (small end games finish every search at once;
/// widening must stop somewhere).
pub const MAX_WIDTH: usize = 1 << 16;

/// Searches with `model`: a beam of width `effort` (clock unused), or widening beams within the
/// decision's share of the clock. Returns the plan of the widest finished search.
pub fn search<M: Model + ?Sized>(
    state: &State,
    model: &M,
    effort: Option<u64>,
    clock: &Clock,
    pace: &mut Pace,
    share: f64,
) -> Plan {
    let width = effort.map(|effort| effort as usize * EFFORT_WIDTH);
    widening(
        &state.board,
        width,
        FIRST_WIDTH,
        clock,
        pace,
        share,
        |width, deadline| beam_search(state, model, width, deadline),
        |_| one_ply(state, model),
    )
}

/// The move whose position after the replies of `model` [`evaluate`]s best (or that ends the
/// game with the most pieces): a beam of width 1 one move deep, the cheapest plan there is
/// (a few dozen replies).
pub fn one_ply<M: Model + ?Sized>(state: &State, model: &M) -> Plan {
    beam_search_to(state, model, 1, 1, None).expect("no deadline")
}

/// Runs `plan(width, deadline)` once with the fixed `width` (no deadline; the clock is never
/// read), or, under the time limit, `quick(deadline)` (a cheap plan, which must return one
/// even when the deadline has passed), then `plan` with width 1 and then `first_width`,
/// doubling while the decision's `share` of the clock lasts. Returns the plan of the widest
/// search that finished in time, else the quick one. Counts the time spent, up to the budget,
/// in `pace`.
#[allow(clippy::too_many_arguments)]
pub fn widening(
    board: &Board,
    width: Option<usize>,
    first_width: usize,
    clock: &Clock,
    pace: &mut Pace,
    share: f64,
    mut plan: impl FnMut(usize, Option<Instant>) -> Option<Plan>,
    quick: impl FnOnce(Instant) -> Plan,
) -> Plan {
    if let Some(width) = width {
        return plan(width.max(1), None).expect("no deadline");
    }
    let budget = decision_budget(board, clock, pace).mul_f64(share);
    let start = Instant::now();
    let deadline = start + budget;
    let mut best = quick(deadline);
    let mut width = 1;
    while width <= MAX_WIDTH {
        // A search takes about twice the previous one; do not start one that cannot finish.
        if width > 1 && start.elapsed() * 3 > budget {
            break;
        }
        match plan(width, Some(deadline)) {
            Some(found) => best = found,
            None => break,
        }
        width = if width == 1 {
            first_width.max(2)
        } else {
            width * 2
        };
    }
    pace.worked(start.elapsed().min(budget));
    best
}

/// Player 1 when the opponents' strategies are known: the `oracle`.
pub struct KnownPlayer {
    opponents: Vec<Weights>,
    effort: Option<u64>,
    pace: Pace,
}

impl KnownPlayer {
    pub fn new(opponents: Vec<Weights>, effort: Option<u64>) -> Self {
        KnownPlayer {
            opponents,
            effort,
            pace: Pace::default(),
        }
    }
}

impl Player for KnownPlayer {
    type Observation = Board;
    type Action = Cell;

    fn choose(&mut self, board: &Board, clock: &Clock) -> Cell {
        self.pace.start(clock);
        let state = State::from_board(board.clone(), 1);
        let model = self.opponents.as_slice();
        search(&state, model, self.effort, clock, &mut self.pace, 1.0).first
    }
}

impl BuiltinPlayer for KnownPlayer {}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(limit_ms: u64, used_ms: u64) -> Clock {
        Clock::stopped(
            Duration::from_millis(limit_ms),
            Duration::from_millis(used_ms),
        )
    }

    #[test]
    fn the_budgets_keep_the_reserve_and_the_turns_to_come() {
        let board = State::new(12).board;
        let pace = Pace::default();
        // Nothing of the last tenth is ever planned for.
        assert!(decision_budget(&board, &clock(10_000, 0), &pace) < Duration::from_secs(9) / 2);
        assert_eq!(
            decision_budget(&board, &clock(10_000, 9_000), &pace),
            Duration::ZERO
        );
        // A turn that cost 40 ms besides its 10 ms of budgeted work: 40 ms are kept for each
        // of the 32 own moves still to come on a 12x12 board of four players.
        let mut pace = Pace::default();
        pace.start(&clock(10_000, 0));
        pace.worked(Duration::from_millis(10));
        pace.start(&clock(10_000, 50));
        assert_eq!(pace.per_turn(), Duration::from_millis(40));
        let spare = Duration::from_millis(10_000 - 50 - 1_000 - 40 * 32);
        let budget = decision_budget(&board, &clock(10_000, 50), &pace);
        // 2 / (32 + 2) of the spare time, to the rounding of a nanosecond.
        assert!(
            budget.abs_diff(spare / 17) <= Duration::from_nanos(1),
            "{budget:?}"
        );
    }

    #[test]
    fn a_spent_clock_still_gets_a_move_at_once() {
        let state = State::new(12);
        let opponents = vec![Weights::default(); 3];
        let mut pace = Pace::default();
        let plan = search(
            &state,
            opponents.as_slice(),
            None,
            &clock(1_000, 1_000),
            &mut pace,
            1.0,
        );
        assert!(state.board.legal_moves(1).contains(plan.first));
        // At once: the quick plan, and no search but the narrowest one, which finds its
        // deadline passed.
        let quick = Plan {
            first: plan.first,
            value: -1.0,
        };
        let mut widths = Vec::new();
        let chosen = widening(
            &state.board,
            None,
            FIRST_WIDTH,
            &clock(1_000, 1_000),
            &mut pace,
            1.0,
            |width, deadline| {
                widths.push(width);
                deadline.is_some_and(|d| Instant::now() < d).then_some(plan)
            },
            |_| quick,
        );
        assert_eq!(widths, [1]);
        assert_eq!(chosen.value, quick.value);
    }
}
