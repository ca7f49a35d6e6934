//! The one list of marathon's games. The CLI (its verbs, help and tour), every test that runs
//! over all games and anything else that offers a choice of game read it here; adding a game is
//! a crate and one line below (see `docs/adding-a-game.md`).

use std::ops::RangeInclusive;

use marathon_core::{CaseId, Game};

/// Every game, in the order `marathon play` runs them.
static GAMES: &[&dyn Game] = &[
    &marathon_linez::LINEZ,
    &marathon_tiles::TILES,
    &marathon_reversi::REVERSI,
    &marathon_polyomino::POLYOMINO,
    &marathon_solitaire::SOLITAIRE,
    #[cfg(feature = "test-game")]
    &marathon_dice::DICE,
];

/// Every game, in the order `marathon play` runs them.
pub fn games() -> &'static [&'static dyn Game] {
    GAMES
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

    /// Plays a few moves of a case with the hints and checks each hint is a reply the case
    /// accepts: the hint's every move for a few moves.
    fn hints(game: &dyn Game) -> Result<usize, String> {
        let mut given = 0;
        for seed in [1, 2] {
            let case = seed_case(game, seed, None)?;
            let mut play = game.start(&case, false).map_err(|e| e.to_string())?;
            for step in 0..6 {
                if play.is_over() {
                    break;
                }
                let hint = play
                    .hint(2)
                    .ok_or_else(|| format!("seed {seed} step {step}: no hint"))?;
                given += 1;
                // Follow the hint unless it ends the game early.
                let mut next = play.boxed_clone();
                next.step_reply(&hint).map_err(|e| format!("{hint}: {e}"))?;
                if next.is_over() && step < 5 {
                    break;
                }
                play = next;
            }
            if !play.is_over() && play.hint(2).is_none() {
                return Err(format!("seed {seed}: no hint at the end"));
            }
        }
        Ok(given)
    }

    #[test]
    fn every_game_hints_legal_moves() {
        for &game in games() {
            let given = hints(game).unwrap_or_else(|e| panic!("{}: {e}", game.name()));
            assert!(given >= 2, "{}: {given} hints", game.name());
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
