//! One case in play, whatever its game: the object every driver holds. The judge plays it over a
//! program's text, `marathon serve` steps it by a person's replies, the Python environments by
//! action numbers, and its outcome is built here and only here. Like OpenSpiel's `State`, it is
//! one type-erased object ([`CaseInPlay`]) that a driver holds for any game, made by
//! [`crate::Game::start`].
//!
//! The automatic steps (another player's move, a forced pass) are played as soon as they are
//! due, so a driver only ever sees the player's turn or the end. A reply or action the rules
//! refuse changes nothing: the driver decides what it means (the judge and the Python
//! environments end the game with [`CaseInPlay::end`], the play page shows the error).

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use crate::case::{CaseId, CaseOutcome};
use crate::endpoint::Endpoint;
use crate::env::{self, Environment, Turn};
use crate::space::{Field, Spaces, Values};
use crate::spec::GameSpec;
use crate::verdict::Verdict;

/// Why a step was not taken (nothing changed).
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// An action number outside the action space `0..actions`.
    OutOfSpace { index: usize, actions: usize },
    /// A reply that is not one line.
    NotOneLine,
    /// A reply that does not read as an action: the reply (trimmed) and why.
    Unreadable { reply: String, reason: String },
    /// An action the rules refuse here: its reply line and why.
    Refused { reply: String, reason: String },
}

impl Refusal {
    /// The reason alone, as a verdict of an invalid reply states it.
    pub fn reason(&self) -> String {
        match self {
            Refusal::Unreadable { reason, .. } | Refusal::Refused { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Over => write!(f, "the game is over"),
            Refusal::OutOfSpace { index, actions } => {
                write!(f, "action {index} is outside the action space 0..{actions}")
            }
            Refusal::NotOneLine => write!(f, "a reply is one line"),
            Refusal::Unreadable { reply, reason } | Refusal::Refused { reply, reason } => {
                write!(f, "{reply:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for Refusal {}

/// A case in play; see the module's doc.
pub trait CaseInPlay: Send + Sync {
    /// The game's name (`linez`).
    fn game(&self) -> &'static str;
    /// The case played.
    fn case(&self) -> &CaseId;
    /// The size of the game's action space.
    fn action_count(&self) -> usize;
    /// The observation's arrays.
    fn fields(&self) -> &'static [Field];
    /// Whether the game is over: by the rules, or ended by [`CaseInPlay::end`].
    fn is_over(&self) -> bool;
    /// The contest's text the judge writes before the player's decision now.
    fn message(&self) -> String;
    /// Plays reply line `reply` (what a program would print) and the automatic steps after it;
    /// returns the reply as the protocol writes it (what [`CaseInPlay::reply_of`] gave).
    fn step_reply(&mut self, reply: &str) -> Result<String, Refusal>;
    /// Plays action number `index` and the automatic steps after it.
    fn step_index(&mut self, index: usize) -> Result<(), Refusal>;
    /// The reply line that says action number `index` now.
    fn reply_of(&self, index: usize) -> Result<String, Refusal>;
    /// 1 for every action number allowed now, 0 for the others (all 0 once over); `mask` has
    /// [`CaseInPlay::action_count`] elements.
    fn action_mask(&self, mask: &mut [i8]);
    /// The allowed actions' numbers in increasing order (the mask's compact form), none once
    /// the game has ended.
    fn for_each_allowed(&self, allowed: &mut dyn FnMut(usize));
    /// Writes field `field` of the observation into `out`.
    fn observe(&self, field: usize, out: &mut Values<'_>);
    /// The rules' score so far (before the contest's rule for failures).
    fn score(&self) -> f64;
    /// The player's moves so far, as the runner counts them.
    fn moves(&self) -> u64;
    /// Ends the game with a failure's `verdict` (a refused reply, a timeout, a crash).
    fn end(&mut self, verdict: Verdict);
    /// The result as the judge reports it, the player's time `time`: the official score once
    /// over (the contest's rule for failures applied); before the end, the rules' score and the
    /// verdict [`Verdict::Interrupted`].
    fn outcome(&self, time: Duration) -> CaseOutcome;
    /// Plays the game to its end or the player's first failure over `endpoint`, in the
    /// contest's text ([`crate::env::judge`]); a failure ends the game.
    fn judge(&mut self, endpoint: &mut Endpoint) -> Verdict;
    /// The game's built-in AI's reply now at the fixed `effort`, if the game gives hints and it
    /// is the player's turn; always a legal reply.
    fn hint(&self, effort: u64) -> Option<String>;
    /// The replay's start, if the case is recorded.
    fn replay_start(&self) -> Option<&Value>;
    /// The replay's steps so far (empty unless recorded).
    fn replay_steps(&self) -> &[Value];
    /// A copy, to play on from here separately.
    fn boxed_clone(&self) -> Box<dyn CaseInPlay>;
}

/// A case of game `G` in play: the one implementation of [`CaseInPlay`].
#[derive(Clone)]
pub struct InPlay<G: GameSpec> {
    game: G,
    case: CaseId,
    env: G::Env,
    /// The event before the player's decision, for the message.
    last: Option<<G::Env as Environment>::Event>,
    /// The failure that ended the game.
    ended: Option<Verdict>,
    /// The replay's start and steps, when recorded.
    start: Option<Value>,
    steps: Vec<Value>,
}

impl<G: GameSpec> InPlay<G> {
    /// Case `case` of `game` at its start; with `record`, its replay is kept. An error says
    /// what is wrong with the case id.
    pub fn new(game: &G, case: &CaseId, record: bool) -> Result<Self, String> {
        let env = game.environment(case)?;
        Ok(InPlay {
            start: record.then(|| game.replay_start(&env)),
            game: game.clone(),
            case: case.clone(),
            env,
            last: None,
            ended: None,
            steps: Vec::new(),
        })
    }

    /// [`InPlay::new`] with the automatic steps before the player's first decision played:
    /// where a driver that is not the judge starts.
    pub fn started(game: &G, case: &CaseId, record: bool) -> Result<Self, String> {
        let mut play = InPlay::new(game, case, record)?;
        play.advance();
        Ok(play)
    }

    /// The environment (a game's own player may start from it: [`GameSpec::start_builtin`]).
    pub fn env(&self) -> &G::Env {
        &self.env
    }

    /// Plays the automatic steps due.
    fn advance(&mut self) {
        let recording = self.start.is_some();
        let (game, steps, last) = (&self.game, &mut self.steps, &mut self.last);
        self.env.advance_while_auto(|env, event| {
            if recording {
                steps.extend(game.replay_step(env, event));
            }
            *last = Some(event.clone());
        });
    }

    /// Plays `action` and the automatic steps after it.
    fn play(&mut self, action: <G::Env as Environment>::Action) -> Result<(), Refusal> {
        match self.env.step(action) {
            Ok(event) => {
                if self.start.is_some() {
                    self.steps.extend(self.game.replay_step(&self.env, &event));
                }
                self.last = Some(event);
                self.advance();
                Ok(())
            }
            // A refused action changed nothing: the reply reads as it did before.
            Err(e) => Err(Refusal::Refused {
                reply: self.env.format_action(action),
                reason: e.to_string(),
            }),
        }
    }

    fn action(&self, index: usize) -> Result<<G::Env as Environment>::Action, Refusal> {
        self.env.action(index).ok_or(Refusal::OutOfSpace {
            index,
            actions: G::Env::ACTIONS,
        })
    }

    fn playing(&self) -> Result<(), Refusal> {
        if self.ended.is_some() || self.env.turn() != Turn::Player {
            Err(Refusal::Over)
        } else {
            Ok(())
        }
    }
}

impl<G: GameSpec> CaseInPlay for InPlay<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn case(&self) -> &CaseId {
        &self.case
    }

    fn action_count(&self) -> usize {
        G::Env::ACTIONS
    }

    fn fields(&self) -> &'static [Field] {
        G::Env::FIELDS
    }

    fn is_over(&self) -> bool {
        self.ended.is_some() || self.env.turn() == Turn::Over
    }

    fn message(&self) -> String {
        self.env.message(self.last.as_ref())
    }

    fn step_reply(&mut self, reply: &str) -> Result<String, Refusal> {
        self.advance();
        self.playing()?;
        if reply.contains(['\n', '\r']) {
            return Err(Refusal::NotOneLine);
        }
        let action = self
            .env
            .parse_action(reply)
            .map_err(|e| Refusal::Unreadable {
                reply: reply.trim().to_string(),
                reason: e.to_string(),
            })?;
        // The reply as the protocol writes it (reversi's refers to the board before the move).
        let text = self.env.format_action(action);
        self.play(action)?;
        Ok(text)
    }

    fn step_index(&mut self, index: usize) -> Result<(), Refusal> {
        self.advance();
        let action = self.action(index)?;
        self.playing()?;
        self.play(action)
    }

    fn reply_of(&self, index: usize) -> Result<String, Refusal> {
        Ok(self.env.format_action(self.action(index)?))
    }

    fn action_mask(&self, mask: &mut [i8]) {
        if self.ended.is_some() {
            mask.fill(0);
        } else {
            self.env.action_mask(mask);
        }
    }

    fn for_each_allowed(&self, allowed: &mut dyn FnMut(usize)) {
        if self.ended.is_none() {
            self.env.for_each_allowed(allowed);
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        self.env.observe(field, out);
    }

    fn score(&self) -> f64 {
        self.env.score()
    }

    fn moves(&self) -> u64 {
        self.env.moves()
    }

    fn end(&mut self, verdict: Verdict) {
        self.ended = Some(verdict);
    }

    fn outcome(&self, time: Duration) -> CaseOutcome {
        let over = self.env.turn() == Turn::Over;
        let (verdict, official) = match &self.ended {
            Some(verdict) => (verdict.clone(), true),
            None if over => (Verdict::Ok, true),
            None => (Verdict::Interrupted, false),
        };
        // Before the end, the figures of the game as it stands.
        let scored_as = if official { &verdict } else { &Verdict::Ok };
        let scored = self.game.score(&self.case, &self.env, scored_as, time);
        CaseOutcome {
            game: G::NAME,
            case: self.case.clone(),
            params: scored.params,
            score: if official {
                scored.score
            } else {
                self.env.score()
            },
            moves: self.env.moves(),
            time,
            verdict,
            metrics: scored.metrics,
            cpu: None,
            max_rss_kib: None,
        }
    }

    fn judge(&mut self, endpoint: &mut Endpoint) -> Verdict {
        let recording = self.start.is_some();
        let (game, steps, last) = (&self.game, &mut self.steps, &mut self.last);
        let verdict = env::judge_from(&mut self.env, last.clone(), endpoint, |env, event| {
            if recording {
                steps.extend(game.replay_step(env, event));
            }
            *last = Some(event.clone());
        });
        if !verdict.is_ok() {
            self.ended = Some(verdict.clone());
        }
        verdict
    }

    fn hint(&self, effort: u64) -> Option<String> {
        self.playing().ok()?;
        let action = self.game.hint(&self.env, effort)?;
        // Never offer what the rules would refuse.
        let legal = self.env.clone().step(action).is_ok();
        legal.then(|| self.env.format_action(action))
    }

    fn replay_start(&self) -> Option<&Value> {
        self.start.as_ref()
    }

    fn replay_steps(&self) -> &[Value] {
        &self.steps
    }

    fn boxed_clone(&self) -> Box<dyn CaseInPlay> {
        Box::new(self.clone())
    }
}
