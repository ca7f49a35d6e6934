//! Built-in Linez players. Each one speaks the contest protocol through [`speak_protocol`], the
//! same loop whether it runs in-process under the judge or as `marathon solve linez`, so the
//! built-in AIs see exactly what an external program sees and nothing more.

mod blocks;
mod random;
#[cfg(test)]
mod test_boards;
mod top_moves;
mod windows;

marathon_core::lab_modules! {
    mod eval;
    mod greedy;
    mod ntuple;
    mod search;
}

pub use eval::Weights;

use std::io::{self, BufRead, Read, Write};

use marathon_core::player::{check_name, invalid_input};
use marathon_core::rng::{FastRng, seed_from_lines};
pub use marathon_core::{Clock, Player};
use marathon_core::{GameClock, Settings, SolveConfig, Tunable, read_observation};

use crate::protocol::{OBSERVATION_LINES, format_move, parse_observation};
use crate::rules::{Board, Color, Move};

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "hand", "greedy", "random"];

/// What a Linez player is shown at its turn: the board and the colours of the next three balls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub board: Board,
    pub preview: [Color; 3],
}

/// A built-in Linez player ([`marathon_core::Player`]).
pub type BuiltinPlayer = dyn Player<Observation = Observation, Action = Move>;

/// Why a player always finds a move: the judge asks only where one is legal (a board without
/// one is passed or over), and the protocol loop refuses an observation without one.
const TURN_HAS_A_MOVE: &str = "a player's turn has a legal move";

/// What a player's settings (`--set`) change: the search's settings and the evaluation's
/// weights, as far as the player reads them.
#[derive(Clone, Copy, Debug)]
pub struct PlayerSettings {
    pub search: search::Settings,
    pub weights: Weights,
}

impl PlayerSettings {
    /// Player `name`'s settings with `given` applied, or what is wrong with `given`.
    pub fn new(name: &str, given: &Settings) -> Result<Self, String> {
        let mut settings = PlayerSettings {
            search: match name {
                "hand" => search::Settings {
                    depth: 1,
                    ..search::Settings::AI
                },
                _ => search::Settings::AI,
            },
            weights: match name {
                "greedy" => Weights::greedy(),
                _ => Weights::default(),
            },
        };
        given.apply(name, &mut settings.parts(name))?;
        Ok(settings)
    }

    /// The parts player `name` reads (`ai` evaluates with its network, not the weights).
    fn parts(&mut self, name: &str) -> Vec<&mut dyn Tunable> {
        match name {
            "ai" => vec![&mut self.search],
            "hand" => vec![&mut self.search, &mut self.weights],
            "greedy" => vec![&mut self.weights],
            _ => Vec::new(),
        }
    }

    /// Every setting player `name` reads, with its value.
    pub fn list(&mut self, name: &str) -> Vec<marathon_core::Setting> {
        self.parts(name)
            .iter()
            .flat_map(|part| part.settings())
            .collect()
    }
}

/// Builds the named player with `given` settings. `seed` comes from the first observation, so
/// that a player's random choices depend on the case alone and replay identically in-process
/// and as a program.
pub fn new_player(
    name: &str,
    effort: Option<u64>,
    seed: u64,
    given: &Settings,
) -> io::Result<Box<BuiltinPlayer>> {
    check_name("linez", PLAYERS, name)?;
    let rng = FastRng::new(seed);
    let PlayerSettings { search, weights } =
        PlayerSettings::new(name, given).map_err(invalid_input)?;
    match name {
        "ai" => Ok(Box::new(search::SearchPlayer::new(
            network()?,
            rng,
            effort,
            search,
        ))),
        "hand" => Ok(Box::new(search::SearchPlayer::new(
            weights, rng, effort, search,
        ))),
        "greedy" => Ok(Box::new(greedy::GreedyPlayer::new(weights))),
        _ => Ok(Box::new(random::RandomPlayer::new(rng))),
    }
}

/// The environment variable naming a network file (`marathon-tune linez-train`'s OUT) for `ai`
/// to play instead of the built-in one: how a network in training is measured through the
/// judge, as a program or in-process, before it is built in.
pub const NETWORK_VARIABLE: &str = "MARATHON_LINEZ_NETWORK";

/// Far above any network's file (the built-in one is 40 KB).
const MAX_NETWORK_BYTES: u64 = 1 << 28;

/// `ai`'s network: the file [`NETWORK_VARIABLE`] names, else the built-in one.
fn network() -> io::Result<ntuple::Network> {
    let Some(path) = std::env::var_os(NETWORK_VARIABLE) else {
        return Ok(ntuple::Network::builtin().clone());
    };
    let invalid = |e: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{NETWORK_VARIABLE}={}: {e}", path.to_string_lossy()),
        )
    };
    // Bounded, so that a stream that never ends cannot take the memory.
    let mut bytes = Vec::new();
    std::fs::File::open(&path)
        .and_then(|file| file.take(MAX_NETWORK_BYTES).read_to_end(&mut bytes))
        .map_err(|e| invalid(e.to_string()))?;
    ntuple::Network::from_bytes(&bytes).map_err(invalid)
}

/// Reads observations and answers moves until the judge closes the input.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut player: Option<Box<BuiltinPlayer>> = None;
    let game = GameClock::start_on(config.time_limit, config.clock);
    let mut lines: Vec<String> = Vec::with_capacity(OBSERVATION_LINES);
    loop {
        if !read_observation(input, OBSERVATION_LINES, &mut lines)? {
            return Ok(());
        }
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (board, preview) = parse_observation(&rows)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if board.legal_moves().is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "no legal move"));
        }
        if player.is_none() {
            player = Some(new_player(
                &config.player,
                config.effort,
                seed_from_lines(&lines),
                &config.settings,
            )?);
        }
        let clock = game.turn();
        let mv = player
            .as_mut()
            .expect("created above")
            .choose(&Observation { board, preview }, &clock);
        writeln!(output, "{}", format_move(mv))?;
        output.flush()?;
    }
}
