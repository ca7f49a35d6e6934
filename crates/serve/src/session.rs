//! A case played by a person: the environment the judge drives, stepped by reply lines (what a
//! program would print), with the replay's start and steps for the page to draw, an undo, and
//! the built-in AI's hint: the game's case in play ([`CaseInPlay`]) and the replies kept.
//!
//! A reply the rules refuse changes nothing and is an error for the page to show: a misclick
//! does not end the game as it would end a program's. Every reply kept was accepted, so the
//! replies replay through [`marathon_core::Game::replay`] (and through `marathon play`, fed to a
//! program that prints them) to the same score.

use std::time::Duration;

use marathon_core::replay::{self, Recording};
use marathon_core::{CaseId, CaseInPlay, CaseOutcome, Game, format_score};
use serde_json::{Value, json};

/// The effort of the AI's search for a hint: small, so that a hint comes at once (under 0.1 s in
/// every game, most in a few milliseconds, measured on seeds 1-4).
pub const HINT_EFFORT: u64 = 16;

/// A state lists the legal replies while there are at most this many (Polyomino's placements
/// of a small piece on a large board are far more: the page does without the list there).
pub const LEGAL_LIMIT: usize = 4096;

/// Who played a game saved from the page, as its replay page names the player.
pub const PLAYER: &str = "a person (marathon serve)";

/// A case played by a person, whatever its game.
pub struct Session {
    game: &'static dyn Game,
    /// The case at the player's first decision: undo plays the replies again from here.
    start: Box<dyn CaseInPlay>,
    play: Box<dyn CaseInPlay>,
    replies: Vec<String>,
}

/// Starts case `seed` (in `group`, or the game's default group) of game `name`, as
/// `marathon play NAME --seeds SEED [--group GROUP]` would play it.
pub fn new_session(name: &str, seed: u64, group: Option<u32>) -> Result<Session, String> {
    let game = marathon_games::lookup(name)?;
    let case = marathon_games::seed_case(game, seed, group)?;
    let start = game.start(&case, true).map_err(|e| e.to_string())?;
    Ok(Session {
        game,
        play: start.boxed_clone(),
        start,
        replies: Vec::new(),
    })
}

impl Session {
    /// The game's name.
    pub fn game(&self) -> &'static str {
        self.game.name()
    }

    /// The case played.
    pub fn case(&self) -> &CaseId {
        self.play.case()
    }

    /// The legal replies if there are at most [`LEGAL_LIMIT`], and how many there are. They
    /// are the game's action mask: every legal reply but in Polyomino, where it is the `GET`s
    /// of sizes that fit somewhere, the placements of the piece requested last and `DONE`.
    fn legal(&self) -> (Option<Vec<String>>, usize) {
        let mut mask = vec![0i8; self.play.action_count()];
        self.play.action_mask(&mut mask);
        let allowed: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
        let count = allowed.len();
        let listed = (count <= LEGAL_LIMIT).then(|| {
            allowed
                .into_iter()
                .filter_map(|i| self.play.reply_of(i).ok())
                .collect()
        });
        (listed, count)
    }

    /// The outcome as the judge would report it now (the player's time counted as zero).
    fn outcome(&self) -> CaseOutcome {
        self.play.outcome(Duration::ZERO)
    }

    /// Everything the page shows, as JSON: the case, the replay's start and steps, the replies,
    /// the contest's text now, the legal replies, the score, and the final score at the end.
    pub fn state(&self) -> Value {
        let outcome = self.outcome();
        let over = self.is_over();
        let (legal, legal_count) = if over {
            (Some(Vec::new()), 0)
        } else {
            self.legal()
        };
        let params: Vec<Value> = outcome
            .params
            .iter()
            .map(|(name, value)| json!([name, value]))
            .collect();
        let case = self.case();
        json!({
            "game": self.game(),
            "case": case.to_string(),
            "seed": case.seed,
            "group": case.group,
            "params": params,
            "start": self.play.replay_start(),
            "steps": self.play.replay_steps(),
            "replies": self.replies,
            "message": self.play.message(),
            "legal": legal,
            "legal_count": legal_count,
            "score": self.play.score(),
            "score_text": format_score(self.play.score()),
            "moves": self.play.moves(),
            "over": over,
            "final": over.then(|| format_score(outcome.score)),
        })
    }

    /// Plays reply line `reply` and the automatic steps after it; an error (nothing changed)
    /// for a reply that does not read, or that the rules refuse, or after the end.
    pub fn step(&mut self, reply: &str) -> Result<(), String> {
        let text = self.play.step_reply(reply).map_err(|e| e.to_string())?;
        self.replies.push(text);
        Ok(())
    }

    /// Takes back the last reply (and the automatic steps after it).
    pub fn undo(&mut self) -> Result<(), String> {
        let Some(_) = self.replies.pop() else {
            return Err("nothing to undo".into());
        };
        let mut play = self.start.boxed_clone();
        for reply in &self.replies {
            play.step_reply(reply)
                .map_err(|e| format!("cannot play {reply:?} again: {e}"))?;
        }
        self.play = play;
        Ok(())
    }

    /// The built-in AI's reply for the position (at [`HINT_EFFORT`]), if the game has hints
    /// and it is the player's turn; always a legal reply.
    pub fn hint(&self) -> Option<String> {
        self.play.hint(HINT_EFFORT)
    }

    /// The replies accepted so far, in the protocol's text.
    pub fn replies(&self) -> &[String] {
        &self.replies
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.play.is_over()
    }

    /// The score now: the rules' score, or once the game is over the official score (as
    /// `marathon play` gives it, the player's time counted as zero).
    pub fn score(&self) -> f64 {
        self.outcome().score
    }

    /// A replay page of the game so far.
    pub fn replay_page(&self) -> String {
        let recording = Recording {
            outcome: self.outcome(),
            player: PLAYER.into(),
            start: self.play.replay_start().cloned().unwrap_or(Value::Null),
            steps: self.play.replay_steps().to_vec(),
        };
        replay::html(&recording, &self.game.viewer())
    }
}
