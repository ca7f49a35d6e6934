//! Games under the judge, for every game's tests, written once over
//! [`marathon_core::Environment`]: a scripted player that plays legal replies and then a hostile
//! line (the fuzz tests, `crates/*/tests/it/fuzz.rs`), and a built-in player's game recorded
//! under the judge and its replies replayed through the environment apart from it.
//!
//! A game gives only what is its own: how its player reads the judge's text, a legal reply, and
//! what its rules say of a line ([`Script`]); the loop that plays it is here.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marathon_core::env::{self, Environment, Turn};
use marathon_core::{Endpoint, Solve, SolveConfig, Verdict, spawn_recorded_player};

/// The player's time in the judge tests: far more than a scripted player needs.
pub const LIMIT: Duration = Duration::from_secs(60);

/// One line of the judge's text without its terminator; `None` once the judge closed it.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim_end().to_string()))
}

/// One line of the judge's text that must come.
pub fn expect_line(input: &mut dyn BufRead) -> io::Result<String> {
    read_line(input)?.ok_or_else(|| io::Error::other("the judge's text ended"))
}

/// A scripted player of one game, for [`play_then`]: what it knows (built from the judge's text
/// and its own replies), the legal replies it makes, and what the game's rules (not its
/// environment, which the judge itself uses) say of any line where it stands.
pub trait Script: Send + 'static {
    /// Reads what the judge writes before the player's next reply into what the player knows;
    /// `false` once the judge has closed the player's input.
    fn observe(&mut self, input: &mut dyn BufRead) -> io::Result<bool>;
    /// A legal reply here, played into what the player knows; `None` when the script has none
    /// to give (the hostile line then goes at once, however few replies came before it).
    fn legal_reply(&mut self) -> Option<String>;
    /// The hostile line goes now, as the judge will read it (`received`): what the rules say of
    /// it here, `None` if they accept it, else the judge's reason.
    fn send_hostile(&mut self, received: &str) -> Option<String>;
    /// The reply to each decision after the hostile line, while the game goes on (a legal move,
    /// or one that ends the game).
    fn after_hostile(&mut self) -> String;
}

/// Plays `env` under the judge against `script` on a thread: `legal_moves` legal replies (fewer
/// if the script runs out of them), then `hostile`, then [`Script::after_hostile`] to the end.
/// Returns the verdict and the rules' refusal of the hostile line where it was sent.
pub fn play_then<E: Environment>(
    env: E,
    mut script: impl Script,
    legal_moves: usize,
    hostile: &str,
) -> (Verdict, Option<String>) {
    let line = hostile.to_string();
    judge_against(env, move |input, output, judged| {
        let mut replies = 0;
        while script.observe(input)? {
            let reply = if judged.is_recorded() {
                script.after_hostile()
            } else if let Some(reply) = (replies < legal_moves)
                .then(|| script.legal_reply())
                .flatten()
            {
                reply
            } else {
                // The judge reads the line without its terminator, `\r` included.
                let received = line.strip_suffix('\r').unwrap_or(&line);
                judged.record(script.send_hostile(received));
                line.clone()
            };
            writeln!(output, "{reply}")?;
            output.flush()?;
            replies += 1;
        }
        Ok(())
    })
}

/// What the rules say of the hostile line on the position it answered, kept when the script
/// sends it: `None` if they accept it, else the judge's reason.
#[derive(Clone, Default)]
struct Judged(Arc<Mutex<Option<Option<String>>>>);

impl Judged {
    fn record(&self, refusal: Option<String>) {
        *self.0.lock().unwrap() = Some(refusal);
    }

    /// Whether the hostile line has been sent.
    fn is_recorded(&self) -> bool {
        self.0.lock().unwrap().is_some()
    }
}

/// Plays `env` under the judge against `player` (on a thread, recording what the rules say of
/// its hostile line). Returns the verdict and that refusal.
fn judge_against<E: Environment>(
    mut env: E,
    player: impl FnOnce(&mut dyn BufRead, &mut dyn Write, Judged) -> io::Result<()> + Send + 'static,
) -> (Verdict, Option<String>) {
    let judged = Judged::default();
    let record = judged.clone();
    let mut endpoint =
        Endpoint::spawn_thread(LIMIT, move |input, output| player(input, output, record))
            .expect("the player thread starts");
    let verdict = env::judge(&mut env, &mut endpoint, |_, _| {});
    endpoint.close();
    let refusal = judged
        .0
        .lock()
        .unwrap()
        .clone()
        .expect("the game lasted until the hostile line");
    (verdict, refusal)
}

/// A built-in player's game under the judge ([`record`]).
pub struct Recorded<E: Environment> {
    /// The environment where the game ended.
    pub env: E,
    pub verdict: Verdict,
    /// Every reply the player wrote, in order.
    pub replies: Vec<String>,
    /// Every event of the judge's game, in order (what a replay page shows).
    pub events: Vec<E::Event>,
}

/// Plays `env` through the judge's loop with a built-in player (`solve` with `config`)
/// speaking the protocol on a thread, its replies recorded, so that they can be replayed
/// through the environment apart from the judge ([`replay`]).
pub fn record<E: Environment>(mut env: E, config: SolveConfig, solve: Solve) -> Recorded<E> {
    let (mut endpoint, transcript) =
        spawn_recorded_player(config, solve).expect("the player thread starts");
    let mut events = Vec::new();
    let verdict = env::judge(&mut env, &mut endpoint, |_, event| {
        events.push(event.clone())
    });
    endpoint.close();
    Recorded {
        env,
        verdict,
        replies: transcript.lines(),
        events,
    }
}

/// Plays `replies` through `env` apart from the judge, with the automatic steps due before and
/// after each: every reply must come at the player's turn, read as an action and be legal
/// (a panic naming `context` and the reply says which was not). `before` sees the environment
/// before each reply with the reply's number, for a game's own checks. Returns where the game
/// stands after them.
pub fn replay<E: Environment>(
    mut env: E,
    replies: &[String],
    context: &str,
    mut before: impl FnMut(&E, usize),
) -> E {
    for (turn, reply) in replies.iter().enumerate() {
        env.advance_while_auto(|_, _| {});
        assert_eq!(
            env.turn(),
            Turn::Player,
            "{context}: reply {turn} {reply:?} after the game ended"
        );
        before(&env, turn);
        let action = env
            .parse_action(reply)
            .unwrap_or_else(|e| panic!("{context}: reply {turn} {reply:?} is unreadable: {e}"));
        if let Err(e) = env.step(action) {
            panic!("{context}: reply {turn} {reply:?} is illegal: {e}");
        }
    }
    env.advance_while_auto(|_, _| {});
    env
}
