//! Plays TilesMatching games in-process, without the judge's protocol, to compare evaluation
//! weights and search settings quickly, with means per N. Not the judge: strength claims come
//! from `marathon play tiles`.
//!
//! cargo run --release -p marathon-tiles --example tiles_tune -- SEEDS [effort=N] [time=SECONDS]
//!     [n=N,...] [s=S,...] [d=D,...] [per_seed=1] [stop=MOVES] [trace=MOVES] [last_moves=K]
//!     [explain=FROM-TO] [WEIGHT=x ...]
//!     (WEIGHT: any field of `Weights`, e.g. homeless=60)

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use marathon_core::parse_seed_set;
use marathon_tiles::ai::eval::{Evaluator, Features};
use marathon_tiles::ai::search::{SearchPlayer, tuned_weights};
use marathon_tiles::ai::{Clock, Player, Weights};
use marathon_tiles::generator::TilesCase;
use marathon_tiles::rules::{MAX_MOVES, Move, Params, State, Tile};
use rayon::prelude::*;

struct Settings {
    effort: Option<u64>,
    time_limit: Duration,
    overrides: Vec<(String, f32)>,
    /// Print the board every this many moves and at the end (0: never).
    trace: u32,
    /// Print one line per game.
    per_seed: bool,
    /// Moves whose candidates are printed with their one-ply worth and features.
    explain: std::ops::Range<u32>,
    /// How many of the last moves before a `GIVE UP` to print (0: none).
    last_moves: usize,
    /// Where games stop (the opening's survival is measured with a few hundred moves).
    stop: u32,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = parse_seed_set(args.first().map_or("1-100", String::as_str)).expect("seeds");
    let mut settings = Settings {
        effort: None,
        time_limit: Duration::from_secs(20),
        overrides: Vec::new(),
        trace: 0,
        per_seed: false,
        explain: 0..0,
        last_moves: 0,
        stop: MAX_MOVES,
    };
    let (mut only_n, mut only_s, mut only_d) = (Only::default(), Only::default(), Only::default());
    for arg in &args[1.min(args.len())..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        match key {
            "effort" => settings.effort = Some(value.parse().expect("effort")),
            "time" => settings.time_limit = Duration::from_secs_f32(value.parse().expect("time")),
            "trace" => settings.trace = value.parse().expect("trace"),
            "stop" => settings.stop = value.parse().expect("stop"),
            "per_seed" => settings.per_seed = value == "1",
            "last_moves" => settings.last_moves = value.parse().expect("last_moves"),
            "explain" => {
                let (from, to) = value.split_once('-').expect("explain=FROM-TO");
                settings.explain = from.parse().expect("from")..to.parse().expect("to");
            }
            "n" => only_n = Only::parse(key, value),
            "s" => only_s = Only::parse(key, value),
            "d" => only_d = Only::parse(key, value),
            _ => settings
                .overrides
                .push((key.to_string(), value.parse().expect("a number"))),
        }
    }
    let seeds: Vec<u64> = seeds
        .into_iter()
        .filter(|&seed| {
            let params = TilesCase::new(seed).params;
            only_n.admits(params.n) && only_s.admits(params.s) && only_d.admits(params.d)
        })
        .collect();
    let started = Instant::now();
    let results: Vec<Game> = seeds
        .par_iter()
        .map(|&seed| play(&settings, seed))
        .collect();
    let mut by_n: BTreeMap<u8, Vec<&Game>> = BTreeMap::new();
    for game in &results {
        if settings.per_seed {
            println!(
                "seed {:4} N={:2} S={:2} D={} score {:6} moves {:5} clears {:4}+{:3} \
                 discards {:4} forced {:4} wild clears {:4}",
                game.seed,
                game.params.n,
                game.params.s,
                game.params.d,
                game.score,
                game.moves,
                game.singles,
                game.doubles,
                game.discards,
                game.forced,
                game.wild_clears
            );
        }
        by_n.entry(game.params.n).or_default().push(game);
    }
    let line = |games: &[&Game]| {
        let count = games.len() as f64;
        let mean = |f: fn(&Game) -> u32| games.iter().map(|g| f(g) as f64).sum::<f64>() / count;
        let full = games.iter().filter(|g| g.moves >= settings.stop).count();
        format!(
            "{:8.1} ({full:3} of {:3} alive at {}), clears {:6.1} single {:5.1} double, \
             discards {:6.1} ({:6.1} forced), wild clears {:6.1}",
            mean(|g| g.score),
            games.len(),
            settings.stop,
            mean(|g| g.singles),
            mean(|g| g.doubles),
            mean(|g| g.discards),
            mean(|g| g.forced),
            mean(|g| g.wild_clears)
        )
    };
    for (n, games) in &by_n {
        println!("N={n:2}: {}", line(games));
    }
    let all: Vec<&Game> = by_n.into_values().flatten().collect();
    let max_time = results.iter().map(|g| g.seconds).fold(0.0, f64::max);
    println!(
        "all : {}  effort={:?} {:?}  max time {max_time:.2}s, wall {:.1}s",
        line(&all),
        settings.effort,
        settings.overrides,
        started.elapsed().as_secs_f64()
    );
}

struct Game {
    seed: u64,
    params: Params,
    score: u32,
    moves: u32,
    singles: u32,
    doubles: u32,
    /// Discards in all, and those made because the tile fitted nowhere.
    discards: u32,
    forced: u32,
    /// Moves that cleared a line with a wildcard.
    wild_clears: u32,
    seconds: f64,
}

/// The values of one case parameter to play (none listed: every value).
#[derive(Default)]
struct Only(Vec<u8>);

impl Only {
    fn parse(key: &str, list: &str) -> Self {
        Only(
            list.split(',')
                .map(|v| {
                    v.parse()
                        .unwrap_or_else(|_| panic!("{key}={list}: {v} is no number"))
                })
                .collect(),
        )
    }

    fn admits(&self, value: u8) -> bool {
        self.0.is_empty() || self.0.contains(&value)
    }
}

fn set(weights: &mut Weights, key: &str, value: f32) {
    let field = match key {
        "homeless" => &mut weights.homeless,
        "single" => &mut weights.single,
        "flex" => &mut weights.flex,
        "dead" => &mut weights.dead,
        "dead_line" => &mut weights.dead_line,
        "line" => &mut weights.line,
        "crowd" => &mut weights.crowd,
        "cross" => &mut weights.cross,
        "cross_sum" => &mut weights.cross_sum,
        "counter" => &mut weights.counter,
        "death" => &mut weights.death,
        "discard" => &mut weights.discard,
        "risk" => &mut weights.risk,
        "horizon" => &mut weights.horizon,
        "deep_replies" => &mut weights.deep_replies,
        "deep_kinds" => &mut weights.deep_kinds,
        "line_rate" => &mut weights.line_rate,
        _ => panic!("unknown weight {key}"),
    };
    *field = value;
}

fn play(settings: &Settings, seed: u64) -> Game {
    let mut case = TilesCase::new(seed);
    let params = case.params;
    let mut weights = tuned_weights(params);
    for (key, value) in &settings.overrides {
        set(&mut weights, key, *value);
    }
    let mut player = SearchPlayer::new(params, weights, settings.effort);
    // The player's own weights, for the features `trace` and `explain` print.
    let evaluator = Evaluator::new(params, weights);
    let mut state = State::new(params);
    let mut used = Duration::ZERO;
    let (mut discards, mut forced, mut wild_clears) = (0, 0, 0);
    let mut last: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    while !state.is_over() && state.moves < settings.stop {
        let tile = case.next_tile(state.board.is_empty());
        let clock = Clock::start(settings.time_limit, used);
        let mv = player.choose(&state, tile, &clock);
        used += clock.started.elapsed();
        if settings.explain.contains(&state.moves) {
            explain(&state, tile, mv, &evaluator);
        }
        if settings.trace > 0 && (state.moves.is_multiple_of(settings.trace) || mv == Move::GiveUp)
        {
            println!(
                "seed {seed} move {} score {} counter {} tile {tile:?} -> {mv:?}\n{:?}\n{:?}",
                state.moves,
                state.score(),
                state.counter,
                state.board,
                evaluator.features(&state.board)
            );
        }
        if settings.last_moves > 0 {
            if last.len() == settings.last_moves {
                last.pop_front();
            }
            let homes = state.legal_moves(tile).len() - usize::from(state.can_discard());
            last.push_back(format!(
                "  move {} counter {} tile {tile:?} homes {homes} -> {mv:?}",
                state.moves, state.counter
            ));
        }
        if mv == Move::GiveUp {
            if settings.last_moves > 0 {
                println!("seed {seed} gave up at move {}:", state.moves);
                for line in &last {
                    println!("{line}");
                }
                println!("{:?}", state.board);
            }
            break;
        }
        if mv == Move::Discard {
            discards += 1;
            forced += u32::from(state.legal_moves(tile).len() == 1);
        }
        let clears_before = state.single_clears + state.double_clears;
        state.play(tile, mv).expect("a legal move");
        if tile == Tile::Wild && state.single_clears + state.double_clears > clears_before {
            wild_clears += 1;
        }
    }
    Game {
        seed,
        params,
        score: state.score(),
        moves: state.moves,
        singles: state.single_clears,
        doubles: state.double_clears,
        discards,
        forced,
        wild_clears,
        seconds: used.as_secs_f64(),
    }
}

/// Prints the board, the tile, the move chosen and the best one-ply candidates with their
/// features, to see why the player prefers what it does.
fn explain(state: &State, tile: Tile, chosen: Move, eval: &Evaluator) {
    let mut rows: Vec<(f32, Move, Features, u8)> = state
        .legal_moves(tile)
        .into_iter()
        .map(|mv| {
            let mut next = state.clone();
            let before = next.score();
            next.play(tile, mv).expect("legal");
            let points = (next.score() - before) as f32;
            let worth = points + eval.value(&next.board, next.counter);
            (worth, mv, eval.features(&next.board), next.counter)
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "move {} counter {} tile {tile:?} chose {chosen:?}\n{:?}",
        state.moves, state.counter, state.board
    );
    for (worth, mv, f, counter) in rows.iter().take(8) {
        println!("  {worth:8.2} {mv:?} counter {counter} {f:?}");
    }
}
