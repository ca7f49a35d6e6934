//! One run of many cases, as `marathon play`, Python's `marathon_games.play` and the tuner's
//! sweep make it: a checked plan (the games, their cases and how to play them) and the outputs
//! (`--json`, `--best`, the kept run), opened in an order that writes nothing before everything
//! that could refuse the run has passed, then played game after game, each finished case going
//! to the outputs as it finishes. What the run prints, and how, is the caller's.
//!
//! The order: [`Run::check`] loads the best scores, checks every output path and starts the
//! worker threads (nothing is written); [`CheckedRun::open`] starts keeping the run and
//! empties `--json` last, when nothing is left that could refuse the run (and forgets the kept
//! run if `--json` cannot be made). The CLI watches for signals between the two, as it always
//! has. An interruption ([`marathon_core::interrupt`]) starts no new game and no new case; what
//! finished is in the outputs and in what [`Run::finish`] returns.

use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, PlayError, interrupt};

use crate::files;
use crate::history::{GameTotals, History, RunInfo};
use crate::report::{BestScores, Summary};
use crate::runner::{RunOptions, Workers, run_cases};
use crate::select::Shard;
use crate::sinks::Sinks;

/// What a run plays, checked (by `marathon_runner::select`'s checks): each game's cases and how
/// to play them, in the order they play.
pub struct Plan {
    pub games: Vec<GamePlan>,
    /// Cases played at once; 0 for one per core.
    pub threads: usize,
}

/// One game of a [`Plan`]. A plan may hold one game more than once, with other configs (the
/// tuner's rows).
pub struct GamePlan {
    pub game: &'static dyn Game,
    pub config: PlayConfig,
    pub cases: Vec<CaseId>,
}

impl Plan {
    /// Every case of the plan, over its games.
    pub fn cases(&self) -> usize {
        self.games.iter().map(|game| game.cases.len()).sum()
    }
}

/// Where a run's results go besides the caller.
#[derive(Default)]
pub struct Outputs {
    /// One JSON line per case, written and flushed as the case finishes (`--json`).
    pub json: Option<PathBuf>,
    /// The best-known scores, read first and kept up to date (`--best`).
    pub best: Option<PathBuf>,
    /// A file the caller writes once the run has ended (the CLI's `--report`): checked with the
    /// run's own outputs, so that a path it cannot write, or one another output names too,
    /// refuses the run before anything is written.
    pub report: Option<PathBuf>,
    /// Keep the run in the history (`marathon runs`).
    pub keep: Option<Keep>,
    /// The part of the cases played (`--shard`), written into every record.
    pub shard: Option<Shard>,
    /// A progress bar on standard error (only ever drawn on a terminal).
    pub progress: bool,
}

/// A run kept in the history, as `run.json` describes it.
pub struct Keep {
    pub history: History,
    pub label: Option<String>,
    /// The command line that made the run.
    pub command: Vec<String>,
    /// The commit the caller was built from, where known.
    pub commit: Option<String>,
}

/// How the caller's user names what a refusal is about, so that each message names it as it
/// was given: a flag on the command line (`--json`), an argument in Python (`json`).
pub struct Names {
    pub json: &'static str,
    pub best: &'static str,
    pub report: &'static str,
    pub threads: &'static str,
    /// How to play without keeping the run.
    pub no_save: &'static str,
}

/// The command line's names.
pub const FLAGS: Names = Names {
    json: "--json",
    best: "--best",
    report: "--report",
    threads: "--threads",
    no_save: "--no-save",
};

impl Outputs {
    /// Reads the best scores and checks every output path (writable, no file named twice),
    /// writing nothing: what refuses the outputs before a run starts.
    pub fn check(&self, names: &Names) -> Result<Option<BestScores>, String> {
        let best = self.best.as_deref().map(BestScores::load).transpose()?;
        files::check_outputs(&[
            (names.json, self.json.as_deref()),
            (names.best, self.best.as_deref()),
            (names.report, self.report.as_deref()),
        ])?;
        Ok(best)
    }
}

/// A run whose plan and outputs have passed every check and whose workers have started, with
/// nothing written yet.
pub struct CheckedRun {
    plan: Plan,
    outputs: Outputs,
    best: Option<BestScores>,
    workers: Workers,
    no_save: &'static str,
    json_name: &'static str,
}

/// A run being played: see the module's doc.
pub struct Run {
    plan: Plan,
    workers: Workers,
    sinks: Sinks,
    progress: bool,
    played: Vec<PlayedGame>,
    /// The cases of the games that started.
    asked: usize,
    started: Instant,
}

/// A game of the run, played: the cases that finished, in the plan's order.
pub struct PlayedGame {
    pub game: &'static dyn Game,
    pub outcomes: Vec<CaseOutcome>,
    /// Each case's relative score, as its record gave it, when best scores are kept.
    pub relative: Option<Vec<f64>>,
    pub summary: Summary,
}

impl PlayedGame {
    /// `outcomes` of `game`, summarised.
    pub fn new(
        game: &'static dyn Game,
        outcomes: Vec<CaseOutcome>,
        relative: Option<Vec<f64>>,
    ) -> Self {
        let summary = Summary::of(&outcomes, relative.as_deref());
        PlayedGame {
            game,
            outcomes,
            relative,
            summary,
        }
    }
}

/// A case that finished, once the outputs have it.
pub struct Finished<'a> {
    pub game: &'static dyn Game,
    pub outcome: &'a CaseOutcome,
    /// Its relative score, when best scores are kept.
    pub relative: Option<f64>,
    /// Its record, as `--json` has it.
    pub line: &'a str,
}

/// What a run ended with.
pub struct Ended {
    /// The games that started, in order (an interruption leaves the others out).
    pub games: Vec<PlayedGame>,
    /// The cases of the games that started, and of the whole plan.
    pub asked: usize,
    pub total: usize,
    /// From the first game's start to the last game's end, and the worker threads.
    pub wall: Duration,
    pub threads: usize,
    /// An interruption stopped the run before every case finished (or started).
    pub interrupted: bool,
    /// Every error writing the outputs: the run went on past each.
    pub errors: Vec<String>,
}

impl Run {
    /// Checks the outputs ([`Outputs::check`]) and starts the worker threads: every refusal
    /// that needs no writing, named as `names` says.
    pub fn check(plan: Plan, outputs: Outputs, names: &Names) -> Result<CheckedRun, String> {
        let best = outputs.check(names)?;
        let workers =
            Workers::start(plan.threads).map_err(|e| format!("{}: {e}", names.threads))?;
        Ok(CheckedRun {
            plan,
            outputs,
            best,
            workers,
            no_save: names.no_save,
            json_name: names.json,
        })
    }

    /// [`Run::check`], then [`CheckedRun::open`].
    pub fn start(plan: Plan, outputs: Outputs, names: &Names) -> Result<Run, String> {
        Run::check(plan, outputs, names)?.open()
    }

    /// Plays the next game of the plan, giving `finished` each case on this thread as it
    /// finishes, once the outputs have it. `None` when every game has played or the run is
    /// interrupted. An error for a case or setting the plan got wrong: no case starts after
    /// it.
    pub fn play_next(
        &mut self,
        mut finished: impl FnMut(&Finished<'_>),
    ) -> Result<Option<&PlayedGame>, PlayError> {
        let Some(plan) = self.plan.games.get(self.played.len()) else {
            return Ok(None);
        };
        if interrupt::requested().is_some() {
            return Ok(None);
        }
        let game = plan.game;
        self.asked += plan.cases.len();
        let options = RunOptions {
            workers: &self.workers,
            progress: self.progress,
        };
        let sinks = &mut self.sinks;
        let mut relatives = HashMap::new();
        let run = run_cases(game, &plan.cases, &plan.config, &options, |outcome| {
            let recorded = sinks.record(game, outcome);
            if let Some(relative) = recorded.relative {
                relatives.insert(outcome.case.clone(), relative);
            }
            finished(&Finished {
                game,
                outcome,
                relative: recorded.relative,
                line: &recorded.line,
            });
        })?;
        let relative = match self.sinks.keeps_best() {
            true => run
                .outcomes
                .iter()
                .map(|o| relatives.get(&o.case).copied())
                .collect(),
            false => None,
        };
        self.played
            .push(PlayedGame::new(game, run.outcomes, relative));
        Ok(self.played.last())
    }

    /// Ends the run: the kept run gets each game's totals (complete unless interrupted) and
    /// the best scores their last save.
    pub fn finish(mut self) -> Ended {
        let wall = self.started.elapsed();
        let totals = self
            .played
            .iter()
            .map(|played| GameTotals {
                game: played.game.name().to_string(),
                cases: played.summary.cases,
                mean: played.summary.mean,
            })
            .collect();
        self.sinks
            .finish_kept(totals, interrupt::requested().is_none());
        let finished: usize = self.played.iter().map(|game| game.outcomes.len()).sum();
        Ended {
            interrupted: finished < self.plan.cases(),
            errors: self.sinks.finish(),
            asked: self.asked,
            total: self.plan.cases(),
            wall,
            threads: self.workers.count(),
            games: self.played,
        }
    }
}

impl CheckedRun {
    /// Starts keeping the run, then empties `--json`: the last refusals, each after which
    /// nothing that could refuse the run is left but the next.
    pub fn open(self) -> Result<Run, String> {
        let CheckedRun {
            plan,
            outputs,
            best,
            workers,
            no_save,
            json_name,
        } = self;
        let kept = match outputs.keep {
            Some(keep) => {
                let info = RunInfo {
                    id: String::new(),
                    started: String::new(),
                    command: keep.command,
                    label: keep.label,
                    version: env!("CARGO_PKG_VERSION").to_string(),
                    commit: keep.commit,
                    cpus: std::thread::available_parallelism().map_or(1, usize::from),
                    threads: workers.count(),
                    games: Vec::new(),
                    complete: false,
                };
                let kept = keep.history.start(info).map_err(|e| {
                    format!(
                        "cannot keep the run in {}: {e} ({no_save} plays without keeping it)",
                        keep.history.dir().display()
                    )
                })?;
                Some(kept)
            }
            None => None,
        };
        let json = match outputs.json {
            Some(path) => match File::create(&path) {
                Ok(file) => Some((path, file)),
                Err(e) => {
                    if let Some(kept) = kept {
                        kept.discard();
                    }
                    return Err(format!(
                        "{json_name} {}: cannot write there: {e}",
                        path.display()
                    ));
                }
            },
            None => None,
        };
        Ok(Run {
            plan,
            workers,
            sinks: Sinks::new(json, best, kept, outputs.shard),
            progress: outputs.progress,
            played: Vec::new(),
            asked: 0,
            started: Instant::now(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use marathon_core::Settings;

    use super::*;
    use crate::record::CaseRecord;
    use crate::select::play_config;

    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("marathon-run-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Linez's random player on `seeds`: quick games, whatever the machine.
    fn plan(seeds: &[u64]) -> Plan {
        let game = marathon_games::lookup("linez").unwrap();
        let config = play_config(
            game,
            Some("random"),
            None,
            Settings::default(),
            game.default_time_limit(),
            None,
        )
        .unwrap();
        Plan {
            games: vec![GamePlan {
                game,
                config,
                cases: seeds.iter().map(|&seed| CaseId::seed(seed)).collect(),
            }],
            threads: 2,
        }
    }

    fn keep(dir: &Path, label: &str) -> Keep {
        Keep {
            history: History::at(dir),
            label: Some(label.into()),
            command: vec!["test".into()],
            commit: None,
        }
    }

    fn lines(path: &Path) -> Vec<String> {
        fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn each_finished_case_is_on_disk_before_the_run_goes_on() {
        let dir = fresh_dir("on-disk");
        let json = dir.join("run.jsonl");
        let runs = dir.join("runs");
        let outputs = Outputs {
            json: Some(json.clone()),
            keep: Some(keep(&runs, "on disk")),
            ..Outputs::default()
        };
        let mut run = Run::start(plan(&[1, 2, 3, 4]), outputs, &FLAGS).unwrap();
        let kept = History::at(&runs).list().unwrap();
        assert_eq!(kept.len(), 1);
        assert!(!kept[0].complete, "a run being played is not complete");
        let cases = runs.join(&kept[0].id).join("cases.jsonl");
        let mut seen = Vec::new();
        let played = run
            .play_next(|finished| {
                seen.push(finished.line.to_string());
                // The --json file and the kept run hold every case finished so far.
                assert_eq!(lines(&json), seen);
                assert_eq!(lines(&cases), seen);
            })
            .unwrap()
            .expect("a game played");
        assert_eq!(played.outcomes.len(), 4);
        assert!(run.play_next(|_| {}).unwrap().is_none(), "one game only");
        let ended = run.finish();
        assert!(ended.errors.is_empty(), "{:?}", ended.errors);
        assert_eq!((ended.asked, ended.total), (4, 4));
        assert_eq!(seen.len(), 4);
        let info = &History::at(&runs).list().unwrap()[0];
        assert!(info.complete);
        assert_eq!(info.label.as_deref(), Some("on disk"));
        assert_eq!(info.games[0].game, "linez");
        assert_eq!(info.games[0].cases, 4);
        assert_eq!(info.games[0].mean, ended.games[0].summary.mean);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refused_run_writes_nothing() {
        let dir = fresh_dir("refused");
        let json = dir.join("run.jsonl");
        fs::write(&json, "{\"earlier\":1}\n").unwrap();
        let runs = dir.join("runs");
        let outputs = |best: Option<PathBuf>, keep_in: &Path| Outputs {
            json: Some(json.clone()),
            best,
            keep: Some(keep(keep_in, "refused")),
            ..Outputs::default()
        };
        // A best-scores file that is not one.
        let bad_best = dir.join("best.txt");
        fs::write(&bad_best, "linez 1\n").unwrap();
        let error = Run::start(plan(&[1]), outputs(Some(bad_best), &runs), &FLAGS)
            .err()
            .expect("refused");
        assert!(error.contains("expected `game case score`"), "{error}");
        // Runs that cannot be kept: a folder under a regular file cannot be made.
        let blocker = dir.join("not-a-dir");
        fs::write(&blocker, "").unwrap();
        let error = Run::start(plan(&[1]), outputs(None, &blocker.join("runs")), &FLAGS)
            .err()
            .expect("refused");
        assert!(error.starts_with("cannot keep the run in"), "{error}");
        assert!(
            error.ends_with("(--no-save plays without keeping it)"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(&json).unwrap(), "{\"earlier\":1}\n");
        // A --json file that cannot be made once the run is kept: the kept run is forgotten.
        let elsewhere = dir.join("gone");
        fs::create_dir(&elsewhere).unwrap();
        let outputs = Outputs {
            json: Some(elsewhere.join("run.jsonl")),
            keep: Some(keep(&runs, "refused")),
            ..Outputs::default()
        };
        let checked = Run::check(plan(&[1]), outputs, &FLAGS).unwrap();
        fs::remove_dir(&elsewhere).unwrap();
        let error = checked.open().err().expect("refused");
        assert!(error.starts_with("--json "), "{error}");
        assert!(error.contains("cannot write there"), "{error}");
        assert!(History::at(&runs).list().unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn best_scores_merge_with_the_file() {
        let dir = fresh_dir("best");
        let best = dir.join("best.txt");
        let json = dir.join("run.jsonl");
        // Seed 1 has a best no random game reaches; another game's line stays as it is.
        fs::write(&best, "# mine\nlinez 1 1000000\ntiles 5 7\n").unwrap();
        let outputs = Outputs {
            json: Some(json.clone()),
            best: Some(best.clone()),
            ..Outputs::default()
        };
        let mut run = Run::start(plan(&[1, 2, 3]), outputs, &FLAGS).unwrap();
        while run.play_next(|_| {}).unwrap().is_some() {}
        let ended = run.finish();
        assert!(ended.errors.is_empty(), "{:?}", ended.errors);
        let played = &ended.games[0];
        let scores = BestScores::load(&best).unwrap();
        let score = |seed| scores.get("linez", &CaseId::seed(seed)).unwrap();
        assert_eq!(score(1), 1_000_000.0);
        assert_eq!(scores.get("tiles", &CaseId::seed(5)), Some(7.0));
        let relative = played.relative.as_deref().expect("relative scores");
        for (outcome, &relative) in played.outcomes.iter().zip(relative) {
            assert!(outcome.verdict.is_ok());
            if outcome.case.seed == 1 {
                assert_eq!(relative, 100.0 * outcome.score / 1_000_000.0);
            } else {
                assert_eq!(score(outcome.case.seed), outcome.score);
                assert_eq!(relative, 100.0);
            }
        }
        // The records carry the relative scores the game's result gives.
        let mut records: Vec<CaseRecord> = lines(&json)
            .iter()
            .map(|line| CaseRecord::from_line(line).unwrap())
            .collect();
        records.sort_by_key(|record| record.seed);
        assert_eq!(records.len(), relative.len());
        for (record, &relative) in records.iter().zip(relative) {
            let written = record.relative.expect("a relative score");
            // JSON's decimal text need not read back to the last bit.
            assert!((written - relative).abs() < 1e-9, "{written} {relative}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
