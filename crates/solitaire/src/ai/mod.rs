//! Built-in Solitaire chess players. Each speaks the Kattis protocol through
//! [`speak_protocol`], the same loop in-process under the judge and as
//! `marathon solve solitaire`, so the built-in players see exactly what an external program sees:
//! the tops of the stacks and each reveal.
//!
//! The pieces under the tops are uniform over the case's alphabet, which the player does not
//! receive: [`Model`] takes the smallest alphabet of the statement's group table that holds
//! every type seen so far.

mod mcts;
mod random;

marathon_core::lab_modules! {
    mod greedy;
    mod policy;
    mod search;
}

use std::io::{self, BufRead, Write};

pub use marathon_core::{Clock, Player};

use marathon_core::player::{check_name, invalid_input};
use marathon_core::rng::{FastRng, seed_from_lines};
use marathon_core::settings::apply_part;
use marathon_core::{GameClock, Settings, SolveConfig, invalid_data, read_line, read_observation};

use crate::generator::GROUP_ALPHABETS;
use crate::protocol::{Reply, format_reply, parse_board, parse_reveal};
use crate::rules::{Piece, SIZE, State};
pub use policy::Weights;

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "flat", "greedy", "random"];

/// UCB1 exploration of the tree search, relative to a position's mean return.
pub const MCTS_EXPLORATION: f64 = 0.6;

/// The player's belief about hidden pieces: uniform over `alphabet`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Every type seen so far, as a bit mask over `Piece` indices.
    seen: u8,
    alphabet: Vec<Piece>,
}

impl Model {
    pub fn new() -> Model {
        Model {
            seen: 0,
            alphabet: Piece::ALL.to_vec(),
        }
    }

    /// Takes in the types visible in `state`; returns whether the alphabet changed.
    pub fn observe(&mut self, state: &State) -> bool {
        let seen = state
            .tops()
            .iter()
            .flatten()
            .fold(self.seen, |m, p| m | 1 << p.index());
        if seen == self.seen {
            return false;
        }
        self.seen = seen;
        let before = self.alphabet.len();
        self.alphabet = infer_alphabet(seen);
        before != self.alphabet.len()
    }

    /// The pieces a hidden piece may be, each equally likely.
    pub fn alphabet(&self) -> &[Piece] {
        &self.alphabet
    }

    /// Only one type exists: the game is deterministic.
    pub fn is_deterministic(&self) -> bool {
        self.alphabet.len() == 1
    }
}

impl Default for Model {
    fn default() -> Self {
        Self::new()
    }
}

/// The smallest alphabet of the group table holding every type of `seen`, else every piece.
pub fn infer_alphabet(seen: u8) -> Vec<Piece> {
    GROUP_ALPHABETS
        .iter()
        .map(|letters| {
            letters
                .chars()
                .filter_map(Piece::from_letter)
                .collect::<Vec<_>>()
        })
        .filter(|pieces| {
            let mask = pieces.iter().fold(0u8, |m, p| m | 1 << p.index());
            seen & !mask == 0
        })
        .min_by_key(Vec::len)
        .unwrap_or_else(|| Piece::ALL.to_vec())
}

/// A built-in Solitaire chess player ([`marathon_core::Player`]): shown the position as the
/// board and the reveals made it, it removes a cell or stops (always stops when no removal is
/// legal).
pub type BuiltinPlayer = dyn Player<Observation = State, Action = Reply>;

/// Whether player `name` plays out with [`Weights`] (the settings `--set` may change).
pub fn reads_weights(name: &str) -> bool {
    matches!(name, "ai" | "flat")
}

/// The playout weights with player `name`'s `given` settings applied, or what is wrong with
/// them; a player without weights takes no settings.
pub fn player_weights(name: &str, given: &Settings) -> Result<Weights, String> {
    apply_part(name, reads_weights(name), Weights::default(), given)
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
    check_name("solitaire", PLAYERS, name)?;
    let weights = player_weights(name, given).map_err(invalid_input)?;
    let rng = FastRng::new(seed);
    match name {
        "ai" => Ok(Box::new(search::SearchPlayer::new(
            search::Method::Tree(MCTS_EXPLORATION),
            weights,
            rng,
            effort,
        ))),
        "flat" => Ok(Box::new(search::SearchPlayer::new(
            search::Method::Flat,
            weights,
            rng,
            effort,
        ))),
        "greedy" => Ok(Box::new(greedy::GreedyPlayer)),
        _ => Ok(Box::new(random::RandomPlayer::new(rng))),
    }
}

/// Reads the board, then removes pieces and reads the reveals until the player stops (it
/// prints `0 0`) or the judge closes the input.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let game = GameClock::start_on(config.time_limit, config.clock);
    let mut lines = Vec::with_capacity(SIZE);
    if !read_observation(input, SIZE, &mut lines)? {
        return Ok(());
    }
    let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
    let tops = parse_board(&rows).map_err(|e| invalid_data(e.to_string()))?;
    let mut state = State::new(tops);
    let mut player = new_player(
        &config.player,
        config.effort,
        seed_from_lines(&lines),
        &config.settings,
    )?;
    loop {
        let clock = game.turn();
        // Stopping keeps the score; running out of time would lose it.
        let reply = if state.is_over() || clock.nearly_out() {
            Reply::Stop
        } else {
            player.choose(&state, &clock)
        };
        writeln!(output, "{}", format_reply(reply))?;
        output.flush()?;
        let Reply::Remove(cell) = reply else {
            return Ok(());
        };
        let mut line = String::new();
        if !read_line(input, &mut line)? {
            return Ok(());
        }
        let reveal = parse_reveal(&line).map_err(|e| invalid_data(e.to_string()))?;
        state
            .play(cell, reveal)
            .map_err(|e| invalid_data(format!("after removing {cell}: {e}")))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Cell;

    fn mask(pieces: &[Piece]) -> u8 {
        pieces.iter().fold(0, |m, p| m | 1 << p.index())
    }

    #[test]
    fn the_alphabet_is_the_smallest_group_holding_what_was_seen() {
        use Piece::*;
        assert_eq!(infer_alphabet(mask(&[Springare])), [Springare]);
        assert_eq!(infer_alphabet(mask(&[One])), [One]);
        assert_eq!(infer_alphabet(mask(&[Two])), [One, Two]);
        assert_eq!(infer_alphabet(mask(&[Two, Three])), [One, Two, Three, Four]);
        assert_eq!(infer_alphabet(mask(&[Dam])), [Torn, Lopare, Dam]);
        assert_eq!(infer_alphabet(mask(&[Dam, One])).len(), 8);
        assert_eq!(infer_alphabet(mask(&[Springare, Torn])).len(), 8);
    }

    #[test]
    fn the_model_widens_when_a_new_type_shows() {
        let mut state = State::new([Piece::One; 36]);
        let mut model = Model::new();
        assert!(model.observe(&state));
        assert!(model.is_deterministic());
        assert!(!model.observe(&state));
        state.play(Cell::new(0, 0), Some(Piece::Two)).unwrap();
        assert!(model.observe(&state));
        assert_eq!(model.alphabet(), [Piece::One, Piece::Two]);
    }
}
