//! A run's results split by case parameter (`--by N`, `--by N,S`): a group per value, or per
//! pair of values, labelled `N=4` or `N=4 S=8`. A parameter that takes many values across the
//! run (polyomino's `W` and `H`) is split into ranges of about equal numbers of values instead,
//! labelled `W=40-79`, so that the table stays short.

use std::collections::BTreeMap;

use marathon_core::{CaseOutcome, Game, Legend, format_score};

use crate::report::{Formats, Summary};
use crate::table::{Align, render};

/// More distinct values of a parameter than this, and it is split into ranges.
pub const MAX_VALUES: usize = 12;
/// How many ranges a parameter with many values is split into.
const RANGES: usize = 6;

/// Checks that `by` names parameters of `game`'s cases (`params`), each once.
pub fn check(game: &str, params: &[&str], by: &[String]) -> Result<(), String> {
    for (i, name) in by.iter().enumerate() {
        if !params.contains(&name.as_str()) {
            let has = if params.is_empty() {
                "none".to_string()
            } else {
                params.join(", ")
            };
            return Err(format!(
                "--by {name}: {game} cases have no parameter {name:?} (they have: {has})"
            ));
        }
        if by[..i].contains(name) {
            return Err(format!("--by: {name} is named twice"));
        }
    }
    Ok(())
}

/// Cases of one value (or range) of each parameter of `--by`.
pub struct Group<'a> {
    pub label: String,
    pub outcomes: Vec<&'a CaseOutcome>,
}

/// How one parameter's values map to labels: each value itself, or ranges of values.
enum Split {
    Values,
    /// The sorted distinct values, cut into ranges at these indices.
    Ranges {
        values: Vec<f64>,
        starts: Vec<usize>,
    },
}

fn value_of<'a>(outcome: &'a CaseOutcome, name: &str) -> Option<&'a str> {
    outcome
        .params
        .iter()
        .find(|(param, _)| *param == name)
        .map(|(_, value)| value.as_str())
}

impl Split {
    fn of(outcomes: &[CaseOutcome], name: &str) -> Split {
        let mut numbers: Vec<f64> = Vec::new();
        for outcome in outcomes {
            match value_of(outcome, name).map(str::parse::<f64>) {
                Some(Ok(number)) => numbers.push(number),
                // A value that is not a number is its own group.
                _ => return Split::Values,
            }
        }
        numbers.sort_by(f64::total_cmp);
        numbers.dedup();
        if numbers.len() <= MAX_VALUES {
            return Split::Values;
        }
        let starts = (0..RANGES).map(|i| i * numbers.len() / RANGES).collect();
        Split::Ranges {
            values: numbers,
            starts,
        }
    }

    /// The sort key and label of `value`.
    fn place(&self, name: &str, value: &str) -> ((f64, String), String) {
        let number = value.parse::<f64>().unwrap_or(f64::NAN);
        match self {
            Split::Values => ((number, value.to_string()), format!("{name}={value}")),
            Split::Ranges { values, starts } => {
                let index = values.partition_point(|&v| v < number);
                let range = starts.partition_point(|&start| start <= index) - 1;
                let first = values[starts[range]];
                let last = values[starts.get(range + 1).map_or(values.len(), |&s| s) - 1];
                let label = format!("{name}={}-{}", format_score(first), format_score(last));
                ((first, String::new()), label)
            }
        }
    }
}

/// The run's cases grouped by the parameters `by` (checked with [`check`]), in the order of
/// the values (numbers by size).
pub fn groups<'a>(outcomes: &'a [CaseOutcome], by: &[String]) -> Vec<Group<'a>> {
    let splits: Vec<Split> = by.iter().map(|name| Split::of(outcomes, name)).collect();
    let mut keyed: BTreeMap<Vec<(TotalF64, String)>, Group<'a>> = BTreeMap::new();
    for outcome in outcomes {
        let mut key = Vec::new();
        let mut labels = Vec::new();
        for (name, split) in by.iter().zip(&splits) {
            let value = value_of(outcome, name).unwrap_or("-");
            let ((number, text), label) = split.place(name, value);
            key.push((TotalF64(number), text));
            labels.push(label);
        }
        keyed
            .entry(key)
            .or_insert_with(|| Group {
                label: labels.join(" "),
                outcomes: Vec::new(),
            })
            .outcomes
            .push(outcome);
    }
    keyed.into_values().collect()
}

/// A value as a sort key: numbers by size, and what is not a number (NaN) after them.
#[derive(PartialEq)]
struct TotalF64(f64);
impl Eq for TotalF64 {}
impl PartialOrd for TotalF64 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TotalF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The groups as a table: the label, cases, mean, total, failures and each metric's mean, with
/// the decimals of the game's `legend`.
pub fn table(legend: &Legend, groups: &[Group]) -> String {
    let formats = Formats(legend);
    let summaries: Vec<Summary> = groups
        .iter()
        .map(|group| {
            let outcomes: Vec<CaseOutcome> = group.outcomes.iter().map(|&o| o.clone()).collect();
            Summary::of(&outcomes, None)
        })
        .collect();
    let metric_names: Vec<&str> = summaries
        .iter()
        .flat_map(|s| s.metrics.iter().map(|m| m.name))
        .fold(Vec::new(), |mut names, name| {
            if !names.contains(&name) {
                names.push(name);
            }
            names
        });
    let mut header: Vec<String> = ["", "cases", "mean", "total", "failures"]
        .map(String::from)
        .to_vec();
    header.extend(metric_names.iter().map(|name| format!("{name} mean")));
    let mut rows = vec![header];
    for (group, summary) in groups.iter().zip(&summaries) {
        let mut row = vec![
            group.label.clone(),
            summary.cases.to_string(),
            formats.mean(summary.mean),
            formats.score(summary.total),
            summary.failures.to_string(),
        ];
        for name in &metric_names {
            row.push(
                summary
                    .metrics
                    .iter()
                    .find(|m| m.name == *name)
                    .map_or("-".into(), |m| formats.metric_mean(name, m.mean)),
            );
        }
        rows.push(row);
    }
    render(&rows, Align::Numbers)
}

/// `game`'s results split by `by` (`--by`), with its heading, as `marathon play` and `merge`
/// print it under the game's table; nothing without `--by` or cases.
pub fn text(game: &dyn Game, outcomes: &[CaseOutcome], by: &[String]) -> String {
    if by.is_empty() || outcomes.is_empty() {
        return String::new();
    }
    format!(
        "{} by {}:\n{}\n",
        game.name(),
        by.join(","),
        table(game.legend(), &groups(outcomes, by))
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use marathon_core::{CaseId, Metric, Verdict};

    use super::*;

    fn outcome(seed: u64, n: u32, s: u32, score: f64) -> CaseOutcome {
        CaseOutcome {
            game: "tiles",
            case: CaseId::seed(seed),
            params: vec![("N", n.to_string()), ("S", s.to_string())],
            score,
            moves: 1,
            time: Duration::ZERO,
            verdict: if score > 0.0 {
                Verdict::Ok
            } else {
                Verdict::Crash {
                    detail: "gone".into(),
                }
            },
            metrics: vec![Metric {
                name: "m",
                value: score / 10.0,
            }],
            cpu: None,
            max_rss_kib: None,
        }
    }

    #[test]
    fn groups_by_value_in_numeric_order_with_their_figures() {
        let outcomes = vec![
            outcome(1, 10, 8, 100.0),
            outcome(2, 4, 8, 300.0),
            outcome(3, 10, 9, 0.0),
            outcome(4, 4, 9, 500.0),
        ];
        let by = vec!["N".to_string()];
        let groups = groups(&outcomes, &by);
        let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["N=4", "N=10"]);
        let tiles = marathon_games::lookup("tiles").unwrap().legend();
        let text = table(tiles, &groups);
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows[0], ["cases", "mean", "total", "failures", "m", "mean"]);
        assert_eq!(rows[1], ["N=4", "2", "400.00", "800", "0", "40"]);
        assert_eq!(rows[2], ["N=10", "2", "50.00", "100", "1", "5"]);
        let pairs = super::groups(&outcomes, &["N".to_string(), "S".to_string()]);
        let labels: Vec<&str> = pairs.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["N=4 S=8", "N=4 S=9", "N=10 S=8", "N=10 S=9"]);
    }

    #[test]
    fn many_values_are_split_into_ranges_that_cover_each_case_once() {
        let outcomes: Vec<CaseOutcome> = (0..40)
            .map(|i| outcome(i, 20 + 3 * i as u32, 8, 1.0))
            .collect();
        let groups = groups(&outcomes, &["N".to_string()]);
        assert_eq!(groups.len(), RANGES);
        assert_eq!(groups[0].label, "N=20-35");
        assert_eq!(groups[RANGES - 1].label, "N=119-137");
        let cases: usize = groups.iter().map(|g| g.outcomes.len()).sum();
        assert_eq!(cases, 40);
        assert!(groups.iter().all(|g| (6..=7).contains(&g.outcomes.len())));
    }

    #[test]
    fn unknown_and_repeated_parameters_are_refused_by_name() {
        assert!(check("tiles", &["N", "S", "D"], &["N".into(), "D".into()]).is_ok());
        let error = check("tiles", &["N", "S", "D"], &["Q".into()]).unwrap_err();
        assert!(
            error.contains("no parameter \"Q\" (they have: N, S, D)"),
            "{error}"
        );
        let error = check("linez", &[], &["N".into()]).unwrap_err();
        assert!(error.contains("(they have: none)"), "{error}");
        assert!(check("tiles", &["N"], &["N".into(), "N".into()]).is_err());
    }
}
