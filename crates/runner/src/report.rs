//! Score tables, summaries, JSON Lines and best-known scores.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use marathon_core::{CaseId, CaseOutcome, Legend, format_fixed, format_score, format_total};

use crate::table::{Align, render};

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

/// How tables print a game's figures: each with the decimals its legend gives, the same on
/// every row. A mean gets at least two decimals and a median one (a mean of whole scores is a
/// fraction, a median of two of them may be a half); a metric the legend does not know (one
/// read from an older file) keeps up to three.
#[derive(Clone, Copy)]
pub struct Formats<'a>(pub &'a Legend);

impl Formats<'_> {
    pub fn score(&self, value: f64) -> String {
        format_fixed(value, self.0.score.decimals)
    }

    pub fn mean(&self, value: f64) -> String {
        format_fixed(value, self.0.score.decimals.max(2))
    }

    pub fn median(&self, value: f64) -> String {
        format_fixed(value, self.0.score.decimals.max(1))
    }

    pub fn metric(&self, name: &str, value: f64) -> String {
        match self.0.metric(name) {
            Some(figure) => format_fixed(value, figure.decimals),
            None => format_metric(value),
        }
    }

    pub fn metric_mean(&self, name: &str, value: f64) -> String {
        match self.0.metric(name) {
            Some(figure) => format_fixed(value, figure.decimals.max(2)),
            None => format_metric(value),
        }
    }

    /// A metric's total: a whole total of fractions (Kattis points) prints as a whole number.
    pub fn metric_total(&self, name: &str, value: f64) -> String {
        match self.0.metric(name) {
            Some(figure) => format_total(value, figure.decimals),
            None => format_metric(value),
        }
    }
}

/// A case's cell of a column, from its index in the run and its outcome.
type Cell<'a> = Box<dyn Fn(usize, &CaseOutcome) -> String + 'a>;

/// A column of the per-case table: its heading and each case's cell.
struct Column<'a> {
    heading: String,
    cell: Cell<'a>,
}

impl<'a> Column<'a> {
    fn new(heading: &str, cell: impl Fn(usize, &CaseOutcome) -> String + 'a) -> Self {
        Column {
            heading: heading.to_string(),
            cell: Box::new(cell),
        }
    }
}

/// The names of the metrics any of `outcomes` has: the legend's first, in its order, then any
/// other in the order met.
fn metric_names<'a>(legend: &'a Legend, outcomes: &'a [CaseOutcome]) -> Vec<&'a str> {
    let present = |name: &str| {
        outcomes
            .iter()
            .flat_map(|o| &o.metrics)
            .any(|m| m.name == name)
    };
    let mut names: Vec<&str> = legend
        .metrics
        .iter()
        .map(|figure| figure.name)
        .filter(|name| present(name))
        .collect();
    for metric in outcomes.iter().flat_map(|o| &o.metrics) {
        if !names.contains(&metric.name) {
            names.push(metric.name);
        }
    }
    names
}

/// The per-case table: seed (or case), the case's parameters, score, the game's metrics (`-`
/// for a case without one), relative score (if known), moves, time, peak memory (where programs played) and verdict.
/// Each column is one `Column`: a new figure of a case is one more.
pub fn case_table(legend: &Legend, outcomes: &[CaseOutcome], relative: Option<&[f64]>) -> String {
    let formats = Formats(legend);
    let param_names: Vec<&str> = outcomes
        .first()
        .map(|o| o.params.iter().map(|(name, _)| *name).collect())
        .unwrap_or_default();
    let plain_seeds = outcomes
        .iter()
        .all(|o| o.case.name.is_none() && o.case.group.is_none());
    let mut columns = vec![Column::new(
        if plain_seeds { "seed" } else { "case" },
        |_, o| o.case.to_string(),
    )];
    for name in param_names {
        columns.push(Column::new(name, move |_, o| {
            o.params
                .iter()
                .find(|(param, _)| *param == name)
                .map_or("-".into(), |(_, value)| value.clone())
        }));
    }
    columns.push(Column::new("score", move |_, o| formats.score(o.score)));
    for name in metric_names(legend, outcomes) {
        columns.push(Column::new(name, move |_, o| {
            o.metrics
                .iter()
                .find(|m| m.name == name)
                .map_or("-".into(), |m| formats.metric(name, m.value))
        }));
    }
    if let Some(relative) = relative {
        columns.push(Column::new("rel", move |i, _| {
            format!("{:.1}", relative[i])
        }));
    }
    columns.push(Column::new("moves", |_, o| o.moves.to_string()));
    columns.push(Column::new("time", |_, o| {
        format!("{:.2}s", o.time.as_secs_f64())
    }));
    // Only programs have a memory of their own (an in-process player shares marathon's).
    if outcomes.iter().any(|o| o.max_rss_kib.is_some()) {
        columns.push(Column::new("mem", |_, o| match o.max_rss_kib {
            Some(kib) => format!("{:.1}M", kib as f64 / 1024.0),
            None => "-".into(),
        }));
    }
    columns.push(Column::new("verdict", |_, o| o.verdict.to_string()));
    let mut rows = vec![columns.iter().map(|c| c.heading.clone()).collect()];
    for (i, o) in outcomes.iter().enumerate() {
        rows.push(columns.iter().map(|c| (c.cell)(i, o)).collect());
    }
    render(&rows, Align::NumbersThenText)
}

/// Metrics are often fractions (0.83) and sometimes large sums; three significant decimals at
/// most keep the table narrow (for a metric no legend describes).
pub(crate) fn format_metric(value: f64) -> String {
    if value.abs() >= 100.0 && value.fract() != 0.0 {
        format!("{value:.1}")
    } else {
        format_score((value * 1000.0).round() / 1000.0)
    }
}

/// One line per game: the run's aggregates, each game's figures with its own decimals; then
/// each game's metrics, their mean and total.
pub fn summary_table(summaries: &[(&str, &Legend, &Summary)]) -> String {
    let with_rel = summaries.iter().any(|(_, _, s)| s.mean_relative.is_some());
    let mut header: Vec<String> = ["game", "cases", "mean", "total", "median", "min", "max"]
        .map(String::from)
        .to_vec();
    if with_rel {
        header.push("rel".into());
    }
    header.extend(["failures".into(), "time".into()]);
    let mut rows = vec![header];
    for (game, legend, s) in summaries {
        let formats = Formats(legend);
        let mut row = vec![
            game.to_string(),
            s.cases.to_string(),
            formats.mean(s.mean),
            formats.score(s.total),
            formats.median(s.median),
            formats.score(s.min),
            formats.score(s.max),
        ];
        if with_rel {
            row.push(s.mean_relative.map_or("-".into(), |r| format!("{r:.2}")));
        }
        row.push(s.failures.to_string());
        row.push(format!("{:.1}s", s.total_time.as_secs_f64()));
        rows.push(row);
    }
    let mut out = render(&rows, Align::Numbers);
    let mut metric_rows = vec![
        ["game", "metric", "mean", "total"]
            .map(String::from)
            .to_vec(),
    ];
    for (game, legend, s) in summaries {
        let formats = Formats(legend);
        for m in &s.metrics {
            metric_rows.push(vec![
                game.to_string(),
                m.name.to_string(),
                formats.metric_mean(m.name, m.mean),
                formats.metric_total(m.name, m.total),
            ]);
        }
    }
    if metric_rows.len() > 1 {
        out.push('\n');
        out.push_str(&render(&metric_rows, Align::Numbers));
    }
    out
}

/// What the tables above it mean, for a newcomer: what `time` counts (`wall`: the run's own
/// duration and threads, when known), then for each game (its name, legend and the cases its
/// tables showed) its score, parameters and the metrics its cases have, and how case ids read
/// when a case's id is not its bare seed. Lines are wrapped to 100 columns.
pub fn legend(
    games: &[(&str, &Legend, &[CaseOutcome])],
    wall: Option<(Duration, usize)>,
) -> String {
    let mut out = String::new();
    let mut time = "time = the players' time as the judge counts it, summed over the cases: not \
                    the run's wall time"
        .to_string();
    if let Some((wall, threads)) = wall {
        let _ = write!(
            time,
            " (this run: {:.1} s on {threads} thread{})",
            wall.as_secs_f64(),
            if threads == 1 { "" } else { "s" }
        );
    }
    out.push_str(&wrap(&time, "  "));
    for (game, legend, outcomes) in games {
        let shown = metric_names(legend, outcomes);
        let case_ids = outcomes
            .iter()
            .any(|o| o.case.name.is_some() || o.case.group.is_some());
        let terms = legend_terms(legend, |name| shown.contains(&name), case_ids);
        out.push_str(&wrap(&format!("{game}: {}", terms.join("; ")), "  "));
    }
    out
}

/// What a game's figures mean, `name = what it is` each: the score, the case parameters, the
/// metrics `shown` keeps, and how case ids read when `case_ids` (and the game has such ids).
pub fn legend_terms(legend: &Legend, shown: impl Fn(&str) -> bool, case_ids: bool) -> Vec<String> {
    let mut terms = vec![format!("score = {}", legend.score.about)];
    terms.extend(
        legend
            .params
            .iter()
            .map(|term| format!("{} = {}", term.name, term.about)),
    );
    terms.extend(
        legend
            .metrics
            .iter()
            .filter(|figure| shown(figure.name))
            .map(|figure| format!("{} = {}", figure.name, figure.about)),
    );
    if case_ids && let Some(cases) = legend.cases {
        terms.push(format!("case = {cases}"));
    }
    terms
}

/// `text` broken into lines of at most 100 columns at spaces, every line after the first
/// behind `indent`.
pub fn wrap(text: &str, indent: &str) -> String {
    wrap_after("", text, indent)
}

/// `prefix` as it is (an aligned name), then `text` broken into lines of at most 100 columns
/// at spaces, every line after the first behind `indent`.
pub fn wrap_after(prefix: &str, text: &str, indent: &str) -> String {
    const WIDTH: usize = 100;
    let mut out = String::new();
    let mut line = prefix.to_string();
    let mut words_on_line = 0;
    for word in text.split(' ').filter(|word| !word.is_empty()) {
        if words_on_line > 0 && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            words_on_line = 0;
        } else if words_on_line > 0 {
            line.push(' ');
        }
        line.push_str(word);
        words_on_line += 1;
    }
    out.push_str(line.trim_end());
    out.push('\n');
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
            max_rss_kib: None,
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
        let solitaire = legend_of("solitaire");
        let table = case_table(solitaire, &both, None);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("case  N  score  points"), "{table}");
        assert!(lines[1].starts_with("g6-1  6     40   13.00"), "{table}");
        assert!(lines[2].starts_with("g6:3  6     20    6.50"), "{table}");

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
        let summary = summary_table(&[("solitaire", solitaire, &s)]);
        assert!(
            summary
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>()
                    == ["solitaire", "points", "9.75", "19.50"]),
            "{summary}"
        );
    }

    fn legend_of(game: &str) -> &'static Legend {
        marathon_games::lookup(game).unwrap().legend()
    }

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    /// Every row of a column has the column's decimals, the legend's for the game's figure; a
    /// whole total of fractions (Kattis points) prints as a whole number.
    #[test]
    fn each_column_keeps_its_decimals() {
        let mut cases = Vec::new();
        for (seed, score, points) in [(1, 100.0, 4.0), (2, 82.5, 1.25), (3, 7.0, 0.75)] {
            let mut case = outcome(seed, score, Verdict::Ok);
            case.game = "reversi";
            case.metrics = vec![
                marathon_core::Metric {
                    name: "owned",
                    value: score,
                },
                marathon_core::Metric {
                    name: "predicted",
                    value: points / 8.0,
                },
            ];
            cases.push(case);
        }
        let reversi = legend_of("reversi");
        let table = case_table(reversi, &cases, None);
        let rows: Vec<Vec<&str>> = table.lines().skip(1).map(words).collect();
        // seed, N, score (3 decimals), owned (whole), predicted (3 decimals), moves, time.
        assert_eq!(
            rows[0][..5],
            ["1", "6", "100.000", "100", "0.500"],
            "{table}"
        );
        assert_eq!(rows[1][..5], ["2", "6", "82.500", "82", "0.156"], "{table}");
        assert_eq!(rows[2][..5], ["3", "6", "7.000", "7", "0.094"], "{table}");

        let s = Summary::of(&cases, None);
        let summary = summary_table(&[("reversi", reversi, &s)]);
        let lines: Vec<Vec<&str>> = summary.lines().map(words).collect();
        // mean, total, median, min, max with the score's 3 decimals.
        assert_eq!(
            lines[1][..7],
            [
                "reversi", "3", "63.167", "189.500", "82.500", "7.000", "100.000"
            ],
            "{summary}"
        );
        assert!(
            lines.contains(&vec!["reversi", "predicted", "0.250", "0.750"]),
            "{summary}"
        );

        let solitaire = legend_of("solitaire");
        let mut official = outcome(1, 40.0, Verdict::Ok);
        official.metrics = vec![marathon_core::Metric {
            name: "points",
            value: 0.1 + 0.2,
        }];
        let mut other = official.clone();
        other.metrics[0].value = 2.7;
        let s = Summary::of(&[official, other], None);
        let summary = summary_table(&[("solitaire", solitaire, &s)]);
        assert!(
            summary
                .lines()
                .any(|l| words(l) == ["solitaire", "points", "1.50", "3"]),
            "{summary}"
        );
    }

    #[test]
    fn the_legend_says_what_time_sums_and_what_the_figures_mean() {
        let with_metric = |game: &'static str, case: CaseId, names: &[&'static str]| {
            let mut o = outcome(1, 1.0, Verdict::Ok);
            o.game = game;
            o.case = case;
            o.metrics = names
                .iter()
                .map(|&name| marathon_core::Metric { name, value: 1.0 })
                .collect();
            o
        };
        let tiles = [with_metric("tiles", CaseId::seed(1), &["clears", "10k"])];
        let reversi = [with_metric("reversi", CaseId::seed(1), &["owned"])];
        let grouped = [with_metric("solitaire", CaseId::in_group(6, 3), &[])];
        let text = legend(
            &[
                ("tiles", legend_of("tiles"), &tiles),
                ("reversi", legend_of("reversi"), &reversi),
                ("solitaire", legend_of("solitaire"), &grouped),
            ],
            Some((Duration::from_millis(2500), 2)),
        );
        assert!(
            text.lines().all(|line| line.chars().count() <= 100),
            "{text}"
        );
        let text = words(&text).join(" ");
        assert!(text.starts_with("time = the players' time"), "{text}");
        assert!(
            text.contains("not the run's wall time (this run: 2.5 s on 2 threads)"),
            "{text}"
        );
        for needle in [
            "N = colours",
            "10k = 1 when the game reached",
            "owned = player 1's",
        ] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
        assert!(
            !text.contains("doubles ="),
            "a metric no case showed: {text}"
        );
        assert!(
            !text.contains("predicted"),
            "a metric no case showed: {text}"
        );
        assert!(text.contains("g6:3 means seed 3 of group 6"), "{text}");
        let seeds = [with_metric("solitaire", CaseId::seed(3), &[])];
        let without_ids = legend(&[("solitaire", legend_of("solitaire"), &seeds)], None);
        assert!(!without_ids.contains("g6:3"), "{without_ids}");
    }

    #[test]
    fn table_aligns_and_shows_verdicts() {
        let table = case_table(
            legend_of("linez"),
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
