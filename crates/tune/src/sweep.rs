//! A sweep: the same cases played through the judge under every combination of the values of
//! some settings, one table row per combination. The games are the runner's games (the judge,
//! the built-in player behind the protocol's pipes), so what a sweep finds is what
//! `marathon play --set` reproduces.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use marathon_core::{
    CaseId, CaseOutcome, Legend, PlayConfig, Settings, format_score, parse_seed_set,
};
use marathon_runner::record::CaseRecord;
use marathon_runner::run::{self, GamePlan, Outputs, Plan, Run};
use marathon_runner::select::{builtin_player, case_ids, time_limit};
use marathon_runner::{breakdown, table};

#[derive(Args)]
pub struct SweepArgs {
    /// The game.
    game: String,
    /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
    #[arg(long, default_value = "1-20")]
    seeds: String,
    /// The case group, for games that have groups (default: the game's default group).
    #[arg(long)]
    group: Option<u32>,
    /// The built-in player (default: the game's first).
    #[arg(long)]
    player: Option<String>,
    /// Fixed search effort (moves then depend on the case alone); without it the time limit
    /// decides and the results depend on the machine.
    #[arg(long)]
    effort: Option<u64>,
    /// Thinking time per case in seconds (default: the contest's limit).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// A setting held for every row, NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = Settings::parse_pair)]
    settings: Vec<(String, String)>,
    /// A setting to sweep, NAME=V1,V2,... (repeatable: every combination is a row).
    #[arg(long, value_name = "NAME=V1,V2,...", value_parser = parse_vary)]
    vary: Vec<(String, Vec<String>)>,
    /// Also show each row's mean per value of this case parameter (e.g. `N`).
    #[arg(long, value_name = "PARAM")]
    by: Option<String>,
    /// Cases played in parallel (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Write every case's JSON line (as `marathon play --json`, plus `settings`) to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

fn parse_vary(text: &str) -> Result<(String, Vec<String>), String> {
    let (name, values) = Settings::parse_pair(text)?;
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(format!(
            "{text:?}: expected NAME=V1,V2,... with no empty value"
        ));
    }
    Ok((name, values))
}

/// One row of the sweep: the varied settings' values and the cases played with them.
struct Row {
    values: Vec<String>,
    settings: Settings,
    outcomes: Vec<CaseOutcome>,
}

pub fn run(args: SweepArgs) -> Result<(), String> {
    let game = marathon_games::lookup(&args.game)?;
    let player = builtin_player(game, args.player.as_deref())?;
    let seeds = parse_seed_set(&args.seeds).map_err(|e| format!("--seeds: {e}"))?;
    let cases = case_ids(game, &seeds, args.group)?;
    let by: Vec<String> = args.by.iter().cloned().collect();
    breakdown::check(game.name(), game.params(), &by)?;
    let limit = time_limit(game, args.time_limit)?;
    let held = Settings::new(args.settings.clone());
    let mut rows: Vec<Row> = combinations(&args.vary)
        .into_iter()
        .map(|values| {
            let settings = args
                .vary
                .iter()
                .zip(&values)
                .fold(held.clone(), |settings, ((name, _), value)| {
                    settings.with(name, value)
                });
            Row {
                values,
                settings,
                outcomes: Vec::new(),
            }
        })
        .collect();
    // Every row's settings are checked before the first case plays.
    for row in &rows {
        game.settings(&player, &row.settings)?;
    }
    let plan = Plan {
        games: rows
            .iter()
            .map(|row| GamePlan {
                game,
                config: PlayConfig {
                    settings: row.settings.clone(),
                    ..PlayConfig::builtin(&player, limit, args.effort)
                },
                cases: cases.clone(),
            })
            .collect(),
        threads: args.threads.map_or(0, usize::from),
    };
    // No outputs of the run's own: the sweep's --json lines carry each row's settings.
    let outputs = Outputs {
        progress: true,
        ..Outputs::default()
    };
    let mut run = Run::start(plan, outputs, &run::FLAGS)?;
    let mut json = match &args.json {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|e| format!("--json {}: {e}", path.display()))?,
        )),
        None => None,
    };
    println!(
        "{} {player}, seeds {} ({} cases), {}{}",
        game.name(),
        args.seeds,
        cases.len(),
        match args.effort {
            Some(effort) => format!("effort {effort}"),
            None => format!("time limit {} s", limit.as_secs_f64()),
        },
        if held.is_empty() {
            String::new()
        } else {
            format!(", set {held}")
        }
    );
    // A row a game of the run; an interruption leaves the rows after it empty.
    for row in &rows {
        let mut written = Ok(());
        let played = run
            .play_next(|finished| {
                if let Some(out) = json.as_mut()
                    && written.is_ok()
                {
                    written = write_record(out, game.legend(), finished.outcome, &row.settings);
                }
            })
            .map_err(|e| e.to_string())?;
        written.map_err(|e| format!("--json: {e}"))?;
        if played.is_none() {
            break;
        }
    }
    for (row, played) in rows.iter_mut().zip(run.finish().games) {
        row.outcomes = played.outcomes;
    }
    print!(
        "{}",
        table(&args.vary, &rows, args.by.as_deref(), game.maximize())
    );
    Ok(())
}

/// Every combination of the varied values, the first setting's values outermost.
fn combinations(vary: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    vary.iter().fold(vec![Vec::new()], |rows, (_, values)| {
        rows.iter()
            .flat_map(|row| {
                values.iter().map(move |value| {
                    let mut next = row.clone();
                    next.push(value.clone());
                    next
                })
            })
            .collect()
    })
}

fn write_record(
    out: &mut impl Write,
    legend: &Legend,
    outcome: &CaseOutcome,
    settings: &Settings,
) -> std::io::Result<()> {
    let mut record = serde_json::to_value(CaseRecord::new(legend, outcome, None))?;
    if let Some(object) = record.as_object_mut() {
        let settings: serde_json::Map<String, serde_json::Value> = settings
            .pairs()
            .iter()
            .map(|(name, value)| (name.clone(), value.clone().into()))
            .collect();
        object.insert("settings".into(), settings.into());
    }
    writeln!(out, "{record}")?;
    out.flush()
}

/// The mean and its standard error.
pub(crate) fn mean_and_error(scores: &[f64]) -> (f64, f64) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return (0.0, 0.0);
    }
    let mean = scores.iter().sum::<f64>() / n;
    if scores.len() < 2 {
        return (mean, 0.0);
    }
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

/// The rows as a text table, the best mean marked `*` (the highest, or the lowest where a
/// lower score is better).
fn table(vary: &[(String, Vec<String>)], rows: &[Row], by: Option<&str>, maximize: bool) -> String {
    // The groups of `--by`, as a run's breakdown makes them (values, or ranges of many), over
    // the cases of the row that played most of them: every row plays the same cases.
    let by: Vec<String> = by.map(str::to_string).into_iter().collect();
    let fullest = rows.iter().map(|row| &row.outcomes).max_by_key(|o| o.len());
    let groups: Vec<(String, BTreeSet<&CaseId>)> = match fullest {
        Some(outcomes) if !by.is_empty() => breakdown::groups(outcomes, &by)
            .into_iter()
            .map(|group| {
                (
                    group.label,
                    group.outcomes.iter().map(|o| &o.case).collect(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut header: Vec<String> = vary.iter().map(|(name, _)| name.clone()).collect();
    header.extend(["cases", "mean", "± se", "failures", "max time"].map(String::from));
    header.extend(groups.iter().map(|(label, _)| label.clone()));
    let means = rows
        .iter()
        .filter(|row| !row.outcomes.is_empty())
        .map(|row| mean_and_error(&scores(&row.outcomes)).0);
    let best = if maximize {
        means.fold(f64::NEG_INFINITY, f64::max)
    } else {
        means.fold(f64::INFINITY, f64::min)
    };
    let mut lines = vec![header];
    for row in rows {
        let (mean, error) = mean_and_error(&scores(&row.outcomes));
        let mut line = row.values.clone();
        let marked = if mean == best && rows.len() > 1 {
            " *"
        } else {
            ""
        };
        line.push(row.outcomes.len().to_string());
        line.push(format!("{mean:.1}{marked}"));
        line.push(format!("{error:.1}"));
        let failures = row.outcomes.iter().filter(|o| !o.verdict.is_ok()).count();
        line.push(failures.to_string());
        let max_time = row
            .outcomes
            .iter()
            .map(|o| o.time)
            .max()
            .unwrap_or_default();
        line.push(format!("{:.2} s", max_time.as_secs_f64()));
        for (_, cases) in &groups {
            let scores: Vec<f64> = row
                .outcomes
                .iter()
                .filter(|o| cases.contains(&o.case))
                .map(|o| o.score)
                .collect();
            line.push(if scores.is_empty() {
                "-".into()
            } else {
                format_score((mean_and_error(&scores).0 * 10.0).round() / 10.0)
            });
        }
        lines.push(line);
    }
    table::render(&lines, table::Align::Numbers)
}

fn scores(outcomes: &[CaseOutcome]) -> Vec<f64> {
    outcomes.iter().map(|o| o.score).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_cover_every_pair_in_order() {
        let vary = vec![
            ("a".to_string(), vec!["1".to_string(), "2".to_string()]),
            ("b".to_string(), vec!["x".to_string(), "y".to_string()]),
        ];
        assert_eq!(
            combinations(&vary),
            [["1", "x"], ["1", "y"], ["2", "x"], ["2", "y"]]
        );
        assert_eq!(combinations(&[]), [Vec::<String>::new()]);
    }

    #[test]
    fn vary_values_are_read_and_empty_ones_refused() {
        assert_eq!(
            parse_vary("depth=1, 2,3").unwrap(),
            (
                "depth".to_string(),
                vec!["1".into(), "2".into(), "3".into()]
            )
        );
        assert!(parse_vary("depth=1,,3").is_err());
        assert!(parse_vary("depth").is_err());
    }

    #[test]
    fn mean_and_error_of_a_few_scores() {
        assert_eq!(mean_and_error(&[]), (0.0, 0.0));
        assert_eq!(mean_and_error(&[4.0]), (4.0, 0.0));
        let (mean, error) = mean_and_error(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(mean, 2.5);
        assert!((error - (1.6666666666666667f64 / 4.0).sqrt()).abs() < 1e-12);
    }
}
