//! The player's side of a game ([`marathon_core::Follower`]): the board's 6 lines, then after
//! each removal the line that says what it uncovered, kept as the player's [`State`] and
//! observed exactly as the environment observes it (`space`).

use marathon_core::Follower;
use marathon_core::space::Values;

use crate::protocol::{Reply, format_reply, parse_board, parse_reveal};
use crate::rules::{Cell, SIZE, State};
use crate::space::{STOP, observe_state, reply_of, state_mask};

/// A game followed from the player's side; see the module's doc.
#[derive(Clone, Debug, Default)]
pub struct SolitaireFollower {
    /// The board's lines read so far, before the state exists.
    board: Vec<String>,
    state: Option<State>,
    /// The cell removed by the last reply, whose reveal the judge writes next.
    awaiting: Option<Cell>,
    due: bool,
    stopped: bool,
}

impl SolitaireFollower {
    pub fn new() -> Self {
        Self::default()
    }

    /// What the player knows, once the board has been read.
    pub fn state(&self) -> Option<&State> {
        self.state.as_ref()
    }
}

impl Follower for SolitaireFollower {
    fn read_line(&mut self, line: &str) -> Result<bool, String> {
        let line = line.trim_end_matches(['\n', '\r']);
        if self.stopped {
            return Err(format!(
                "the game is over (`0 0`), yet the judge wrote {line:?}"
            ));
        }
        let Some(state) = self.state.as_mut() else {
            self.board.push(line.to_string());
            if self.board.len() < SIZE {
                return Ok(false);
            }
            let rows: Vec<&str> = self.board.iter().map(String::as_str).collect();
            let tops = parse_board(&rows).map_err(|e| format!("the board: {e}"))?;
            self.state = Some(State::new(tops));
            self.due = true;
            return Ok(true);
        };
        let Some(cell) = self.awaiting.take() else {
            return Err(format!(
                "the judge wrote {line:?} while a reply was due, not a reveal"
            ));
        };
        let reveal = parse_reveal(line).map_err(|e| e.to_string())?;
        state
            .play(cell, reveal)
            .map_err(|e| format!("after removing {cell}: {e}"))?;
        self.due = true;
        Ok(true)
    }

    fn decision_due(&self) -> bool {
        self.due
    }

    fn is_over(&self) -> bool {
        self.stopped
    }

    fn action_mask(&self, mask: &mut [i8]) {
        match &self.state {
            Some(state) => state_mask(state, self.due, mask),
            None => mask.fill(0),
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        match &self.state {
            Some(state) => observe_state(state, field, out),
            None => out.fill(0),
        }
    }

    fn reply(&mut self, index: usize) -> Result<String, String> {
        let state = match &self.state {
            Some(state) if self.due => state,
            _ => return Err("no decision is due: read the judge's lines first".to_string()),
        };
        let reply = reply_of(index)
            .ok_or_else(|| format!("action {index} is outside the action space 0..{}", STOP + 1))?;
        if let Reply::Remove(cell) = reply {
            state.check(cell).map_err(|e| e.to_string())?;
        }
        self.due = false;
        match reply {
            Reply::Stop => self.stopped = true,
            Reply::Remove(cell) => self.awaiting = Some(cell),
        }
        Ok(format_reply(reply))
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::Environment;
    use marathon_core::rng::FastRng;
    use marathon_core::space::{Buffer, Spaces, observation_buffers, observe_all};

    use super::*;
    use crate::env::SolitaireEnv;
    use crate::generator::{Alphabet, Deal};

    /// The follower's observation, field by field, as [`observe_all`] gives the environment's.
    fn followed(follower: &SolitaireFollower) -> Vec<Buffer> {
        let mut buffers = observation_buffers::<SolitaireEnv>();
        for (field, buffer) in buffers.iter_mut().enumerate() {
            follower.observe(field, &mut buffer.values());
        }
        buffers
    }

    fn feed(follower: &mut SolitaireFollower, message: &str) -> bool {
        let mut due = false;
        for line in message.lines() {
            assert!(!due, "a decision came before the message's end");
            due = follower.read_line(line).expect("the judge's own lines");
        }
        due
    }

    #[test]
    fn the_judges_lines_give_the_environments_observation_and_mask() {
        let actions = SolitaireEnv::ACTIONS;
        for group in 1..=6u32 {
            for seed in 1..=5u64 {
                let deal = Deal::new(&Alphabet::of_group(group).expect("a group"), seed);
                let mut env = SolitaireEnv::new(deal);
                let mut follower = SolitaireFollower::new();
                let mut rng = FastRng::new(seed * 10 + u64::from(group));
                let mut last = None;
                loop {
                    assert!(feed(&mut follower, &env.message(last.as_ref())));
                    assert_eq!(
                        followed(&follower),
                        observe_all(&env),
                        "group {group} seed {seed}"
                    );
                    let (mut want, mut got) = (vec![0; actions], vec![0; actions]);
                    env.action_mask(&mut want);
                    follower.action_mask(&mut got);
                    assert_eq!(got, want);
                    let legal: Vec<usize> = (0..actions).filter(|&a| want[a] == 1).collect();
                    // Stop rarely, so that games run long and reach the blanks.
                    let index = if legal.len() > 1 && rng.below(30) != 0 {
                        legal[rng.below(legal.len() as u32 - 1) as usize]
                    } else {
                        STOP
                    };
                    let action = env.action(index).expect("in the space");
                    assert_eq!(
                        follower.reply(index).expect("legal"),
                        env.format_action(action)
                    );
                    let step = env.step(action).expect("legal");
                    if index == STOP {
                        assert!(follower.is_over());
                        break;
                    }
                    last = Some(step);
                }
            }
        }
    }

    #[test]
    fn refusals_change_nothing_and_bad_lines_are_named() {
        let deal = Deal::new(&Alphabet::of_group(6).expect("6"), 3);
        let env = SolitaireEnv::new(deal);
        let mut follower = SolitaireFollower::new();
        assert!(
            follower
                .reply(0)
                .unwrap_err()
                .contains("no decision is due")
        );
        assert!(feed(&mut follower, &env.message(None)));
        assert!(
            follower
                .read_line("1")
                .unwrap_err()
                .contains("reply was due")
        );
        assert!(
            follower
                .reply(37)
                .unwrap_err()
                .contains("outside the action space")
        );
        let first = follower.reply(8).expect("any first removal");
        assert_eq!(first, "2 3");
        let mut mask = vec![1; SolitaireEnv::ACTIONS];
        follower.action_mask(&mut mask);
        assert!(
            mask.iter().all(|&m| m == 0),
            "no decision while a reveal is awaited"
        );
        assert!(follower.read_line("pawn").unwrap_err().contains("\"pawn\""));

        let mut short = SolitaireFollower::new();
        for _ in 0..5 {
            assert!(!short.read_line("1 1 1 1 1 1").unwrap());
        }
        let error = short.read_line("1 1 1 1 1").unwrap_err();
        assert!(error.contains("line 6"), "{error}");
    }
}
