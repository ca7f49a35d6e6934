//! The run report a person opens in a browser (`marathon play ... --report FILE.html`): the
//! summary, a bar chart of the score per case, a histogram of the scores, the time per case,
//! the worst and best cases with the command that replays each, and, against an earlier run's
//! JSON Lines (`--compare`), wins, losses, ties and ratios per case. Self-contained: inline SVG
//! and style, no script, no network.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::history::History;
use crate::record::CaseRecord;
use crate::report::Summary;
use crate::run::{GamePlan, Plan, PlayedGame};
use marathon_core::replay::escape_html as escape;
use marathon_core::{CaseOutcome, Legend, PlayerSpec, format_score};

/// One game's part of a run.
pub struct GameRun<'a> {
    pub game: &'a str,
    pub maximize: bool,
    /// How the game's figures print.
    pub legend: &'a Legend,
    pub outcomes: &'a [CaseOutcome],
    pub summary: &'a Summary,
}

/// The summary table of the games played and, under it, what its figures mean
/// ([`crate::report::legend`]), as `marathon play` and `merge` print them after the games'
/// tables; `wall` is the run's duration and threads, when known.
pub fn summary_text(played: &[PlayedGame], wall: Option<(Duration, usize)>) -> String {
    let rows: Vec<(&str, &Legend, &Summary)> = played
        .iter()
        .map(|game| (game.game.name(), game.game.legend(), &game.summary))
        .collect();
    let mut text = crate::report::summary_table(&rows);
    let legends: Vec<(&str, &Legend, &[CaseOutcome])> = played
        .iter()
        .map(|game| {
            (
                game.game.name(),
                game.game.legend(),
                game.outcomes.as_slice(),
            )
        })
        .collect();
    text.push('\n');
    text.push_str(&crate::report::legend(&legends, wall));
    text
}

/// Each game's cases and summary, as the run report reads them.
pub fn game_runs(played: &[PlayedGame]) -> Vec<GameRun<'_>> {
    played
        .iter()
        .map(|game| GameRun {
            game: game.game.name(),
            maximize: game.game.maximize(),
            legend: game.game.legend(),
            outcomes: &game.outcomes,
            summary: &game.summary,
        })
        .collect()
}

/// An earlier run's scores, read from its JSON Lines, by (game, case as tables show it).
#[derive(Clone, Debug, Default)]
pub struct EarlierRun {
    pub name: String,
    scores: HashMap<(String, String), f64>,
    /// The file's last line was cut off and left out ([`CaseRecord::read_file`]).
    pub torn: Option<String>,
}

impl EarlierRun {
    /// Reads the JSON Lines `marathon play --json` writes ([`CaseRecord`]).
    pub fn load(path: &Path) -> Result<Self, String> {
        let file = CaseRecord::read_file(path)?;
        let scores = file
            .records
            .into_iter()
            .map(|record| ((record.game.clone(), record.case_key()), record.score))
            .collect();
        Ok(EarlierRun {
            name: path.display().to_string(),
            scores,
            torn: file.torn,
        })
    }

    /// The earlier run `--compare` names: a kept run in `history` (`last`, `best`, an id) of
    /// the plan's first game, else a `--json` file. `best` is per game, so a plan of several
    /// games must name one.
    pub fn find(history: &History, which: &str, plan: &Plan) -> Result<Self, String> {
        let Some(GamePlan { game, .. }) = plan.games.first() else {
            return Err("--compare: nothing to compare".into());
        };
        if which == "best" && plan.games.len() > 1 {
            return Err("--compare best: name one game (best is per game)".into());
        }
        match history.find(which, game.name(), game.maximize(), None)? {
            Some((run, path)) => {
                let mut earlier = EarlierRun::load(&path)?;
                earlier.name = match &run.label {
                    Some(label) => format!("run {} ({label})", run.id),
                    None => format!("run {}", run.id),
                };
                Ok(earlier)
            }
            None => EarlierRun::load(Path::new(which)).map_err(|e| {
                format!("--compare {which}: not last, best or a kept run's id, and {e}")
            }),
        }
    }

    pub fn get(&self, game: &str, case: &str) -> Option<f64> {
        self.scores
            .get(&(game.to_string(), case.to_string()))
            .copied()
    }
}

/// This run against an earlier one, over the cases both played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    pub cases: usize,
    pub wins: usize,
    pub losses: usize,
    pub ties: usize,
    /// Sum of this run's scores over the sum of the earlier run's (for minimisation: the other
    /// way round), so that above 1 is better either way.
    pub ratio_of_sums: f64,
    /// The mean over cases of the same ratio (cases where the earlier score is 0 count as 1 if
    /// tied, else are left out).
    pub mean_ratio: f64,
}

impl Comparison {
    pub fn of(run: &GameRun, earlier: &EarlierRun) -> Self {
        let mut c = Comparison::default();
        let (mut ours, mut theirs) = (0.0, 0.0);
        let mut ratios = Vec::new();
        for o in run.outcomes {
            let Some(other) = earlier.get(run.game, &o.case.to_string()) else {
                continue;
            };
            c.cases += 1;
            let better = if run.maximize {
                o.score > other
            } else {
                o.score < other
            };
            if o.score == other {
                c.ties += 1;
            } else if better {
                c.wins += 1;
            } else {
                c.losses += 1;
            }
            ours += o.score;
            theirs += other;
            if let Some(r) = better_ratio(o.score, other, run.maximize) {
                ratios.push(r);
            }
        }
        c.ratio_of_sums = better_ratio(ours, theirs, run.maximize).unwrap_or(1.0);
        c.mean_ratio = if ratios.is_empty() {
            1.0
        } else {
            ratios.iter().sum::<f64>() / ratios.len() as f64
        };
        c
    }

    /// One line for the terminal.
    pub fn line(&self, game: &str, earlier: &str) -> String {
        format!(
            "{game} vs {earlier}: {} cases, {} wins, {} losses, {} ties, ratio {:.3} (of sums), \
             {:.3} (mean per case)",
            self.cases, self.wins, self.losses, self.ties, self.ratio_of_sums, self.mean_ratio
        )
    }
}

/// ours / theirs (theirs / ours when minimising); `None` where undefined.
fn better_ratio(ours: f64, theirs: f64, maximize: bool) -> Option<f64> {
    let (num, den) = if maximize {
        (ours, theirs)
    } else {
        (theirs, ours)
    };
    if den != 0.0 {
        Some(num / den)
    } else if num == den {
        Some(1.0)
    } else {
        None
    }
}

/// How many worst and best cases the report lists.
const EXTREMES: usize = 3;

/// How the run played: who, and the flags a replay needs to play the same way (`--effort 4`).
pub struct RunSetup<'a> {
    /// Who played; unknown for runs joined from files (`marathon merge`).
    pub player: Option<&'a PlayerSpec>,
    pub replay_flags: &'a str,
    /// The command line that ran.
    pub command: &'a str,
    /// The case parameters the summary is split by (`--by`), if any.
    pub by: &'a [String],
}

/// The report page.
pub fn html(runs: &[GameRun], setup: &RunSetup, earlier: Option<&EarlierRun>) -> String {
    let player = setup.player;
    let command = setup.command;
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h1>marathon run report</h1><p class=\"muted\">player <b>{}</b> &middot; <code>{}</code></p>",
        escape(&player.map_or(
            "(as recorded in the joined files)".into(),
            PlayerSpec::describe
        )),
        escape(command)
    );
    let summaries: Vec<(&str, &Legend, &Summary)> =
        runs.iter().map(|r| (r.game, r.legend, r.summary)).collect();
    let _ = writeln!(
        body,
        "<h2>Summary</h2><pre>{}</pre>",
        escape(&crate::report::summary_table(&summaries))
    );
    let legends: Vec<(&str, &Legend, &[CaseOutcome])> = runs
        .iter()
        .map(|run| (run.game, run.legend, run.outcomes))
        .collect();
    let _ = writeln!(
        body,
        "<pre class=\"muted\">{}</pre>",
        escape(&crate::report::legend(&legends, None))
    );
    for run in runs {
        game_section(&mut body, run, setup, earlier);
    }
    PAGE.replace("{{BODY}}", &body)
}

fn game_section(out: &mut String, run: &GameRun, setup: &RunSetup, earlier: Option<&EarlierRun>) {
    let game = escape(run.game);
    let _ = writeln!(out, "<section><h2>{game}</h2>");
    let labels: Vec<String> = run.outcomes.iter().map(|o| o.case.to_string()).collect();
    let scores: Vec<f64> = run.outcomes.iter().map(|o| o.score).collect();
    let failed: Vec<bool> = run.outcomes.iter().map(|o| !o.verdict.is_ok()).collect();
    let _ = writeln!(out, "<h3>Score per case</h3>");
    out.push_str(&bar_chart(&labels, &scores, &failed, &format_score));
    if !setup.by.is_empty() && !run.outcomes.is_empty() {
        let groups = crate::breakdown::groups(run.outcomes, setup.by);
        let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
        let means: Vec<f64> = groups
            .iter()
            .map(|g| g.outcomes.iter().map(|o| o.score).sum::<f64>() / g.outcomes.len() as f64)
            .collect();
        let _ = writeln!(
            out,
            "<h3>Mean score by {}</h3>",
            escape(&setup.by.join(","))
        );
        out.push_str(&bar_chart(
            &labels,
            &means,
            &vec![false; means.len()],
            &|mean| format!("{mean:.1}"),
        ));
        let _ = writeln!(
            out,
            "<pre>{}</pre>",
            escape(&crate::breakdown::table(run.legend, &groups))
        );
    }
    let _ = writeln!(out, "<h3>Distribution of scores</h3>");
    out.push_str(&histogram(&scores));
    let times: Vec<f64> = run.outcomes.iter().map(|o| o.time.as_secs_f64()).collect();
    let _ = writeln!(out, "<h3>Time per case (seconds)</h3>");
    out.push_str(&bar_chart(&labels, &times, &failed, &|t| format!("{t:.2}")));

    let mut order: Vec<usize> = (0..run.outcomes.len()).collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    if !run.maximize {
        order.reverse();
    }
    let _ = writeln!(
        out,
        "<h3>Worst and best cases</h3><table><tr><th></th><th>case</th><th>score</th>\
         <th>verdict</th><th>replay</th></tr>"
    );
    let worst = order.iter().take(EXTREMES);
    let best = order.iter().rev().take(EXTREMES);
    for (kind, &i) in worst.map(|i| ("worst", i)).chain(best.map(|i| ("best", i))) {
        let o = &run.outcomes[i];
        let _ = writeln!(
            out,
            "<tr><td>{kind}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td><code>{}</code></td></tr>",
            escape(&labels[i]),
            format_score(o.score),
            escape(&o.verdict.to_string()),
            escape(&replay_command(run.game, o, setup))
        );
    }
    out.push_str("</table>\n");
    if let Some(earlier) = earlier {
        comparison_section(out, run, earlier);
    }
    out.push_str("</section>\n");
}

/// The command that replays a case with the same player.
fn replay_command(game: &str, o: &CaseOutcome, setup: &RunSetup) -> String {
    let mut command = format!("marathon replay {game} --seed {}", o.case.seed);
    if let Some(group) = o.case.group {
        let _ = write!(command, " --group {group}");
    }
    command.push_str(setup.replay_flags);
    match setup.player {
        Some(PlayerSpec::Builtin(name)) => {
            let _ = write!(command, " --player {name}");
        }
        Some(PlayerSpec::Exec(cmd)) => {
            let _ = write!(command, " --exec '{}'", cmd.replace('\'', r"'\''"));
        }
        None => command.push_str(" --player PLAYER"),
    }
    let _ = write!(
        command,
        " -o {game}-{}.html",
        o.case.to_string().replace(':', "-")
    );
    command
}

fn comparison_section(out: &mut String, run: &GameRun, earlier: &EarlierRun) {
    let c = Comparison::of(run, earlier);
    let _ = writeln!(
        out,
        "<h3>Against {}</h3><p>{} cases in both runs: <b class=\"win\">{} wins</b>, \
         <b class=\"loss\">{} losses</b>, {} ties; ratio {:.3} of sums, {:.3} mean per case \
         (above 1: this run is better).</p>",
        escape(&earlier.name),
        c.cases,
        c.wins,
        c.losses,
        c.ties,
        c.ratio_of_sums,
        c.mean_ratio
    );
    out.push_str("<table><tr><th>case</th><th>this run</th><th>earlier</th><th>ratio</th></tr>\n");
    for o in run.outcomes {
        let case = o.case.to_string();
        let Some(other) = earlier.get(run.game, &case) else {
            continue;
        };
        let ratio = better_ratio(o.score, other, run.maximize);
        let class = match ratio {
            Some(r) if r > 1.0 => "win",
            Some(r) if r < 1.0 => "loss",
            _ => "",
        };
        let _ = writeln!(
            out,
            "<tr class=\"{class}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&case),
            format_score(o.score),
            format_score(other),
            ratio.map_or("-".into(), |r| format!("{r:.3}"))
        );
    }
    out.push_str("</table>\n");
}

const CHART_HEIGHT: f64 = 160.0;
const CHART_WIDTH: f64 = 900.0;

/// Vertical bars, one per case, failed cases in red; each bar's title tells its case and value.
fn bar_chart(
    labels: &[String],
    values: &[f64],
    failed: &[bool],
    show: &dyn Fn(f64) -> String,
) -> String {
    let max = values.iter().copied().fold(0.0f64, f64::max);
    let n = values.len().max(1) as f64;
    let step = CHART_WIDTH / n;
    let mut svg = format!(
        "<svg class=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = CHART_WIDTH + 60.0,
        h = CHART_HEIGHT + 30.0
    );
    let _ = write!(
        svg,
        "<text x=\"0\" y=\"12\" class=\"axis\">{}</text><text x=\"0\" y=\"{}\" class=\"axis\">0</text>",
        show(max),
        CHART_HEIGHT + 10.0
    );
    for (i, (&value, label)) in values.iter().zip(labels).enumerate() {
        let height = if max > 0.0 {
            value.max(0.0) / max * CHART_HEIGHT
        } else {
            0.0
        };
        let class = if failed[i] { "bar fail" } else { "bar" };
        let _ = write!(
            svg,
            "<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{}: {}</title></rect>",
            50.0 + i as f64 * step,
            10.0 + CHART_HEIGHT - height,
            (step * 0.85).max(0.5),
            height,
            escape(label),
            show(value)
        );
    }
    if let (Some(first), Some(last)) = (labels.first(), labels.last()) {
        let _ = write!(
            svg,
            "<text x=\"50\" y=\"{y}\" class=\"axis\">{}</text><text x=\"{}\" y=\"{y}\" class=\"axis\" text-anchor=\"end\">{}</text>",
            escape(first),
            50.0 + CHART_WIDTH,
            escape(last),
            y = CHART_HEIGHT + 26.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

const BINS: usize = 20;

fn histogram(values: &[f64]) -> String {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if values.is_empty() || !min.is_finite() {
        return "<p>no cases</p>".into();
    }
    let width = ((max - min) / BINS as f64).max(f64::MIN_POSITIVE);
    let mut counts = [0usize; BINS];
    for &v in values {
        let bin = (((v - min) / width) as usize).min(BINS - 1);
        counts[bin] += 1;
    }
    let labels: Vec<String> = (0..BINS)
        .map(|b| {
            format!(
                "{} to {}",
                format_score(min + b as f64 * width),
                format_score(min + (b + 1) as f64 * width)
            )
        })
        .collect();
    let counts: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    bar_chart(&labels, &counts, &[false; BINS], &|c| format!("{c}"))
}

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>marathon run report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #222; background: #fafafa; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; } h3 { font-size: 15px; }
.muted { color: #666; } pre { background: #fff; border: 1px solid #ddd; padding: 8px; }
table { border-collapse: collapse; background: #fff; }
td, th { border: 1px solid #ddd; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { display: block; background: #fff; border: 1px solid #ddd; }
.bar { fill: #4a78c2; } .bar.fail { fill: #c62828; } .bar:hover { fill: #f4a300; }
.axis { font: 11px system-ui, sans-serif; fill: #666; }
.win { color: #1b7f3b; } tr.win td { background: #eef8f0; }
.loss { color: #b00020; } tr.loss td { background: #fbeeee; }
</style></head><body>
{{BODY}}
</body></html>
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use marathon_core::CaseId;
    use marathon_core::Verdict;
    use std::time::Duration;

    fn outcome(case: CaseId, score: f64, verdict: Verdict) -> CaseOutcome {
        CaseOutcome {
            game: "linez",
            case,
            params: Vec::new(),
            score,
            moves: 1,
            time: Duration::from_millis(100),
            verdict,
            metrics: Vec::new(),
            cpu: None,
            max_rss_kib: None,
        }
    }

    fn earlier(lines: &str) -> Result<EarlierRun, String> {
        let dir = std::env::temp_dir().join(format!("marathon-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("run-{}.jsonl", lines.len()));
        std::fs::write(&path, lines).unwrap();
        EarlierRun::load(&path)
    }

    #[test]
    fn comparison_counts_wins_losses_ties_and_ratios() {
        let outcomes = [
            outcome(CaseId::seed(1), 200.0, Verdict::Ok),
            outcome(CaseId::seed(2), 50.0, Verdict::Ok),
            outcome(CaseId::seed(3), 70.0, Verdict::Ok),
            outcome(CaseId::seed(4), 10.0, Verdict::Ok),
        ];
        let earlier = earlier(&format!(
            "{}\n{}\n{}\n{}\n",
            line("linez", CaseId::seed(1), 100.0),
            line("linez", CaseId::seed(2), 100.0),
            line("linez", CaseId::seed(3), 70.0),
            line("tiles", CaseId::seed(4), 1.0),
        ))
        .unwrap();
        let summary = Summary::of(&outcomes, None);
        let mut run = GameRun {
            game: "linez",
            maximize: true,
            legend: marathon_games::lookup("linez").unwrap().legend(),
            outcomes: &outcomes,
            summary: &summary,
        };
        let c = Comparison::of(&run, &earlier);
        assert_eq!((c.cases, c.wins, c.losses, c.ties), (3, 1, 1, 1));
        assert!((c.ratio_of_sums - 320.0 / 270.0).abs() < 1e-12);
        assert!((c.mean_ratio - (2.0 + 0.5 + 1.0) / 3.0).abs() < 1e-12);
        run.maximize = false;
        let c = Comparison::of(&run, &earlier);
        assert_eq!((c.wins, c.losses, c.ties), (1, 1, 1));
        assert!((c.ratio_of_sums - 270.0 / 320.0).abs() < 1e-12);
    }

    /// A line as `--json` writes it.
    fn line(game: &'static str, case: CaseId, score: f64) -> String {
        let mut outcome = outcome(case, score, Verdict::Ok);
        outcome.game = game;
        let legend = marathon_games::lookup(game).unwrap().legend();
        CaseRecord::new(legend, &outcome, None).to_line()
    }

    #[test]
    fn earlier_runs_name_the_bad_line() {
        let good = line("linez", CaseId::seed(1), 1.0);
        let err = earlier(&format!("{good}\nnot json\n")).unwrap_err();
        assert!(err.contains(".jsonl:2: expected"), "{err}");
        let err = earlier("{\"game\":\"linez\",\"seed\":1}\n").unwrap_err();
        assert!(err.contains(".jsonl:1: missing field"), "{err}");
        let named = earlier(&line("solitaire", CaseId::named("g6-1", Some(6), 12), 40.0)).unwrap();
        assert_eq!(named.get("solitaire", "g6-1"), Some(40.0));
    }

    /// A plan of linez's random player on seed 1, once per game named.
    fn plan(games: &[&str]) -> Plan {
        let games = games
            .iter()
            .map(|name| {
                let game = marathon_games::lookup(name).unwrap();
                let limit = game.default_time_limit();
                let config = crate::select::play_config(
                    game,
                    None,
                    None,
                    marathon_core::Settings::default(),
                    limit,
                    None,
                )
                .unwrap();
                GamePlan {
                    game,
                    config,
                    cases: vec![CaseId::seed(1)],
                }
            })
            .collect();
        Plan { games, threads: 1 }
    }

    #[test]
    fn compare_finds_a_kept_run_by_its_name_else_a_file() {
        let dir = std::env::temp_dir().join(format!("marathon-compare-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let history = History::at(&dir);
        let info = crate::history::RunInfo {
            id: String::new(),
            started: String::new(),
            command: Vec::new(),
            label: Some("baseline".into()),
            version: String::new(),
            commit: None,
            cpus: 1,
            threads: 1,
            games: Vec::new(),
            complete: false,
        };
        let mut kept = history.start(info).unwrap();
        kept.record(&line("linez", CaseId::seed(1), 7.0)).unwrap();
        let totals = crate::history::GameTotals {
            game: "linez".into(),
            cases: 1,
            mean: 7.0,
        };
        kept.finish(vec![totals], true).unwrap();
        let linez = plan(&["linez"]);
        for which in ["last", "best", kept.info.id.as_str()] {
            let found = EarlierRun::find(&history, which, &linez).unwrap();
            assert_eq!(found.name, format!("run {} (baseline)", kept.info.id));
            assert_eq!(found.get("linez", "1"), Some(7.0));
        }
        let error = EarlierRun::find(&history, "best", &plan(&["linez", "tiles"])).unwrap_err();
        assert_eq!(error, "--compare best: name one game (best is per game)");
        let error = EarlierRun::find(&history, "last", &plan(&[])).unwrap_err();
        assert_eq!(error, "--compare: nothing to compare");
        let error = EarlierRun::find(&history, "last", &plan(&["tiles"])).unwrap_err();
        assert!(
            error.starts_with("--compare last: no kept run of tiles"),
            "{error}"
        );
        // Not a kept run's name: a file, named as given.
        let file = dir.join("earlier.jsonl");
        std::fs::write(&file, line("linez", CaseId::seed(1), 3.0) + "\n").unwrap();
        let found = EarlierRun::find(&history, file.to_str().unwrap(), &linez).unwrap();
        assert_eq!(found.name, file.display().to_string());
        let missing = dir.join("missing.jsonl");
        let missing = missing.to_str().unwrap();
        let error = EarlierRun::find(&history, missing, &linez).unwrap_err();
        assert!(
            error.starts_with(&format!(
                "--compare {missing}: not last, best or a kept run's id, and "
            )),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn page_lists_extremes_with_replay_commands_and_escapes_text() {
        let outcomes: Vec<CaseOutcome> = (1..=8)
            .map(|s| outcome(CaseId::in_group(6, s), s as f64 * 10.0, Verdict::Ok))
            .chain([outcome(
                CaseId::in_group(6, 9),
                0.0,
                Verdict::invalid("<b>", "bad"),
            )])
            .collect();
        let summary = Summary::of(&outcomes, None);
        let run = GameRun {
            game: "linez",
            maximize: true,
            legend: marathon_games::lookup("linez").unwrap().legend(),
            outcomes: &outcomes,
            summary: &summary,
        };
        let player = PlayerSpec::Exec("python3 'my bot.py' <x".into());
        let setup = RunSetup {
            player: Some(&player),
            replay_flags: " --time-limit 2",
            command: "marathon play linez",
            by: &[],
        };
        let page = html(&[run], &setup, None);
        assert!(
            page.contains("marathon replay linez --seed 9 --group 6 --time-limit 2 --exec"),
            "{page}"
        );
        assert!(page.contains("-o linez-g6-9.html"));
        // What the summary's figures mean is on the page too.
        assert!(
            page.contains("time = the players&#39; time")
                || page.contains("time = the players' time"),
            "{page}"
        );
        assert!(page.contains("score = the points scored"), "{page}");
        assert!(page.contains("&lt;b&gt;") && !page.contains("<b>\""));
        assert!(!page.contains("<x"), "the command is escaped");
        // 9 score bars, 20 histogram bins, 9 time bars.
        assert_eq!(page.matches("<rect class=\"bar").count(), 9 + BINS + 9);
        assert_eq!(page.matches("class=\"bar fail\"").count(), 2);
    }
}
