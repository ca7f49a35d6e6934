//! A Solitaire chess case in play: the deal (every stack, hidden below its top), the state under
//! the rules, stepped by the player's removals until it says `0 0`. The judge, replays, tests
//! and tuners all drive it (`marathon_core::env`).

use std::sync::Arc;

use marathon_core::env::{Environment, Turn};

use crate::generator::{Alphabet, DEFAULT_GROUP, Deal, GROUP_ALPHABETS, official_case};
use crate::protocol::{Reply, ReplyError, format_board, format_reply, format_reveal, parse_reply};
use crate::rules::{Breakdown, Cell, MoveError, Piece, State, cells_of};

/// A case of Solitaire chess from its start.
#[derive(Clone, Debug)]
pub struct SolitaireEnv {
    deal: Arc<Deal>,
    state: State,
    stopped: bool,
}

/// One removal as a replay shows it, or the player's `0 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Removed {
        cell: Cell,
        removed: Piece,
        /// The piece uncovered; `None` when the stack is used up.
        revealed: Option<Piece>,
        /// The points so far, kind by kind, after this removal.
        breakdown: Breakdown,
    },
    Stopped,
}

/// What a case id stands for: its group, alphabet and seed. An official case (by name) takes
/// its row of the official tests; otherwise the group's alphabet (the default group when none is
/// given). An unknown official name or a group that is not one of the statement's is an error.
pub fn case_setup(case: &marathon_core::CaseId) -> Result<(u32, Alphabet, u64), String> {
    if let Some(name) = case.name.as_deref() {
        let official =
            official_case(name).ok_or_else(|| format!("no official case is named {name:?}"))?;
        return Ok((official.group, official.alphabet, official.seed));
    }
    let group = case.group.unwrap_or(DEFAULT_GROUP);
    let alphabet = Alphabet::of_group(group).ok_or_else(|| {
        format!(
            "group {group} is not one of the statement's groups 1..{}",
            GROUP_ALPHABETS.len()
        )
    })?;
    Ok((group, alphabet, case.seed))
}

/// The deal of a case.
pub fn case_deal(case: &marathon_core::CaseId) -> Result<Deal, String> {
    let (_, alphabet, seed) = case_setup(case)?;
    Ok(Deal::new(&alphabet, seed))
}

impl SolitaireEnv {
    /// The game of `deal` at its start.
    pub fn new(deal: Deal) -> Self {
        SolitaireEnv {
            state: State::new(deal.tops()),
            deal: Arc::new(deal),
            stopped: false,
        }
    }

    /// The deal, stacks and all (hidden from the player below the tops).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// What the player knows: the tops, the depths, the last removal and the score.
    pub fn state(&self) -> &State {
        &self.state
    }
}

impl Environment for SolitaireEnv {
    type Action = Reply;
    type Event = Step;
    type ParseError = ReplyError;
    type RuleError = MoveError;

    /// The player's until it says `0 0`, even with no removal left.
    fn turn(&self) -> Turn {
        if self.stopped {
            Turn::Over
        } else {
            Turn::Player
        }
    }

    fn advance(&mut self) -> Step {
        unreachable!("Solitaire chess has no automatic steps")
    }

    fn step(&mut self, reply: Reply) -> Result<Step, MoveError> {
        let cell = match reply {
            Reply::Stop => {
                self.stopped = true;
                return Ok(Step::Stopped);
            }
            Reply::Remove(cell) => cell,
        };
        let removed = self.state.check(cell)?;
        let revealed = self.deal.piece(cell, self.state.removed(cell) + 1);
        self.state.play_unchecked(cell, revealed);
        Ok(Step::Removed {
            cell,
            removed,
            revealed,
            breakdown: self.state.scorer.breakdown,
        })
    }

    /// The cells the rules allow, then `0 0`.
    fn legal_actions(&self) -> Vec<Reply> {
        if self.stopped {
            return Vec::new();
        }
        let mut replies: Vec<Reply> = cells_of(self.state.legal()).map(Reply::Remove).collect();
        replies.push(Reply::Stop);
        replies
    }

    /// The start's 6 lines; after a removal, the piece it uncovered (or `blank`).
    fn message(&self, last: Option<&Step>) -> String {
        match last {
            Some(Step::Removed { revealed, .. }) => format!("{}\n", format_reveal(*revealed)),
            _ => format_board(&self.deal.tops()),
        }
    }

    fn parse_action(&self, line: &str) -> Result<Reply, ReplyError> {
        parse_reply(line)
    }

    fn format_action(&self, reply: Reply) -> String {
        format_reply(reply)
    }

    fn score(&self) -> f64 {
        f64::from(self.state.score())
    }

    fn moves(&self) -> u64 {
        u64::from(self.state.moves())
    }
}
