//! The one list of marathon's games. The CLI (its verbs, help and tour), every test that runs
//! over all games and anything else that offers a choice of game read it here; adding a game is
//! a crate and one line below (see `docs/adding-a-game.md`).

use marathon_core::Game;

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

#[cfg(test)]
mod tests {
    use super::*;

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
