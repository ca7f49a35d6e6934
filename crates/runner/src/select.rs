//! What a command line selects, checked, with messages that name the flag: the cases of a seed
//! set in a group, a built-in player, a time limit. The CLI and the tuners read them alike.

use std::time::Duration;

use marathon_core::{CaseId, Game};

/// The longest time limit accepted, in seconds (11.6 days): far beyond any contest's, and small
/// enough that every sum of times stays exact.
pub const MAX_TIME_LIMIT_SECONDS: f64 = 1e6;

/// The cases of `seeds`, in `group` if given (or the game's default group).
pub fn case_ids(game: &dyn Game, seeds: &[u64], group: Option<u32>) -> Result<Vec<CaseId>, String> {
    let group = match (game.groups(), group) {
        (None, None) => None,
        (None, Some(_)) => return Err(format!("{} has no case groups", game.name())),
        (Some((_, default)), None) => Some(default),
        (Some((range, _)), Some(g)) if range.contains(&g) => Some(g),
        (Some((range, _)), Some(g)) => {
            return Err(format!(
                "--group {g}: {} has groups {}..{}",
                game.name(),
                range.start(),
                range.end()
            ));
        }
    };
    Ok(seeds
        .iter()
        .map(|&seed| match group {
            Some(group) => CaseId::in_group(group, seed),
            None => CaseId::seed(seed),
        })
        .collect())
}

/// `--time-limit`: the game's contest limit unless `seconds` are given.
pub fn time_limit(game: &dyn Game, seconds: Option<f64>) -> Result<Duration, String> {
    match seconds {
        None => Ok(game.default_time_limit()),
        Some(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME_LIMIT_SECONDS => {
            Ok(Duration::from_secs_f64(s))
        }
        Some(s) => Err(format!(
            "--time-limit {s}: expected a number of seconds above 0 and at most \
             {MAX_TIME_LIMIT_SECONDS:.0}"
        )),
    }
}

/// `--player`: the game's first player unless `name` is given.
pub fn builtin_player(game: &dyn Game, name: Option<&str>) -> Result<String, String> {
    let players = game.players();
    match name {
        None => Ok(players[0].to_string()),
        Some(name) if players.contains(&name) => Ok(name.to_string()),
        Some(name) => Err(format!(
            "{} has no player {name:?} (players: {})",
            game.name(),
            players.join(", ")
        )),
    }
}
