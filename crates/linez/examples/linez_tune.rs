//! Plays Linez games in-process, without the judge's protocol, to compare evaluation weights
//! quickly. Not the judge: strength claims come from `marathon play`.
//!
//! cargo run --release -p marathon-linez --example linez_tune -- PLAYER SEEDS [effort=N]
//!     [time=SECONDS] [net=FILE] [depth=D] [candidates=N] [margin=POINTS] [per_seed=1]
//!     [planned=MOVES] [time_scale=X] [max_rounds=N] [trace=EVERY] [line=a,b,c,d,e]
//!     [points=x] [empty=x]
//!
//! `ai` searches with the built-in network unless `net=FILE` names another; `depth`,
//! `candidates`, `margin`, `planned`, `time_scale` and `max_rounds` override the fields of the
//! `ai` player's `search::Settings`.
//! Any other player name with `net=FILE` plays that network greedily. `trace=K` prints the
//! board every K moves.

use std::time::{Duration, Instant};

use marathon_core::parse_seed_set;
use marathon_core::rng::{FastRng, seed_from_lines};
use marathon_linez::ai::ntuple::{Network, NetworkGreedy};
use marathon_linez::ai::search::{SearchPlayer, Settings};
use marathon_linez::ai::{Clock, Player, Weights, new_player_with};
use marathon_linez::generator::LinezCase;
use marathon_linez::protocol::format_observation;
use marathon_linez::rules::Turn;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let player = args.first().cloned().unwrap_or_else(|| "greedy".into());
    let seeds = parse_seed_set(args.get(1).map_or("1-100", String::as_str)).expect("seeds");
    let mut weights = if player == "greedy" {
        Weights::greedy()
    } else {
        Weights::default()
    };
    let mut effort = None;
    let mut settings = Settings::AI;
    let mut network: Option<Network> = None;
    let mut time_limit = Duration::from_secs(20);
    let mut per_seed = false;
    let mut trace = 0u64;
    for arg in &args[2.min(args.len())..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        if key == "net" {
            let bytes = std::fs::read(value).expect("network file");
            network = Some(Network::from_bytes(&bytes).expect("network"));
            continue;
        }
        let numbers: Vec<f32> = value
            .split(',')
            .map(|v| v.parse().expect("number"))
            .collect();
        match key {
            "effort" => effort = Some(numbers[0] as u64),
            "depth" => settings.depth = numbers[0] as usize,
            "candidates" => settings.candidates = numbers[0] as usize,
            "per_seed" => per_seed = numbers[0] != 0.0,
            "trace" => trace = numbers[0] as u64,
            "margin" => settings.settled_margin = f64::from(numbers[0]),
            "planned" => settings.planned_moves = numbers[0] as u32,
            "time_scale" => settings.time_scale = f64::from(numbers[0]),
            "max_rounds" => settings.max_rounds = numbers[0] as u64,
            "time" => time_limit = Duration::from_secs_f32(numbers[0]),
            "line" => weights.line.copy_from_slice(&numbers),
            "points" => weights.points = numbers[0],
            "empty" => weights.empty = numbers[0],
            "hole" => weights.hole = numbers[0],
            "cut_off" => weights.cut_off = numbers[0],
            "ready" => weights.ready = numbers[0],
            _ => panic!("unknown key {key}"),
        }
    }
    if player == "ai" && network.is_none() {
        network = Some(Network::builtin().clone());
    }
    let started = Instant::now();
    let setup = Setup {
        name: &player,
        weights,
        network: network.as_ref(),
        effort,
        settings,
        limit: time_limit,
        trace,
    };
    let results: Vec<(u64, u64, f64)> = seeds.par_iter().map(|&seed| play(&setup, seed)).collect();
    if per_seed {
        for (seed, (score, moves, seconds)) in seeds.iter().zip(&results) {
            println!("seed {seed}: {score} points, {moves} moves, {seconds:.2}s");
        }
    }
    let n = results.len() as f64;
    let mean_score = results.iter().map(|r| r.0 as f64).sum::<f64>() / n;
    let mean_moves = results.iter().map(|r| r.1 as f64).sum::<f64>() / n;
    let max_time = results.iter().map(|r| r.2).fold(0.0, f64::max);
    let mean_time = results.iter().map(|r| r.2).sum::<f64>() / n;
    let variance = results
        .iter()
        .map(|r| (r.0 as f64 - mean_score).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let standard_error = (variance / n).sqrt();
    println!(
        "{player} {weights:?} effort={effort:?} {settings:?}: mean {mean_score:.1} \
         (se {standard_error:.1}), moves {mean_moves:.1}, time mean {mean_time:.2}s \
         max {max_time:.2}s, wall {:.1}s",
        started.elapsed().as_secs_f64()
    );
}

/// What every game of a run shares.
struct Setup<'a> {
    name: &'a str,
    weights: Weights,
    network: Option<&'a Network>,
    effort: Option<u64>,
    settings: Settings,
    limit: Duration,
    /// Print the board every this many moves (0: never).
    trace: u64,
}

fn play(setup: &Setup, seed: u64) -> (u64, u64, f64) {
    let &Setup {
        name,
        weights,
        network,
        effort,
        settings,
        limit,
        trace,
    } = setup;
    let mut case = LinezCase::new(seed);
    let mut state = case.initial_state();
    // Seeded from the first observation as under the judge, so that at a fixed effort a
    // player's games here are the judge's games.
    let first_observation = format_observation(&state.board, &state.preview);
    let player_seed = seed_from_lines(&first_observation.lines().collect::<Vec<_>>());
    let mut player: Box<dyn Player> = match network {
        Some(network) if name == "ai" => Box::new(SearchPlayer::new(
            network.clone(),
            FastRng::new(player_seed),
            effort,
            settings,
        )),
        Some(network) => Box::new(NetworkGreedy::new(network.clone())),
        None => new_player_with(name, weights, effort, player_seed).expect("a player"),
    };
    let mut used = Duration::ZERO;
    while !state.is_over() {
        if state.must_pass() {
            case.spawn(&mut state);
            continue;
        }
        let clock = Clock::start(limit, used);
        let mv = player
            .choose(&state.board, state.preview, &clock)
            .expect("a move");
        if trace > 0 && state.moves.is_multiple_of(trace) {
            println!(
                "seed {seed} move {} score {} preview {:?} plays {mv}{:?}",
                state.moves, state.score, state.preview, state.board
            );
        }
        used += clock.started.elapsed();
        if used > limit {
            break;
        }
        if state.play(mv).expect("a legal move") == Turn::SpawnDue {
            case.spawn(&mut state);
        }
    }
    (state.score, state.moves, used.as_secs_f64())
}
