//! Built-in MultiplayerReversi players. Each speaks the contest protocol through
//! [`speak_protocol`] (or, for the oracle, [`spawn_oracle`]), so the built-in players see
//! exactly what an external program sees: the boards sent on player 1's turns.
//!
//! - `ai` (`reader::ReaderPlayer`): samples the opponents' weights from the posterior given
//!   their moves (read off successive boards) and plays the move that searches best on average
//!   over the samples' replies.
//! - `greedy`: the move that leaves player 1 the most pieces (most flips); ties go to the
//!   first in row-major order.
//! - `oracle`: the beam search of `ai` with the opponents' true weights; only the judge can
//!   build it.

marathon_core::lab_modules! {
    mod greedy;
    mod infer;
    mod lineage;
    mod normal;
    mod reader;
    mod search;
}

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use marathon_core::player::{check_name, invalid_input};
/// The seed a player gets from an observation's lines.
pub use marathon_core::rng::seed_from_lines as observation_seed;
pub use marathon_core::{Clock, Player};
use marathon_core::{Endpoint, GameClock, Limits, Settings, SolveConfig, read_observation};

use crate::generator::ReversiCase;
use crate::protocol::{OBSERVATION_LINES, format_move, parse_observation};
use crate::rules::{Board, Cell};
use crate::strategy::Weights;

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "greedy", ORACLE];

/// The player that knows the opponents' weights.
pub const ORACLE: &str = "oracle";

/// How well a player's model predicted the opponents' moves it saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Predictions {
    pub hits: u32,
    pub total: u32,
}

impl Predictions {
    /// The share of predicted moves that came true (0 when none was predicted).
    pub fn rate(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.hits as f64 / self.total as f64
        }
    }
}

/// A built-in reversi player: a [`marathon_core::Player`] shown the board at player 1's turns
/// (which has a move for it), answering with player 1's cell, that may also tell how well it
/// predicted the opponents.
pub trait BuiltinPlayer: Player<Observation = Board, Action = Cell> + Send {
    /// The opponents' moves the player predicted, if it predicts them.
    fn predictions(&self) -> Predictions {
        Predictions::default()
    }
}

/// Builds a player that speaks the protocol. `seed` comes from the first observation. No
/// player has settings yet (`given` must be empty): the AI's constants are not exposed.
pub fn new_player(
    name: &str,
    effort: Option<u64>,
    seed: u64,
    given: &Settings,
) -> io::Result<Box<dyn BuiltinPlayer>> {
    check_name("reversi", PLAYERS, name)?;
    given.apply(name, &mut []).map_err(invalid_input)?;
    match name {
        "ai" => Ok(Box::new(reader::ReaderPlayer::new(effort, seed))),
        "greedy" => Ok(Box::new(greedy::GreedyPlayer)),
        _ => Err(invalid_input(
            "the oracle knows the opponents' hidden weights, so only the judge can run it \
             (marathon play reversi --player oracle); no program can",
        )),
    }
}

/// The oracle for `case`: the AI's search with the opponents' true strategies.
pub fn oracle(case: &ReversiCase, effort: Option<u64>) -> Box<dyn BuiltinPlayer> {
    Box::new(search::KnownPlayer::new(case.opponents.clone(), effort))
}

/// Starts the oracle of `case` on a thread behind the judge's pipes.
pub fn spawn_oracle(
    case: &ReversiCase,
    judge_limits: Limits,
    config: SolveConfig,
) -> io::Result<Endpoint> {
    let opponents: Vec<Weights> = case.opponents.clone();
    Endpoint::spawn_thread(judge_limits, move |input, output| {
        let mut player = search::KnownPlayer::new(opponents, config.effort);
        serve(
            &mut |_, board, clock| Ok(player.choose(board, clock)),
            GameClock::start_on(config.time_limit, config.clock),
            input,
            output,
        )
    })
}

/// Reads observations and answers moves until the judge closes the input.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    speak_and_report(config, input, output, &mut |_| {})
}

/// [`speak_protocol`] that also reports the player's [`Predictions`] after each of its moves.
fn speak_and_report(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    report: &mut dyn FnMut(Predictions),
) -> io::Result<()> {
    let mut player: Option<Box<dyn BuiltinPlayer>> = None;
    serve(
        &mut |seed, board, clock| {
            let player = match &mut player {
                Some(player) => player,
                None => player.insert(new_player(
                    &config.player,
                    config.effort,
                    seed,
                    &config.settings,
                )?),
            };
            let cell = player.choose(board, clock);
            report(player.predictions());
            Ok(cell)
        },
        GameClock::start_on(config.time_limit, config.clock),
        input,
        output,
    )
}

/// Starts built-in player `config.player` on a thread behind the judge's pipes, as
/// [`marathon_core::start_player`] does, keeping its latest [`Predictions`] in `predictions`
/// for the judge to report (a program's predictions stay its own).
pub fn spawn_reporting(
    judge_limits: Limits,
    config: SolveConfig,
    predictions: Arc<Mutex<Predictions>>,
) -> io::Result<Endpoint> {
    Endpoint::spawn_thread(judge_limits, move |input, output| {
        speak_and_report(&config, input, output, &mut |latest| {
            *predictions.lock().unwrap_or_else(|e| e.into_inner()) = latest;
        })
    })
}

/// The protocol loop: `choose(seed, board, clock)` answers each observation (`seed` hashes the
/// observation's text).
fn serve(
    choose: &mut dyn FnMut(u64, &Board, &Clock) -> io::Result<Cell>,
    game: GameClock,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let mut lines: Vec<String> = Vec::with_capacity(OBSERVATION_LINES);
    loop {
        if !read_observation(input, OBSERVATION_LINES, &mut lines)? {
            return Ok(());
        }
        let rows: Vec<&str> = lines.iter().map(String::as_str).collect();
        let board = parse_observation(&rows)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        if !board.has_move(1) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "player 1 has no legal move on the board it was sent",
            ));
        }
        let cell = choose(observation_seed(&lines), &board, &game.turn())?;
        writeln!(output, "{}", format_move(cell))?;
        output.flush()?;
    }
}
