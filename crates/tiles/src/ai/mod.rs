//! Built-in TilesMatching players. Each one speaks the contest protocol through
//! [`speak_protocol`], the same loop whether it runs in-process under the judge or as
//! `marathon solve tiles`; the protocol never shows the board, so every player keeps its own
//! copy of the game under the rules, fed by the tiles it reads and the moves it answers.

mod random;

marathon_core::lab_modules! {
    mod eval;
    mod greedy;
    mod search;
}

pub use eval::Weights;

use std::io::{self, BufRead, Write};

use marathon_core::player::{check_name, invalid_input};
use marathon_core::rng::{FastRng, seed_from_lines};
use marathon_core::settings::apply_part;
pub use marathon_core::{Clock, Player};
use marathon_core::{GameClock, Settings, SolveConfig, invalid_data, read_line};

use crate::protocol::{format_move, parse_params, parse_tile};
use crate::rules::{Move, State, Tile};

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "greedy", "random"];

/// What a TilesMatching player is shown at its turn: the tile to place, in the game as its own
/// replies made it (the protocol never shows the board; a game that is not over). The reply is
/// always legal.
#[derive(Clone, Debug)]
pub struct Observation {
    pub state: State,
    pub tile: Tile,
}

/// A built-in TilesMatching player ([`marathon_core::Player`]).
pub type BuiltinPlayer = dyn Player<Observation = Observation, Action = Move>;

/// Whether player `name` evaluates with [`Weights`] (the settings `--set` may change).
pub fn reads_weights(name: &str) -> bool {
    name == "ai"
}

/// `base` (the weights tuned for the case) with player `name`'s `given` settings applied, or
/// what is wrong with them; a player without weights takes no settings.
pub fn player_weights(name: &str, base: Weights, given: &Settings) -> Result<Weights, String> {
    apply_part(name, reads_weights(name), base, given)
}

/// Builds the named player for a case with `state.params`. `seed` comes from what the player
/// observed, so that its random choices depend on the case alone.
pub fn new_player(
    name: &str,
    state: &State,
    effort: Option<u64>,
    seed: u64,
    given: &Settings,
) -> io::Result<Box<BuiltinPlayer>> {
    check_name("tiles", PLAYERS, name)?;
    let params = state.params;
    let weights =
        player_weights(name, search::tuned_weights(params), given).map_err(invalid_input)?;
    match name {
        "ai" => Ok(Box::new(search::SearchPlayer::new(params, weights, effort))),
        "greedy" => Ok(Box::new(greedy::GreedyPlayer)),
        _ => Ok(Box::new(random::RandomPlayer::new(FastRng::new(seed)))),
    }
}

/// Reads `N S D`, then answers tiles until the judge closes the input.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let game = GameClock::start_on(config.time_limit, config.clock);
    let mut line = String::new();
    if !read_line(input, &mut line)? {
        return Ok(());
    }
    let params = parse_params(&line).map_err(|e| invalid_data(format!("line 1: {e}")))?;
    let mut state = State::new(params);
    let mut player = new_player(
        &config.player,
        &state,
        config.effort,
        seed_from_lines(&[&line]),
        &config.settings,
    )?;
    let mut line_number = 1;
    while read_line(input, &mut line)? {
        line_number += 1;
        let tile = parse_tile(&line, params.n)
            .map_err(|e| invalid_data(format!("line {line_number}: {e}")))?;
        if state.is_over() {
            return Err(invalid_data(format!(
                "line {line_number}: a tile after the game's end"
            )));
        }
        let clock = game.turn();
        // Giving up keeps the score; running out of time would lose it.
        let mv = if clock.nearly_out() {
            Move::GiveUp
        } else {
            // The state goes into the observation and back: no copy of the board a turn.
            let seen = Observation { state, tile };
            let mv = player.choose(&seen, &clock);
            state = seen.state;
            mv
        };
        state
            .play(tile, mv)
            .map_err(|e| io::Error::other(format!("the player chose an illegal move: {e}")))?;
        writeln!(output, "{}", format_move(mv))?;
        output.flush()?;
    }
    Ok(())
}
