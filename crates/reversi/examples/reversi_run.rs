//! Plays MultiplayerReversi cases and prints the case table and the summary.
//!
//! cargo run --release -p marathon-reversi --example reversi_run -- PLAYER SEEDS [effort=N] [time=S]
//!     [threads=T] [local]
//!
//! Through the judge by default (what `marathon play` does). `local` plays in-process without
//! pipes and adds the AI's own figure `predicted`: the fraction of the opponents' moves its
//! model predicted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use marathon_core::{CaseId, CaseOutcome, Game, Metric, PlayConfig, PlayerSpec, Verdict};
use marathon_core::{Clock, Environment, env, parse_seed_set};
use marathon_reversi::REVERSI;
use marathon_reversi::ai::{self, ORACLE};
use marathon_reversi::env::ReversiEnv;
use marathon_reversi::generator;
use marathon_reversi::protocol::MoveText;
use marathon_runner::report::{Summary, case_table, summary_table};
use marathon_runner::runner::{RunOptions, run_cases};
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let player = args.first().cloned().unwrap_or_else(|| "ai".into());
    let seeds = parse_seed_set(args.get(1).map_or("1-10", String::as_str)).expect("seeds");
    let mut effort = None;
    let mut time_limit = Duration::from_secs(30);
    let mut threads = 1;
    let mut local = false;
    for arg in &args[2.min(args.len())..] {
        if arg == "local" {
            local = true;
            continue;
        }
        let (key, value) = arg.split_once('=').expect("key=value or local");
        match key {
            "effort" => effort = Some(value.parse().expect("effort")),
            "time" => time_limit = Duration::from_secs_f64(value.parse().expect("seconds")),
            "threads" => threads = value.parse().expect("threads"),
            _ => panic!("unknown option {key}"),
        }
    }
    let cases: Vec<CaseId> = seeds.iter().map(|&s| CaseId::seed(s)).collect();
    let outcomes: Vec<CaseOutcome> = if local {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            cases
                .par_iter()
                .map(|case| play_local(case, &player, effort, time_limit))
                .collect()
        })
    } else {
        let config = PlayConfig {
            player: PlayerSpec::Builtin(player.clone()),
            time_limit,
            effort,
            quiet: false,
        };
        let options = RunOptions {
            threads,
            progress: true,
        };
        run_cases(&REVERSI, &cases, &config, &options, |_| {}).outcomes
    };
    println!("{}", case_table(&outcomes, None));
    println!(
        "{}",
        summary_table(&[(&player, Summary::of(&outcomes, None))])
    );
}

fn play_local(case: &CaseId, player: &str, effort: Option<u64>, limit: Duration) -> CaseOutcome {
    let reversi = generator::generate(case.seed);
    let mut built = if player == ORACLE {
        ai::oracle(&reversi, effort)
    } else {
        // The seed of the first observation, as the protocol gives it.
        let first: Vec<String> = REVERSI
            .generate(case)
            .expect("a case")
            .lines()
            .map(String::from)
            .collect();
        ai::new_player(player, effort, ai::observation_seed(&first)).expect("a built-in player")
    };
    let started = Instant::now();
    // The case's environment plays the opponents; the player decides for player 1 directly
    // (no pipes, no limit enforced), so that its own figures can be read afterwards.
    let mut game = ReversiEnv::of_case(Arc::new(reversi.clone()));
    let mut used = Duration::ZERO;
    env::play_in_process(
        &mut game,
        |game| {
            let clock = Clock::start(limit, used);
            let cell = built.choose(&game.state().board, &clock);
            used += clock.started.elapsed();
            MoveText {
                col: cell.col(),
                row: cell.row(),
            }
        },
        |_, _| {},
    )
    .unwrap_or_else(|e| panic!("{case}: the player chose an illegal move: {e}"));
    let state = game.state().clone();
    let time = started.elapsed();
    let predictions = built.predictions();
    let mut result = CaseOutcome {
        game: "reversi",
        case: case.clone(),
        params: vec![
            ("N", reversi.size.to_string()),
            ("P", reversi.players.to_string()),
        ],
        score: state.score(),
        moves: game.moves(),
        time,
        verdict: Verdict::Ok,
        metrics: vec![Metric {
            name: "owned",
            value: f64::from(state.board.count(1)),
        }],
        cpu: None,
    };
    if predictions.total > 0 {
        result.metrics.push(Metric {
            name: "predicted",
            value: predictions.rate(),
        });
    }
    result
}
