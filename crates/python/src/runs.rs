//! Runs of many cases for Python (`marathon_games.play`): the choices `marathon play` takes as
//! flags, checked the same way (`marathon_runner::select`), played by the same run
//! (`marathon_runner::run`) with the same outputs (`json`, `best`, the kept run), each case's
//! result as the same JSON line `--json` writes. Plain Rust; the module wraps it.

use std::path::PathBuf;
use std::time::Duration;

use marathon_core::seeds::MAX_SEEDS;
use marathon_core::{Settings, parse_seed_set};
use marathon_runner::history::History;
use marathon_runner::record::CaseRecord;
use marathon_runner::run::{GamePlan, Keep, Names, Outputs, Plan, Run};
use marathon_runner::runner::MAX_THREADS;
use marathon_runner::select::{case_ids, play_config, time_limit};

/// The play arguments, in order: the fields of [`PlayRequest`], as every Python function that
/// plays takes them (`_core.check`, `_core.play`, `marathon_games.check` and `.play`, and
/// `marathon_games.ray.play` but for `threads` and the run's outputs, `json` to `label`). The
/// extension exports them (`_core.PLAY_ARGUMENTS`) and a Python test checks every signature and
/// the type stubs against them; a Rust test checks them against the struct.
pub const PLAY_ARGUMENTS: &[&str] = &[
    "game",
    "seeds",
    "player",
    "effort",
    "time_limit",
    "exec",
    "group",
    "threads",
    "settings",
    "json",
    "best",
    "save",
    "label",
];

/// What to play, as `marathon play GAME` takes it, and where its results go.
#[derive(Clone, Debug, Default)]
pub struct PlayRequest {
    pub game: String,
    pub seeds: Vec<u64>,
    pub player: Option<String>,
    pub effort: Option<u64>,
    /// Seconds per case (default: the contest's).
    pub time_limit: Option<f64>,
    /// An external program, run as `sh -c EXEC`.
    pub exec: Option<String>,
    pub group: Option<u32>,
    /// Cases played at once (default: one per core).
    pub threads: Option<usize>,
    /// The built-in player's settings (`--set NAME=VALUE`).
    pub settings: Vec<(String, String)>,
    /// Each case's JSON line, written as it finishes (`--json`).
    pub json: Option<PathBuf>,
    /// The best-known scores file, kept up to date (`--best`).
    pub best: Option<PathBuf>,
    /// Keep the run in the history, as `marathon play` does unless `--no-save`. Off unless
    /// asked: a tuner calls `play` thousands of times, and each call would leave a folder
    /// under the working directory.
    pub save: bool,
    /// The kept run's name in `marathon runs` (`--label`); only with `save`.
    pub label: Option<String>,
}

/// What Python's refusals call the run's outputs: its arguments' names.
const NAMES: Names = Names {
    json: "json",
    best: "best",
    report: "report",
    threads: "threads",
    no_save: "save=False",
};

/// The seeds of a seed set (`1-100`, `1,5,9`, `@file`).
pub fn seeds(text: &str) -> Result<Vec<u64>, String> {
    parse_seed_set(text).map_err(|e| e.to_string())
}

/// Checks `request` as `marathon play` checks its flags, naming what is wrong: the plan and
/// the outputs, not yet checked against the files.
pub fn plan(request: &PlayRequest) -> Result<(Plan, Outputs), String> {
    let game = marathon_games::lookup(&request.game)?;
    if request.seeds.is_empty() {
        return Err("no seeds".into());
    }
    // The bounds `marathon play` puts on `--seeds` and `--threads`.
    if request.seeds.len() as u64 > MAX_SEEDS {
        return Err(format!(
            "{} seeds: more than {MAX_SEEDS} seeds",
            request.seeds.len()
        ));
    }
    match request.threads {
        Some(0) => return Err("threads=0: expected at least 1".into()),
        Some(threads) if threads > MAX_THREADS => {
            return Err(format!("threads={threads}: at most {MAX_THREADS}"));
        }
        _ => {}
    }
    let cases = case_ids(game, &request.seeds, request.group)?;
    let limit: Duration = time_limit(game, request.time_limit)?;
    let config = play_config(
        game,
        request.player.as_deref(),
        request.exec.as_deref(),
        Settings::new(request.settings.clone()),
        limit,
        request.effort,
    )?;
    // A label without a kept run would be lost without a word.
    if let (Some(label), false) = (&request.label, request.save) {
        return Err(format!(
            "label={label:?} names a kept run: pass save=True to keep it"
        ));
    }
    let plan = Plan {
        games: vec![GamePlan {
            game,
            config,
            cases,
        }],
        threads: request.threads.unwrap_or(0),
    };
    let outputs = Outputs {
        json: request.json.clone(),
        best: request.best.clone(),
        keep: request.save.then(|| Keep {
            history: History::here(),
            label: request.label.clone(),
            // The process's command line, as `marathon play` keeps its own.
            command: std::env::args().collect(),
            commit: None,
        }),
        ..Outputs::default()
    };
    Ok((plan, outputs))
}

/// Checks `request` and its outputs (the best scores readable, every path writable), writing
/// nothing.
pub fn check(request: &PlayRequest) -> Result<(), String> {
    let (_, outputs) = plan(request)?;
    outputs.check(&NAMES).map(|_| ())
}

/// Checks `request`, starts its workers and opens its outputs: after this, only playing is
/// left. Nothing is written when it is refused.
pub fn start(request: &PlayRequest) -> Result<Run, String> {
    let (plan, outputs) = plan(request)?;
    Run::start(plan, outputs, &NAMES)
}

/// What a run from Python ended with.
pub struct Played {
    /// Each case's JSON line (as `--json` writes it), in the order of the seeds; only the
    /// cases that finished when the run was interrupted.
    pub lines: Vec<String>,
    /// An interruption stopped the run before every case finished.
    pub interrupted: bool,
    /// The errors writing the outputs; the run went on past each.
    pub errors: Vec<String>,
}

/// Plays a started run to its end. `finished` gets each case's line as the case ends (in the
/// order cases finish), once the outputs have it, for a caller that shows progress. An error
/// for a case or setting the plan got wrong.
pub fn play(mut run: Run, mut finished: impl FnMut(String)) -> Result<Played, String> {
    while run
        .play_next(|case| finished(case.line.to_string()))
        .map_err(|e| e.to_string())?
        .is_some()
    {}
    let ended = run.finish();
    let lines = ended
        .games
        .iter()
        .flat_map(|played| {
            let relative = played.relative.as_deref();
            played.outcomes.iter().enumerate().map(move |(i, outcome)| {
                let relative = relative.map(|relative| relative[i]);
                CaseRecord::new(played.game.legend(), outcome, relative).to_line()
            })
        })
        .collect();
    Ok(Played {
        lines,
        interrupted: ended.interrupted,
        errors: ended.errors,
    })
}

#[cfg(test)]
mod tests {
    use marathon_core::CaseId;

    use super::*;

    fn request(game: &str) -> PlayRequest {
        PlayRequest {
            game: game.into(),
            seeds: vec![1, 2],
            effort: Some(1),
            time_limit: Some(1000.0),
            threads: Some(2),
            ..PlayRequest::default()
        }
    }

    #[test]
    fn records_are_the_judges_in_seed_order() {
        let asked = PlayRequest {
            seeds: vec![3, 1, 2],
            ..request("linez")
        };
        let (plan, _) = plan(&asked).unwrap();
        let plan = &plan.games[0];
        let mut as_they_finished = Vec::new();
        let played = play(start(&asked).unwrap(), |line| as_they_finished.push(line)).unwrap();
        let lines = played.lines;
        assert!(played.errors.is_empty());
        as_they_finished.sort_by_key(|line| lines.iter().position(|l| l == line));
        assert_eq!(
            as_they_finished, lines,
            "each case reported once as it finished"
        );
        let records: Vec<CaseRecord> = lines
            .iter()
            .map(|line| CaseRecord::from_line(line).unwrap())
            .collect();
        assert_eq!(
            records.iter().map(|r| r.seed).collect::<Vec<_>>(),
            [3, 1, 2]
        );
        for record in &records {
            let outcome = plan
                .game
                .play(&CaseId::seed(record.seed), &plan.config)
                .unwrap();
            assert_eq!(record.score, outcome.score);
            assert_eq!(record.moves, outcome.moves);
        }
    }

    #[test]
    fn the_play_arguments_are_the_requests_fields() {
        // Exhaustive: a field added to PlayRequest without its name here fails to compile.
        let PlayRequest {
            game,
            seeds,
            player,
            effort,
            time_limit,
            exec,
            group,
            threads,
            settings,
            json,
            best,
            save,
            label,
        } = PlayRequest::default();
        let _ = (
            game, seeds, player, effort, time_limit, exec, group, threads, settings, json, best,
            save, label,
        );
        let debug = format!("{:?}", PlayRequest::default());
        let mut at = 0;
        for name in PLAY_ARGUMENTS {
            let found = debug[at..]
                .find(&format!("{name}: "))
                .unwrap_or_else(|| panic!("{name} is not the next field of {debug}"));
            at += found + name.len();
        }
        assert_eq!(debug.matches(": ").count(), PLAY_ARGUMENTS.len(), "{debug}");
    }

    #[test]
    fn bad_requests_are_named() {
        let error = |request: PlayRequest| check(&request).expect_err("refused");
        assert!(error(request("chess")).contains("chess"));
        assert!(
            error(PlayRequest {
                player: Some("nobody".into()),
                ..request("linez")
            })
            .contains("nobody")
        );
        assert!(
            error(PlayRequest {
                group: Some(99),
                ..request("solitaire")
            })
            .contains("99")
        );
        assert!(
            error(PlayRequest {
                settings: vec![("dpeth".into(), "2".into())],
                ..request("linez")
            })
            .contains("dpeth")
        );
        assert!(
            error(PlayRequest {
                exec: Some("true".into()),
                player: Some("ai".into()),
                ..request("linez")
            })
            .contains("--exec")
        );
        assert!(
            error(PlayRequest {
                time_limit: Some(-1.0),
                ..request("linez")
            })
            .contains("-1")
        );
        assert!(
            error(PlayRequest {
                seeds: Vec::new(),
                ..request("linez")
            })
            .contains("no seeds")
        );
        assert!(
            error(PlayRequest {
                threads: Some(MAX_THREADS + 1),
                ..request("linez")
            })
            .contains("at most 1024")
        );
        assert!(
            error(PlayRequest {
                seeds: (0..=MAX_SEEDS).collect(),
                ..request("linez")
            })
            .contains("more than 1000000 seeds")
        );
        assert!(
            error(PlayRequest {
                label: Some("baseline".into()),
                ..request("linez")
            })
            .contains("save=True")
        );
        let refused = error(PlayRequest {
            json: Some(PathBuf::from("/nonexistent/dir/run.jsonl")),
            ..request("linez")
        });
        assert!(refused.starts_with("json /nonexistent/dir/run.jsonl: cannot write there"));
        let refused = error(PlayRequest {
            json: Some(PathBuf::from("/tmp/marathon-one-file.txt")),
            best: Some(PathBuf::from("/tmp/./marathon-one-file.txt")),
            ..request("linez")
        });
        assert!(refused.contains("are one file"), "{refused}");
        assert!(seeds("1-3,7").unwrap() == [1, 2, 3, 7]);
        assert!(seeds("x").is_err());
    }
}
