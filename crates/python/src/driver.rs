//! A game's case played by action numbers, as a Gymnasium environment steps it: generic over
//! every game ([`GameSpec`] whose environment has [`Spaces`]), behind one object-safe trait so
//! that the Python class can hold any game. Pure Rust: its tests need no Python.
//!
//! What it adds to the environment: the case is chosen like `marathon play GAME --seeds N`
//! (with the game's default group); the automatic steps (reversi's opponents, linez's forced
//! passes) are played inside [`Driver::step`], so the caller sees only its own turns; the reward
//! is the score gained; and an action the rules refuse ends the game as the judge ends it, with
//! the contest's score for a failure (0 in every game but linez, which keeps its points).

use std::ops::RangeInclusive;
use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::space::{Field, Spaces, Values};
use marathon_core::{CaseId, GameSpec, Verdict};

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
pub trait Driver: Send + Sync {
    /// The game's name (`linez`).
    fn name(&self) -> &'static str;
    /// The size of the action space.
    fn actions(&self) -> usize;
    /// The observation's arrays.
    fn fields(&self) -> &'static [Field];
    /// The case groups and the default group, for a game that has groups.
    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)>;
    /// Starts the case `seed` (in `group`, or the default group), and plays the automatic steps
    /// before the first decision.
    fn reset(&mut self, seed: u64, group: Option<u32>) -> Result<(), String>;
    /// Plays action `index` and the automatic steps after it. An error (nothing changed) for an
    /// index outside the space, a game that is over or not started.
    fn step(&mut self, index: i64) -> Result<Stepped, String>;
    /// The allowed actions now (see [`Spaces::action_mask`]).
    fn action_mask(&self, mask: &mut [i8]);
    /// Writes field `field` of the observation.
    fn observe(&self, field: usize, out: &mut Values<'_>);
    /// The contest's text the judge would write now (after the last step).
    fn message(&self) -> String;
    /// The reply line that says action `index` now.
    fn action_text(&self, index: i64) -> Result<String, String>;
    /// The contest's score so far: the rules' score, or the failure score once an action was
    /// refused (no time penalty: the player's time is not counted here).
    fn score(&self) -> f64;
    /// The game is over (ended by the rules or by a refused action), or not started.
    fn is_over(&self) -> bool;
    /// The player's moves so far, as the runner counts them.
    fn moves(&self) -> u64;
}

/// The driver of game `name` (a name of the registry), or `None`.
pub fn driver(name: &str) -> Option<Box<dyn Driver>> {
    struct MakeDriver;
    impl marathon_games::GameVisitor for MakeDriver {
        type Output = Box<dyn Driver>;
        fn visit<G: GameSpec>(self, game: &'static G) -> Box<dyn Driver>
        where
            G::Env: Spaces + Sync,
            <G::Env as Environment>::Event: Sync,
        {
            Box::new(Core::new(game))
        }
    }
    marathon_games::with_game(name, MakeDriver)
}

/// The games' names, in the registry's order.
pub fn games() -> Vec<&'static str> {
    marathon_games::names()
}

/// A case in play.
struct Game<E: Environment> {
    case: CaseId,
    env: E,
    /// The event before the decision, for the message.
    last: Option<E::Event>,
    /// Why the game was ended by a refused action.
    failure: Option<String>,
    /// [`Driver::score`], kept so that a step's reward is one subtraction.
    score: f64,
}

struct Core<G: GameSpec> {
    game: &'static G,
    /// The last case started, at its first decision: starting it again is a clone (reversi's
    /// cases take a genetic algorithm to deal).
    start: Option<Game<G::Env>>,
    play: Option<Game<G::Env>>,
}

impl<G: GameSpec> Core<G>
where
    G::Env: Spaces,
{
    fn new(game: &'static G) -> Self {
        Core {
            game,
            start: None,
            play: None,
        }
    }

    fn playing(&self) -> Result<&Game<G::Env>, String> {
        self.play
            .as_ref()
            .ok_or_else(|| "no game: call reset() first".to_string())
    }

    fn action(&self, index: i64) -> Result<<G::Env as Environment>::Action, String> {
        let play = self.playing()?;
        usize::try_from(index)
            .ok()
            .and_then(|i| play.env.action(i))
            .ok_or_else(|| {
                format!(
                    "action {index} is outside the action space 0..{}",
                    G::Env::ACTIONS
                )
            })
    }
}

impl<G: GameSpec> Driver for Core<G>
where
    G::Env: Spaces + Sync,
    <G::Env as Environment>::Event: Sync,
{
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn actions(&self) -> usize {
        G::Env::ACTIONS
    }

    fn fields(&self) -> &'static [Field] {
        G::Env::FIELDS
    }

    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        self.game.groups()
    }

    fn reset(&mut self, seed: u64, group: Option<u32>) -> Result<(), String> {
        let case = marathon_games::seed_case(self.game, seed, group)?;
        let start = match self.start.take() {
            Some(start) if start.case == case => start,
            _ => {
                let mut env = self.game.environment(&case)?;
                let mut last = None;
                env.advance_while_auto(|_, event| last = Some(event.clone()));
                Game {
                    case,
                    score: env.score(),
                    env,
                    last,
                    failure: None,
                }
            }
        };
        self.play = Some(Game {
            case: start.case.clone(),
            env: start.env.clone(),
            last: start.last.clone(),
            failure: None,
            score: start.score,
        });
        self.start = Some(start);
        Ok(())
    }

    fn step(&mut self, index: i64) -> Result<Stepped, String> {
        let action = self.action(index)?;
        let game = self.game;
        let play = self.play.as_mut().ok_or("no game: call reset() first")?;
        if play.failure.is_some() || play.env.turn() != Turn::Player {
            return Err("the game is over: call reset()".into());
        }
        let before = play.score;
        match play.env.step(action) {
            Ok(event) => {
                play.last = Some(event);
                let last = &mut play.last;
                play.env
                    .advance_while_auto(|_, event| *last = Some(event.clone()));
                let terminated = play.env.turn() == Turn::Over;
                play.score = if terminated {
                    game.score(&play.case, &play.env, &Verdict::Ok, Duration::ZERO)
                        .score
                } else {
                    play.env.score()
                };
                Ok(Stepped {
                    reward: play.score - before,
                    terminated,
                    invalid: None,
                })
            }
            Err(refusal) => {
                let line = play.env.format_action(action);
                let reason = format!("{line:?}: {refusal}");
                let verdict = Verdict::invalid(&line, refusal.to_string());
                play.score = game
                    .score(&play.case, &play.env, &verdict, Duration::ZERO)
                    .score;
                play.failure = Some(reason.clone());
                Ok(Stepped {
                    reward: play.score - before,
                    terminated: true,
                    invalid: Some(reason),
                })
            }
        }
    }

    fn action_mask(&self, mask: &mut [i8]) {
        match &self.play {
            Some(play) if play.failure.is_none() => play.env.action_mask(mask),
            _ => mask.fill(0),
        }
    }

    fn observe(&self, field: usize, out: &mut Values<'_>) {
        match &self.play {
            Some(play) => play.env.observe(field, out),
            None => out.fill(0),
        }
    }

    fn message(&self) -> String {
        match &self.play {
            Some(play) => play.env.message(play.last.as_ref()),
            None => String::new(),
        }
    }

    fn action_text(&self, index: i64) -> Result<String, String> {
        let action = self.action(index)?;
        Ok(self.playing()?.env.format_action(action))
    }

    fn score(&self) -> f64 {
        self.play.as_ref().map_or(0.0, |play| play.score)
    }

    fn is_over(&self) -> bool {
        self.play
            .as_ref()
            .is_none_or(|play| play.failure.is_some() || play.env.turn() == Turn::Over)
    }

    fn moves(&self) -> u64 {
        self.play.as_ref().map_or(0, |play| play.env.moves())
    }
}

#[cfg(test)]
mod tests {
    use marathon_core::Game as _;
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
