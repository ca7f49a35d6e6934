//! Plays Solitaire chess games in-process, without the judge's pipes, to compare playout
//! weights quickly. Not the judge: strength claims come from `run` / `marathon play`.
//!
//! cargo run --release -p marathon-solitaire --example solitaire_tune -- PLAYER GROUPS SEEDS [effort=N]
//!     [time=SECONDS] [WEIGHT=VALUE ...]
//!
//! GROUPS is a list like `3,5,6`; weights are the fields of `ai::Weights`.

use std::time::{Duration, Instant};

use marathon_core::parse_seed_set;
use marathon_solitaire::ai::{Clock, Weights, new_player_with};
use marathon_solitaire::generator::{Alphabet, Deal};
use marathon_solitaire::rules::State;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let player = args.first().cloned().unwrap_or_else(|| "ai".into());
    let groups: Vec<u32> = args
        .get(1)
        .map_or("3,4,5,6", String::as_str)
        .split(',')
        .map(|g| g.parse().expect("group"))
        .collect();
    let seeds = parse_seed_set(args.get(2).map_or("1-20", String::as_str)).expect("seeds");
    let mut weights = Weights::default();
    let mut effort = None;
    let mut limit = Duration::from_secs(10);
    for arg in &args[3.min(args.len())..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        match key {
            "effort" => effort = Some(value.parse().expect("effort")),
            "time" => limit = Duration::from_secs_f64(value.parse().expect("seconds")),
            _ => weights
                .set(key, value.parse().expect("number"))
                .expect("a weight"),
        }
    }
    let started = Instant::now();
    let mut line = Vec::new();
    let mut all = 0.0;
    for &group in &groups {
        let scores: Vec<u32> = seeds
            .par_iter()
            .map(|&seed| play(&player, weights, effort, limit, group, seed))
            .collect();
        let mean = scores.iter().sum::<u32>() as f64 / scores.len() as f64;
        all += mean;
        line.push(format!("g{group} {mean:.1}"));
    }
    println!(
        "{player} effort={effort:?} {weights:?}\n  {}  | sum of means {all:.1}  (wall {:.1}s)",
        line.join("  "),
        started.elapsed().as_secs_f64()
    );
}

fn play(
    name: &str,
    weights: Weights,
    effort: Option<u64>,
    limit: Duration,
    group: u32,
    seed: u64,
) -> u32 {
    let alphabet = Alphabet::of_group(group).expect("a group");
    let deal = Deal::new(&alphabet, seed);
    let mut state = State::new(deal.tops());
    let mut player = new_player_with(name, weights, effort, seed).expect("a player");
    let mut used = Duration::ZERO;
    loop {
        let clock = Clock::start(limit, used);
        let Some(cell) = (!state.is_over())
            .then(|| player.choose(&state, &clock))
            .flatten()
        else {
            break;
        };
        used += clock.started.elapsed();
        let reveal = deal.piece(cell, state.removed(cell) + 1);
        state.play(cell, reveal).expect("a legal move");
    }
    state.score()
}
