//! Run history: every `marathon play` keeps its run under `.marathon/runs/` (a folder per run:
//! `run.json`, what ran and its summary, and `cases.jsonl`, each case's record written as it
//! finishes), so that `marathon runs` can list them and `--compare last` / `best` / `RUN` can
//! find an earlier one without a file name.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::files::write_atomically;
use crate::table;

/// Where runs are kept unless `MARATHON_RUNS_DIR` says otherwise: in the current directory,
/// beside the user's work, like a build tool's cache.
pub const DEFAULT_DIR: &str = ".marathon/runs";
/// The environment variable that moves the kept runs (tests point it at a temporary folder).
pub const DIR_ENV: &str = "MARATHON_RUNS_DIR";

/// What a kept run was, as `run.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The folder's name: the start time (UTC, to the millisecond) and the process id,
    /// sortable by time (`20261126T043515.123-4242`).
    pub id: String,
    /// When it started, UTC, as `2026-11-26T04:55:15Z`.
    pub started: String,
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// marathon's version, and the commit it was built from where known.
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The machine's CPUs, and the threads the run used.
    pub cpus: usize,
    pub threads: usize,
    /// Per game: its cases and mean, filled in as the run ends.
    pub games: Vec<GameTotals>,
    /// The run ended before every case finished (Ctrl-C), or has not ended yet.
    pub complete: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameTotals {
    pub game: String,
    pub cases: usize,
    pub mean: f64,
}

/// The kept runs' folder.
pub struct History {
    dir: PathBuf,
}

/// A run being kept: its folder and its cases' file, open for appending.
pub struct KeptRun {
    dir: PathBuf,
    cases: File,
    pub info: RunInfo,
}

impl History {
    /// The folder `MARATHON_RUNS_DIR` names, else `.marathon/runs` in the current directory.
    pub fn here() -> History {
        let dir =
            std::env::var_os(DIR_ENV).map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from);
        History { dir }
    }

    pub fn at(dir: &Path) -> History {
        History {
            dir: dir.to_path_buf(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Starts keeping a run: its folder, `run.json` (marked incomplete) and an empty
    /// `cases.jsonl`.
    pub fn start(&self, mut info: RunInfo) -> io::Result<KeptRun> {
        let now = SystemTime::now();
        info.started = utc_stamp(now);
        let millis = now
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_millis());
        let stamp = info.started.replace([':', '-'], "");
        let base = format!(
            "{}.{millis:03}-{}",
            stamp.trim_end_matches('Z'),
            std::process::id()
        );
        fs::create_dir_all(&self.dir)?;
        // A second run of this process in the same millisecond gets the next free name.
        let mut attempt = 0;
        let dir = loop {
            info.id = match attempt {
                0 => base.clone(),
                n => format!("{base}-{n:03}"),
            };
            let dir = self.dir.join(&info.id);
            match fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 999 => attempt += 1,
                Err(e) => return Err(e),
            }
        };
        info.complete = false;
        let cases = File::create(dir.join("cases.jsonl"))?;
        let run = KeptRun { dir, cases, info };
        run.write_info()?;
        Ok(run)
    }

    /// Every kept run, newest first; folders that are not runs are passed over.
    pub fn list(&self) -> Result<Vec<RunInfo>, String> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot read {}: {e}", self.dir.display())),
        };
        let mut runs: Vec<RunInfo> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| fs::read_to_string(entry.path().join("run.json")).ok())
            .filter_map(|text| serde_json::from_str(&text).ok())
            .collect();
        runs.sort_by(|a, b| b.id.cmp(&a.id));
        Ok(runs)
    }

    /// `marathon runs`: the kept runs as a table, newest first (each game's cases and mean,
    /// `unfinished` for a run that did not end), or a line saying there are none.
    pub fn listing(&self) -> Result<String, String> {
        let runs = self.list()?;
        if runs.is_empty() {
            return Ok(format!("no runs kept in {}\n", self.dir.display()));
        }
        let mut rows = vec![
            ["run", "started", "games (cases, mean)", "label"]
                .map(String::from)
                .to_vec(),
        ];
        for run in &runs {
            let games: Vec<String> = run
                .games
                .iter()
                .map(|g| format!("{} ({}, {:.2})", g.game, g.cases, g.mean))
                .collect();
            let mut games = games.join(", ");
            if !run.complete {
                games.push_str(if games.is_empty() {
                    "unfinished"
                } else {
                    " unfinished"
                });
            }
            rows.push(vec![
                run.id.clone(),
                run.started.clone(),
                games,
                run.label.clone().unwrap_or_default(),
            ]);
        }
        Ok(table::render(&rows, table::Align::Text))
    }

    /// The cases' file of the kept run `which`: `last` (the newest that played `game`), `best`
    /// (the best mean on `game`, higher or lower as `maximize` says) or a run's id; `None` when
    /// `which` is none of these (a file's path, then). `except` is the run being made now.
    pub fn find(
        &self,
        which: &str,
        game: &str,
        maximize: bool,
        except: Option<&str>,
    ) -> Result<Option<(RunInfo, PathBuf)>, String> {
        let runs: Vec<RunInfo> = self
            .list()?
            .into_iter()
            .filter(|run| Some(run.id.as_str()) != except)
            .collect();
        let mean_of = |run: &RunInfo| {
            run.games
                .iter()
                .find(|totals| totals.game == game && totals.cases > 0)
                .map(|totals| totals.mean)
        };
        let found = match which {
            "last" => runs.into_iter().find(|run| mean_of(run).is_some()),
            "best" => runs
                .into_iter()
                .filter(|run| run.complete && mean_of(run).is_some())
                .max_by(|a, b| {
                    let order = mean_of(a)
                        .unwrap_or(0.0)
                        .total_cmp(&mean_of(b).unwrap_or(0.0));
                    if maximize { order } else { order.reverse() }
                }),
            id => match runs.into_iter().find(|run| run.id == id) {
                Some(run) => Some(run),
                None => return Ok(None),
            },
        };
        match found {
            Some(run) => {
                let path = self.dir.join(&run.id).join("cases.jsonl");
                Ok(Some((run, path)))
            }
            None => Err(format!(
                "--compare {which}: no kept run of {game} in {}",
                self.dir.display()
            )),
        }
    }
}

impl KeptRun {
    /// Appends one case's record line (without its newline) and flushes it to the file.
    pub fn record(&mut self, line: &str) -> io::Result<()> {
        self.cases.write_all(line.as_bytes())?;
        self.cases.write_all(b"\n")?;
        self.cases.flush()
    }

    /// Writes the run's summary and marks it complete unless it was interrupted.
    pub fn finish(&mut self, games: Vec<GameTotals>, complete: bool) -> io::Result<()> {
        self.info.games = games;
        self.info.complete = complete;
        self.write_info()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Forgets a run that never started (its folder is removed): for a run refused after it
    /// began to be kept.
    pub fn discard(self) {
        let _ = fs::remove_dir_all(&self.dir);
    }

    fn write_info(&self) -> io::Result<()> {
        let text = serde_json::to_string_pretty(&self.info).map_err(io::Error::other)?;
        write_atomically(&self.dir.join("run.json"), text.as_bytes())
    }
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (UTC), without a date library: days since 1970 to the civil
/// date by Howard Hinnant's algorithm (`days_from_civil`'s inverse).
pub fn utc_stamp(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn utc_stamps_match_known_dates() {
        let at = |seconds: u64| utc_stamp(UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_795_667_715), "2026-11-26T04:35:15Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    fn info(label: &str) -> RunInfo {
        RunInfo {
            id: String::new(),
            started: String::new(),
            command: vec!["marathon".into(), "play".into()],
            label: Some(label.into()),
            version: "0.1.0".into(),
            commit: None,
            cpus: 2,
            threads: 2,
            games: Vec::new(),
            complete: false,
        }
    }

    #[test]
    fn runs_are_kept_listed_newest_first_and_found() {
        let dir = std::env::temp_dir().join(format!("marathon-history-{}", std::process::id()));
        let history = History::at(&dir);
        assert!(history.list().unwrap().is_empty());
        let totals = |mean| {
            vec![GameTotals {
                game: "tiles".into(),
                cases: 2,
                mean,
            }]
        };
        let mut ids = Vec::new();
        for (label, mean) in [("first", 10.0), ("second", 30.0), ("third", 20.0)] {
            let mut run = history.start(info(label)).unwrap();
            run.record("{\"seed\":1}").unwrap();
            run.finish(totals(mean), true).unwrap();
            ids.push(run.info.id.clone());
            // Ids are by the millisecond, then the order of starts within it.
            std::thread::sleep(Duration::from_millis(2));
        }
        let listed: Vec<Option<String>> = history
            .list()
            .unwrap()
            .into_iter()
            .map(|r| r.label)
            .collect();
        assert_eq!(
            listed,
            [
                Some("third".into()),
                Some("second".into()),
                Some("first".into())
            ]
        );
        let found = |which: &str, maximize: bool| {
            history
                .find(which, "tiles", maximize, None)
                .unwrap()
                .map(|(run, _)| run.label.unwrap())
        };
        assert_eq!(found("last", true).as_deref(), Some("third"));
        assert_eq!(found("best", true).as_deref(), Some("second"));
        assert_eq!(found("best", false).as_deref(), Some("first"));
        assert_eq!(found(&ids[0], true).as_deref(), Some("first"));
        assert_eq!(found("elsewhere.jsonl", true), None);
        let (_, path) = history
            .find("last", "tiles", true, Some(&ids[2]))
            .unwrap()
            .unwrap();
        assert!(path.starts_with(dir.join(&ids[1])));
        assert_eq!(fs::read_to_string(path).unwrap(), "{\"seed\":1}\n");
        assert!(history.find("last", "linez", true, None).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_listing_is_a_table_of_runs_newest_first() {
        let dir = std::env::temp_dir().join(format!("marathon-listing-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let history = History::at(&dir);
        assert_eq!(
            history.listing().unwrap(),
            format!("no runs kept in {}\n", dir.display())
        );
        let mut done = history.start(info("baseline")).unwrap();
        let totals = GameTotals {
            game: "tiles".into(),
            cases: 2,
            mean: 12.5,
        };
        done.finish(vec![totals], true).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let unfinished = history.start(info("stopped")).unwrap();
        let listing = history.listing().unwrap();
        let lines: Vec<&str> = listing.lines().collect();
        assert_eq!(lines.len(), 3, "{listing}");
        fn words(line: &str) -> Vec<&str> {
            line.split_whitespace().collect()
        }
        assert_eq!(
            words(lines[0]),
            ["run", "started", "games", "(cases,", "mean)", "label"]
        );
        let (id, started) = (
            unfinished.info.id.as_str(),
            unfinished.info.started.as_str(),
        );
        assert_eq!(words(lines[1]), [id, started, "unfinished", "stopped"]);
        let (id, started) = (done.info.id.as_str(), done.info.started.as_str());
        assert_eq!(
            words(lines[2]),
            [id, started, "tiles", "(2,", "12.50)", "baseline"]
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
