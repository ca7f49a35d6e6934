//! `marathon merge`: the `--json` files of a run's parts (`play --shard I/N`) joined into the
//! run's tables, one JSON Lines file and a report, as if the run had played in one go. A case
//! in two files is refused (a case belongs to one part); parts missing from a run of shards are
//! warned about, not refused (the tables then cover the parts given).

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use marathon_core::{CaseOutcome, Game};

use crate::record::CaseRecord;
use crate::run::PlayedGame;
use crate::select::Shard;
use crate::{breakdown, files, report, run_report};

/// What to merge and where the results go, as `marathon merge` takes them.
pub struct Options<'a> {
    /// The parts' `--json` files.
    pub files: &'a [PathBuf],
    /// Every case's record, written in case order.
    pub json: Option<&'a Path>,
    /// The run report.
    pub report: Option<&'a Path>,
    /// The parameters the summary is also split by, as `play --by`.
    pub by: &'a [String],
    /// Only the summary, not the per-case tables.
    pub summary_only: bool,
    /// The command line, as the report shows it.
    pub command: &'a str,
    /// The game called by a record's name, or why there is none (`marathon_games::lookup`:
    /// the runner does not depend on the games).
    pub lookup: &'a dyn Fn(&str) -> Result<&'static dyn Game, String>,
    /// The games' names in the order their tables print (`marathon_games::names`).
    pub order: &'a [&'a str],
}

/// Something the user should know about the files, which does not stop the merge.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// A file's last line was cut off and left out ([`crate::record::RecordFile::torn`]).
    Torn(String),
    /// Parts of a run of shards are missing, or the parts come from runs split differently
    /// ([`missing_parts`]).
    Parts(String),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Torn(text) | Warning::Parts(text) => f.write_str(text),
        }
    }
}

/// A merge that wrote what it was asked (or tried to).
#[derive(Debug)]
pub struct Merged {
    /// The warnings, in the order they arose: each before anything below it.
    pub warnings: Vec<Warning>,
    /// What the merge prints: what each part held, each game's table and breakdown, the
    /// summary.
    pub text: String,
    /// Each error writing `json` or `report`: the text is still whole.
    pub errors: Vec<String>,
}

/// A merge refused before anything was written: an output, a file, a record or `by` is wrong.
#[derive(Debug)]
pub struct Refused {
    /// The warnings that arose before the refusal, to be told first.
    pub warnings: Vec<Warning>,
    pub error: String,
}

/// A file merged: its cases, and the parts of the run they say they are (`--shard`; one,
/// unless files were concatenated).
pub struct Part<'a> {
    pub path: &'a Path,
    pub cases: usize,
    pub shards: Vec<Shard>,
}

impl<'a> Part<'a> {
    /// The part `records` (read from `path`) make; an error for a record's shard that is not
    /// `I/N`.
    pub fn of(path: &'a Path, records: &[CaseRecord]) -> Result<Self, String> {
        let mut shards = Vec::new();
        for (number, record) in records.iter().enumerate() {
            if let Some(text) = &record.shard {
                let shard = Shard::parse(text)
                    .map_err(|e| format!("{}: record {}: shard {e}", path.display(), number + 1))?;
                if !shards.contains(&shard) {
                    shards.push(shard);
                }
            }
        }
        Ok(Part {
            path,
            cases: records.len(),
            shards,
        })
    }

    /// `part-1.jsonl 34 cases (shard 1/3)`.
    pub fn describe(&self) -> String {
        let cases = match self.cases {
            1 => "1 case".to_string(),
            n => format!("{n} cases"),
        };
        let shards: Vec<String> = self.shards.iter().map(Shard::to_string).collect();
        match shards.len() {
            0 => format!("{} {cases}", self.path.display()),
            1 => format!("{} {cases} (shard {})", self.path.display(), shards[0]),
            _ => format!(
                "{} {cases} (shards {})",
                self.path.display(),
                shards.join(", ")
            ),
        }
    }
}

/// What is missing from a run of shards: parts of `N` not given, or parts of runs split in
/// different numbers of parts; `None` when every part of the run is there (or the files were
/// not played as shards).
pub fn missing_parts(parts: &[Part]) -> Option<String> {
    let shards: Vec<Shard> = parts.iter().flat_map(|part| part.shards.clone()).collect();
    let counts: BTreeSet<usize> = shards.iter().map(|s| s.count).collect();
    match counts.len() {
        0 => None,
        1 => {
            let count = shards[0].count;
            let missing: Vec<String> = (1..=count)
                .filter(|&index| !shards.iter().any(|s| s.index == index))
                .map(|index| index.to_string())
                .collect();
            (!missing.is_empty()).then(|| {
                format!(
                    "the run was played in {count} parts and {} of them {} not given (part{} {}): \
                     the tables cover only the parts given",
                    missing.len(),
                    if missing.len() == 1 { "is" } else { "are" },
                    if missing.len() == 1 { "" } else { "s" },
                    abbreviate(&missing)
                )
            })
        }
        _ => {
            let given: Vec<String> = shards.iter().map(Shard::to_string).collect();
            Some(format!(
                "the parts come from runs split in different numbers of parts ({}): they may \
                 overlap or leave cases out",
                given.join(", ")
            ))
        }
    }
}

/// A long list cut to its first and last items.
pub fn abbreviate(items: &[String]) -> String {
    const SHOWN: usize = 10;
    if items.len() <= SHOWN {
        items.join(", ")
    } else {
        format!(
            "{}, ... {}",
            items[..SHOWN - 1].join(", "),
            items[items.len() - 1]
        )
    }
}

/// The parts of a run, joined: refused before anything is written if an output path, a file,
/// a record or `by` is wrong; else the text to print, with the outputs written.
pub fn merge(options: &Options) -> Result<Merged, Refused> {
    let mut warnings = Vec::new();
    match read(options, &mut warnings) {
        Ok((parts, played)) => {
            let text = text(options, &parts, &played);
            let errors = write(options, &played);
            Ok(Merged {
                warnings,
                text,
                errors,
            })
        }
        Err(error) => Err(Refused { warnings, error }),
    }
}

/// The files' parts and each game's cases in case order, the games in `options.order`.
fn read<'a>(
    options: &'a Options,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<Part<'a>>, Vec<PlayedGame>), String> {
    files::check_outputs(&[("--json", options.json), ("--report", options.report)])?;
    let mut seen: HashMap<(String, String), &Path> = HashMap::new();
    let mut records = Vec::new();
    let mut parts = Vec::new();
    for path in options.files {
        let file = CaseRecord::read_file(path)?;
        if let Some(torn) = file.torn {
            warnings.push(Warning::Torn(torn));
        }
        parts.push(Part::of(path, &file.records)?);
        for record in file.records {
            let key = (record.game.clone(), record.case_key());
            if let Some(first) = seen.insert(key, path) {
                return Err(format!(
                    "{} case {} is in both {} and {}: a case belongs to one part",
                    record.game,
                    record.case_key(),
                    first.display(),
                    path.display()
                ));
            }
            records.push(record);
        }
    }
    if let Some(warning) = missing_parts(&parts) {
        warnings.push(Warning::Parts(warning));
    }
    let mut merged: Vec<(&'static dyn Game, Vec<CaseOutcome>)> = Vec::new();
    for record in &records {
        let game = (options.lookup)(&record.game)?;
        let outcome = record.to_outcome(game)?;
        match merged.iter_mut().find(|(g, _)| g.name() == game.name()) {
            Some((_, outcomes)) => outcomes.push(outcome),
            None => merged.push((game, vec![outcome])),
        }
    }
    merged.sort_by_key(|(game, _)| options.order.iter().position(|name| *name == game.name()));
    let mut played = Vec::new();
    for (game, mut outcomes) in merged {
        breakdown::check(game.name(), game.params(), options.by)?;
        outcomes.sort_by(|a, b| a.case.cmp(&b.case));
        played.push(PlayedGame::new(game, outcomes, None));
    }
    Ok((parts, played))
}

/// What the parts held, then each game's table (unless `summary_only`) and breakdown, then
/// the summary.
fn text(options: &Options, parts: &[Part], played: &[PlayedGame]) -> String {
    let held: Vec<String> = parts.iter().map(Part::describe).collect();
    let mut text = report::wrap(
        &format!(
            "merged {} part{}: {}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" },
            held.join(", ")
        ),
        "  ",
    );
    text.push('\n');
    for game in played {
        if !options.summary_only {
            text.push_str(&report::case_table(
                game.game.legend(),
                &game.outcomes,
                None,
            ));
            text.push('\n');
        }
        text.push_str(&breakdown::text(game.game, &game.outcomes, options.by));
    }
    text.push_str(&run_report::summary_text(played, None));
    text
}

/// Writes `json` and `report`, each whole or not at all; the errors, one per file not
/// written.
fn write(options: &Options, played: &[PlayedGame]) -> Vec<String> {
    let mut errors = Vec::new();
    if let Some(path) = options.json {
        let mut text = String::new();
        for game in played {
            for outcome in &game.outcomes {
                text.push_str(&CaseRecord::new(game.game.legend(), outcome, None).to_line());
                text.push('\n');
            }
        }
        if let Err(e) = files::write_atomically(path, text.as_bytes()) {
            errors.push(format!("cannot write {}: {e}", path.display()));
        }
    }
    if let Some(path) = options.report {
        let runs = run_report::game_runs(played);
        let setup = run_report::RunSetup {
            player: None,
            replay_flags: "",
            command: options.command,
            by: options.by,
        };
        let page = run_report::html(&runs, &setup, None);
        if let Err(e) = files::write_atomically(path, page.as_bytes()) {
            errors.push(format!("cannot write {}: {e}", path.display()));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::time::Duration;

    use marathon_core::{CaseId, Verdict};

    use super::*;

    fn part(shards: &[(usize, usize)]) -> Part<'static> {
        Part {
            path: Path::new("part.jsonl"),
            cases: 1,
            shards: shards
                .iter()
                .map(|&(index, count)| Shard { index, count })
                .collect(),
        }
    }

    #[test]
    fn missing_parts_are_named_and_whole_runs_pass() {
        assert_eq!(missing_parts(&[part(&[])]), None, "not played as shards");
        assert_eq!(missing_parts(&[part(&[(1, 2)]), part(&[(2, 2)])]), None);
        assert_eq!(
            missing_parts(&[part(&[(1, 3)]), part(&[(3, 3)])]).as_deref(),
            Some(
                "the run was played in 3 parts and 1 of them is not given (part 2): the tables \
                 cover only the parts given"
            )
        );
        assert_eq!(
            missing_parts(&[part(&[(2, 12)])]).as_deref(),
            Some(
                "the run was played in 12 parts and 11 of them are not given (parts 1, 3, 4, 5, \
                 6, 7, 8, 9, 10, ... 12): the tables cover only the parts given"
            )
        );
        assert_eq!(
            missing_parts(&[part(&[(1, 2)]), part(&[(2, 3), (1, 3)])]).as_deref(),
            Some(
                "the parts come from runs split in different numbers of parts (1/2, 2/3, 1/3): \
                 they may overlap or leave cases out"
            )
        );
    }

    #[test]
    fn long_lists_are_cut_to_their_first_and_last_items() {
        let items = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        assert_eq!(abbreviate(&items(10)), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10");
        assert_eq!(abbreviate(&items(11)), "1, 2, 3, 4, 5, 6, 7, 8, 9, ... 11");
        assert_eq!(abbreviate(&[]), "");
    }

    #[test]
    fn parts_describe_their_cases_and_shards() {
        let mut one = part(&[(1, 3)]);
        assert_eq!(one.describe(), "part.jsonl 1 case (shard 1/3)");
        one.cases = 34;
        one.shards.push(Shard { index: 2, count: 3 });
        assert_eq!(one.describe(), "part.jsonl 34 cases (shards 1/3, 2/3)");
        assert_eq!(part(&[]).describe(), "part.jsonl 1 case");
    }

    /// A record line of linez seed `seed` scoring `score`, in part `shard` of 2.
    fn line(seed: u64, score: f64, shard: usize) -> String {
        let outcome = CaseOutcome {
            game: "linez",
            case: CaseId::seed(seed),
            params: Vec::new(),
            score,
            moves: 1,
            time: Duration::from_millis(10),
            verdict: Verdict::Ok,
            metrics: Vec::new(),
            cpu: None,
            max_rss_kib: None,
        };
        let legend = marathon_games::lookup("linez").unwrap().legend();
        let mut record = CaseRecord::new(legend, &outcome, None);
        record.shard = Some(format!("{shard}/2"));
        record.to_line()
    }

    fn options<'a>(files: &'a [PathBuf], json: Option<&'a Path>) -> Options<'a> {
        Options {
            files,
            json,
            report: None,
            by: &[],
            summary_only: true,
            command: "marathon merge",
            lookup: &marathon_games::lookup,
            order: &["tiles", "linez"],
        }
    }

    #[test]
    fn parts_join_in_case_order_and_a_case_in_two_parts_is_refused() {
        let dir = std::env::temp_dir().join(format!("marathon-merge-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (first, second) = (dir.join("1.jsonl"), dir.join("2.jsonl"));
        fs::write(
            &first,
            format!("{}\n{}\n", line(3, 30.0, 1), line(1, 10.0, 1)),
        )
        .unwrap();
        // The second part's last line was cut off while it was written.
        fs::write(&second, format!("{}\n{{\"game\":", line(2, 20.0, 2))).unwrap();
        let json = dir.join("merged.jsonl");
        let files = [first.clone(), second.clone()];
        let merged = merge(&options(&files, Some(&json))).unwrap();
        assert!(merged.errors.is_empty(), "{:?}", merged.errors);
        assert!(
            matches!(&merged.warnings[..], [Warning::Torn(torn)] if torn.contains("cut off")),
            "{:?}",
            merged.warnings
        );
        // What each part held, wrapped at 100 columns, then the tables.
        let (held, tables) = merged.text.split_once("\n\n").unwrap();
        assert_eq!(
            held.split_whitespace().collect::<Vec<_>>().join(" "),
            format!(
                "merged 2 parts: {} 2 cases (shard 1/2), {} 1 case (shard 2/2)",
                first.display(),
                second.display()
            )
        );
        assert!(tables.contains("\nlinez      3  20.00 "), "{tables}");
        let seeds: Vec<u64> = fs::read_to_string(&json)
            .unwrap()
            .lines()
            .map(|line| CaseRecord::from_line(line).unwrap().seed)
            .collect();
        assert_eq!(seeds, [1, 2, 3]);
        // A case in two files: refused, with the warnings before it, and nothing written.
        fs::remove_file(&json).unwrap();
        let files = [second.clone(), first.clone(), second.clone()];
        let refused = merge(&options(&files, Some(&json))).unwrap_err();
        assert_eq!(refused.warnings.len(), 2, "{:?}", refused.warnings);
        assert_eq!(
            refused.error,
            format!(
                "linez case 2 is in both {} and {}: a case belongs to one part",
                second.display(),
                second.display()
            )
        );
        assert!(!json.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
