//! Trains the Linez n-tuple network (`ai::ntuple`) by TD(0) on afterstates: the 1-ply player
//! plays its own games (spawns from its own generator, never the contest's cases), and after
//! each move the value of the previous afterstate moves towards the points in between plus the
//! value of the new one. Learning rates are temporal-coherence rates (`ntuple::Trainer`).
//!
//! cargo run --release -p marathon-linez --example linez_train -- GAMES OUT.bin [rate=1]
//!     [init=IN.bin] [stages=1] [seed=N] [report=1000] [lambda=0] [horizon=16]
//!
//! cargo run --release -p marathon-linez --example linez_train -- average OUT.bin IN.bin...
//!     writes the network whose values are the mean of the given networks' values.
//!
//! With `lambda` above 0 an afterstate learns, `horizon` afterstates late, the lambda-return
//! over the afterstates after it (delayed TD(lambda), as in Jaśkowski's 2048 players): credit
//! travels back further per game than TD(0)'s one step.

use std::collections::VecDeque;
use std::time::Instant;

use marathon_core::rng::FastRng;
use marathon_linez::ai::ntuple::{Features, Network, Trainer};
use marathon_linez::rules::{Board, COLORS, Color, PREVIEW_LEN, State, Turn, line_points};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("average") {
        let networks: Vec<Network> = args[2..]
            .iter()
            .map(|path| {
                Network::from_bytes(&std::fs::read(path).expect("a network file")).expect(path)
            })
            .collect();
        let mean = Network::mean_of(&networks).expect("networks of one shape");
        std::fs::write(&args[1], mean.to_bytes()).expect("write the mean");
        return;
    }
    let games: u64 = args.first().and_then(|g| g.parse().ok()).expect("GAMES");
    let out = args.get(1).cloned().expect("OUT");
    let (mut rate, mut init, mut seed, mut report) = (1.0f32, None, 1u64, 1000u64);
    let mut stages = 1;
    let mut lambda = Lambda {
        lambda: 0.0,
        horizon: 16,
    };
    for arg in &args[2..] {
        let (key, value) = arg.split_once('=').expect("key=value");
        match key {
            "rate" => rate = value.parse().expect("rate"),
            "init" => init = Some(value.to_string()),
            "seed" => seed = value.parse().expect("seed"),
            "report" => report = value.parse().expect("report"),
            "stages" => stages = value.parse().expect("stages"),
            "lambda" => lambda.lambda = value.parse().expect("lambda"),
            "horizon" => lambda.horizon = value.parse().expect("horizon"),
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
        let (score, moves) = train_game(&mut network, &mut trainer, &mut rng, rate, lambda);
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

#[derive(Clone, Copy)]
struct Lambda {
    lambda: f32,
    /// Afterstates an update waits for (the lambda-return is cut there).
    horizon: usize,
}

/// The afterstates still waiting for their update: features, value when seen, and the points
/// scored between each and the next.
struct Pending {
    states: VecDeque<(Features, f32, f32)>,
    lambda: Lambda,
}

impl Pending {
    /// Adds the next afterstate (`None`: the game ended) after `reward` points, and updates the
    /// afterstates that have waited long enough.
    fn push(
        &mut self,
        next: Option<Features>,
        reward: f32,
        network: &mut Network,
        trainer: &mut Trainer,
        rate: f32,
    ) {
        if let Some(last) = self.states.back_mut() {
            last.2 = reward;
        }
        let Some(features) = next else {
            while !self.states.is_empty() {
                self.learn_oldest(0.0, network, trainer, rate);
            }
            return;
        };
        let value = network.value_of(&features);
        let waited = self.lambda.lambda == 0.0 || self.states.len() >= self.lambda.horizon;
        if waited && !self.states.is_empty() {
            self.learn_oldest(value, network, trainer, rate);
        }
        self.states.push_back((features, value, 0.0));
    }

    /// Updates the oldest afterstate towards its lambda-return, `tail` being the value after
    /// the newest one.
    fn learn_oldest(&mut self, tail: f32, network: &mut Network, trainer: &mut Trainer, rate: f32) {
        let lambda = self.lambda.lambda;
        let mut after = tail;
        let mut target = tail;
        for &(_, value, reward) in self.states.iter().rev() {
            target = reward + (1.0 - lambda) * after + lambda * target;
            after = value;
        }
        let (features, _, _) = self.states.pop_front().expect("a pending afterstate");
        trainer.learn(network, &features, target, rate);
    }
}

/// One self-play game with TD updates; returns its score and moves.
fn train_game(
    network: &mut Network,
    trainer: &mut Trainer,
    rng: &mut FastRng,
    rate: f32,
    lambda: Lambda,
) -> (u64, u64) {
    let mut board = Board::empty();
    for _ in 0..3 {
        let empty = board.empty_cells();
        let cell = empty.nth(rng.below(empty.count())).expect("an empty cell");
        board.put(cell, rng.below(u32::from(COLORS)) as Color + 1);
    }
    let mut state = State::new(board, random_preview(rng));
    let mut pending = Pending {
        states: VecDeque::new(),
        lambda,
    };
    let mut reward = 0.0f32;
    loop {
        if state.is_over() {
            pending.push(None, reward, network, trainer, rate);
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
        pending.push(Some(features), reward, network, trainer, rate);
        reward = 0.0;
        if turn == Turn::SpawnDue {
            reward += spawn(&mut state, rng);
        }
    }
}
