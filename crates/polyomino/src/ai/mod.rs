//! Built-in Polyomino players. Each one plays against the [`Contest`] trait (`get_next`,
//! `place_next`) and sees only what the contest gives: the board, and the pieces it asked for.
//!
//! Under the judge (and as `marathon solve polyomino`) a player reaches the contest through
//! [`speak_protocol`]: a protocol client over the judge's pipes, so in-process and external
//! runs see the same text and the judge counts their time the same way. Tests may also run a
//! player directly on a [`crate::rules::Session`].

marathon_core::lab_modules! {
    mod baseline;
    mod bits;
    mod smart;
}

pub use smart::Params;

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use marathon_core::rng::LineSeed;
use marathon_core::settings::apply_part;
use marathon_core::{Settings, SolveConfig, invalid_data, read_line};

use crate::protocol::{
    Command, format_command, parse_case_header, parse_cell, parse_piece_header, parse_piece_rows,
    parse_total,
};
use crate::rules::{Board, Contest, MAX_REQUESTS, Piece, Session};

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "baseline"];

/// What a player knows besides the board.
#[derive(Clone, Copy, Debug)]
pub struct PlayerConfig {
    /// Fixed effort: the player then never looks at the clock. `None`: budget `time_limit`.
    pub effort: Option<u64>,
    pub time_limit: Duration,
    /// When the player's time started.
    pub started: Instant,
    /// Seeds the player's own generator (a hash of what it observed).
    pub seed: u64,
    /// The `ai` player's numbers (`--set`).
    pub params: smart::Params,
}

/// Whether player `name` reads [`Params`] (the settings `--set` may change).
pub fn reads_params(name: &str) -> bool {
    name == "ai"
}

/// The default [`Params`] with player `name`'s `given` settings applied, or what is
/// wrong with them; a player without them takes no settings.
pub fn player_params(name: &str, given: &Settings) -> Result<smart::Params, String> {
    apply_part(name, reads_params(name), smart::Params::default(), given)
}

/// Plays the case on `contest` with the named player; returns when the player is done (the
/// caller then says `DONE`).
pub fn play<C: Contest>(
    name: &str,
    board: &Board,
    contest: &mut C,
    config: &PlayerConfig,
) -> Result<(), PlayError<C::Error>> {
    match name {
        "ai" => smart::play(board, contest, config).map_err(PlayError::Contest),
        "baseline" => baseline::play(board, contest).map_err(PlayError::Contest),
        _ => Err(PlayError::UnknownPlayer(name.to_string())),
    }
}

/// Why a player stopped early.
#[derive(Debug)]
pub enum PlayError<E> {
    UnknownPlayer(String),
    /// The contest refused a call (or, through the protocol, the text broke).
    Contest(E),
}

impl<E: std::fmt::Display> std::fmt::Display for PlayError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::UnknownPlayer(name) => write!(
                f,
                "no polyomino player {name:?} (players: {})",
                PLAYERS.join(", ")
            ),
            PlayError::Contest(error) => write!(f, "{error}"),
        }
    }
}

/// The `ai` player's next call in the middle of a game (a hint for a person): the player
/// starts on the board as it stands (the case's covered cells and every piece placed), holding
/// `pending` (the piece requested last, if unplaced), and its first call is the hint: `PLACE`
/// for the piece it holds, `GET` for the size it would ask for, or `DONE` when no size gains
/// (or no request is left). `effort` is its samples per size; `seed` seeds its generator.
pub fn hint<S>(
    session: &Session<S>,
    pending: Option<(usize, &Piece)>,
    effort: u64,
    seed: u64,
) -> Command {
    /// A contest that hands out the held piece once and ends the player at its first call
    /// otherwise, with that call as the error.
    struct Probe(Option<(usize, Piece)>);
    impl Contest for Probe {
        type Error = Command;
        fn get_next(&mut self, size: i64) -> Result<(usize, Piece), Command> {
            self.0.take().ok_or(Command::Get { size })
        }
        fn place_next(
            &mut self,
            index: i64,
            x: i64,
            y: i64,
            rotation: i64,
        ) -> Result<u64, Command> {
            Err(Command::Place {
                index,
                x,
                y,
                rotation,
            })
        }
    }
    let config = PlayerConfig {
        effort: Some(effort),
        time_limit: Duration::from_secs(crate::rules::TIME_LIMIT_SECONDS),
        started: Instant::now(),
        seed,
        params: smart::Params::default(),
    };
    let mut probe = Probe(pending.map(|(index, piece)| (index, piece.clone())));
    match smart::play(session.board(), &mut probe, &config) {
        Err(Command::Get { .. }) if session.requested() >= MAX_REQUESTS => Command::Done,
        Err(call) => call,
        Ok(()) => Command::Done,
    }
}

/// The contest reached through the line protocol: each call writes its command and reads the
/// judge's answer.
pub struct Client<'a> {
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
    line: String,
}

impl<'a> Client<'a> {
    pub fn new(input: &'a mut dyn BufRead, output: &'a mut dyn Write) -> Self {
        Client {
            input,
            output,
            line: String::new(),
        }
    }

    /// The next line without its terminator; `None` at end of input.
    fn read_line(&mut self) -> io::Result<Option<&str>> {
        Ok(read_line(self.input, &mut self.line)?.then_some(self.line.as_str()))
    }

    fn expect_line(&mut self) -> io::Result<&str> {
        self.read_line()?.ok_or_else(|| {
            io::Error::new(io::ErrorKind::UnexpectedEof, "the judge closed the input")
        })
    }

    fn send(&mut self, command: Command) -> io::Result<()> {
        self.output.write_all(format_command(command).as_bytes())?;
        self.output.flush()
    }

    /// Reads the case (`W H K` and K cells); `None` if the input ends before it starts. Also
    /// returns a hash of the text, to seed the player.
    pub fn read_case(&mut self) -> io::Result<Option<(Board, u64)>> {
        let mut hash = LineSeed::new();
        let Some(header) = self.read_line()? else {
            return Ok(None);
        };
        hash.add(header);
        let (width, height, count) = parse_case_header(header).map_err(invalid_data)?;
        let mut board = Board::new(width, height);
        for i in 0..count {
            let text = self.expect_line()?;
            hash.add(text);
            let (x, y) = parse_cell(text, i + 2, width, height).map_err(invalid_data)?;
            board.cover(x, y);
        }
        Ok(Some((board, hash.finish())))
    }

    pub fn done(&mut self) -> io::Result<()> {
        self.send(Command::Done)
    }
}

impl Contest for Client<'_> {
    type Error = io::Error;

    fn get_next(&mut self, size: i64) -> io::Result<(usize, Piece)> {
        self.send(Command::Get { size })?;
        let (index, height, width) =
            parse_piece_header(self.expect_line()?).map_err(invalid_data)?;
        let mut rows = Vec::with_capacity(height);
        for _ in 0..height {
            rows.push(self.expect_line()?.to_string());
        }
        let piece = parse_piece_rows(&rows, width).map_err(invalid_data)?;
        Ok((index, piece))
    }

    fn place_next(&mut self, index: i64, x: i64, y: i64, rotation: i64) -> io::Result<u64> {
        self.send(Command::Place {
            index,
            x,
            y,
            rotation,
        })?;
        parse_total(self.expect_line()?).map_err(invalid_data)
    }
}

/// Reads the case, plays it with `config.player` through the protocol, and says `DONE`.
pub fn speak_protocol(
    config: &SolveConfig,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    // The judge's clock runs from its write of the case: a case of 28,000 covered cells is as
    // many lines to read, so the player's clock starts before them.
    let started = Instant::now();
    let mut client = Client::new(input, output);
    let Some((board, seed)) = client.read_case()? else {
        return Ok(());
    };
    let params = player_params(&config.player, &config.settings)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let player = PlayerConfig {
        effort: config.effort,
        time_limit: config.time_limit,
        started,
        seed,
        params,
    };
    match play(&config.player, &board, &mut client, &player) {
        Ok(()) => client.done(),
        Err(PlayError::Contest(error)) => Err(error),
        Err(error) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            error.to_string(),
        )),
    }
}
