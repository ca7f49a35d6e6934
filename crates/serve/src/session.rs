//! A case played by a person: the environment the judge drives, stepped by reply lines (what a
//! program would print), with the replay's start and steps for the page to draw, an undo, and
//! the built-in AI's hint. Generic over the game ([`Play`]) behind one object-safe trait
//! ([`Session`]), so that the server holds any game.
//!
//! A reply the rules refuse changes nothing and is an error for the page to show: a misclick
//! does not end the game as it would end a program's. Every reply kept was accepted, so the
//! replies replay through [`marathon_core::Game::replay`] (and through `marathon play`, fed to a
//! program that prints them) to the same score.

use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::replay::{self, Recording};
use marathon_core::space::Spaces;
use marathon_core::{CaseId, CaseOutcome, GameSpec, Verdict, format_score};
use serde_json::{Value, json};

/// The effort of the AI's search for a hint: small, so that a hint comes at once (under 0.1 s in
/// every game, most in a few milliseconds, measured on seeds 1-4).
pub const HINT_EFFORT: u64 = 16;

/// A state lists the legal replies while there are at most this many (Polyomino's placements
/// of a small piece on a large board are far more: the page does without the list there).
pub const LEGAL_LIMIT: usize = 4096;

/// Who played a game saved from the page, as its replay page names the player.
pub const PLAYER: &str = "a person (marathon serve)";

/// A case in play, whatever its game.
pub trait Session: Send {
    /// The game's name.
    fn game(&self) -> &'static str;
    /// The case played.
    fn case(&self) -> &CaseId;
    /// Everything the page shows, as JSON: the case, the replay's start and steps, the replies,
    /// the contest's text now, the legal replies, the score, and the final score at the end.
    fn state(&self) -> Value;
    /// Plays reply line `reply` and the automatic steps after it; an error (nothing changed)
    /// for a reply that does not read, or that the rules refuse, or after the end.
    fn step(&mut self, reply: &str) -> Result<(), String>;
    /// Takes back the last reply (and the automatic steps after it).
    fn undo(&mut self) -> Result<(), String>;
    /// The built-in AI's reply for the position ([`GameSpec::hint`] at [`HINT_EFFORT`]), if the
    /// game has hints and it is the player's turn; always a legal reply.
    fn hint(&self) -> Option<String>;
    /// The replies accepted so far, in the protocol's text.
    fn replies(&self) -> &[String];
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The score now: the rules' score, or once the game is over the official score (as
    /// `marathon play` gives it, the player's time counted as zero).
    fn score(&self) -> f64;
    /// A replay page of the game so far.
    fn replay_page(&self) -> String;
}

/// Starts case `seed` (in `group`, or the game's default group) of game `name`, as
/// `marathon play NAME --seeds SEED [--group GROUP]` would play it.
pub fn new_session(name: &str, seed: u64, group: Option<u32>) -> Result<Box<dyn Session>, String> {
    struct Start {
        seed: u64,
        group: Option<u32>,
    }
    impl marathon_games::GameVisitor for Start {
        type Output = Result<Box<dyn Session>, String>;
        fn visit<G: GameSpec>(self, game: &'static G) -> Self::Output
        where
            G::Env: Spaces + Sync,
            <G::Env as Environment>::Event: Sync,
        {
            let case = marathon_games::seed_case(game, self.seed, self.group)?;
            Ok(Box::new(Play::new(game, case)?))
        }
    }
    marathon_games::with_game(name, Start { seed, group }).unwrap_or_else(|| {
        Err(format!(
            "unknown game {name:?} (games: {})",
            marathon_games::names().join(", ")
        ))
    })
}

/// A case of game `G` in play.
pub struct Play<G: GameSpec> {
    game: &'static G,
    case: CaseId,
    /// The case at its start, before any step: undo plays the replies again from here.
    start: G::Env,
    /// The replay's start, as the game's viewer reads it.
    start_json: Value,
    env: G::Env,
    /// The last event, for the contest's text.
    last: Option<<G::Env as Environment>::Event>,
    /// Every step as the viewer reads it (the player's and the automatic ones).
    steps: Vec<Value>,
    replies: Vec<String>,
}

impl<G: GameSpec> Play<G>
where
    G::Env: Spaces,
{
    /// The case `case` at the player's first decision.
    pub fn new(game: &'static G, case: CaseId) -> Result<Self, String> {
        let start = game.environment(&case)?;
        let mut play = Play {
            game,
            start_json: game.replay_start(&start),
            env: start.clone(),
            start,
            case,
            last: None,
            steps: Vec::new(),
            replies: Vec::new(),
        };
        play.advance();
        Ok(play)
    }

    /// Plays the automatic steps due.
    fn advance(&mut self) {
        let (game, steps, last) = (self.game, &mut self.steps, &mut self.last);
        self.env.advance_while_auto(|env, event| {
            steps.extend(game.replay_step(env, event));
            *last = Some(event.clone());
        });
    }

    /// The legal replies if there are at most [`LEGAL_LIMIT`], and how many there are. They
    /// are the game's action mask ([`Spaces::action_mask`]): every legal reply but in
    /// Polyomino, where it is the `GET`s of sizes that fit somewhere, the placements of the
    /// piece requested last and `DONE`.
    fn legal(&self) -> (Option<Vec<String>>, usize) {
        let mut mask = vec![0i8; G::Env::ACTIONS];
        self.env.action_mask(&mut mask);
        let allowed: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
        let count = allowed.len();
        let listed = (count <= LEGAL_LIMIT).then(|| {
            allowed
                .into_iter()
                .filter_map(|i| self.env.action(i))
                .map(|action| self.env.format_action(action))
                .collect()
        });
        (listed, count)
    }

    /// The outcome as the judge would report it now: the official score at the end, the
    /// rules' score before (the verdict then says the game was stopped).
    fn outcome(&self) -> CaseOutcome {
        let over = self.env.turn() == Turn::Over;
        let verdict = if over {
            Verdict::Ok
        } else {
            Verdict::Interrupted
        };
        let scored = self
            .game
            .score(&self.case, &self.env, &Verdict::Ok, Duration::ZERO);
        CaseOutcome {
            game: G::NAME,
            case: self.case.clone(),
            params: scored.params,
            score: if over { scored.score } else { self.env.score() },
            moves: self.env.moves(),
            time: Duration::ZERO,
            verdict,
            metrics: scored.metrics,
            cpu: None,
            max_rss_kib: None,
        }
    }
}

impl<G: GameSpec> Session for Play<G>
where
    G::Env: Spaces,
{
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn case(&self) -> &CaseId {
        &self.case
    }

    fn state(&self) -> Value {
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
        json!({
            "game": G::NAME,
            "case": self.case.to_string(),
            "seed": self.case.seed,
            "group": self.case.group,
            "params": params,
            "start": self.start_json,
            "steps": self.steps,
            "replies": self.replies,
            "message": self.env.message(self.last.as_ref()),
            "legal": legal,
            "legal_count": legal_count,
            "score": self.env.score(),
            "score_text": format_score(self.env.score()),
            "moves": self.env.moves(),
            "over": over,
            "final": over.then(|| format_score(outcome.score)),
        })
    }

    fn step(&mut self, reply: &str) -> Result<(), String> {
        if self.env.turn() != Turn::Player {
            return Err("the game is over".into());
        }
        if reply.contains(['\n', '\r']) {
            return Err("a reply is one line".into());
        }
        let action = self
            .env
            .parse_action(reply)
            .map_err(|e| format!("{:?}: {e}", reply.trim()))?;
        // The reply as the protocol writes it (reversi's refers to the board before the move).
        let text = self.env.format_action(action);
        let event = self
            .env
            .step(action)
            .map_err(|e| format!("{text:?}: {e}"))?;
        self.steps.extend(self.game.replay_step(&self.env, &event));
        self.last = Some(event);
        self.replies.push(text);
        self.advance();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), String> {
        let Some(_) = self.replies.pop() else {
            return Err("nothing to undo".into());
        };
        let replies = std::mem::take(&mut self.replies);
        self.env = self.start.clone();
        self.last = None;
        self.steps.clear();
        self.advance();
        for reply in &replies {
            self.step(reply)
                .map_err(|e| format!("cannot play {reply:?} again: {e}"))?;
        }
        Ok(())
    }

    fn hint(&self) -> Option<String> {
        if self.env.turn() != Turn::Player {
            return None;
        }
        let action = self.game.hint(&self.env, HINT_EFFORT)?;
        // Never offer what the rules would refuse.
        let legal = self.env.clone().step(action).is_ok();
        legal.then(|| self.env.format_action(action))
    }

    fn replies(&self) -> &[String] {
        &self.replies
    }

    fn is_over(&self) -> bool {
        self.env.turn() == Turn::Over
    }

    fn score(&self) -> f64 {
        self.outcome().score
    }

    fn replay_page(&self) -> String {
        let recording = Recording {
            outcome: self.outcome(),
            player: PLAYER.into(),
            start: self.start_json.clone(),
            steps: self.steps.clone(),
        };
        replay::html(&recording, &G::VIEWER)
    }
}
