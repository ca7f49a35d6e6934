//! Plays TilesMatching games in-process, without the judge's protocol, to compare evaluation
//! weights and search settings quickly, with means per N. Not the judge: strength claims come
//! from `marathon play tiles`.
//!
//! cargo run --release -p marathon-tiles --example tiles_tune -- SEEDS [effort=N] [time=SECONDS]
//!     [n=N,...] [WEIGHT=x ...]   (WEIGHT: any field of `Weights`, e.g. homeless=60)

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use marathon_core::parse_seed_set;
use marathon_tiles::ai::search::{SearchPlayer, tuned_weights};
use marathon_tiles::ai::{Clock, Player, Weights};
use marathon_tiles::generator::TilesCase;
use marathon_tiles::rules::{MAX_MOVES, Move, State};
use rayon::prelude::*;

struct Settings {
    effort: Option<u64>,
    time_limit: Duration,
    overrides: Vec<(String, f32)>,
    /// Print the board every this many moves and at the end (0: never).
    trace: u32,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = parse_seed_set(args.first().map_or("1-100", String::as_str)).expect("seeds");
    let mut settings = Settings {
        effort: None,
        time_limit: Duration::from_secs(20),
        overrides: Vec::new(),
        trace: 0,
    };
    let mut only_n: Vec<u8> = Vec::new();
    for arg in &args[1.min(args.len())..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        match key {
            "effort" => settings.effort = Some(value.parse().expect("effort")),
            "time" => settings.time_limit = Duration::from_secs_f32(value.parse().expect("time")),
            "trace" => settings.trace = value.parse().expect("trace"),
            "n" => only_n = value.split(',').map(|v| v.parse().expect("n")).collect(),
            _ => settings
                .overrides
                .push((key.to_string(), value.parse().expect("a number"))),
        }
    }
    let seeds: Vec<u64> = seeds
        .into_iter()
        .filter(|&s| only_n.is_empty() || only_n.contains(&TilesCase::new(s).params.n))
        .collect();
    let started = Instant::now();
    let results: Vec<(u8, u32, u32, f64, u32, u32)> = seeds
        .par_iter()
        .map(|&seed| play(&settings, seed))
        .collect();
    let mut by_n: BTreeMap<u8, Vec<Game>> = BTreeMap::new();
    for &(n, score, moves, _, singles, doubles) in &results {
        by_n.entry(n).or_default().push(Game {
            score,
            moves,
            singles,
            doubles,
        });
    }
    let line = |games: &[Game]| {
        let count = games.len() as f64;
        let mean = |f: fn(&Game) -> u32| games.iter().map(|g| f(g) as f64).sum::<f64>() / count;
        let full = games.iter().filter(|g| g.moves >= MAX_MOVES).count();
        format!(
            "{:8.1} ({full:2} of {:2} at 10k), clears {:6.1} single {:5.1} double",
            mean(|g| g.score),
            games.len(),
            mean(|g| g.singles),
            mean(|g| g.doubles)
        )
    };
    for (n, games) in &by_n {
        println!("N={n:2}: {}", line(games));
    }
    let all: Vec<Game> = by_n.into_values().flatten().collect();
    let max_time = results.iter().map(|r| r.3).fold(0.0, f64::max);
    println!(
        "all : {}  effort={:?} {:?}  max time {max_time:.2}s, wall {:.1}s",
        line(&all),
        settings.effort,
        settings.overrides,
        started.elapsed().as_secs_f64()
    );
}

struct Game {
    score: u32,
    moves: u32,
    singles: u32,
    doubles: u32,
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
        "counter" => &mut weights.counter,
        "death" => &mut weights.death,
        "discard" => &mut weights.discard,
        _ => panic!("unknown weight {key}"),
    };
    *field = value;
}

fn play(settings: &Settings, seed: u64) -> (u8, u32, u32, f64, u32, u32) {
    let mut case = TilesCase::new(seed);
    let params = case.params;
    let mut weights = tuned_weights(params);
    for (key, value) in &settings.overrides {
        set(&mut weights, key, *value);
    }
    let mut player = SearchPlayer::new(params, weights, settings.effort);
    let mut state = State::new(params);
    let mut used = Duration::ZERO;
    while !state.is_over() {
        let tile = case.next_tile(state.board.is_empty());
        let clock = Clock {
            limit: settings.time_limit,
            used,
            started: Instant::now(),
        };
        let mv = player.choose(&state, tile, &clock);
        used += clock.started.elapsed();
        if settings.trace > 0 && (state.moves.is_multiple_of(settings.trace) || mv == Move::GiveUp)
        {
            println!(
                "seed {seed} move {} score {} counter {} tile {tile:?} -> {mv:?}\n{:?}",
                state.moves,
                state.score(),
                state.counter,
                state.board
            );
        }
        if mv == Move::GiveUp {
            break;
        }
        state.play(tile, mv).expect("a legal move");
    }
    (
        params.n,
        state.score(),
        state.moves,
        used.as_secs_f64(),
        state.single_clears,
        state.double_clears,
    )
}
