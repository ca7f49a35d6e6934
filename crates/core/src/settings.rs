//! A built-in player's settings by name (`--set depth=2`): the knobs a tuner turns without
//! editing code. The CLI and the tuners hand them to the game as text; the game's AI sets them
//! on its own typed structs ([`Tunable`]), so a wrong name or value is refused before the first
//! case with a message naming the setting and the ones there are.

use std::fmt;
use std::str::FromStr;

/// Something with named settings: a player's search settings or evaluation weights. Usually
/// implemented with [`crate::tunable!`].
pub trait Tunable {
    /// Every setting's name and current value.
    fn settings(&self) -> Vec<(&'static str, String)>;

    /// Sets `name` to `value`; `Ok(false)` when there is no setting of that name here.
    fn set(&mut self, name: &str, value: &str) -> Result<bool, String>;

    /// Whether the values together are ones the player can play with (a search depth in its
    /// range, say); checked after every setting is applied.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Implements [`Tunable`] for a struct: each listed field is a setting of the field's name,
/// read with `FromStr` and shown with `Display`; `check = PATH` names a
/// `fn(&Self) -> Result<(), String>` that refuses values the player cannot play with.
#[macro_export]
macro_rules! tunable {
    ($type:ty { $($field:ident),+ $(,)? }) => {
        $crate::tunable!($type { $($field),+ } check = $crate::settings::no_check);
    };
    ($type:ty { $($field:ident),+ $(,)? } check = $check:path) => {
        impl $crate::settings::Tunable for $type {
            fn check(&self) -> Result<(), String> {
                $check(self)
            }

            fn settings(&self) -> Vec<(&'static str, String)> {
                vec![$((stringify!($field), self.$field.to_string())),+]
            }

            fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
                match name {
                    $(stringify!($field) => {
                        self.$field = $crate::settings::parse_value(name, value)?;
                        Ok(true)
                    })+
                    _ => Ok(false),
                }
            }
        }
    };
}

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
                    .map(|(name, _)| name)
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
pub fn list_part<T: Tunable>(reads: bool, part: &T) -> Vec<(&'static str, String)> {
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
    }
    tunable!(Search { depth, margin } check = Search::check);

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
    tunable!(Weights { points });

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
                margin: 0.25
            }
        );
        assert_eq!(weights, Weights { points: 2.5 });
        assert_eq!(
            search.settings(),
            [("depth", "4".into()), ("margin", "0.25".into())]
        );
    }

    #[test]
    fn unknown_names_and_bad_values_are_named() {
        let mut search = Search::default();
        let error = settings(&["dpeth=3"])
            .apply("ai", &mut [&mut search])
            .unwrap_err();
        assert_eq!(
            error,
            "player ai has no setting \"dpeth\" (its settings: depth, margin)"
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
