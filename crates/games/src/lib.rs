//! The one list of marathon's games. The CLI (its verbs, help and tour), every test that runs
//! over all games and anything else that offers a choice of game read it here; adding a game is
//! a crate and one line below (see `docs/adding-a-game.md`).

use std::ops::RangeInclusive;

use marathon_core::env::Environment;
use marathon_core::space::Spaces;
use marathon_core::{CaseId, Game, GameSpec};

/// Every game, in the order `marathon play` runs them.
static GAMES: [&dyn Game; 5] = [
    &marathon_linez::LINEZ,
    &marathon_tiles::TILES,
    &marathon_reversi::REVERSI,
    &marathon_polyomino::POLYOMINO,
    &marathon_solitaire::SOLITAIRE,
];

/// Every game, in the order `marathon play` runs them.
pub fn games() -> &'static [&'static dyn Game] {
    &GAMES
}

/// The game called `name` on the command line.
pub fn find(name: &str) -> Option<&'static dyn Game> {
    games().iter().copied().find(|game| game.name() == name)
}

/// The game called `name`, or a message listing the games there are.
pub fn lookup(name: &str) -> Result<&'static dyn Game, String> {
    find(name).ok_or_else(|| format!("unknown game {name:?} (games: {})", names().join(", ")))
}

/// The games' names, in order.
pub fn names() -> Vec<&'static str> {
    games().iter().map(|game| game.name()).collect()
}

/// Code generic over a game's typed face (its [`GameSpec`], environment and action spaces), run
/// for a game named at run time by [`with_game`]: the Python driver and the play server hold any
/// game this way.
pub trait GameVisitor {
    type Output;
    fn visit<G: GameSpec>(self, game: &'static G) -> Self::Output
    where
        G::Env: Spaces + Sync,
        <G::Env as Environment>::Event: Sync;
}

/// Runs `visitor` on the game called `name`; `None` for an unknown name.
pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
    // One line per game, beside the list above (`every_game_can_be_visited` checks both).
    Some(match name {
        "linez" => visitor.visit(&marathon_linez::LINEZ),
        "tiles" => visitor.visit(&marathon_tiles::TILES),
        "reversi" => visitor.visit(&marathon_reversi::REVERSI),
        "polyomino" => visitor.visit(&marathon_polyomino::POLYOMINO),
        "solitaire" => visitor.visit(&marathon_solitaire::SOLITAIRE),
        _ => return None,
    })
}

/// The case `marathon play GAME --seeds SEED [--group GROUP]` plays: seed `seed` in `group`, or
/// in the game's default group for a game with groups; an error for a group the game does not
/// have.
pub fn seed_case(game: &dyn Game, seed: u64, group: Option<u32>) -> Result<CaseId, String> {
    let groups: Option<(RangeInclusive<u32>, u32)> = game.groups();
    match (groups, group) {
        (None, None) => Ok(CaseId::seed(seed)),
        (None, Some(_)) => Err(format!("{} has no case groups", game.name())),
        (Some((_, default)), None) => Ok(CaseId::in_group(default, seed)),
        (Some((range, _)), Some(g)) if range.contains(&g) => Ok(CaseId::in_group(g, seed)),
        (Some((range, _)), Some(g)) => Err(format!(
            "group {g}: {} has groups {}..{}",
            game.name(),
            range.start(),
            range.end()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marathon_core::Turn;

    struct Name;
    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: GameSpec>(self, _game: &'static G) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_game_can_be_visited() {
        for name in names() {
            assert_eq!(with_game(name, Name), Some(name));
        }
        assert_eq!(with_game("chess", Name), None);
    }

    #[test]
    fn seed_cases_take_the_default_group_and_refuse_others() {
        let linez = find("linez").expect("a game");
        assert_eq!(seed_case(linez, 4, None), Ok(CaseId::seed(4)));
        assert!(seed_case(linez, 4, Some(1)).is_err());
        let solitaire = find("solitaire").expect("a game");
        let (range, default) = solitaire.groups().expect("groups");
        assert_eq!(
            seed_case(solitaire, 4, None),
            Ok(CaseId::in_group(default, 4))
        );
        assert_eq!(
            seed_case(solitaire, 4, Some(*range.end())),
            Ok(CaseId::in_group(*range.end(), 4))
        );
        assert!(seed_case(solitaire, 4, Some(range.end() + 1)).is_err());
    }

    /// Plays a few moves of a case with the hints and checks each hint is legal where it is
    /// given: the hint's every move for a few moves, then a random legal one.
    struct Hints;
    impl GameVisitor for Hints {
        type Output = Result<usize, String>;
        fn visit<G: GameSpec>(self, game: &'static G) -> Result<usize, String>
        where
            G::Env: Spaces + Sync,
            <G::Env as Environment>::Event: Sync,
        {
            let mut given = 0;
            for seed in [1, 2] {
                let case = seed_case(game, seed, None)?;
                let mut env = game.environment(&case)?;
                for step in 0..6 {
                    env.advance_while_auto(|_, _| {});
                    if env.turn() != Turn::Player {
                        break;
                    }
                    let hint = game
                        .hint(&env, 2)
                        .ok_or_else(|| format!("seed {seed} step {step}: no hint"))?;
                    let text = env.format_action(hint);
                    if !env.legal_actions().contains(&hint) {
                        return Err(format!("seed {seed} step {step}: {text} is not legal"));
                    }
                    if env.parse_action(&text).ok() != Some(hint) {
                        return Err(format!("{text} does not read back"));
                    }
                    given += 1;
                    // Follow the hint unless it ends the game early.
                    let mut next = env.clone();
                    next.step(hint).map_err(|e| format!("{text}: {e}"))?;
                    if next.turn() == Turn::Over && step < 5 {
                        break;
                    }
                    env = next;
                }
                env.advance_while_auto(|_, _| {});
                if env.turn() == Turn::Player && game.hint(&env, 2).is_none() {
                    return Err(format!("seed {seed}: no hint at the end"));
                }
            }
            Ok(given)
        }
    }

    #[test]
    fn every_game_hints_legal_moves() {
        for name in names() {
            let given = with_game(name, Hints).expect("a game");
            let given = given.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(given >= 2, "{name}: {given} hints");
        }
    }

    #[test]
    fn names_are_unique_and_found() {
        let names = names();
        for name in &names {
            assert_eq!(find(name).map(|game| game.name()), Some(*name));
            assert_eq!(names.iter().filter(|other| *other == name).count(), 1);
        }
        assert!(find("chess").is_none());
    }
}
