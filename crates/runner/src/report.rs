//! Score tables, summaries, JSON Lines and best-known scores.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use marathon_core::{CaseId, CaseOutcome, format_score};

/// Aggregates of a run over one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub cases: usize,
    pub mean: f64,
    /// The sum of the scores (contests that rank by the total, e.g. Kattis points, show it).
    pub total: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub failures: usize,
    pub total_time: Duration,
    /// Mean relative score (0..100), when best-known scores were given.
    pub mean_relative: Option<f64>,
    /// Each game-specific metric with its mean and total, in the order the cases give them.
    pub metrics: Vec<MetricSummary>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MetricSummary {
    pub name: &'static str,
    pub mean: f64,
    pub total: f64,
}

impl Summary {
    pub fn of(outcomes: &[CaseOutcome], relative: Option<&[f64]>) -> Self {
        let mut scores: Vec<f64> = outcomes.iter().map(|o| o.score).collect();
        scores.sort_by(f64::total_cmp);
        let cases = scores.len();
        let median = match cases {
            0 => 0.0,
            n if n % 2 == 1 => scores[n / 2],
            n => (scores[n / 2 - 1] + scores[n / 2]) / 2.0,
        };
        Self {
            cases,
            mean: mean(&scores),
            // `+ 0.0`: the sum of no scores is -0.0, which would print as `-0`.
            total: scores.iter().sum::<f64>() + 0.0,
            median,
            min: scores.first().copied().unwrap_or(0.0),
            max: scores.last().copied().unwrap_or(0.0),
            failures: outcomes.iter().filter(|o| !o.verdict.is_ok()).count(),
            total_time: outcomes.iter().map(|o| o.time).sum(),
            mean_relative: relative.map(mean),
            metrics: metric_summaries(outcomes),
        }
    }
}

fn metric_summaries(outcomes: &[CaseOutcome]) -> Vec<MetricSummary> {
    let mut names: Vec<&'static str> = Vec::new();
    for metric in outcomes.iter().flat_map(|o| &o.metrics) {
        if !names.contains(&metric.name) {
            names.push(metric.name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let values: Vec<f64> = outcomes
                .iter()
                .flat_map(|o| &o.metrics)
                .filter(|m| m.name == name)
                .map(|m| m.value)
                .collect();
            MetricSummary {
                name,
                mean: mean(&values),
                total: values.iter().sum(),
            }
        })
        .collect()
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The per-case table: seed (or case), the case's parameters, score, the game's metrics,
/// relative score (if known), moves, time and verdict.
pub fn case_table(outcomes: &[CaseOutcome], relative: Option<&[f64]>) -> String {
    let param_names: Vec<&str> = outcomes
        .first()
        .map(|o| o.params.iter().map(|(name, _)| *name).collect())
        .unwrap_or_default();
    let metric_names: Vec<&str> = outcomes
        .first()
        .map(|o| o.metrics.iter().map(|m| m.name).collect())
        .unwrap_or_default();
    let plain_seeds = outcomes
        .iter()
        .all(|o| o.case.name.is_none() && o.case.group.is_none());
    let mut header: Vec<String> = vec![if plain_seeds { "seed" } else { "case" }.into()];
    header.extend(param_names.iter().map(|s| s.to_string()));
    header.push("score".into());
    header.extend(metric_names.iter().map(|s| s.to_string()));
    if relative.is_some() {
        header.push("rel".into());
    }
    header.extend(["moves".into(), "time".into(), "verdict".into()]);
    let mut rows = vec![header];
    for (i, o) in outcomes.iter().enumerate() {
        let mut row = vec![o.case.to_string()];
        row.extend(o.params.iter().map(|(_, v)| v.clone()));
        row.push(format_score(o.score));
        row.extend(o.metrics.iter().map(|m| format_metric(m.value)));
        if let Some(rel) = relative {
            row.push(format!("{:.1}", rel[i]));
        }
        row.push(o.moves.to_string());
        row.push(format!("{:.2}s", o.time.as_secs_f64()));
        row.push(o.verdict.to_string());
        rows.push(row);
    }
    render(&rows, true)
}

/// Metrics are often fractions (0.83) and sometimes large sums; three significant decimals at
/// most keep the table narrow.
pub(crate) fn format_metric(value: f64) -> String {
    if value.abs() >= 100.0 && value.fract() != 0.0 {
        format!("{value:.1}")
    } else {
        format_score((value * 1000.0).round() / 1000.0)
    }
}

/// Aligns columns to the right (numbers), except a free-text last column when `text_last`.
pub(crate) fn render(rows: &[Vec<String>], text_last: bool) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            if text_last && i + 1 == columns {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{cell:>width$}", width = widths[i]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One line per game: the run's aggregates.
pub fn summary_table(summaries: &[(&str, Summary)]) -> String {
    let with_rel = summaries.iter().any(|(_, s)| s.mean_relative.is_some());
    let mut header: Vec<String> = ["game", "cases", "mean", "total", "median", "min", "max"]
        .map(String::from)
        .to_vec();
    if with_rel {
        header.push("rel".into());
    }
    header.extend(["failures".into(), "time".into()]);
    let mut rows = vec![header];
    for (game, s) in summaries {
        let mut row = vec![
            game.to_string(),
            s.cases.to_string(),
            format!("{:.2}", s.mean),
            format_metric(s.total),
            format_score(s.median),
            format_score(s.min),
            format_score(s.max),
        ];
        if with_rel {
            row.push(s.mean_relative.map_or("-".into(), |r| format!("{r:.2}")));
        }
        row.push(s.failures.to_string());
        row.push(format!("{:.1}s", s.total_time.as_secs_f64()));
        rows.push(row);
    }
    let mut out = render(&rows, false);
    let mut metric_rows = vec![
        ["game", "metric", "mean", "total"]
            .map(String::from)
            .to_vec(),
    ];
    for (game, s) in summaries {
        for m in &s.metrics {
            metric_rows.push(vec![
                game.to_string(),
                m.name.to_string(),
                format_metric(m.mean),
                format_metric(m.total),
            ]);
        }
    }
    if metric_rows.len() > 1 {
        out.push('\n');
        out.push_str(&render(&metric_rows, false));
    }
    out
}

/// The table of a best-scores file (see [`BestScores`]); a missing file is an empty table.
fn read_scores(path: &Path) -> Result<BTreeMap<(String, String), f64>, String> {
    let mut scores = BTreeMap::new();
    // A missing file (or a link to one) is a table not written yet.
    if !path.exists() {
        return Ok(scores);
    }
    let read = marathon_core::input::for_each_line(path, |line| {
        let text = line.text.trim();
        if text.is_empty() || text.starts_with('#') {
            return Ok(());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [game, case, score] => score
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite())
                .map(|score| (game.to_string(), case.to_string(), score)),
            _ => None,
        };
        let (game, case, score) = parsed.ok_or_else(|| {
            format!(
                "{}:{}: expected `game case score`, found {text:?}",
                path.display(),
                line.number
            )
        })?;
        scores.insert((game, case), score);
        Ok(())
    });
    read.map(|()| scores)
        .map_err(|message| match message.strip_prefix("cannot read ") {
            Some(rest) => format!("cannot read best-scores file {rest}"),
            None => message,
        })
}

/// Best-known scores per (game, case), kept in a small text file: one `game case score` a line,
/// the case written as tables show it (`17`, `g6:17`, `g6-1`).
/// A run reads it to print relative scores and writes back any score that beats it. Runs in
/// parallel on one file (shards, several terminals) keep each other's bests: a save re-reads
/// the file under a lock ([`crate::files::lock_beside`]) and merges this run's bests into it.
#[derive(Clone, Debug, Default)]
pub struct BestScores {
    path: PathBuf,
    scores: BTreeMap<(String, String), f64>,
    /// The bests this run found, and whether their game maximises: what a save merges into
    /// the file as it is then.
    found: BTreeMap<(String, String), (f64, bool)>,
}

impl BestScores {
    /// Reads `path`; a missing file is an empty table (the run creates it).
    pub fn load(path: &Path) -> Result<Self, String> {
        let mut best = Self {
            path: path.to_path_buf(),
            ..Self::default()
        };
        best.scores = read_scores(path)?;
        Ok(best)
    }

    pub fn get(&self, game: &str, case: &CaseId) -> Option<f64> {
        self.scores
            .get(&(game.to_string(), case.to_string()))
            .copied()
    }

    /// Relative scores as TopCoder showed them: 100 * yours / best when maximising, 100 * best /
    /// yours when minimising, after the run's own scores have been merged in (so a new best
    /// scores 100).
    pub fn relative(&self, outcome: &CaseOutcome, maximize: bool) -> f64 {
        let best = self
            .get(outcome.game, &outcome.case)
            .unwrap_or(outcome.score);
        let (num, den) = if maximize {
            (outcome.score, best)
        } else {
            (best, outcome.score)
        };
        if den <= 0.0 {
            if num >= den { 100.0 } else { 0.0 }
        } else {
            (100.0 * num / den).max(0.0)
        }
    }

    /// Takes every outcome of a valid run that beats the known best; returns how many did.
    pub fn merge(&mut self, outcomes: &[CaseOutcome], maximize: bool) -> usize {
        let mut improved = 0;
        for o in outcomes.iter().filter(|o| o.verdict.is_ok()) {
            let key = (o.game.to_string(), o.case.to_string());
            let better = match self.scores.get(&key) {
                None => true,
                Some(&b) if maximize => o.score > b,
                Some(&b) => o.score < b,
            };
            if better {
                self.scores.insert(key.clone(), o.score);
                self.found.insert(key, (o.score, maximize));
                improved += 1;
            }
        }
        improved
    }

    /// Writes the file: what it holds now (another run may have written it since it was read)
    /// with this run's bests merged in, under a lock so that two runs' saves do not interleave.
    /// The table then holds the file's scores too.
    pub fn save(&mut self) -> io::Result<()> {
        let _lock = crate::files::lock_beside(&self.path);
        let mut scores = read_scores(&self.path).map_err(io::Error::other)?;
        for (key, &(score, maximize)) in &self.found {
            let better = match scores.get(key) {
                None => true,
                Some(&known) if maximize => score > known,
                Some(&known) => score < known,
            };
            if better {
                scores.insert(key.clone(), score);
            }
        }
        let mut text = String::from("# best known score per case: game case score\n");
        for ((game, case), score) in &scores {
            let _ = writeln!(text, "{game} {case} {score}");
        }
        crate::files::write_atomically(&self.path, text.as_bytes())?;
        self.scores = scores;
        Ok(())
    }

    /// The file the table is kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marathon_core::Verdict;

    fn outcome(seed: u64, score: f64, verdict: Verdict) -> CaseOutcome {
        CaseOutcome {
            game: "linez",
            case: CaseId::seed(seed),
            params: vec![("N", "6".into())],
            score,
            moves: 10,
            time: Duration::from_millis(1500),
            verdict,
            metrics: Vec::new(),
            cpu: None,
        }
    }

    #[test]
    fn scores_print_without_needless_decimals() {
        assert_eq!(format_score(620.0), "620");
        assert_eq!(format_score(620.5), "620.5");
        assert_eq!(format_score(0.123456), "0.123");
        assert_eq!(format_score(-3.25), "-3.25");
    }

    #[test]
    fn summary_statistics() {
        let outcomes = [
            outcome(1, 10.0, Verdict::Ok),
            outcome(
                2,
                30.0,
                Verdict::timeout(Duration::from_secs(20), Duration::from_secs(20), false),
            ),
            outcome(3, 20.0, Verdict::Ok),
            outcome(4, 40.0, Verdict::Ok),
        ];
        let s = Summary::of(&outcomes, None);
        assert_eq!((s.cases, s.failures), (4, 1));
        assert_eq!((s.mean, s.median, s.min, s.max), (25.0, 25.0, 10.0, 40.0));
        assert_eq!(s.total_time, Duration::from_secs(6));
        assert_eq!(s.total, 100.0);
        assert!(s.metrics.is_empty());
    }

    #[test]
    fn named_cases_and_metrics_reach_table_json_and_summary() {
        let mut official = outcome(12, 40.0, Verdict::Ok);
        official.case = CaseId::named("g6-1", Some(6), 12);
        official.metrics = vec![marathon_core::Metric {
            name: "points",
            value: 13.0,
        }];
        let mut grouped = outcome(3, 20.0, Verdict::Ok);
        grouped.case = CaseId::in_group(6, 3);
        grouped.metrics = vec![marathon_core::Metric {
            name: "points",
            value: 6.5,
        }];
        let both = [official.clone(), grouped];
        let table = case_table(&both, None);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("case  N  score  points"), "{table}");
        assert!(lines[1].starts_with("g6-1  6     40      13"), "{table}");
        assert!(lines[2].starts_with("g6:3  6     20     6.5"), "{table}");

        let s = Summary::of(&both, None);
        assert_eq!(s.total, 60.0);
        assert_eq!(
            s.metrics,
            vec![MetricSummary {
                name: "points",
                mean: 9.75,
                total: 19.5
            }]
        );
        let summary = summary_table(&[("solitaire", s)]);
        assert!(
            summary
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>()
                    == ["solitaire", "points", "9.75", "19.5"]),
            "{summary}"
        );
    }

    #[test]
    fn table_aligns_and_shows_verdicts() {
        let table = case_table(
            &[
                outcome(1, 5.0, Verdict::Ok),
                outcome(
                    100,
                    1234.0,
                    Verdict::Crash {
                        detail: "exit status 3".into(),
                    },
                ),
            ],
            None,
        );
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("seed  N  score"), "{table}");
        assert!(lines[1].starts_with("   1  6      5"), "{table}");
        assert!(lines[2].ends_with("crash: exit status 3"), "{table}");
    }

    #[test]
    fn best_scores_round_trip_and_relative() {
        let dir = std::env::temp_dir().join(format!("marathon-best-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("best.txt");
        let _ = std::fs::remove_file(&path);
        let mut best = BestScores::load(&path).unwrap();
        let first = [
            outcome(1, 100.0, Verdict::Ok),
            outcome(2, 50.0, Verdict::Ok),
        ];
        assert_eq!(best.merge(&first, true), 2);
        best.save().unwrap();

        let best = BestScores::load(&path).unwrap();
        let worse = outcome(1, 80.0, Verdict::Ok);
        assert_eq!(best.relative(&worse, true), 80.0);
        assert_eq!(best.relative(&worse, false), 125.0);
        let mut best = best;
        let crashed_but_high = outcome(2, 500.0, Verdict::Crash { detail: "x".into() });
        assert_eq!(best.merge(&[crashed_but_high], true), 0);
        assert_eq!(best.get("linez", &CaseId::seed(2)), Some(50.0));

        // Two runs that read the file before either saved keep each other's bests.
        let (mut first, mut second) = (best.clone(), best);
        first.merge(
            &[outcome(3, 30.0, Verdict::Ok), outcome(4, 7.0, Verdict::Ok)],
            true,
        );
        second.merge(
            &[outcome(4, 9.0, Verdict::Ok), outcome(5, 1.0, Verdict::Ok)],
            true,
        );
        second.save().unwrap();
        first.save().unwrap();
        let saved = BestScores::load(&path).unwrap();
        let score = |seed| saved.get("linez", &CaseId::seed(seed));
        assert_eq!(
            [1, 2, 3, 4, 5].map(score),
            [Some(100.0), Some(50.0), Some(30.0), Some(9.0), Some(1.0)]
        );
        assert_eq!(first.get("linez", &CaseId::seed(5)), Some(1.0));

        std::fs::write(&path, "linez 1 100\nlinez one\n").unwrap();
        let err = BestScores::load(&path).unwrap_err();
        assert!(err.contains("best.txt:2"), "{err}");
    }
}
