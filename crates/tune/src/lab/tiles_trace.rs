//! One TilesMatching case played in-process by the `ai` player (the judge's game, without the
//! protocol's pipes), printed so as to see why it plays as it does: the board and its features
//! every few moves, the best one-ply candidates of chosen moves with their features, the last
//! moves before a give-up. Ends with the game's line: score, moves, clears, discards.

use std::collections::VecDeque;
use std::ops::Range;
use std::time::Duration;

use clap::Args;
use marathon_core::{Clock, Environment, Settings, Turn};
use marathon_runner::select::time_limit;
use marathon_tiles::ai::eval::{Evaluator, Features};
use marathon_tiles::ai::search::{SearchPlayer, tuned_weights};
use marathon_tiles::ai::{Observation, Player, player_weights};
use marathon_tiles::env::TilesEnv;
use marathon_tiles::rules::{MAX_MOVES, Move, Outcome, Tile};

#[derive(Args)]
pub struct TraceArgs {
    /// The case's seed.
    #[arg(value_name = "SEED")]
    seed: u64,
    /// Fixed search effort (moves then depend on the case alone); without it the time limit
    /// decides and the moves depend on the machine.
    #[arg(long)]
    effort: Option<u64>,
    /// Thinking time for the whole game in seconds (default: the contest's limit).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Print the board and its features every this many moves and at a give-up (0: never).
    #[arg(long, value_name = "MOVES", default_value_t = 0)]
    trace: u32,
    /// Print the best one-ply candidates, with their worth and features, of the moves FROM to
    /// TO (counted from 0, TO excluded).
    #[arg(long, value_name = "FROM-TO", value_parser = parse_range)]
    explain: Option<Range<u32>>,
    /// At a give-up, print the last K moves and the board (0: nothing).
    #[arg(long, value_name = "K", default_value_t = 0)]
    last_moves: usize,
    /// Stop the game after this many moves (an opening's survival shows in a few hundred).
    #[arg(long, value_name = "MOVES", default_value_t = MAX_MOVES)]
    stop: u32,
    /// A weight of the `ai` player, NAME=VALUE (repeatable; `marathon players tiles` lists
    /// them), over the weights tuned for the case.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = Settings::parse_pair)]
    settings: Vec<(String, String)>,
}

fn parse_range(text: &str) -> Result<Range<u32>, String> {
    let bad = || format!("{text:?}: expected FROM-TO, two move numbers with FROM below TO");
    let (from, to) = text.split_once('-').ok_or_else(bad)?;
    let from: u32 = from.trim().parse().map_err(|_| bad())?;
    let to: u32 = to.trim().parse().map_err(|_| bad())?;
    if from >= to {
        return Err(bad());
    }
    Ok(from..to)
}

pub fn run(args: TraceArgs) -> Result<(), String> {
    let tiles = marathon_games::lookup("tiles")?;
    let limit = time_limit(tiles, args.time_limit)?;
    let settings = Settings::new(args.settings.clone());
    let mut env = TilesEnv::new(args.seed);
    let params = env.state().params;
    let weights = player_weights("ai", tuned_weights(params), &settings)?;
    let mut player = SearchPlayer::new(params, weights, args.effort);
    // The player's own weights, for the features `--trace` and `--explain` print.
    let evaluator = Evaluator::new(params, weights);
    let explain_moves = args.explain.clone().unwrap_or(0..0);
    let seed = args.seed;
    let mut used = Duration::ZERO;
    let (mut discards, mut forced, mut wild_clears) = (0, 0, 0);
    let mut last: VecDeque<String> = VecDeque::new();
    while env.turn() == Turn::Player && env.state().moves < args.stop {
        let state = env.state();
        let tile = env.tile().expect("a tile on the player's turn");
        let clock = Clock::start(limit, used);
        let seen = Observation {
            state: state.clone(),
            tile,
        };
        let mv = player.choose(&seen, &clock);
        used += clock.started.elapsed();
        if explain_moves.contains(&state.moves) {
            explain(&env, tile, mv, &evaluator);
        }
        if args.trace > 0 && (state.moves.is_multiple_of(args.trace) || mv == Move::GiveUp) {
            println!(
                "seed {seed} move {} score {} counter {} tile {tile:?} -> {mv:?}\n{:?}\n{:?}",
                state.moves,
                state.score(),
                state.counter,
                state.board,
                evaluator.features(&state.board)
            );
        }
        if args.last_moves > 0 {
            if last.len() == args.last_moves {
                last.pop_front();
            }
            let homes = state.legal_moves(tile).len() - usize::from(state.can_discard());
            last.push_back(format!(
                "  move {} counter {} tile {tile:?} homes {homes} -> {mv:?}",
                state.moves, state.counter
            ));
        }
        if mv == Move::GiveUp && args.last_moves > 0 {
            println!("seed {seed} gave up at move {}:", state.moves);
            for line in &last {
                println!("{line}");
            }
            println!("{:?}", state.board);
        }
        // A discard is forced when the tile has no home (the discard is its only legal move).
        let only_move = state.legal_moves(tile).len() == 1;
        let step = env
            .step(mv)
            .map_err(|e| format!("seed {seed}: the ai player chose an illegal move: {e}"))?;
        match step.outcome {
            Outcome::Discarded => {
                discards += 1;
                forced += u32::from(only_move);
            }
            Outcome::Placed { row, col } if tile == Tile::Wild && (row || col) => wild_clears += 1,
            _ => {}
        }
    }
    let state = env.state();
    println!(
        "seed {:4} N={:2} S={:2} D={} score {:6} moves {:5} clears {:4}+{:3} \
         discards {:4} forced {:4} wild clears {:4}",
        seed,
        params.n,
        params.s,
        params.d,
        state.score(),
        state.moves,
        state.single_clears,
        state.double_clears,
        discards,
        forced,
        wild_clears
    );
    println!(
        "effort={:?} set [{settings}] time used {:.2}s",
        args.effort,
        used.as_secs_f64()
    );
    Ok(())
}

/// Prints the board, the tile, the move chosen and the best one-ply candidates with their
/// features, to see why the player prefers what it does.
fn explain(env: &TilesEnv, tile: Tile, chosen: Move, eval: &Evaluator) {
    let state = env.state();
    let mut rows: Vec<(f32, Move, Features, u8)> = env
        .legal_actions()
        .into_iter()
        // Giving up is no candidate: the player only does it when nothing else is left.
        .filter(|&mv| mv != Move::GiveUp)
        .map(|mv| {
            let mut next = env.clone();
            let step = next.step(mv).expect("a legal move");
            let points = (step.score - state.score()) as f32;
            let after = next.state();
            let worth = points + eval.value(&after.board, after.counter);
            (worth, mv, eval.features(&after.board), after.counter)
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
