//! Built-in Polyomino players. Each one is a [`marathon_core::Player`]: at each of its turns
//! it is shown what the contest has shown it ([`Observation`]: the board as it stands, the
//! piece it was handed last) and answers with its next call, `GET`, `PLACE` or `DONE`.
//!
//! [`play`] plays a game with one on any [`Contest`] (`get_next`, `place_next`): under the
//! judge (and as `marathon solve polyomino`) on a protocol client over the judge's pipes
//! ([`speak_protocol`]), so that in-process and external runs see the same text and the judge
//! counts their time the same way; in tests on the environment directly. A hint
//! (`GameSpec::hint`) is one call of the same decision on the position as it stands.

marathon_core::lab_modules! {
    mod baseline;
    mod bits;
    mod smart;
}

pub use smart::Params;

use std::io::{self, BufRead, Write};

use marathon_core::player::{check_name, invalid_input};
use marathon_core::rng::LineSeed;
use marathon_core::settings::apply_part;
pub use marathon_core::{Clock, Player};
use marathon_core::{GameClock, Settings, SolveConfig, invalid_data, read_line};

use crate::protocol::{
    Command, format_command, parse_case_header, parse_cell, parse_piece_header, parse_piece_rows,
    parse_total,
};
use crate::rules::{Board, Contest, Piece};

/// The built-in players; the first is the default.
pub const PLAYERS: &[&str] = &["ai", "baseline"];

/// What a Polyomino player is shown at its turn, as the judge's messages and its own calls made
/// it: the board as it stands (the case's covered cells and every piece placed), how many pieces
/// it has asked for, and the piece the last `GET` handed out (its index and shape) while it is
/// unplaced.
#[derive(Clone, Debug)]
pub struct Observation {
    pub board: Board,
    pub requested: usize,
    pub pending: Option<(usize, Piece)>,
}

/// A built-in Polyomino player ([`marathon_core::Player`]).
pub type BuiltinPlayer = dyn Player<Observation = Observation, Action = Command>;

/// Whether player `name` reads [`Params`] (the settings `--set` may change).
pub fn reads_params(name: &str) -> bool {
    name == "ai"
}

/// The default [`Params`] with player `name`'s `given` settings applied, or what is wrong with
/// them; a player without them takes no settings.
pub fn player_params(name: &str, given: &Settings) -> Result<Params, String> {
    apply_part(name, reads_params(name), Params::default(), given)
}

/// Builds the named player with `given` settings. `effort` fixes the `ai`'s samples per size
/// (it then never looks at the clock); `seed` seeds its generator (a hash of what it observed,
/// so that its choices depend on the case alone).
pub fn new_player(
    name: &str,
    effort: Option<u64>,
    seed: u64,
    given: &Settings,
) -> io::Result<Box<BuiltinPlayer>> {
    check_name("polyomino", PLAYERS, name)?;
    let params = player_params(name, given).map_err(invalid_input)?;
    Ok(match name {
        "ai" => Box::new(smart::SmartPlayer::new(params, effort, seed)),
        _ => Box::new(baseline::BaselinePlayer::default()),
    })
}

/// Plays the case whose board is `board` on `contest` with `player`, its time on `game`, until
/// the player says `DONE` (the caller's to send: the contest has no call for it); the
/// observation is built from the contest's answers alone. An error is the contest's refusal
/// (or, through the protocol, broken text).
pub fn play<C: Contest>(
    player: &mut BuiltinPlayer,
    board: Board,
    contest: &mut C,
    game: &GameClock,
) -> Result<(), C::Error> {
    let mut seen = Observation {
        board,
        requested: 0,
        pending: None,
    };
    // Every piece handed out, by index: a `PLACE` may name any of them.
    let mut handed: Vec<Piece> = Vec::new();
    loop {
        match player.choose(&seen, &game.turn()) {
            Command::Get { size } => {
                let (index, piece) = contest.get_next(size)?;
                seen.requested += 1;
                handed.push(piece.clone());
                seen.pending = Some((index, piece));
            }
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => {
                contest.place_next(index, x, y, rotation)?;
                // The contest accepted it: the index, the rotation and the corner are in range.
                let turned = handed[index as usize].rotated(rotation as u8);
                seen.board.cover_piece(&turned, x as usize, y as usize);
                if seen
                    .pending
                    .as_ref()
                    .is_some_and(|&(i, _)| i as i64 == index)
                {
                    seen.pending = None;
                }
            }
            Command::Done => return Ok(()),
        }
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
    // many lines to read, so the player's clock starts before them. It is the wall clock, as
    // the player has always planned on, whatever clock the judge counts.
    let game = GameClock::start(config.time_limit);
    let mut client = Client::new(input, output);
    let Some((board, seed)) = client.read_case()? else {
        return Ok(());
    };
    let mut player = new_player(&config.player, config.effort, seed, &config.settings)?;
    play(player.as_mut(), board, &mut client, &game)?;
    client.done()
}
