//! The built-in AI: an expectimax over sampled spawns, a few spawns deep, with the evaluation's
//! best reply after each.
//!
//! The spawn cells are hidden and uniform, so a move's worth is an expectation. The AI picks the
//! most promising moves by an evaluation's one-move worth, then estimates for each the expected
//! worth of playing on after random spawns (the known preview colours first, then random
//! colours), the evaluation's best reply after each spawn, as deep as `Settings::depth` says.
//! Every candidate sees the same sampled spawns in a round (common random numbers), so
//! differences between candidates are not drowned in sampling noise, and successive halving
//! spends the later rounds on the close contenders. The evaluation is either the hand-made one
//! ([`Weights`]) or the learned one ([`Network`]); with either, a line that can be cleared is
//! cleared at once, at the root and in the sampled futures (waiting lets a spawn block it, and
//! neither evaluation prices that risk well; `Settings::clear_first`).

use std::time::Duration;

use marathon_core::rng::FastRng;

use super::eval::{MoveScorer, Weights};
use super::greedy::best_move;
use super::ntuple::{MAX_EXACT, Network};
use super::{Clock, Observation, Player, TURN_HAS_A_MOVE};
use crate::rules::{Board, CELLS, COLORS, Color, Move, PREVIEW_LEN, State, line_points};

/// The shape of the search; [`Settings::AI`] is the `ai` player's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Spawns per sample (1..=[`MAX_DEPTH`]), with the best reply played between two. More
    /// take the evaluation's errors further away: effort 64, seeds 101-180, depth 1 -> 2:
    /// 1,006 -> 1,189; 20 s on seeds 111-140, side by side: 1,069 -> 1,301. Effort 64, seeds
    /// 201-400 (standard error ~50): depth 2, 3, 4: 1,138, 1,214, 1,164.
    pub depth: usize,
    /// How many moves, best by one-move worth, get the sampled evaluation.
    pub candidates: usize,
    /// How many quiet moves, best by fast score, get their exact one-move worth (with the
    /// whole-board terms of the board after them) before the candidates are picked (8 to 64:
    /// fewer than the replies' 8 would rank the root worse than a reply). The fast score
    /// leaves out the whole-board terms (cells cut off, lines a ball can reach), which decide
    /// what keeps a region open: paired by seed, 8 -> 32 gained +191.2 ± 54.8 at effort 4
    /// (seeds 1001-1500, 326 -> 377 moves), +553.0 ± 170.1 at effort 16 (seeds 1001-1300, 594
    /// -> 740 moves) and +519.1 ± 372.0 at effort 64 (seeds 1-100), for about a fifth more CPU
    /// a move; at effort 4, 16 gained +88.2 ± 51.3 and 64 as much as 32 (2026-12-07). Before
    /// clears first, effort 32, seeds 401-700, 8 -> 64: 1,334 -> 1,350.
    pub root_exact: usize,
    /// The same for every reply within a sampled future (1 to 64), where it costs once per
    /// reply.
    pub reply_exact: usize,
    /// The loss in points to come that a settled decision may risk (see `settled`).
    pub settled_margin: f64,
    /// The game length the time is planned for (see `Settings::time_share`).
    pub planned_moves: u32,
    /// A factor on every move's share of the remaining time.
    pub time_scale: f64,
    /// The least danger weight of a move's share of the time (see `Settings::time_share`). On
    /// the open boards of a game's first few hundred moves the share, not the rounds cap, ends
    /// most decisions; a floor of 1 (the weight of a board of 40 balls) gives them up to five
    /// times more, but no gain was shown: 20 s, seeds 1-100, 0.2 -> 1: 2,634.8 and 2,719.7 ->
    /// 2,799.6 and 2,568.1 (standard errors 164-212).
    pub danger_floor: f64,
    /// Most sampling rounds of a move under a time limit (`--effort` sets the rounds). The
    /// effort curve tops out near 64 (seeds 201-300: effort 16, 32, 64: 2,743, 2,646, 3,390;
    /// seeds 1-100 at effort 64: 3,206), and rounds beyond it are spent early in a game while
    /// the long games, which make the mean, run short of time late: 20 s, seeds 1-100, no bound
    /// -> 64: 2,743 and 2,795 -> 2,991 (6.0 s a game instead of 9.0-9.9).
    pub max_rounds: u64,
    /// The game length over which the time left may raise the rounds cap above `max_rounds`
    /// (0: never): a move may sample as many rounds as the time left pays for, spread evenly
    /// over the moves still to come to this length (at least `MIN_HORIZON`), at the game's own
    /// cost of a round so far. On a machine where `max_rounds` rounds take a fraction of the
    /// moves' shares, a game banks time it never spends; spread over a long game's length,
    /// the long games' late moves get it.
    pub cap_horizon: u32,
    /// 1: a move that clears is always played, at the root and by every reply within the
    /// sampled futures, the best of them by the evaluation; 0: the evaluation's values decide
    /// whether to clear now or later. The learned values price waiting too low (a spawn can
    /// block the line): effort 16, seeds 201-300, 0 -> 1: 1,489 -> 2,743; the network played
    /// greedily, seeds 1001-3000: 870 -> 1,119. The hand-made evaluation always clears first.
    pub clear_first: u32,
    /// On a board with at most this many empty cells after a quiet move (0: never), every
    /// candidate's worth is exact over the first spawn: all its placements, each followed by
    /// one sampled future of the deeper spawns, instead of sampled rounds. Such boards are
    /// rare and the enumeration dear: effort 8, seeds 201-500, off -> 6 -> 8: 1,840.3 ->
    /// 1,844.7 -> 1,863.0 (paired +4.5 and +22.8, standard errors 3.7 and 12.5), 8 at about
    /// a third more CPU, which spread over every move buys more.
    pub exact_spawn: u32,
    /// On a board with at most this many empty cells (0: never), a move's rounds, the effort's
    /// or the cap's, are `crowded_factor` times as many: games are lost on crowded boards.
    pub crowded_empty: u32,
    /// See `crowded_empty` (1 to 16).
    pub crowded_factor: u64,
}

marathon_core::tunable!(Settings {
    depth: "spawns per sampled future, the best reply played between two (1 to 4)",
    candidates: "the moves, best by one-move worth, whose futures are sampled",
    root_exact: "the quiet moves, best by fast score, valued with the whole-board terms of the \
                 board after them before the candidates are picked (the network's; 8 to 64)",
    reply_exact: "the same for each reply within a sampled future (the network's; 1 to 64)",
    settled_margin: "a move stops being sampled once the leader is surely not worse than it by \
                     more points than this",
    planned_moves: "the game length the time is planned for",
    time_scale: "a factor on every move's share of the time left",
    danger_floor: "the least danger weight of a move's share of the time (the weight is \
                   (balls - 10) / 30, at most 2.5)",
    max_rounds: "the most sampling rounds of a move under a time limit (none: no bound; \
                 --effort sets the rounds instead)",
    cap_horizon: "the game length over which the time left may raise the rounds cap above \
                  max_rounds (0: never)",
    clear_first: "1: a move that clears is always played, at the root and in the sampled \
                  futures; 0: the network's values decide (hand always clears first)",
    exact_spawn: "at most this many empty cells after a quiet move (0: never): the candidates' \
                  worths are exact over the first spawn's placements, not sampled (3 to 8)",
    crowded_empty: "at most this many empty cells (0: never): the move's rounds (the effort's or \
                    the cap's) are crowded_factor times as many",
    crowded_factor: "the factor on the rounds of a crowded board (1 to 16)",
} check = Settings::check);

impl Settings {
    /// Refuses values the search cannot run with.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(format!("depth={}: expected 1 to {MAX_DEPTH}", self.depth));
        }
        if !(EXACT_ROOT_MIN..=MAX_EXACT).contains(&self.root_exact) {
            return Err(format!(
                "root_exact={}: expected {EXACT_ROOT_MIN} to {MAX_EXACT}",
                self.root_exact
            ));
        }
        if !(1..=MAX_EXACT).contains(&self.reply_exact) {
            return Err(format!(
                "reply_exact={}: expected 1 to {MAX_EXACT}",
                self.reply_exact
            ));
        }
        if self.clear_first > 1 {
            return Err(format!("clear_first={}: expected 0 or 1", self.clear_first));
        }
        if self.exact_spawn != 0 && !(3..=MAX_EXACT_SPAWN).contains(&self.exact_spawn) {
            return Err(format!(
                "exact_spawn={}: expected 0, or 3 to {MAX_EXACT_SPAWN}",
                self.exact_spawn
            ));
        }
        if !(1..=MAX_CROWDED_FACTOR).contains(&self.crowded_factor) {
            return Err(format!(
                "crowded_factor={}: expected 1 to {MAX_CROWDED_FACTOR}",
                self.crowded_factor
            ));
        }
        if self.candidates == 0 {
            return Err("candidates=0: expected at least 1".into());
        }
        if !(self.danger_floor > 0.0 && self.danger_floor <= MAX_DANGER) {
            return Err(format!(
                "danger_floor={}: expected more than 0, at most {MAX_DANGER}",
                self.danger_floor
            ));
        }
        if self.time_scale < 0.0 {
            return Err(format!(
                "time_scale={}: expected at least 0",
                self.time_scale
            ));
        }
        Ok(())
    }

    pub const AI: Settings = Settings {
        depth: 3,
        candidates: 10,
        root_exact: 32,
        reply_exact: 8,
        settled_margin: 0.25,
        planned_moves: 800,
        time_scale: 1.0,
        danger_floor: 0.2,
        max_rounds: 64,
        cap_horizon: 0,
        clear_first: 1,
        exact_spawn: 0,
        crowded_empty: 0,
        crowded_factor: 1,
    };

    /// The share of the remaining time for a move on a board with `balls` balls, `played`
    /// moves into the game: the remaining time spread over the moves still planned, weighted
    /// by danger (little while the board is open and any sensible move will do, more as it
    /// fills and one bad move can end it). The mean score is made by the long games, so the
    /// time must last into them: a share that spreads the time geometrically over ~150 moves
    /// starves every move after the 300th.
    fn time_share(&self, balls: u32, played: u32) -> f64 {
        let horizon = self.planned_moves.saturating_sub(played).max(MIN_HORIZON);
        let danger = ((balls as f64 - 10.0) / 30.0).clamp(self.danger_floor, MAX_DANGER);
        (self.time_scale * danger / horizon as f64).min(MAX_SHARE)
    }
}

/// The most empty cells on which the first spawn is enumerated (8 x 7 x 6 placements).
const MAX_EXACT_SPAWN: u32 = 8;

/// The most factor on a crowded board's rounds.
const MAX_CROWDED_FACTOR: u64 = 16;

/// The most danger weight of a move's share of the time.
const MAX_DANGER: f64 = 2.5;

/// The most of the remaining time one move may take.
const MAX_SHARE: f64 = 0.05;

/// Successive halving starts after this many rounds and repeats at every power of two.
const HALVING_START: u64 = 4;

/// What the search needs of an evaluation.
pub trait Evaluator {
    /// Whether a move that clears is always played, whatever the settings (for an evaluation
    /// that prices the risk of waiting poorly).
    const CLEAR_FIRST: bool;

    /// The best `n` moves by one-move worth, best first: move, worth, balls removed.
    /// `exact`: how many moves by fast score get their exact worth first, where the
    /// evaluation scores fast (at least its own minimum).
    fn candidates(&self, board: &Board, n: usize, exact: usize) -> Vec<(Move, f32, u32)>;

    /// The best move on `board` (no spawn pending), its worth and the balls it removes;
    /// `exact` as in [`Evaluator::candidates`]; with `clear_first` a move that clears beats
    /// every move that does not.
    fn best_reply(
        &self,
        board: &Board,
        exact: usize,
        clear_first: bool,
    ) -> Option<(Move, f32, u32)>;

    /// The worth of a board on which no ball can move although cells are empty (a clear took
    /// every ball): the spawn comes without a move.
    fn stuck_value(&self, board: &Board) -> f32;

    /// The worth of `board` with the player to move and no spawn pending: its best move's.
    fn reply_value(&self, board: &Board) -> f32 {
        match self.best_reply(board, 0, Self::CLEAR_FIRST) {
            Some((_, worth, _)) => worth,
            None => self.stuck_value(board),
        }
    }

    /// The exact worth of a candidate `mv` that clears `removed` balls, whose one-move worth
    /// is `worth`: there is no spawn to sample.
    fn clearing_worth(&self, board: &Board, mv: Move, removed: u32, worth: f32) -> f32;

    /// The worth of the points a clear of `removed` balls scores.
    fn clear_value(&self, removed: u32) -> f32;

    /// The worth of a lost game.
    fn game_over(&self) -> f32;
}

impl Evaluator for Weights {
    const CLEAR_FIRST: bool = true;

    fn candidates(&self, board: &Board, n: usize, _exact: usize) -> Vec<(Move, f32, u32)> {
        let mut scored: Vec<(Move, f32, u32)> = Vec::new();
        let scorer = MoveScorer::new(self, board);
        scorer.for_each_scored(|mv, value, removed| scored.push((mv, value, removed)));
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(RESCORED);
        for (mv, value, removed) in scored.iter_mut() {
            *value = scorer.exact(*mv, *value, *removed);
        }
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        scored.truncate(n);
        scored
    }

    /// The hand-made worth decides: it values a clear above any quiet move.
    fn best_reply(
        &self,
        board: &Board,
        _exact: usize,
        _clear_first: bool,
    ) -> Option<(Move, f32, u32)> {
        best_move(self, board)
    }

    fn stuck_value(&self, board: &Board) -> f32 {
        self.evaluate(board)
    }

    /// The points plus the best reply: the one-move worth prices the position, not the
    /// move the clear gives.
    fn clearing_worth(&self, board: &Board, mv: Move, removed: u32, _worth: f32) -> f32 {
        let mut after = *board;
        after.move_ball(mv);
        self.clear_value(removed) + self.reply_value(&after)
    }

    fn clear_value(&self, removed: u32) -> f32 {
        Weights::clear_value(self, removed)
    }

    fn game_over(&self) -> f32 {
        GAME_OVER
    }
}

/// The learned values are points still to come: a clear is worth its points, a lost game
/// nothing more.
impl Evaluator for Network {
    const CLEAR_FIRST: bool = false;

    fn candidates(&self, board: &Board, n: usize, exact: usize) -> Vec<(Move, f32, u32)> {
        self.best_moves(board, n, exact)
    }

    fn stuck_value(&self, board: &Board) -> f32 {
        self.value(board)
    }

    fn best_reply(
        &self,
        board: &Board,
        exact: usize,
        clear_first: bool,
    ) -> Option<(Move, f32, u32)> {
        if clear_first {
            self.best_move_clearing_first(board, exact)
        } else {
            self.best_move_exact(board, exact)
        }
    }

    /// A clearing move's worth already holds the move after it.
    fn clearing_worth(&self, _board: &Board, _mv: Move, _removed: u32, worth: f32) -> f32 {
        worth
    }

    fn clear_value(&self, removed: u32) -> f32 {
        line_points(removed) as f32
    }

    fn game_over(&self) -> f32 {
        0.0
    }
}

/// How many moves, best by fast score, get their exact static worth before the candidates are
/// picked.
const RESCORED: usize = 40;

/// Past the planned length, the remaining time still spreads over at least this many moves
/// (geometrically from there on, so a game of any length never runs out).
const MIN_HORIZON: u32 = 250;

/// The part of the limit kept for moves chosen without sampling (the network's best), so that
/// a game of any length ends in time: a tenth, which at 20 s pays for tens of thousands of such
/// moves. With 300 ms kept, seed 61 once ran out of time at move 1,501 (the search had spent
/// down to the reserve, and each move after still cost a little).
fn time_reserve(limit: Duration) -> Duration {
    limit / 10
}

/// Worth of losing the game (a spawn filled the board).
const GAME_OVER: f32 = -1.0e6;

pub struct SearchPlayer<E> {
    evaluator: E,
    rng: FastRng,
    /// Sampling rounds (one spawn for every candidate still in the race); `None` means: as
    /// many as the time allows.
    effort: Option<u64>,
    /// Moves chosen so far in this game.
    played: u32,
    /// The sampling rounds played so far in this game under a time limit, and the time they
    /// took on the clock in force: the cost of a round, for `Settings::cap_horizon`.
    sampled: (u64, Duration),
    settings: Settings,
}

impl<E: Evaluator> SearchPlayer<E> {
    pub fn new(evaluator: E, rng: FastRng, effort: Option<u64>, settings: Settings) -> Self {
        assert!(
            (1..=MAX_DEPTH).contains(&settings.depth),
            "depth 1..={MAX_DEPTH}"
        );
        Self {
            evaluator,
            rng,
            effort,
            played: 0,
            sampled: (0, Duration::ZERO),
            settings,
        }
    }

    /// The most rounds of a move under a time limit, with `spare` of the time left to spend:
    /// `max_rounds`, or what `spare` pays for over the moves to `cap_horizon` if more.
    fn rounds_cap(&self, spare: Duration) -> u64 {
        let (rounds, took) = self.sampled;
        if self.settings.cap_horizon == 0 || rounds == 0 || took.is_zero() {
            return self.settings.max_rounds;
        }
        let horizon = self
            .settings
            .cap_horizon
            .saturating_sub(self.played)
            .max(MIN_HORIZON);
        let per_round = took.as_secs_f64() / rounds as f64;
        let affordable = spare.as_secs_f64() / (f64::from(horizon) * per_round);
        // Saturating: a float far past u64's range becomes u64::MAX.
        self.settings.max_rounds.max(affordable as u64)
    }

    /// Whether a move that clears is always played.
    fn clear_first(&self) -> bool {
        E::CLEAR_FIRST || self.settings.clear_first == 1
    }

    /// One sampled outcome of `mv` under `future`: each spawn in turn, the best reply
    /// between two spawns, and after the last the best reply's worth. A reply that clears
    /// ends the sample there (the evaluation's worth of a clear holds what follows it).
    fn sample(&self, board: &Board, mv: Move, future: &Future) -> f32 {
        let mut board = *board;
        let removed = board.move_ball(mv);
        debug_assert_eq!(removed, 0, "clearing moves are not sampled");
        self.play_out(&board, future.spawns())
    }

    /// The worth of `spawns` coming to `board` in turn, the best reply after each.
    fn play_out(&self, board: &Board, spawns: &[Spawn]) -> f32 {
        let (first, rest) = spawns.split_first().expect("at least one spawn");
        let Some((after, removed)) = first.apply(board) else {
            return self.evaluator.game_over();
        };
        self.evaluator.clear_value(removed) + self.reply_then(&after, rest)
    }

    /// The worth of the best reply on `board` (a spawn just came), then of `rest` after it: a
    /// reply that clears, or the last, is worth what the evaluation says.
    fn reply_then(&self, board: &Board, rest: &[Spawn]) -> f32 {
        let Some((reply, worth, removed)) =
            self.evaluator
                .best_reply(board, self.settings.reply_exact, self.clear_first())
        else {
            return self.evaluator.stuck_value(board);
        };
        if rest.is_empty() || removed > 0 {
            return worth;
        }
        let mut board = *board;
        board.move_ball(reply);
        self.play_out(&board, rest)
    }

    /// The worth of the quiet move `mv`, exact over the first spawn: every ordered placement of
    /// the preview's balls on the empty cells (equally likely), each followed by the best reply
    /// and by the deeper levels of its own future from `futures` (the same future for the same
    /// placement index across candidates).
    fn exact_over_first_spawn(
        &mut self,
        board: &Board,
        mv: Move,
        preview: [Color; PREVIEW_LEN],
        futures: &mut Vec<Future>,
    ) -> f32 {
        let mut after = *board;
        after.move_ball(mv);
        let free = after.empty_cells().count();
        let radices: Vec<u32> = (0..PREVIEW_LEN as u32)
            .map(|ball| free.saturating_sub(ball))
            .take_while(|&radix| radix > 0)
            .collect();
        let mut choice = vec![0u32; radices.len()];
        let (mut total, mut outcomes) = (0.0f64, 0usize);
        loop {
            if futures.len() == outcomes {
                futures.push(Future::random(preview, self.settings.depth, &mut self.rng));
            }
            let mut state = State::new(after, preview);
            let mut ball = 0;
            let removed = state.spawn(|_| {
                ball += 1;
                choice[ball - 1]
            });
            let worth = if state.is_over() {
                self.evaluator.game_over()
            } else {
                self.evaluator.clear_value(removed)
                    + self.reply_then(&state.board, &futures[outcomes].spawns()[1..])
            };
            total += f64::from(worth);
            outcomes += 1;
            // The next placement, the last ball's cell counting fastest.
            let Some(position) = (0..choice.len()).rev().find(|&p| choice[p] + 1 < radices[p])
            else {
                break;
            };
            choice[position] += 1;
            choice[position + 1..].fill(0);
        }
        (total / outcomes as f64) as f32
    }
}

/// The fewest quiet moves valued exactly at the root: as many as in every reply.
const EXACT_ROOT_MIN: usize = 8;

/// Most spawns per sample.
pub const MAX_DEPTH: usize = 4;

/// One sampled spawn: its colours and where the balls land.
struct Spawn {
    colors: [Color; PREVIEW_LEN],
    order: SpawnOrder,
}

impl Spawn {
    /// The board after this spawn and the balls it cleared, or `None` when it fills the board.
    fn apply(&self, board: &Board) -> Option<(Board, u32)> {
        let mut state = State::new(*board, self.colors);
        let mut empty = board.empty_cells().raw();
        let removed = state.spawn(|_| self.order.take_first(&mut empty));
        (!state.is_over()).then_some((state.board, removed))
    }
}

/// The spawns of one sampling round, shared by every candidate: the first with the preview's
/// colours, the later ones with colours drawn as the game draws them (the player cannot know
/// them).
struct Future {
    spawns: [Spawn; MAX_DEPTH],
    depth: usize,
}

impl Future {
    fn random(preview: [Color; PREVIEW_LEN], depth: usize, rng: &mut FastRng) -> Self {
        let spawns = std::array::from_fn(|level| {
            if level >= depth {
                return Spawn {
                    colors: preview,
                    order: SpawnOrder::IDENTITY,
                };
            }
            let colors = if level == 0 {
                preview
            } else {
                [0; PREVIEW_LEN].map(|_| 1 + rng.below(u32::from(COLORS)) as Color)
            };
            Spawn {
                colors,
                order: SpawnOrder::random(rng),
            }
        });
        Future { spawns, depth }
    }

    fn spawns(&self) -> &[Spawn] {
        &self.spawns[..self.depth]
    }
}

/// A sampled spawn that fits every candidate move: a random order of all cells, and each
/// spawned ball lands on the first empty cell in it. For one board that is the uniform spawn of
/// the rules; across candidates, which differ in a cell or two, the spawns mostly coincide, so
/// the candidates are compared on the same luck.
struct SpawnOrder([u8; CELLS]);

impl SpawnOrder {
    /// A placeholder for the unused levels of a [`Future`].
    const IDENTITY: SpawnOrder = SpawnOrder([0; CELLS]);

    fn random(rng: &mut FastRng) -> Self {
        let mut cells = [0u8; CELLS];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = i as u8;
        }
        for i in (1..CELLS).rev() {
            cells.swap(i, rng.below(i as u32 + 1) as usize);
        }
        SpawnOrder(cells)
    }

    /// Takes the first cell of the order that is in `empty` out of it, and returns its index
    /// among the cells of `empty` in row-major order (what [`State::spawn`] asks for).
    fn take_first(&self, empty: &mut u128) -> u32 {
        let cell = self
            .0
            .iter()
            .map(|&c| 1u128 << c)
            .find(|&bit| *empty & bit != 0)
            .expect("spawn asks only while a cell is empty");
        let rank = (*empty & (cell - 1)).count_ones();
        *empty &= !cell;
        rank
    }
}

struct Candidate {
    mv: Move,
    /// A clearing move has no spawn: its worth is exact after one evaluation.
    exact: Option<f32>,
    /// The sampled worths of the other moves, one per round (all candidates still in the
    /// race saw the same spawns in a round).
    samples: Vec<f32>,
    /// The sum of `samples`.
    total: f64,
}

impl Candidate {
    fn new(mv: Move, exact: Option<f32>) -> Self {
        Candidate {
            mv,
            exact,
            samples: Vec::new(),
            total: 0.0,
        }
    }

    fn push(&mut self, worth: f32) {
        self.samples.push(worth);
        self.total += f64::from(worth);
    }

    fn mean(&self) -> f32 {
        self.exact
            .unwrap_or_else(|| (self.total / self.samples.len().max(1) as f64) as f32)
    }

    /// The worth in `round`.
    fn worth(&self, round: usize) -> f32 {
        self.exact.unwrap_or_else(|| self.samples[round])
    }
}

/// The candidate of the highest mean worth (the last of equals).
fn leader<'c>(candidates: impl IntoIterator<Item = &'c Candidate>) -> Option<&'c Candidate> {
    candidates
        .into_iter()
        .max_by(|a, b| a.mean().total_cmp(&b.mean()))
}

/// Whether the leading candidate is, with confidence, not worse than any other by more than
/// `margin`: then more samples would change the move rarely and little, and the time
/// is better kept for the moves that are close. Rounds pair the candidates' samples (the same
/// spawns), so the test is on the paired differences, whose spread is far smaller.
fn settled(candidates: &[Candidate], rounds: usize, margin: f64) -> bool {
    let Some(leader) = leader(candidates) else {
        return true;
    };
    candidates.iter().all(|other| {
        if std::ptr::eq(other, leader) || (leader.exact.is_some() && other.exact.is_some()) {
            return true;
        }
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for round in 0..rounds {
            let difference = f64::from(leader.worth(round) - other.worth(round));
            sum += difference;
            squares += difference * difference;
        }
        let n = rounds as f64;
        let mean = sum / n;
        let variance = (squares / n - mean * mean).max(0.0) / (n - 1.0);
        mean - SETTLED_CONFIDENCE * variance.sqrt() > -margin
    })
}

/// Standard errors of the paired mean difference the leader must be clear by.
const SETTLED_CONFIDENCE: f64 = 2.5;

/// Rounds before the first settled test, and between tests.
const SETTLED_CHECK: usize = 8;

impl<E: Evaluator> Player for SearchPlayer<E> {
    type Observation = Observation;
    type Action = Move;

    fn choose(&mut self, seen: &Observation, clock: &Clock) -> Move {
        self.search(&seen.board, seen.preview, clock)
            .expect(TURN_HAS_A_MOVE)
    }
}

impl<E: Evaluator> SearchPlayer<E> {
    /// The move to play; `None` only on a board without one.
    fn search(&mut self, board: &Board, preview: [Color; 3], clock: &Clock) -> Option<Move> {
        self.played += 1;
        let mut scored =
            self.evaluator
                .candidates(board, self.settings.candidates, self.settings.root_exact);
        if self.clear_first() && scored.iter().any(|&(_, _, removed)| removed > 0) {
            scored.retain(|&(_, _, removed)| removed > 0);
        }
        let spare = clock.remaining().saturating_sub(time_reserve(clock.limit));
        if scored.len() <= 1 || (self.effort.is_none() && spare.is_zero()) {
            return scored.first().map(|&(mv, _, _)| mv);
        }

        let mut candidates: Vec<Candidate> = scored
            .iter()
            .map(|&(mv, worth, removed)| {
                let exact =
                    (removed > 0).then(|| self.evaluator.clearing_worth(board, mv, removed, worth));
                Candidate::new(mv, exact)
            })
            .collect();

        // The move's share, counted on the clock in force (the CPU clock counts this thread's
        // CPU time: a busy machine does not shorten the move).
        let deadline = self.effort.is_none().then(|| {
            let share = spare.mul_f64(self.settings.time_share(board.ball_count(), self.played));
            clock.deadline(clock.elapsed() + share)
        });
        // A quiet move keeps the count of empty cells.
        let empty = board.empty_cells().count();
        let exact_spawn = self.settings.exact_spawn;
        if exact_spawn > 0 && empty <= exact_spawn {
            // Best first by one-move worth: past the move's time, the candidates valued so far
            // decide (the first always is).
            let mut futures = Vec::new();
            for candidate in &mut candidates {
                if candidate.exact.is_none() {
                    candidate.exact = Some(self.exact_over_first_spawn(
                        board,
                        candidate.mv,
                        preview,
                        &mut futures,
                    ));
                }
                if deadline.is_some_and(|d| d.passed()) {
                    break;
                }
            }
            return leader(candidates.iter().filter(|c| c.exact.is_some())).map(|c| c.mv);
        }
        let mut rounds = self.effort.unwrap_or_else(|| self.rounds_cap(spare));
        if empty <= self.settings.crowded_empty {
            rounds = rounds.saturating_mul(self.settings.crowded_factor);
        }
        let started = clock.elapsed();
        let mut round = 0;
        while round < rounds {
            let future = Future::random(preview, self.settings.depth, &mut self.rng);
            for candidate in candidates.iter_mut().filter(|c| c.exact.is_none()) {
                let worth = self.sample(board, candidate.mv, &future);
                candidate.push(worth);
            }
            round += 1;
            if deadline.is_some_and(|d| d.passed()) {
                break;
            }
            if (round as usize).is_multiple_of(SETTLED_CHECK)
                && settled(&candidates, round as usize, self.settings.settled_margin)
            {
                break;
            }
            if round >= HALVING_START && round.is_power_of_two() {
                // Successive halving: the worse half has had its chance.
                candidates.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
                let keep = (candidates.len() / 2).max(2);
                candidates.truncate(keep);
            }
        }
        if self.effort.is_none() {
            let (rounds, took) = self.sampled;
            let took = took + clock.elapsed().saturating_sub(started);
            self.sampled = (rounds + round, took);
        }
        leader(&candidates).map(|c| c.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Cell;

    /// The share of the remaining time left after `moves` moves on a board of `balls` balls.
    fn left_after(moves: u32, balls: u32) -> f64 {
        (1..=moves).fold(1.0, |left, played| {
            left * (1.0 - Settings::AI.time_share(balls, played))
        })
    }

    #[test]
    fn time_lasts_into_long_games() {
        // A typical board of 45 balls: the 500th move still has a sixth of the time left and
        // gets as much as an average move of a 600-move game, and the time never runs out.
        let left = left_after(500, 45);
        assert!(left > 1.0 / 6.0, "{left}");
        assert!(left * Settings::AI.time_share(45, 501) > 1.0 / 600.0 / 2.0);
        assert!(left_after(5000, 45) > 0.0);
        // A nearly full board gets more of the time than an open one.
        assert!(Settings::AI.time_share(70, 100) > 3.0 * Settings::AI.time_share(20, 100));
    }

    #[test]
    fn the_time_left_raises_the_rounds_cap_only_where_it_pays_for_more() {
        let player = |cap_horizon, played, sampled| {
            let settings = Settings {
                cap_horizon,
                ..Settings::AI
            };
            let mut player = SearchPlayer::new(Weights::default(), FastRng::new(1), None, settings);
            player.played = played;
            player.sampled = sampled;
            player
        };
        let secs = Duration::from_secs;
        // 8,192 rounds in a second (a round's cost exact in binary): 25 s over 2,000 moves pays
        // for 102.4 rounds a move.
        let cheap = (8192, secs(1));
        assert_eq!(player(2000, 0, cheap).rounds_cap(secs(25)), 102);
        // Less time left, or rounds ten times dearer: max_rounds stays the cap.
        assert_eq!(player(2000, 0, cheap).rounds_cap(secs(5)), 64);
        let dear = (8192, secs(10));
        assert_eq!(player(2000, 0, dear).rounds_cap(secs(25)), 64);
        // Near the horizon the time left spreads over MIN_HORIZON moves: 819.2 rounds.
        assert_eq!(player(2000, 1900, cheap).rounds_cap(secs(25)), 819);
        // Off, or before a round's cost is known: max_rounds.
        assert_eq!(player(0, 0, cheap).rounds_cap(secs(25)), 64);
        assert_eq!(player(2000, 0, (0, Duration::ZERO)).rounds_cap(secs(25)), 64);
    }

    #[test]
    fn danger_floors_outside_their_range_are_refused() {
        let with = |danger_floor| {
            Settings {
                danger_floor,
                ..Settings::AI
            }
            .check()
        };
        assert_eq!(with(0.2), Ok(()));
        assert_eq!(with(MAX_DANGER), Ok(()));
        assert!(with(0.0).unwrap_err().starts_with("danger_floor=0: "));
        assert!(with(2.6).unwrap_err().starts_with("danger_floor=2.6: "));
        assert!(with(f64::NAN).is_err());
    }

    #[test]
    fn exact_counts_outside_their_ranges_are_refused() {
        let with = |root_exact, reply_exact| {
            Settings {
                root_exact,
                reply_exact,
                ..Settings::AI
            }
            .check()
        };
        assert_eq!(with(8, 8), Ok(()));
        assert_eq!(with(MAX_EXACT, 1), Ok(()));
        assert_eq!(with(7, 8), Err("root_exact=7: expected 8 to 64".into()));
        assert_eq!(with(65, 8), Err("root_exact=65: expected 8 to 64".into()));
        assert_eq!(with(8, 0), Err("reply_exact=0: expected 1 to 64".into()));
        assert_eq!(with(8, 65), Err("reply_exact=65: expected 1 to 64".into()));
    }

    #[test]
    fn clear_first_is_zero_or_one() {
        let with = |clear_first| {
            Settings {
                clear_first,
                ..Settings::AI
            }
            .check()
        };
        assert_eq!(with(0), Ok(()));
        assert_eq!(with(1), Ok(()));
        assert_eq!(with(2), Err("clear_first=2: expected 0 or 1".into()));
    }

    #[test]
    fn clear_first_plays_a_clear_whenever_there_is_one() {
        // Four 1s in the top row and a fifth that can reach the gap, among balls of other
        // colours: every clearing move removes that line. (With clear_first=0 the built-in
        // network plays E5A7 here, keeping the line for later.)
        let mut board = Board::empty();
        for col in 0..4 {
            board.put(Cell::new(0, col), 1);
        }
        board.put(Cell::new(4, 4), 1);
        for (i, cell) in [(2, 2), (6, 1), (7, 7), (3, 8), (8, 3), (5, 6)]
            .into_iter()
            .enumerate()
        {
            board.put(Cell::new(cell.0, cell.1), 2 + (i % 6) as Color);
        }
        let clock = Clock::stopped(Duration::from_secs(20), Duration::ZERO);
        for seed in 1..=5 {
            let mut player = SearchPlayer::new(
                Network::builtin().clone(),
                FastRng::new(seed),
                Some(4),
                Settings::AI,
            );
            let seen = Observation {
                board,
                preview: [3, 4, 5],
            };
            let mv = player.choose(&seen, &clock);
            assert_eq!(board.clone().move_ball(mv), 5, "seed {seed}: {mv:?}");
        }
    }

    /// An evaluation whose reply is worth the balls on the top row, counting its replies; its
    /// candidates are the quiet moves `mvs`, best first.
    #[derive(Default)]
    struct TopRow(std::cell::Cell<u32>, Vec<Move>);

    impl Evaluator for TopRow {
        const CLEAR_FIRST: bool = true;
        fn candidates(&self, _: &Board, n: usize, _: usize) -> Vec<(Move, f32, u32)> {
            let worths = (0..self.1.len()).map(|rank| -(rank as f32));
            self.1.iter().zip(worths).map(|(&mv, worth)| (mv, worth, 0)).take(n).collect()
        }
        fn best_reply(&self, board: &Board, _: usize, _: bool) -> Option<(Move, f32, u32)> {
            self.0.set(self.0.get() + 1);
            let top = (0..9).filter(|&col| board.get(Cell::new(0, col)).is_some()).count();
            let mv = Move::new(Cell::from_index(0), Cell::from_index(1));
            Some((mv, top as f32, 0))
        }
        fn stuck_value(&self, _: &Board) -> f32 {
            unreachable!("a board with balls")
        }
        fn clearing_worth(&self, _: &Board, _: Move, _: u32, worth: f32) -> f32 {
            worth
        }
        fn clear_value(&self, removed: u32) -> f32 {
            removed as f32
        }
        fn game_over(&self) -> f32 {
            -1.0
        }
    }

    /// A full board whose neighbours in every direction differ in colour (no line can form),
    /// but for `empty`.
    fn full_but(empty: &[(usize, usize)]) -> Board {
        let mut board = Board::empty();
        for row in 0..9 {
            for col in 0..9 {
                if !empty.contains(&(row, col)) {
                    board.put(Cell::new(row, col), 1 + ((row + 2 * col) % 7) as Color);
                }
            }
        }
        board
    }

    #[test]
    fn the_first_spawn_is_valued_over_every_placement() {
        let settings = Settings {
            depth: 1,
            ..Settings::AI
        };
        let mut player = SearchPlayer::new(TopRow::default(), FastRng::new(1), None, settings);
        // After the move, four cells are empty, two of them on the top row (seven balls): the
        // three spawned balls fill 1.5 of those two on average over the 4 x 3 x 2 placements.
        let board = full_but(&[(0, 0), (0, 1), (5, 5), (8, 8)]);
        let mv = Move::new(Cell::new(4, 4), Cell::new(5, 5));
        let mut futures = Vec::new();
        let worth = player.exact_over_first_spawn(&board, mv, [2, 3, 4], &mut futures);
        assert_eq!(worth, 8.5);
        assert_eq!((player.evaluator.0.get(), futures.len()), (24, 24));
        // Two empty cells: every placement fills the board, no reply is asked for.
        let board = full_but(&[(0, 0), (5, 5)]);
        let worth = player.exact_over_first_spawn(&board, mv, [2, 3, 4], &mut futures);
        assert_eq!(worth, -1.0);
        assert_eq!((player.evaluator.0.get(), futures.len()), (24, 24));
    }

    /// Three quiet moves on a board with four empty cells: after each, 24 placements of the
    /// spawn and one reply each. The first and the third leave two empty cells on the top row
    /// (worth 8.5, as above); the second moves a ball up into it (seven balls and one more in
    /// 3 of 4 placements: 8.75), so it is the best.
    fn three_quiet_moves() -> (Observation, Vec<Move>) {
        let seen = Observation {
            board: full_but(&[(0, 0), (0, 1), (5, 5), (8, 8)]),
            preview: [2, 3, 4],
        };
        let mvs = vec![
            Move::new(Cell::new(4, 5), Cell::new(5, 5)),
            Move::new(Cell::new(1, 0), Cell::new(0, 0)),
            Move::new(Cell::new(8, 7), Cell::new(8, 8)),
        ];
        (seen, mvs)
    }

    /// The move a search of `settings` chooses among [`three_quiet_moves`] on `clock`, and the
    /// number of replies it valued.
    fn choice_and_replies(settings: Settings, clock: &Clock, effort: Option<u64>) -> (Move, u32) {
        let (seen, mvs) = three_quiet_moves();
        let evaluator = TopRow(Default::default(), mvs);
        let mut player = SearchPlayer::new(evaluator, FastRng::new(1), effort, settings);
        let mv = player.choose(&seen, clock);
        (mv, player.evaluator.0.get())
    }

    #[test]
    fn the_exact_first_spawn_keeps_to_the_moves_time() {
        let (_, mvs) = three_quiet_moves();
        let settings = Settings {
            depth: 1,
            exact_spawn: 4,
            ..Settings::AI
        };
        // At a fixed effort every candidate is valued.
        let limit = Duration::from_secs(20);
        let all = choice_and_replies(settings, &Clock::stopped(limit, Duration::ZERO), Some(4));
        assert_eq!(all, (mvs[1], 3 * 24));
        // A nanosecond to spare: the move's share of it is nothing, so the first candidate,
        // valued before the time is looked at, decides alone.
        let nearly_all = limit - time_reserve(limit) - Duration::from_nanos(1);
        let first = choice_and_replies(settings, &Clock::stopped(limit, nearly_all), None);
        assert_eq!(first, (mvs[0], 24));
    }

    #[test]
    fn a_moves_time_is_counted_on_the_clock_in_force() {
        // A clock that stands still never ends a move's sampling, however small its share: the
        // timed search samples the rounds a fixed effort of the rounds cap does, draw for draw.
        // (A deadline on the wall clock, whatever the clock in force, ended it after a round.)
        let settings = Settings {
            depth: 1,
            ..Settings::AI
        };
        let limit = Duration::from_secs(20);
        // Ten microseconds to spare: the move's share is a few nanoseconds.
        let used = limit - time_reserve(limit) - Duration::from_micros(10);
        let timed = choice_and_replies(settings, &Clock::stopped(limit, used), None);
        let fixed = choice_and_replies(
            settings,
            &Clock::stopped(limit, used),
            Some(settings.max_rounds),
        );
        assert_eq!(timed, fixed);
        // Three candidates for four rounds, then the better two until the leader is surely
        // the best (the first test, at round 8).
        assert_eq!(timed.1, 3 * 4 + 2 * 4);
    }

    #[test]
    fn a_crowded_board_gets_its_factor_of_rounds() {
        // Four empty cells. Effort 4: three candidates for four rounds. As a crowded board
        // with factor 2: eight rounds, the better two for the last four.
        let (_, mvs) = three_quiet_moves();
        let crowded = |crowded_empty, crowded_factor| Settings {
            depth: 1,
            crowded_empty,
            crowded_factor,
            ..Settings::AI
        };
        let clock = Clock::stopped(Duration::from_secs(20), Duration::ZERO);
        let replies = |settings| choice_and_replies(settings, &clock, Some(4)).1;
        assert_eq!(replies(crowded(0, 2)), 3 * 4);
        assert_eq!(replies(crowded(3, 2)), 3 * 4);
        let with_factor = choice_and_replies(crowded(4, 2), &clock, Some(4));
        assert_eq!(with_factor, (mvs[1], 3 * 4 + 2 * 4));
        let check = |crowded_factor| crowded(4, crowded_factor).check();
        assert_eq!(check(MAX_CROWDED_FACTOR), Ok(()));
        assert_eq!(check(0), Err("crowded_factor=0: expected 1 to 16".into()));
        assert_eq!(check(17), Err("crowded_factor=17: expected 1 to 16".into()));
    }

    #[test]
    fn exact_spawn_is_off_or_three_to_eight() {
        let with = |exact_spawn| {
            Settings {
                exact_spawn,
                ..Settings::AI
            }
            .check()
        };
        for fine in [0, 3, 8] {
            assert_eq!(with(fine), Ok(()));
        }
        for refused in [1, 2, 9] {
            assert_eq!(
                with(refused),
                Err(format!("exact_spawn={refused}: expected 0, or 3 to 8"))
            );
        }
    }

    fn noisy(samples: &[f32]) -> Candidate {
        let mut candidate =
            Candidate::new(Move::new(Cell::from_index(0), Cell::from_index(1)), None);
        for &worth in samples {
            candidate.push(worth);
        }
        candidate
    }

    #[test]
    fn a_decision_settles_when_paired_samples_agree() {
        // Large spawn luck shared by both candidates, a steady 1-point lead: settled.
        let luck = [50.0, -80.0, 120.0, 10.0, -30.0, 70.0, -60.0, 0.0];
        let ahead: Vec<f32> = luck.iter().map(|l| l + 1.0).collect();
        assert!(settled(&[noisy(&ahead), noisy(&luck)], luck.len(), 0.25));
        // The same means with independent luck: not settled.
        let mut shuffled = luck;
        shuffled.reverse();
        assert!(!settled(
            &[noisy(&ahead), noisy(&shuffled)],
            luck.len(),
            0.25
        ));
        // Two moves that are worth the same to within the margin: nothing to gain, settled.
        assert!(settled(&[noisy(&luck), noisy(&luck)], luck.len(), 0.25));
        // An exact clear against a sampled move whose worth is clearly lower.
        let clear = Candidate::new(
            Move::new(Cell::from_index(0), Cell::from_index(1)),
            Some(200.0),
        );
        assert!(settled(&[clear, noisy(&luck)], luck.len(), 0.25));
    }
}
