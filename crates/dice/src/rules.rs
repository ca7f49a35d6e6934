//! The rules: a total, a die's roll added by each `ROLL`, the game over at `STOP`, at the
//! target exactly, or over it (a bust, scoring nothing).

/// The total to reach without going over.
pub const TARGET: u32 = 100;
/// The die's faces.
pub const FACES: u32 = 6;

/// A decision of the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Roll,
    Stop,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub total: u32,
    pub stopped: bool,
}

impl State {
    /// Whether the total went over the target.
    pub fn bust(&self) -> bool {
        self.total > TARGET
    }

    pub fn is_over(&self) -> bool {
        self.stopped || self.total >= TARGET
    }

    /// The points: the total, or 0 after a bust.
    pub fn score(&self) -> u32 {
        if self.bust() { 0 } else { self.total }
    }

    /// Plays `action`; a roll adds `roll` (1 to [`FACES`], chance's draw). Refused once over.
    pub fn apply(&mut self, action: Action, roll: u32) -> Result<(), &'static str> {
        if self.is_over() {
            return Err("the game is over");
        }
        match action {
            Action::Roll => self.total += roll,
            Action::Stop => self.stopped = true,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_over_the_target_scores_nothing_and_stopping_keeps_it() {
        let mut state = State::default();
        state.apply(Action::Roll, 6).unwrap();
        state.apply(Action::Roll, 6).unwrap();
        assert_eq!(state.score(), 12);
        let mut stopped = state;
        stopped.apply(Action::Stop, 0).unwrap();
        assert!(stopped.is_over());
        assert_eq!(stopped.score(), 12);
        assert!(stopped.apply(Action::Roll, 1).is_err());
        while state.total < TARGET - 1 {
            state.apply(Action::Roll, 1).unwrap();
        }
        assert!(!state.is_over());
        state.apply(Action::Roll, 2).unwrap();
        assert!(state.is_over() && state.bust());
        assert_eq!(state.score(), 0);
    }
}
