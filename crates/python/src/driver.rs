//! A game's case played by action numbers, as a Gymnasium environment steps it: the game's case
//! in play ([`CaseInPlay`]) with the reward and the restart added, for any game of the
//! registry. Pure Rust: its tests need no Python.
//!
//! What it adds to the environment: the case is chosen like `marathon play GAME --seeds N`
//! (with the game's default group); the automatic steps (reversi's opponents, linez's forced
//! passes) are played inside [`Driver::step`], so the caller sees only its own turns; the reward
//! is the score gained; and an action the rules refuse ends the game as the judge ends it, with
//! the contest's score for a failure (0 in every game but linez, which keeps its points).

use std::ops::RangeInclusive;
use std::time::Duration;

use marathon_core::space::{Field, Values};
use marathon_core::{CaseInPlay, Game, Refusal, Verdict};

/// What a step did.
#[derive(Clone, Debug, PartialEq)]
pub struct Stepped {
    /// The score gained (negative when a failure loses the points so far).
    pub reward: f64,
    /// The game is over.
    pub terminated: bool,
    /// Why the rules refused the action, which ended the game.
    pub invalid: Option<String>,
}

/// A game played by action numbers; see the module's doc.
pub struct Driver {
    game: &'static dyn Game,
    /// The last case started, at its first decision: starting it again is a copy (reversi's
    /// cases take a genetic algorithm to deal).
    start: Option<Box<dyn CaseInPlay>>,
    play: Option<Box<dyn CaseInPlay>>,
    /// [`Driver::score`], kept so that a step's reward is one subtraction.
    score: f64,
}

/// The driver of game `name` (a name of the registry), or `None`.
pub fn driver(name: &str) -> Option<Driver> {
    marathon_games::find(name).map(|game| Driver {
        game,
        start: None,
        play: None,
        score: 0.0,
    })
}

/// The games' names, in the registry's order.
pub fn games() -> Vec<&'static str> {
    marathon_games::names()
}

pub(crate) const NO_GAME: &str = "no game: call reset() first";

impl Driver {
    /// The game's name (`linez`).
    pub fn name(&self) -> &'static str {
        self.game.name()
    }

    /// The reply that ends a game at once and validly, where the protocol has one.
    pub fn final_reply(&self) -> Option<&'static str> {
        self.game.final_reply()
    }

    /// The metric holding the moves' points alone, for a game whose score counts time.
    pub fn untimed_score(&self) -> Option<&'static str> {
        self.game.untimed_score()
    }

    /// The size of the action space.
    pub fn actions(&self) -> usize {
        self.game.action_count()
    }

    /// The observation's arrays.
    pub fn fields(&self) -> &'static [Field] {
        self.game.fields()
    }

    /// The case groups and the default group, for a game that has groups.
    pub fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        self.game.groups()
    }

    /// Starts the case `seed` (in `group`, or the default group), and plays the automatic steps
    /// before the first decision.
    pub fn reset(&mut self, seed: u64, group: Option<u32>) -> Result<(), String> {
        let case = marathon_games::seed_case(self.game, seed, group)?;
        let start = match self.start.take() {
            Some(start) if *start.case() == case => start,
            _ => self.game.start(&case, false).map_err(|e| e.to_string())?,
        };
        self.score = start.score();
        self.play = Some(start.boxed_clone());
        self.start = Some(start);
        Ok(())
    }

    /// Starts the case `other` last started (a copy: nothing is dealt), if it started one.
    pub fn reset_as(&mut self, other: &Driver) {
        if let Some(start) = &other.start {
            self.score = start.score();
            self.play = Some(start.boxed_clone());
            self.start = Some(start.boxed_clone());
        }
    }

    /// The action number of `index`, checked against the space.
    fn index(&self, index: i64) -> Result<usize, String> {
        usize::try_from(index)
            .ok()
            .filter(|&i| i < self.actions())
            .ok_or_else(|| {
                format!(
                    "action {index} is outside the action space 0..{}",
                    self.actions()
                )
            })
    }

    /// Plays action `index` and the automatic steps after it. An error (nothing changed) for an
    /// index outside the space, a game that is over or not started.
    pub fn step(&mut self, index: i64) -> Result<Stepped, String> {
        self.play.as_ref().ok_or(NO_GAME)?;
        let index = self.index(index)?;
        let play = self.play.as_mut().ok_or(NO_GAME)?;
        let before = self.score;
        let invalid = match play.step_index(index) {
            Ok(()) => None,
            Err(Refusal::Over) => return Err("the game is over: call reset()".into()),
            Err(refusal @ Refusal::Refused { .. }) => {
                play.end(Verdict::invalid(&refusal_reply(&refusal), refusal.reason()));
                Some(refusal.to_string())
            }
            Err(other) => return Err(other.to_string()),
        };
        let terminated = play.is_over();
        // The official score once over (the failure rule applied), the rules' score before.
        self.score = if terminated {
            play.outcome(Duration::ZERO).score
        } else {
            play.score()
        };
        Ok(Stepped {
            reward: self.score - before,
            terminated,
            invalid,
        })
    }

    /// The allowed actions now (see [`marathon_core::space::Spaces::action_mask`]).
    pub fn action_mask(&self, mask: &mut [i8]) {
        match &self.play {
            Some(play) => play.action_mask(mask),
            None => mask.fill(0),
        }
    }

    /// Calls `allowed` with every allowed action's number, in increasing order (the mask's
    /// compact form).
    pub fn for_each_allowed(&self, allowed: &mut dyn FnMut(usize)) {
        if let Some(play) = &self.play {
            play.for_each_allowed(allowed);
        }
    }

    /// Writes field `field` of the observation.
    pub fn observe(&self, field: usize, out: &mut Values<'_>) {
        match &self.play {
            Some(play) => play.observe(field, out),
            None => out.fill(0),
        }
    }

    /// The contest's text the judge would write now (after the last step).
    pub fn message(&self) -> String {
        self.play
            .as_ref()
            .map_or_else(String::new, |play| play.message())
    }

    /// The reply line that says action `index` now.
    pub fn action_text(&self, index: i64) -> Result<String, String> {
        let play = self.play.as_ref().ok_or(NO_GAME)?;
        let index = self.index(index)?;
        play.reply_of(index).map_err(|e| e.to_string())
    }

    /// The contest's score so far: the rules' score, or the failure score once an action was
    /// refused (no time penalty: the player's time is not counted here).
    pub fn score(&self) -> f64 {
        self.score
    }

    /// Whether a case was started ([`Driver::reset`]).
    pub fn started(&self) -> bool {
        self.play.is_some()
    }

    /// The game is over (ended by the rules or by a refused action), or not started.
    pub fn is_over(&self) -> bool {
        self.play.as_ref().is_none_or(|play| play.is_over())
    }

    /// The player's moves so far, as the runner counts them.
    pub fn moves(&self) -> u64 {
        self.play.as_ref().map_or(0, |play| play.moves())
    }
}

/// The reply line a refusal quotes.
fn refusal_reply(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Refused { reply, .. } | Refusal::Unreadable { reply, .. } => reply.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::CaseId;
    use marathon_core::rng::FastRng;

    use super::*;

    /// Plays case `seed` of `name` with random allowed actions to its end; returns the reply
    /// lines, the rewards' sum plus the score at the start (reversi's players start with
    /// pieces) and the final score.
    fn random_game(name: &str, seed: u64, group: Option<u32>) -> (Vec<String>, f64, f64) {
        let mut driver = driver(name).expect("a game");
        driver.reset(seed, group).expect("a case");
        let mut mask = vec![0; driver.actions()];
        let mut rng = FastRng::new(seed);
        let (mut replies, mut total) = (Vec::new(), driver.score());
        while !driver.is_over() {
            driver.action_mask(&mut mask);
            let allowed: Vec<i64> = (0..mask.len() as i64)
                .filter(|&i| mask[i as usize] == 1)
                .collect();
            let index = allowed[rng.below(allowed.len() as u32) as usize];
            replies.push(driver.action_text(index).expect("in range"));
            let stepped = driver.step(index).expect("a step");
            assert_eq!(stepped.invalid, None, "{name}: allowed action refused");
            total += stepped.reward;
            assert!(replies.len() < 20_000, "{name}: the game does not end");
        }
        (replies, total, driver.score())
    }

    #[test]
    fn every_registered_game_has_a_driver() {
        for name in games() {
            let driver = driver(name).unwrap_or_else(|| panic!("no driver for {name}"));
            assert_eq!(driver.name(), name);
        }
        assert!(driver("chess").is_none());
    }

    #[test]
    fn random_games_end_and_replay_to_the_same_score_under_the_rules() {
        for name in games() {
            let (replies, total, score) = random_game(name, 3, None);
            let game = marathon_games::find(name).expect("registered");
            let case = match game.groups() {
                Some((_, default)) => CaseId::in_group(default, 3),
                None => CaseId::seed(3),
            };
            let rules_score = game.replay(&case, &replies).expect("replays").score;
            assert_eq!(score, rules_score, "{name}");
            assert!(
                (total - score).abs() < 1e-9,
                "{name}: {total} gained, score {score}"
            );
        }
    }

    #[test]
    fn the_first_message_is_what_marathon_gen_prints() {
        for name in games() {
            let game = marathon_games::find(name).expect("registered");
            let mut driver = driver(name).expect("a game");
            driver.reset(11, None).expect("a case");
            let case = match game.groups() {
                Some((_, default)) => CaseId::in_group(default, 11),
                None => CaseId::seed(11),
            };
            assert_eq!(driver.message(), game.generate(&case).expect("a case"));
        }
        let mut solitaire = driver("solitaire").expect("a game");
        solitaire.reset(2, Some(3)).expect("group 3");
        let group_3 = marathon_solitaire::SOLITAIRE.generate(&CaseId::in_group(3, 2));
        assert_eq!(solitaire.message(), group_3.expect("a case"));
        assert!(solitaire.reset(2, Some(9)).is_err());
        assert!(driver("linez").expect("a game").reset(2, Some(1)).is_err());
    }

    #[test]
    fn a_refused_action_ends_the_game_with_the_contests_failure_score() {
        // Linez keeps its points; tiles scores 0. A move from an empty cell is refused in both
        // (A1 to A1 is never legal).
        let mut linez = driver("linez").expect("a game");
        linez.reset(1, None).expect("a case");
        let stepped = linez.step(0).expect("a step");
        assert!(stepped.terminated);
        assert!(stepped.invalid.expect("refused").contains("A1A1"));
        assert!(linez.is_over());
        assert_eq!(linez.step(0), Err("the game is over: call reset()".into()));

        let mut tiles = driver("tiles").expect("a game");
        tiles.reset(1, None).expect("a case");
        let mut mask = vec![0; tiles.actions()];
        tiles.action_mask(&mut mask);
        let legal = mask.iter().position(|&m| m == 1).expect("a legal move") as i64;
        let first = tiles.step(legal).expect("a step");
        assert_eq!(first.reward, 1.0, "a tile used scores 1");
        // The cell just used is occupied now (or the game is over after a clear, not on move 1).
        let refused = tiles.step(legal).expect("a step");
        assert!(refused.invalid.is_some());
        assert_eq!(refused.reward, -1.0);
        assert_eq!(tiles.score(), 0.0);
    }

    #[test]
    fn bad_indices_are_errors_and_change_nothing() {
        let mut tiles = driver("tiles").expect("a game");
        assert!(tiles.step(0).is_err(), "no game yet");
        tiles.reset(1, None).expect("a case");
        let actions = tiles.actions() as i64;
        for index in [-1, actions, i64::MAX] {
            let error = tiles.step(index).expect_err("out of range");
            assert!(error.contains("outside the action space"), "{error}");
            assert!(tiles.action_text(index).is_err());
        }
        assert!(!tiles.is_over());
        assert_eq!(tiles.moves(), 0);
    }

    #[test]
    fn reset_starts_the_case_again() {
        let mut reversi = driver("reversi").expect("a game");
        reversi.reset(1, None).expect("a case");
        let first = reversi.message();
        let mut mask = vec![0; reversi.actions()];
        reversi.action_mask(&mut mask);
        let legal = mask.iter().position(|&m| m == 1).expect("a legal move") as i64;
        reversi.step(legal).expect("a step");
        assert_ne!(reversi.message(), first);
        reversi.reset(1, None).expect("the same case");
        assert_eq!(reversi.message(), first);
        assert_eq!(reversi.moves(), 0);
    }
}
