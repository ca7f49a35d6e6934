//! Plays the `ai` in-process on sessions (no judge, no pipes) to compare parameters quickly;
//! strength claims come from `examples/run.rs` (the judge).
//!
//! cargo run --release -p marathon-polyomino --example polyomino_tune -- SEEDS [effort=N] [alpha=x]
//!     [cutoff=x] [waste=x] [pocket=x] [contact=x] [baseline=1]

use std::time::{Duration, Instant};

use marathon_core::parse_seed_set;
use marathon_polyomino::ai::smart::{Params, play_with};
use marathon_polyomino::ai::{PlayerConfig, baseline};
use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::rules::Session;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds = parse_seed_set(args.first().map_or("1-20", String::as_str)).expect("seeds");
    let mut params = Params::default();
    let mut effort = Some(24);
    let mut base = false;
    for arg in &args[1.min(args.len())..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        let number: f64 = value.parse().expect("number");
        match key {
            "effort" => effort = Some(number as u64),
            "alpha" => params.alpha = number,
            "cutoff" => params.cutoff = number,
            "waste" => params.waste = number,
            "pocket" => params.pocket = number,
            "contact" => params.contact = number,
            "hand" => params.hand = number as usize,
            "hold" => params.hold = number,
            "every" => params.every = number as usize,
            "step" => params.step = number,
            "pool_limit" => params.pool_limit = number as usize,
            "slack" => params.slack = number as u32,
            "per_row" => params.per_row = number as usize,
            "baseline" => base = number != 0.0,
            _ => panic!("unknown key {key}"),
        }
    }
    let mut raw_sum = 0.0;
    // Per case, the AI's raw score over the baseline's (TopCoder scored each case relative to
    // the best, so every case weighs the same).
    let mut relative_sum = 0.0;
    let mut covered_sum = 0.0;
    let mut penalty_sum = 0.0;
    let mut unplaced_sum = 0.0;
    let mut placed_sum = 0.0;
    let mut max_time = Duration::ZERO;
    let started = Instant::now();
    for &seed in &seeds {
        let case = PolyominoCase::new(seed);
        let mut session = Session::new(case.board(), case.pieces());
        let config = PlayerConfig {
            effort,
            time_limit: Duration::from_secs(30),
            started: Instant::now(),
            seed,
        };
        let t = Instant::now();
        if base {
            baseline::play(&case.board(), &mut session).expect("valid calls");
        } else {
            play_with(&case.board(), &mut session, &config, &params).expect("valid calls");
        }
        max_time = max_time.max(t.elapsed());
        raw_sum += session.raw_score() as f64;
        let mut reference = Session::new(case.board(), case.pieces());
        baseline::play(&case.board(), &mut reference).expect("valid calls");
        relative_sum += session.raw_score() as f64 / reference.raw_score().max(1) as f64;
        if std::env::var_os("VERBOSE").is_some() {
            println!(
                "  vs baseline {} = {:.3} (baseline covered {:.3})",
                reference.raw_score(),
                session.raw_score() as f64 / reference.raw_score().max(1) as f64,
                reference.covered_fraction()
            );
        }
        covered_sum += session.covered_fraction();
        penalty_sum += session.unplaced_penalty() as f64;
        placed_sum += session.placed_count() as f64;
        unplaced_sum += (session.requested() - session.placed_count()) as f64;
        if std::env::var_os("VERBOSE").is_some() {
            println!(
                "seed {seed} {}x{} K={} raw {} penalty {} placed {} unplaced {} covered {:.3}",
                case.width,
                case.height,
                case.covered.len(),
                session.raw_score(),
                session.unplaced_penalty(),
                session.placed_count(),
                session.requested() - session.placed_count(),
                session.covered_fraction()
            );
        }
    }
    let n = seeds.len() as f64;
    println!(
        "{params:?} effort={effort:?} base={base}: mean raw {:.1}, vs baseline {:.4}, penalty {:.1}, placed {:.1}, unplaced {:.1}, covered {:.3}, max time {:.3}s, wall {:.1}s",
        raw_sum / n,
        relative_sum / n,
        penalty_sum / n,
        placed_sum / n,
        unplaced_sum / n,
        covered_sum / n,
        max_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
