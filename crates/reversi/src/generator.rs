//! Test cases from a seed (docs/rules.md#reversi-generation): the board size, then the opponents'
//! strategies evolved by the genetic algorithm, all from one Java SHA1PRNG stream seeded with
//! the case seed.
//!
//! The statement gives the algorithm; where it leaves the order of the draws open, the functions
//! below define it (each says which choice it makes):
//! [`case_size`], [`random_population`], [`draw_generations`], [`draw_seats`], [`game_points`],
//! [`draw_parent`], [`ChildDraws`], [`draw_opponents`]. Games consume no randomness (the
//! strategies are deterministic), so a generation's 100 games are played in parallel after
//! their seats are drawn, and the draws of the next generation are made meanwhile.

use marathon_core::rng::JavaSecureRandom;
use rayon::prelude::*;

use crate::rules::{Board, Cell, Player, State, players_for_size};
use crate::strategy::{self, Weights};

/// Strategies in each generation.
pub const POPULATION: usize = 100;
/// Games played per generation.
pub const GAMES_PER_GENERATION: usize = 100;
/// Generations: `MIN_GENERATIONS + nextInt(GENERATION_SPREAD)`, i.e. 50..=100.
pub const MIN_GENERATIONS: i32 = 50;
pub const GENERATION_SPREAD: i32 = 51;
/// Initial weights: `nextDouble() * WEIGHT_SPAN - WEIGHT_SPAN / 2`.
pub const WEIGHT_SPAN: f64 = 100.0;
/// Points by rank in a 3-player game.
pub const POINTS_3: [f64; 3] = [4.0, 1.0, 0.0];
/// Points by rank in a 4-player game.
pub const POINTS_4: [f64; 4] = [9.0, 4.0, 1.0, 0.0];
/// Seeds `1..=EXAMPLE_SEEDS` are the statement's examples.
pub const EXAMPLE_SEEDS: u64 = 12;

/// One case: its size, players and the opponents' strategies (players 2..=P in order).
#[derive(Clone, Debug)]
pub struct ReversiCase {
    pub seed: u64,
    pub size: usize,
    pub players: usize,
    pub opponents: Vec<Weights>,
}

impl ReversiCase {
    /// The start of the case's game.
    pub fn initial_state(&self) -> State {
        State::new(self.size)
    }

    /// The strategy of `player` (2..=P).
    pub fn strategy(&self, player: Player) -> &Weights {
        &self.opponents[player as usize - 2]
    }

    /// The move of the computer `player` on `board`.
    pub fn opponent_move(&self, board: &Board, player: Player) -> Option<Cell> {
        strategy::choose(board, player, self.strategy(player))
    }

    /// The move of `mover` in a game where player 1, too, is a computer player, with the first
    /// opponent's strategy: whole games without a search player, for tests and labs.
    pub fn stand_in_move(&self, board: &Board, mover: Player) -> Option<Cell> {
        let weights = if mover == 1 {
            &self.opponents[0]
        } else {
            self.strategy(mover)
        };
        strategy::choose(board, mover, weights)
    }
}

/// The board size of `seed` (docs/rules.md#reversi-generation): the examples (seeds 1..=12) are
/// `7 + (seed-1)/2` and draw nothing; other seeds draw `7 + nextInt(6)`.
pub fn case_size(seed: u64, rng: &mut JavaSecureRandom) -> usize {
    if (1..=EXAMPLE_SEEDS).contains(&seed) {
        7 + (seed as usize - 1) / 2
    } else {
        7 + rng.next_int(6) as usize
    }
}

/// The board size of `seed` without generating the opponents.
pub fn size_of(seed: u64) -> usize {
    case_size(seed, &mut JavaSecureRandom::new(seed as i64))
}

/// The whole case for `seed`, read as Java's `long` (same bit pattern).
pub fn generate(seed: u64) -> ReversiCase {
    generate_with(seed, strategy::choose_and_play)
}

/// [`generate`] with the games' players moving by `mover`.
pub fn generate_with(seed: u64, mover: impl Mover) -> ReversiCase {
    let mut rng = JavaSecureRandom::new(seed as i64);
    let size = case_size(seed, &mut rng);
    let players = players_for_size(size);
    let population = evolve_with(size, &mut rng, mover);
    let opponents = draw_opponents(players, &mut rng)
        .into_iter()
        .map(|i| population[i].clone())
        .collect();
    ReversiCase {
        seed,
        size,
        players,
        opponents,
    }
}

/// Cells of an `n x n` board in row-major order: the order of every per-cell draw.
fn board_cells(size: usize) -> impl Iterator<Item = Cell> {
    (0..size).flat_map(move |row| (0..size).map(move |col| Cell::new(row, col)))
}

/// The first population: strategy after strategy, each cell in row-major order drawing
/// `nextDouble() * 100 - 50`.
pub fn random_population(size: usize, rng: &mut JavaSecureRandom) -> Vec<Weights> {
    (0..POPULATION)
        .map(|_| {
            let mut weights = Weights::default();
            for cell in board_cells(size) {
                weights.set(cell, rng.next_double() * WEIGHT_SPAN - WEIGHT_SPAN / 2.0);
            }
            weights
        })
        .collect()
}

/// The number of generations, drawn after the first population: `50 + nextInt(51)`.
pub fn draw_generations(rng: &mut JavaSecureRandom) -> usize {
    (MIN_GENERATIONS + rng.next_int(GENERATION_SPREAD)) as usize
}

/// The strategies of one game, seat 1 first: each seat draws `nextInt(100)` until it differs
/// from the seats before it.
pub fn draw_seats(players: usize, rng: &mut JavaSecureRandom) -> Vec<usize> {
    let mut seats: Vec<usize> = Vec::with_capacity(players);
    while seats.len() < players {
        let pick = rng.next_int(POPULATION as i32) as usize;
        if !seats.contains(&pick) {
            seats.push(pick);
        }
    }
    seats
}

/// How a computer player moves in the generator's games: [`strategy::choose_and_play`], or
/// [`strategy::plain::choose_and_play`] to check or bench the generation against the plain rule.
pub trait Mover: Fn(&mut Board, Player, &Weights) -> Option<Cell> + Sync {}
impl<F: Fn(&mut Board, Player, &Weights) -> Option<Cell> + Sync> Mover for F {}

/// Plays a whole game between `strategies` (seat `i` is player `i + 1`); returns the final
/// piece counts by seat.
pub fn play_game(size: usize, strategies: &[&Weights]) -> Vec<u32> {
    play_game_with(size, strategies, strategy::choose_and_play)
}

/// [`play_game`] with the players moving by `mover`.
pub fn play_game_with(size: usize, strategies: &[&Weights], mover: impl Mover) -> Vec<u32> {
    let mut board = Board::start(size);
    let players = strategies.len() as Player;
    let mut player: Player = 1;
    // Players in a row found without a move; the game ends when all of them are.
    let mut stuck = 0;
    while stuck < players {
        match mover(&mut board, player, strategies[player as usize - 1]) {
            Some(_) => stuck = 0,
            None => stuck += 1,
        }
        player = board.next_player(player);
    }
    (1..=players).map(|p| board.count(p)).collect()
}

/// Points of each seat for final piece counts `counts` (docs/rules.md#reversi-generation): by rank,
/// [`POINTS_3`] or [`POINTS_4`]; seats with equal counts share the average of the points of the
/// ranks they span.
pub fn game_points(counts: &[u32]) -> Vec<f64> {
    let table: &[f64] = if counts.len() == 3 {
        &POINTS_3
    } else {
        &POINTS_4
    };
    counts
        .iter()
        .map(|&mine| {
            let better = counts.iter().filter(|&&c| c > mine).count();
            let tied = counts.iter().filter(|&&c| c == mine).count();
            table[better..better + tied].iter().sum::<f64>() / tied as f64
        })
        .collect()
}

/// One parent, with probability proportional to `points`: `r = nextDouble() * total`, then the
/// first strategy whose running sum of points (index order) exceeds `r` ([`pick_parent`]);
/// `nextInt(100)` if every strategy has 0 points.
pub fn draw_parent(points: &[f64], rng: &mut JavaSecureRandom) -> usize {
    if points.iter().sum::<f64>() <= 0.0 {
        return rng.next_int(points.len() as i32) as usize;
    }
    pick_parent(points, rng.next_double())
}

/// The parent that the draw `u` (a `nextDouble()`) picks when some strategy has points.
pub fn pick_parent(points: &[f64], u: f64) -> usize {
    let total: f64 = points.iter().sum();
    let r = u * total;
    let mut running = 0.0;
    let mut last_scoring = 0;
    for (i, &p) in points.iter().enumerate() {
        if p > 0.0 {
            running += p;
            last_scoring = i;
            if r < running {
                return i;
            }
        }
    }
    // Rounding can leave `r` at the very top of the range.
    last_scoring
}

/// The draws that make one child, taken before its parents' points are known: `nextDouble()`
/// for parent `a` then for parent `b` ([`pick_parent`]; they may coincide), then for each cell
/// in row-major order `nextBoolean()` (take `a`'s weight, else `b`'s) and `nextDouble()` (plus
/// `nextDouble() - 0.5`).
///
/// Every game hands out all of its points, so after a generation's games some strategy has
/// points and [`draw_parent`] always takes a `nextDouble()`: the stream does not depend on how
/// the games went, and the draws can be made while they are played.
#[derive(Clone, Debug)]
pub struct ChildDraws {
    parents: [f64; 2],
    cells: Vec<(bool, f64)>,
}

impl ChildDraws {
    pub fn draw(size: usize, rng: &mut JavaSecureRandom) -> Self {
        let parents = [rng.next_double(), rng.next_double()];
        let cells = board_cells(size)
            .map(|_| (rng.next_boolean(), rng.next_double()))
            .collect();
        ChildDraws { parents, cells }
    }

    /// The child of `parents` given their `points` (some must be positive).
    pub fn child(&self, size: usize, parents: &[Weights], points: &[f64]) -> Weights {
        let a = &parents[pick_parent(points, self.parents[0])];
        let b = &parents[pick_parent(points, self.parents[1])];
        let mut child = Weights::default();
        for (cell, &(take_a, noise)) in board_cells(size).zip(&self.cells) {
            let from = if take_a { a } else { b };
            child.set(cell, from.get(cell) + (noise - 0.5));
        }
        child
    }
}

/// The last population of the genetic algorithm (docs/rules.md#reversi-generation), continuing
/// `rng` after the size: [`random_population`], [`draw_generations`], then per generation the seats
/// of its 100 games ([`draw_seats`]), the draws of its 100 children ([`ChildDraws`], made while the
/// games are played), the games' points ([`game_points`]) and the children.
pub fn evolve(size: usize, rng: &mut JavaSecureRandom) -> Vec<Weights> {
    evolve_with(size, rng, strategy::choose_and_play)
}

/// [`evolve`] with the games' players moving by `mover`.
pub fn evolve_with(size: usize, rng: &mut JavaSecureRandom, mover: impl Mover) -> Vec<Weights> {
    let players = players_for_size(size);
    let mut population = random_population(size, rng);
    let generations = draw_generations(rng);
    for _ in 0..generations {
        let games: Vec<Vec<usize>> = (0..GAMES_PER_GENERATION)
            .map(|_| draw_seats(players, rng))
            .collect();
        let (results, draws): (Vec<Vec<u32>>, Vec<ChildDraws>) = rayon::join(
            || {
                games
                    .par_iter()
                    .map(|seats| {
                        let strategies: Vec<&Weights> =
                            seats.iter().map(|&s| &population[s]).collect();
                        play_game_with(size, &strategies, &mover)
                    })
                    .collect()
            },
            || {
                (0..POPULATION)
                    .map(|_| ChildDraws::draw(size, rng))
                    .collect()
            },
        );
        let mut points = vec![0.0; POPULATION];
        for (seats, counts) in games.iter().zip(&results) {
            for (&seat, gained) in seats.iter().zip(game_points(counts)) {
                points[seat] += gained;
            }
        }
        population = draws
            .iter()
            .map(|draw| draw.child(size, &population, &points))
            .collect();
    }
    population
}

/// The final opponents, players 2..=P: `nextInt(100)` each, with replacement.
pub fn draw_opponents(players: usize, rng: &mut JavaSecureRandom) -> Vec<usize> {
    (1..players)
        .map(|_| rng.next_int(POPULATION as i32) as usize)
        .collect()
}
