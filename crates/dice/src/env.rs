//! A case in play: the rules' state and the case's die.

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Dtype, Field, Spaces, Values};

use crate::generator::Die;
use crate::protocol::{self, ParseError};
use crate::rules::{Action, FACES, State, TARGET};

#[derive(Clone, Debug)]
pub struct DiceEnv {
    state: State,
    die: Die,
    moves: u64,
}

/// What a step did: the action and, for a roll, the die's face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub action: Action,
    pub roll: Option<u32>,
    pub total: u32,
}

impl DiceEnv {
    /// Case `seed`, which starts with the die's first roll dealt (so that cases differ from
    /// the first message on, as the games' do).
    pub fn new(seed: u64) -> Self {
        let mut die = Die::new(seed);
        let state = State {
            total: die.roll(),
            ..State::default()
        };
        DiceEnv {
            state,
            die,
            moves: 0,
        }
    }

    pub fn state(&self) -> &State {
        &self.state
    }
}

impl Environment for DiceEnv {
    type Action = Action;
    type Event = Step;
    type ParseError = ParseError;
    type RuleError = &'static str;

    fn turn(&self) -> Turn {
        if self.state.is_over() {
            Turn::Over
        } else {
            Turn::Player
        }
    }

    fn advance(&mut self) -> Step {
        unreachable!("dice has no automatic steps")
    }

    fn step(&mut self, action: Action) -> Result<Step, &'static str> {
        // The die is rolled only for a roll the rules allow: the case's draws stay in order.
        if self.state.is_over() {
            return Err("the game is over");
        }
        let roll = (action == Action::Roll).then(|| self.die.roll());
        self.state.apply(action, roll.unwrap_or(0))?;
        self.moves += 1;
        Ok(Step {
            action,
            roll,
            total: self.state.total,
        })
    }

    fn legal_actions(&self) -> Vec<Action> {
        if self.state.is_over() {
            Vec::new()
        } else {
            vec![Action::Roll, Action::Stop]
        }
    }

    fn message(&self, _last: Option<&Step>) -> String {
        protocol::format_message(self.state.total)
    }

    fn parse_action(&self, line: &str) -> Result<Action, ParseError> {
        protocol::parse_action(line)
    }

    fn format_action(&self, action: Action) -> String {
        protocol::format_action(action).to_string()
    }

    fn score(&self) -> f64 {
        f64::from(self.state.score())
    }

    fn moves(&self) -> u64 {
        self.moves
    }
}

impl Spaces for DiceEnv {
    const ACTIONS: usize = 2;
    const FIELDS: &'static [Field] = &[Field {
        name: "total",
        shape: &[1],
        dtype: Dtype::I32,
        low: 0,
        high: (TARGET + FACES - 1) as i32,
    }];

    fn action(&self, index: usize) -> Option<Action> {
        [Action::Roll, Action::Stop].get(index).copied()
    }

    fn action_index(&self, action: Action) -> Option<usize> {
        Some(match action {
            Action::Roll => 0,
            Action::Stop => 1,
        })
    }

    fn action_mask(&self, mask: &mut [i8]) {
        mask.fill(i8::from(!self.state.is_over()));
    }

    fn observe(&self, _field: usize, out: &mut Values<'_>) {
        out.set(0, self.state.total as i32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marathon_core::space::check_playout;

    #[test]
    fn random_play_stays_within_the_spaces() {
        for seed in 0..50 {
            let mut env = DiceEnv::new(seed);
            let mut k = seed as usize;
            check_playout(&mut env, true, 100, |n| {
                k = k.wrapping_mul(31).wrapping_add(7);
                k % n
            })
            .unwrap();
            assert_eq!(env.turn(), Turn::Over);
        }
    }
}
