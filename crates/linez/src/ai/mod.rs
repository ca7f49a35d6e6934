//! Built-in Linez players. Each one speaks the contest protocol through [`speak_protocol`], the
//! same loop whether it runs in-process under the judge or as `marathon solve linez`, so the
//! built-in AIs see exactly what an external program sees and nothing more.

pub mod eval;
pub mod greedy;
pub mod ntuple;
mod random;
pub mod search;
mod top_moves;
mod windows;

pub use eval::Weights;

use std::io::{self, BufRead, Write};

pub use marathon_core::Clock;
use marathon_core::rng::{FastRng, seed_from_lines};
use marathon_core::{GameClock, SolveConfig, read_observation};

use crate::protocol::{OBSERVATION_LINES, format_move, parse_observation};
use crate::rules::{Board, Color, Move};

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "hand", "greedy", "random"];

pub trait Player {
    /// The move for this observation; `None` only when the board has no legal move.
    fn choose(&mut self, board: &Board, preview: [Color; 3], clock: &Clock) -> Option<Move>;
}

/// Builds the named player. `seed` comes from the first observation, so that a player's random
/// choices depend on the case alone and replay identically in-process and as a program.
pub fn new_player(name: &str, effort: Option<u64>, seed: u64) -> io::Result<Box<dyn Player>> {
    let weights = match name {
        "greedy" => Weights::greedy(),
        _ => Weights::default(),
    };
    new_player_with(name, weights, effort, seed)
}

/// [`new_player`] with other evaluation weights (for tuning).
pub fn new_player_with(
    name: &str,
    weights: Weights,
    effort: Option<u64>,
    seed: u64,
) -> io::Result<Box<dyn Player>> {
    let rng = FastRng::new(seed);
    match name {
        "ai" => Ok(Box::new(search::SearchPlayer::new(
            ntuple::Network::builtin().clone(),
            rng,
            effort,
            search::Settings::AI,
        ))),
        "hand" => Ok(Box::new(search::SearchPlayer::new(
            weights,
            rng,
            effort,
            search::Settings {
                depth: 1,
                ..search::Settings::AI
            },
        ))),
        "greedy" => Ok(Box::new(greedy::GreedyPlayer::new(weights))),
        "random" => Ok(Box::new(random::RandomPlayer::new(rng))),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("no linez player {name:?} (players: {})", PLAYERS.join(", ")),
        )),
    }
}

/// Reads observations and answers moves until the judge closes the input.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut player: Option<Box<dyn Player>> = None;
    let game = GameClock::start(config.time_limit);
    let mut lines: Vec<String> = Vec::with_capacity(OBSERVATION_LINES);
    loop {
        if !read_observation(input, OBSERVATION_LINES, &mut lines)? {
            return Ok(());
        }
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (board, preview) = parse_observation(&rows)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if player.is_none() {
            player = Some(new_player(
                &config.player,
                config.effort,
                seed_from_lines(&lines),
            )?);
        }
        let clock = game.turn();
        let mv = player
            .as_mut()
            .expect("created above")
            .choose(&board, preview, &clock)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no legal move"))?;
        writeln!(output, "{}", format_move(mv))?;
        output.flush()?;
    }
}
