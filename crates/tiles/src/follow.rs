//! The player's side of a game ([`marathon_core::Follower`]): the line `N S D`, then a line per
//! turn with the tile in hand; the player keeps the board itself (the protocol never shows it)
//! by playing its own replies into its [`State`], observed exactly as the environment observes
//! it (`space`).

use marathon_core::Follower;
use marathon_core::space::Values;

use crate::protocol::{format_move, parse_params, parse_tile};
use crate::rules::{Move, State, Tile};
use crate::space::{move_of, observe_state, state_mask};

/// A game followed from the player's side; see the module's doc.
#[derive(Clone, Debug, Default)]
pub struct TilesFollower {
    state: Option<State>,
    /// The tile of the decision due, if one is.
    tile: Option<Tile>,
    lines: usize,
}

impl TilesFollower {
    pub fn new() -> Self {
        Self::default()
    }

    /// What the player knows, once `N S D` has been read.
    pub fn state(&self) -> Option<&State> {
        self.state.as_ref()
    }
}

impl Follower for TilesFollower {
    fn read_line(&mut self, line: &str) -> Result<bool, String> {
        let line = line.trim_end_matches(['\n', '\r']);
        self.lines += 1;
        let number = self.lines;
        let Some(state) = &self.state else {
            let params = parse_params(line).map_err(|e| format!("line 1: {e}"))?;
            self.state = Some(State::new(params));
            return Ok(false);
        };
        if self.tile.is_some() {
            return Err(format!(
                "line {number}: the judge wrote {line:?} while a reply was due"
            ));
        }
        if state.is_over() {
            return Err(format!("line {number}: a tile after the game's end"));
        }
        let tile = parse_tile(line, state.params.n).map_err(|e| format!("line {number}: {e}"))?;
        self.tile = Some(tile);
        Ok(true)
    }

    fn decision_due(&self) -> bool {
        self.tile.is_some()
    }

    fn is_over(&self) -> bool {
        self.state.as_ref().is_some_and(State::is_over)
    }

    fn action_mask(&self, mask: &mut [i8]) {
        match &self.state {
            Some(state) => state_mask(state, self.tile, mask),
            None => mask.fill(0),
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        match &self.state {
            Some(state) => observe_state(state, self.tile, field, out),
            None => out.fill(0),
        }
    }

    fn reply(&mut self, index: usize) -> Result<String, String> {
        let (Some(state), Some(tile)) = (self.state.as_mut(), self.tile) else {
            return Err("no decision is due: read the judge's lines first".to_string());
        };
        let mv: Move = move_of(index)
            .ok_or_else(|| format!("action {index} is outside the action space 0..146"))?;
        // The state is unchanged when the rules refuse the move.
        state.play(tile, mv).map_err(|e| e.to_string())?;
        self.tile = None;
        Ok(format_move(mv))
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::Environment;
    use marathon_core::rng::FastRng;
    use marathon_core::space::{Spaces, observation_buffers, observe_all};

    use super::*;
    use crate::env::TilesEnv;

    fn feed(follower: &mut TilesFollower, message: &str) -> bool {
        let mut due = false;
        for line in message.lines() {
            assert!(!due, "a decision came before the message's end");
            due = follower.read_line(line).expect("the judge's own lines");
        }
        due
    }

    #[test]
    fn the_judges_lines_give_the_environments_observation_and_mask() {
        let actions = TilesEnv::ACTIONS;
        for seed in 1..=8u64 {
            let mut env = TilesEnv::new(seed);
            let mut follower = TilesFollower::new();
            let mut rng = FastRng::new(seed);
            let mut last = None;
            for _ in 0..400 {
                assert!(feed(&mut follower, &env.message(last.as_ref())));
                let mut followed = observation_buffers::<TilesEnv>();
                for (field, buffer) in followed.iter_mut().enumerate() {
                    follower.observe(field, &mut buffer.values());
                }
                assert_eq!(followed, observe_all(&env), "seed {seed}");
                let (mut want, mut got) = (vec![0; actions], vec![0; actions]);
                env.action_mask(&mut want);
                follower.action_mask(&mut got);
                assert_eq!(got, want);
                // Placements and discards, rarely giving up, so that games run long.
                let legal: Vec<usize> = (0..actions - 1).filter(|&a| want[a] == 1).collect();
                let index = if legal.is_empty() || rng.below(200) == 0 {
                    actions - 1
                } else {
                    legal[rng.below(legal.len() as u32) as usize]
                };
                let action = env.action(index).expect("in the space");
                assert_eq!(
                    follower.reply(index).expect("legal"),
                    env.format_action(action)
                );
                let step = env.step(action).expect("legal");
                if env.turn() == marathon_core::Turn::Over {
                    assert!(follower.is_over());
                    break;
                }
                last = Some(step);
            }
        }
    }

    #[test]
    fn refusals_change_nothing_and_bad_lines_are_named() {
        let mut follower = TilesFollower::new();
        assert!(!follower.read_line("6 11 3").unwrap());
        assert!(
            follower
                .reply(0)
                .unwrap_err()
                .contains("no decision is due")
        );
        assert!(follower.read_line("W").unwrap());
        assert!(follower.read_line("R").unwrap_err().contains("line 3"));
        assert!(follower.reply(146).unwrap_err().contains("outside"));
        assert_eq!(follower.reply(0).unwrap(), "0 0");
        assert!(follower.read_line("55").unwrap());
        // A regular tile next to nothing: refused, and the decision is still due.
        assert!(follower.reply(10 * 12 + 10).is_err());
        assert!(follower.decision_due());
        assert!(follower.read_line("x").is_err());
        let mut bad = TilesFollower::new();
        assert!(bad.read_line("6 11").unwrap_err().contains("line 1"));
    }
}
