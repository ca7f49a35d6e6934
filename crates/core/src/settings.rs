//! A built-in player's settings by name (`--set depth=2`): the knobs a tuner turns without
//! editing code. The CLI and the tuners hand them to the game as text; the game's AI sets them
//! on its own typed structs ([`Tunable`]), so a wrong name or value is refused before the first
//! case with a message naming the setting and the ones there are.

use std::fmt;
use std::str::FromStr;

/// One setting of a player: its name, its value as `--set` reads it, and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub name: &'static str,
    pub value: String,
    pub about: &'static str,
}

/// Something with named settings: a player's search settings or evaluation weights. Usually
/// implemented with [`crate::tunable!`].
pub trait Tunable {
    /// Every setting's name, current value and meaning.
    fn settings(&self) -> Vec<Setting>;

    /// Sets `name` to `value`; `Ok(false)` when there is no setting of that name here.
    fn set(&mut self, name: &str, value: &str) -> Result<bool, String>;

    /// Whether the values together are ones the player can play with (a search depth in its
    /// range, say); checked after every setting is applied.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Implements [`Tunable`] for a struct: each listed field, with what it does in a few words, is
/// a setting of the field's name, read and shown as a [`SettingValue`]; `check = PATH` names a
/// `fn(&Self) -> Result<(), String>` that refuses values the player cannot play with.
#[macro_export]
macro_rules! tunable {
    ($type:ty { $($field:ident: $about:literal),+ $(,)? }) => {
        $crate::tunable!($type { $($field: $about),+ } check = $crate::settings::no_check);
    };
    ($type:ty { $($field:ident: $about:literal),+ $(,)? } check = $check:path) => {
        impl $crate::settings::Tunable for $type {
            fn check(&self) -> Result<(), String> {
                $check(self)
            }

            fn settings(&self) -> Vec<$crate::settings::Setting> {
                vec![$($crate::settings::Setting {
                    name: stringify!($field),
                    value: $crate::settings::SettingValue::show(&self.$field),
                    about: $about,
                }),+]
            }

            fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
                match name {
                    $(stringify!($field) => {
                        self.$field = $crate::settings::SettingValue::read(name, value)?;
                        Ok(true)
                    })+
                    _ => Ok(false),
                }
            }
        }
    };
}

/// The text a setting reads as and shows: a finite number, or for a count that can be
/// unbounded (`u64`, `usize`) `none` for no bound, the type's largest value.
pub trait SettingValue: Sized {
    fn show(&self) -> String;
    /// Reads the value of setting `name`, saying what was wrong with it.
    fn read(name: &str, value: &str) -> Result<Self, String>;
}

/// The word for an unbounded count.
pub const NO_BOUND: &str = "none";

macro_rules! plain_values {
    ($($type:ty),+) => {$(
        impl SettingValue for $type {
            fn show(&self) -> String {
                self.to_string()
            }
            fn read(name: &str, value: &str) -> Result<Self, String> {
                parse_value(name, value)
            }
        }
    )+};
}
plain_values!(f32, f64, u32);

macro_rules! boundable_values {
    ($($type:ty),+) => {$(
        impl SettingValue for $type {
            fn show(&self) -> String {
                if *self == <$type>::MAX {
                    NO_BOUND.to_string()
                } else {
                    self.to_string()
                }
            }
            fn read(name: &str, value: &str) -> Result<Self, String> {
                if value.trim() == NO_BOUND {
                    Ok(<$type>::MAX)
                } else {
                    parse_value(name, value).map_err(|e| format!("{e} or {NO_BOUND}"))
                }
            }
        }
    )+};
}
boundable_values!(u64, usize);

/// Reads the value of setting `name`, saying what was wrong with it. Only finite numbers are
/// values: no weight or budget means anything as `NaN` or `inf`.
pub fn parse_value<T: FromStr>(name: &str, value: &str) -> Result<T, String> {
    let text = value.trim();
    let bare = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
    let kind = std::any::type_name::<T>();
    if ["nan", "inf", "infinity"].contains(&bare.as_str()) {
        return Err(format!("{name}={value}: expected a finite {kind}"));
    }
    text.parse()
        .map_err(|_| format!("{name}={value}: expected a value of type {kind}"))
}

/// The check of a [`Tunable`] whose every value will do.
pub fn no_check<T>(_: &T) -> Result<(), String> {
    Ok(())
}

/// Settings given for a player, in the order given (a later one wins).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings(Vec<(String, String)>);

impl Settings {
    pub fn new(pairs: Vec<(String, String)>) -> Self {
        Settings(pairs)
    }

    /// Reads one `name=value`.
    pub fn parse_pair(text: &str) -> Result<(String, String), String> {
        match text.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(format!("{text:?}: expected NAME=VALUE")),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    /// This with `name` set to `value` as well (replacing an earlier value).
    pub fn with(&self, name: &str, value: &str) -> Self {
        let mut pairs: Vec<_> = self.0.iter().filter(|(n, _)| n != name).cloned().collect();
        pairs.push((name.to_string(), value.to_string()));
        Settings(pairs)
    }

    /// Sets each setting on the first of `targets` that has it. An unknown name or a bad value
    /// is an error naming it and listing the settings `player` has.
    pub fn apply(&self, player: &str, targets: &mut [&mut dyn Tunable]) -> Result<(), String> {
        for (name, value) in &self.0 {
            let mut known = false;
            for target in targets.iter_mut() {
                if target.set(name, value)? {
                    known = true;
                    break;
                }
            }
            if !known {
                let names: Vec<&str> = targets
                    .iter()
                    .flat_map(|target| target.settings())
                    .map(|setting| setting.name)
                    .collect();
                return Err(if names.is_empty() {
                    format!("player {player} has no settings (given {name}={value})")
                } else {
                    format!(
                        "player {player} has no setting {name:?} (its settings: {})",
                        names.join(", ")
                    )
                });
            }
        }
        for target in targets.iter() {
            target.check()?;
        }
        Ok(())
    }
}

/// `part` with `given` applied, for a player that reads `part` only if `reads` (a player that
/// does not read it takes no settings): what a game's AI builds its player from.
pub fn apply_part<T: Tunable>(
    player: &str,
    reads: bool,
    mut part: T,
    given: &Settings,
) -> Result<T, String> {
    if reads {
        given.apply(player, &mut [&mut part])?;
    } else {
        given.apply(player, &mut [])?;
    }
    Ok(part)
}

/// The settings [`apply_part`]'s player has: `part`'s, if it reads it.
pub fn list_part<T: Tunable>(reads: bool, part: &T) -> Vec<Setting> {
    if reads { part.settings() } else { Vec::new() }
}

/// `name=value name=value`, as tables and notes show settings.
impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Search {
        depth: u32,
        margin: f64,
        rounds: u64,
    }
    tunable!(Search {
        depth: "plies searched",
        margin: "the loss risked",
        rounds: "rounds at most",
    } check = Search::check);

    impl Search {
        fn check(&self) -> Result<(), String> {
            match self.depth {
                0..=4 => Ok(()),
                _ => Err(format!("depth={}: at most 4", self.depth)),
            }
        }
    }

    #[derive(Debug, Default, PartialEq)]
    struct Weights {
        points: f32,
    }
    tunable!(Weights {
        points: "per point"
    });

    fn settings(pairs: &[&str]) -> Settings {
        Settings::new(
            pairs
                .iter()
                .map(|pair| Settings::parse_pair(pair).unwrap())
                .collect(),
        )
    }

    #[test]
    fn settings_reach_the_target_that_has_them() {
        let (mut search, mut weights) = (Search::default(), Weights::default());
        settings(&["depth=3", "points = 2.5", "margin=0.25", "depth=4"])
            .apply("ai", &mut [&mut search, &mut weights])
            .unwrap();
        assert_eq!(
            search,
            Search {
                depth: 4,
                margin: 0.25,
                rounds: 0,
            }
        );
        assert_eq!(weights, Weights { points: 2.5 });
        let listed: Vec<(&str, String, &str)> = search
            .settings()
            .into_iter()
            .map(|s| (s.name, s.value, s.about))
            .collect();
        assert_eq!(
            listed,
            [
                ("depth", "4".into(), "plies searched"),
                ("margin", "0.25".into(), "the loss risked"),
                ("rounds", "0".into(), "rounds at most"),
            ]
        );
    }

    #[test]
    fn an_unbounded_count_reads_and_shows_as_none() {
        let mut search = Search::default();
        settings(&["rounds=none"])
            .apply("ai", &mut [&mut search])
            .unwrap();
        assert_eq!(search.rounds, u64::MAX);
        assert_eq!(search.settings()[2].value, "none");
        settings(&["rounds=7"])
            .apply("ai", &mut [&mut search])
            .unwrap();
        assert_eq!(search.settings()[2].value, "7");
        let error = settings(&["rounds=lots"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(error, "rounds=lots: expected a value of type u64 or none");
        // A setting that cannot be unbounded does not take the word.
        let error = settings(&["depth=none"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(error, "depth=none: expected a value of type u32");
    }

    #[test]
    fn unknown_names_and_bad_values_are_named() {
        let mut search = Search::default();
        let error = settings(&["dpeth=3"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(
            error,
            "player ai has no setting \"dpeth\" (its settings: depth, margin, rounds)"
        );
        let error = settings(&["depth=-1"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(error, "depth=-1: expected a value of type u32");
        let error = settings(&["depth=5"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(error, "depth=5: at most 4");
        for value in ["NaN", "inf", "-Infinity"] {
            let error = settings(&[&format!("margin={value}")])
                .apply("ai", &mut [&mut search])
                .unwrap_err();
            assert_eq!(error, format!("margin={value}: expected a finite f64"));
        }
        let error = settings(&["depth=1"]).apply("greedy", &mut []).unwrap_err();
        assert_eq!(error, "player greedy has no settings (given depth=1)");
        assert!(Settings::parse_pair("depth").is_err());
        assert!(Settings::parse_pair("=3").is_err());
    }

    #[test]
    fn with_replaces_and_display_lists() {
        let given = settings(&["a=1", "b=2"]).with("a", "3");
        assert_eq!(given.to_string(), "b=2 a=3");
        assert!(Settings::default().is_empty());
    }
}
