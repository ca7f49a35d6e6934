//! What a command line selects, checked, with messages that name the flag: the cases of a seed
//! set in a group, a built-in player, a time limit. The CLI and the tuners read them alike;
//! [`players`] lists what `--player` and `--set` can choose.

use std::time::Duration;

use marathon_core::{CaseId, ClockKind, Game, MemoryLimit, PlayConfig, PlayerSpec, Settings};

use crate::report;

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

/// The time `marathon solve` plans for: `--time-limit` if given (`flag`), else the judge's limit
/// from the environment ([`marathon_core::TIME_LIMIT_ENV`]: a program under marathon's judge
/// plans for the judge's limit, not the contest's), else the game's contest limit.
pub fn solve_time_limit(
    game: &dyn Game,
    flag: Option<f64>,
    from_env: Option<&str>,
) -> Result<Duration, String> {
    match (flag, from_env) {
        (None, Some(text)) => text
            .trim()
            .parse()
            .ok()
            .and_then(|seconds| time_limit(game, Some(seconds)).ok())
            .ok_or_else(|| {
                format!(
                    "{}={text:?}: expected a number of seconds above 0 and at most \
                     {MAX_TIME_LIMIT_SECONDS:.0}",
                    marathon_core::TIME_LIMIT_ENV
                )
            }),
        _ => time_limit(game, flag),
    }
}

/// `--clock wall|cpu`.
pub fn parse_clock(text: &str) -> Result<ClockKind, String> {
    ClockKind::parse(text).ok_or_else(|| format!("{text:?}: expected `wall` or `cpu`"))
}

/// The clock `marathon solve` plans by: `--clock` if given (`flag`), else the judge's from the
/// environment ([`marathon_core::CLOCK_ENV`]), else the game's contest's.
pub fn solve_clock(
    game: &dyn Game,
    flag: Option<ClockKind>,
    from_env: Option<&str>,
) -> Result<ClockKind, String> {
    match (flag, from_env) {
        (Some(clock), _) => Ok(clock),
        (None, Some(text)) => {
            parse_clock(text).map_err(|e| format!("{}={e}", marathon_core::CLOCK_ENV))
        }
        (None, None) => Ok(game.default_clock()),
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

/// `--set`: `settings` if built-in player `player` has them all, with values it can play with.
pub fn checked_settings(
    game: &dyn Game,
    player: &str,
    settings: Settings,
) -> Result<Settings, String> {
    game.settings(player, &settings)
        .map_err(|e| format!("{} --set: {e}", game.name()))?;
    Ok(settings)
}

/// How to play: the external program `exec`, else built-in player `player` (the game's first
/// unless named) with its checked `settings`; an external program takes no settings. Programs'
/// stderr is passed through (`quiet: false`).
pub fn play_config(
    game: &dyn Game,
    player: Option<&str>,
    exec: Option<&str>,
    settings: Settings,
    limit: Duration,
    effort: Option<u64>,
) -> Result<PlayConfig, String> {
    let (player, settings) = match exec {
        Some(_) if player.is_some() => {
            return Err("--exec and --player: a case has one player".into());
        }
        Some(_) if !settings.is_empty() => {
            return Err("--exec and --set: settings are for built-in players".into());
        }
        Some(command) => (PlayerSpec::Exec(command.to_string()), settings),
        None => {
            let name = builtin_player(game, player)?;
            let settings = checked_settings(game, &name, settings)?;
            (PlayerSpec::Builtin(name), settings)
        }
    };
    Ok(PlayConfig {
        player,
        time_limit: limit,
        clock: None,
        memory: MemoryLimit::Contest,
        plan_limit: None,
        effort,
        quiet: false,
        settings,
        sandbox: None,
    })
}

/// What `marathon players GAME` prints: each built-in player (what `--player` chooses), what it is and its settings with their values
/// and meanings (what `--set` sets; a setting a player shares with one above it is named, not described again),
/// then what the game's tables show.
pub fn players(game: &dyn Game) -> Result<String, String> {
    let legend = game.legend();
    let mut text = report::wrap(
        &format!(
            "{} players (`--player NAME`; the first is the default) and their settings (`--set \
             NAME=VALUE`; `none`: no bound):",
            game.name()
        ),
        "",
    );
    let width = game
        .players()
        .iter()
        .map(|name| name.len())
        .max()
        .unwrap_or(0);
    let mut described: Vec<&str> = Vec::new();
    for player in game.players() {
        let about = legend.player(player).unwrap_or("");
        text.push_str(&report::wrap_after(
            &format!("  {player:width$}  "),
            about,
            &" ".repeat(width + 4),
        ));
        let settings = game.settings(player, &Settings::default())?;
        let (seen, new): (Vec<_>, Vec<_>) = settings
            .iter()
            .partition(|setting| described.contains(&setting.name));
        let shown: Vec<String> = new
            .iter()
            .map(|setting| format!("{}={}", setting.name, setting.value))
            .collect();
        let column = shown.iter().map(String::len).max().unwrap_or(0);
        let indent = " ".repeat(width + 6);
        for (setting, shown) in new.iter().zip(&shown) {
            text.push_str(&report::wrap_after(
                &format!("{indent}{shown:column$}  "),
                setting.about,
                &" ".repeat(width + 8 + column),
            ));
            described.push(setting.name);
        }
        if !seen.is_empty() {
            let values: Vec<String> = seen
                .iter()
                .map(|setting| format!("{}={}", setting.name, setting.value))
                .collect();
            text.push_str(&report::wrap_after(
                &format!("{indent}as above: "),
                &values.join(" "),
                &indent,
            ));
        }
        if settings.is_empty() {
            text.push_str(&format!("{indent}(no settings)\n"));
        }
    }
    text.push_str("\nWhat its tables show:\n");
    for term in report::legend_terms(legend, |_| true, true) {
        text.push_str(&report::wrap_after("  ", &term, "    "));
    }
    Ok(text)
}

/// `--shard I/N`: the I-th of N parts of a run's cases (I from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `I/N`, with 1 <= I <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("{text:?}: expected I/N with 1 <= I <= N, such as 3/100");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This part of `cases`: every N-th case from the I-th, so that every case is in exactly
    /// one part, the parts' sizes differ by at most one, and each part mixes the seed range
    /// (a run's hard cases are not all in one part).
    pub fn select(&self, cases: Vec<CaseId>) -> Vec<CaseId> {
        cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index - 1)
            .map(|(_, case)| case)
            .collect()
    }
}

/// `I/N`, as `--shard` reads it.
impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_plans_for_the_flag_then_the_judges_limit_then_the_contests() {
        let linez = marathon_games::lookup("linez").unwrap();
        let seconds = |flag, from_env| solve_time_limit(linez, flag, from_env);
        assert_eq!(seconds(None, None), Ok(Duration::from_secs(20)));
        assert_eq!(
            seconds(None, Some("1.5\n")),
            Ok(Duration::from_millis(1500))
        );
        assert_eq!(seconds(Some(3.0), Some("1.5")), Ok(Duration::from_secs(3)));
        for bad in ["", "abc", "0", "-1", "1e9", "NaN"] {
            let error = seconds(None, Some(bad)).unwrap_err();
            assert!(error.starts_with("MARATHON_TIME_LIMIT="), "{error}");
        }
        assert!(
            seconds(Some(0.0), Some("1"))
                .unwrap_err()
                .contains("--time-limit")
        );
    }

    #[test]
    fn players_are_listed_with_each_setting_described_once() {
        for &game in marathon_games::games() {
            let text = players(game).unwrap();
            assert!(
                text.starts_with(&format!("{} players (`--player NAME`", game.name())),
                "{text}"
            );
            for player in game.players() {
                let listed = text.lines().any(|line| {
                    line.strip_prefix("  ")
                        .is_some_and(|rest| rest.split_whitespace().next() == Some(*player))
                });
                assert!(listed, "{player}:\n{text}");
            }
            assert!(
                text.lines().all(|line| line.chars().count() <= 100),
                "{text}"
            );
            assert!(
                text.contains("\nWhat its tables show:\n  score = "),
                "{text}"
            );
        }
        // linez's `hand` shares the ai's settings: named again, not described.
        let text = players(marathon_games::lookup("linez").unwrap()).unwrap();
        let described = |name: &str| {
            text.lines()
                .filter(|line| line.trim_start().starts_with(&format!("{name}=")))
                .count()
        };
        assert_eq!(described("depth"), 1, "{text}");
        let again = text
            .lines()
            .find(|line| line.trim_start().starts_with("as above: "))
            .unwrap_or_else(|| panic!("no setting named again:\n{text}"));
        assert!(again.contains(" depth=1 "), "{text}");
    }

    #[test]
    fn shards_cover_every_case_once_in_balanced_parts() {
        let cases: Vec<CaseId> = (1..=10).map(CaseId::seed).collect();
        let parts: Vec<Vec<CaseId>> = (1..=3)
            .map(|index| Shard { index, count: 3 }.select(cases.clone()))
            .collect();
        let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
        assert_eq!(sizes, [4, 3, 3]);
        let mut all: Vec<u64> = parts.iter().flatten().map(|case| case.seed).collect();
        all.sort_unstable();
        assert_eq!(all, (1..=10).collect::<Vec<_>>());
        assert_eq!(
            parts[1].iter().map(|c| c.seed).collect::<Vec<_>>(),
            [2, 5, 8]
        );
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!(
            Shard::parse("3/100"),
            Ok(Shard {
                index: 3,
                count: 100
            })
        );
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/4"] {
            let error = Shard::parse(bad).unwrap_err();
            assert!(error.contains(bad), "{error}");
        }
    }
}
