//! What a game's tables and players mean, in words: the legend printed under a run's tables and
//! by `marathon players GAME`, and how many decimals each figure shows. A game states it once
//! ([`crate::GameSpec::LEGEND`]), beside the code that computes the figures.

/// A name and what it means, in a few words (a case parameter, a built-in player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub about: &'static str,
}

/// A parameter of a case: its name, the kind of its values and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub kind: ParamKind,
    pub about: &'static str,
}

/// What a parameter's values are, and so their one type in JSON records: every value of a
/// parameter has the same type (solitaire's alphabet `12` is text, as `tld` is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Integer,
    Text,
}

/// A figure of a case (its score or a metric): its name, what it means, and the decimals tables
/// show it with, the same on every row (0 for a figure that is a whole number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    pub name: &'static str,
    pub decimals: u8,
    pub about: &'static str,
}

/// What a game's tables show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legend {
    /// The score of a case.
    pub score: Figure,
    /// The case's parameters, in the order of [`crate::GameSpec::PARAMS`].
    pub params: &'static [Param],
    /// The game's own figures of a case, in the order the game gives them.
    pub metrics: &'static [Figure],
    /// The built-in players, in the order of [`crate::GameSpec::PLAYERS`].
    pub players: &'static [Term],
    /// How a case that is not a bare seed reads in the case column (solitaire's `g6:3`), for a
    /// game that has such cases.
    pub cases: Option<&'static str>,
}

impl Legend {
    /// The parameter called `name`, if the game's cases have one.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|param| param.name == name)
    }

    /// The metric called `name`, if the game has one.
    pub fn metric(&self, name: &str) -> Option<&Figure> {
        self.metrics.iter().find(|metric| metric.name == name)
    }

    /// What player `name` is, if the game has it.
    pub fn player(&self, name: &str) -> Option<&'static str> {
        self.players
            .iter()
            .find(|player| player.name == name)
            .map(|player| player.about)
    }
}

/// `value` with exactly `decimals` decimals (`-0` and `-0.00` print without their sign).
pub fn format_fixed(value: f64, decimals: u8) -> String {
    let text = format!("{value:.*}", usize::from(decimals));
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// A total of fractions with `decimals` decimals, or as a whole number when it is one (a Kattis
/// points total of 395 prints `395`, not `395.00`); "whole" allows for the rounding of a sum.
pub fn format_total(value: f64, decimals: u8) -> String {
    let whole = value.round();
    if (value - whole).abs() <= 1e-9 * whole.abs().max(1.0) {
        format_fixed(whole, 0)
    } else {
        format_fixed(value, decimals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_print_with_their_decimals() {
        assert_eq!(format_fixed(620.0, 0), "620");
        assert_eq!(format_fixed(620.5, 2), "620.50");
        assert_eq!(format_fixed(0.1234, 3), "0.123");
        assert_eq!(format_fixed(-0.0001, 2), "0.00");
        assert_eq!(format_fixed(-0.4, 0), "0");
        assert_eq!(format_fixed(-1.5, 1), "-1.5");
        assert_eq!(format_total(394.99999999999994, 2), "395");
        assert_eq!(format_total(394.96, 2), "394.96");
        assert_eq!(format_total(0.0, 3), "0");
    }
}
