//! Trains the Linez n-tuple network (`ai::ntuple`) by TD(0) on afterstates: the 1-ply player
//! plays its own games (spawns from its own generator, never the contest's cases), and after
//! each move the value of the previous afterstate moves towards the points in between plus the
//! value of the new one. Learning rates are temporal-coherence rates (`ntuple::Trainer`).
//!
//! cargo run --release -p marathon-linez --example linez_train -- GAMES OUT.bin [rate=1]
//!     [init=IN.bin] [stages=1] [seed=N] [report=1000]

use std::time::Instant;

use marathon_core::rng::FastRng;
use marathon_linez::ai::ntuple::{Network, Trainer};
use marathon_linez::rules::{Board, COLORS, Color, PREVIEW_LEN, State, Turn, line_points};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|g| g.parse().ok()).expect("GAMES");
    let out = args.get(1).cloned().expect("OUT");
    let (mut rate, mut init, mut seed, mut report) = (1.0f32, None, 1u64, 1000u64);
    let mut stages = 1;
    for arg in &args[2..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        match key {
            "rate" => rate = value.parse().expect("rate"),
            "init" => init = Some(value.to_string()),
            "seed" => seed = value.parse().expect("seed"),
            "report" => report = value.parse().expect("report"),
            "stages" => stages = value.parse().expect("stages"),
            _ => panic!("unknown key {key}"),
        }
    }
    let mut network = match init.as_deref() {
        Some(path) => Network::from_bytes(&std::fs::read(path).expect("init file"))
            .expect("init")
            .restaged(stages),
        None => Network::new(stages),
    };
    let mut trainer = Trainer::new(&network);
    let mut rng = FastRng::new(seed);
    let started = Instant::now();
    let (mut score_sum, mut move_sum, mut count) = (0u64, 0u64, 0u64);
    for game in 1..=games {
        let (score, moves) = train_game(&mut network, &mut trainer, &mut rng, rate);
        score_sum += score;
        move_sum += moves;
        count += 1;
        if game % report == 0 || game == games {
            println!(
                "games {game}: mean {:.1}, moves {:.1}, {:.0} s",
                score_sum as f64 / count as f64,
                move_sum as f64 / count as f64,
                started.elapsed().as_secs_f64()
            );
            (score_sum, move_sum, count) = (0, 0, 0);
            std::fs::write(&out, network.to_bytes()).expect("write weights");
        }
    }
}

fn random_preview(rng: &mut FastRng) -> [Color; PREVIEW_LEN] {
    std::array::from_fn(|_| rng.below(u32::from(COLORS)) as Color + 1)
}

/// Spawns the preview on uniform empty cells, draws the next preview, returns the points.
fn spawn(state: &mut State, rng: &mut FastRng) -> f32 {
    let removed = state.spawn(|free| rng.below(free));
    state.preview = random_preview(rng);
    line_points(removed) as f32
}

/// One self-play game with TD(0) updates; returns its score and moves.
fn train_game(
    network: &mut Network,
    trainer: &mut Trainer,
    rng: &mut FastRng,
    rate: f32,
) -> (u64, u64) {
    let mut board = Board::empty();
    for _ in 0..3 {
        let empty = board.empty_cells();
        let cell = empty.nth(rng.below(empty.count())).expect("an empty cell");
        board.put(cell, rng.below(u32::from(COLORS)) as Color + 1);
    }
    let mut state = State::new(board, random_preview(rng));
    let mut previous = None;
    let mut reward = 0.0f32;
    loop {
        if state.is_over() {
            if let Some(features) = previous {
                trainer.learn(network, &features, reward, rate);
            }
            return (state.score, state.moves);
        }
        if state.must_pass() {
            reward += spawn(&mut state, rng);
            continue;
        }
        let (mv, _, _) = network.best_move(&state.board).expect("a ball can move");
        let turn = state.play_unchecked(mv);
        if let Turn::Cleared { points, .. } = turn {
            reward += points as f32;
        }
        // Afterstates are the boards a spawn comes to: after a quiet move, or after a clear
        // that left no ball. After other clears the player moves again first.
        if turn != Turn::SpawnDue && !state.must_pass() {
            continue;
        }
        let features = network.features(&state.board);
        if let Some(before) = previous {
            let target = reward + network.value_of(&features);
            trainer.learn(network, &before, target, rate);
        }
        previous = Some(features);
        reward = 0.0;
        if turn == Turn::SpawnDue {
            reward += spawn(&mut state, rng);
        }
    }
}
