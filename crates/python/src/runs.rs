//! Runs of many cases for Python (`marathon_games.play`): the choices `marathon play` takes as
//! flags, checked the same way (`marathon_runner::select`), played by the same runner, each
//! case's result as the same JSON line `--json` writes. Plain Rust; the module wraps it.

use std::time::Duration;

use marathon_core::seeds::MAX_SEEDS;
use marathon_core::{CaseId, Game, PlayConfig, Settings, parse_seed_set};
use marathon_runner::record::CaseRecord;
use marathon_runner::runner::{MAX_THREADS, RunOptions, Workers, run_cases};
use marathon_runner::select::{case_ids, play_config, time_limit};

/// The play arguments, in order: the fields of [`PlayRequest`], as every Python function that
/// plays takes them (`_core.check`, `_core.play`, `marathon_games.check` and `.play`, and
/// `marathon_games.ray.play` but for `threads`). The extension exports them
/// (`_core.PLAY_ARGUMENTS`) and a Python test checks every signature and the type stubs against
/// them; a Rust test checks them against the struct.
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
];

/// What to play, as `marathon play GAME` takes it.
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
}

/// A checked request: the game, its cases and how to play them.
pub struct Plan {
    pub game: &'static dyn Game,
    pub cases: Vec<CaseId>,
    pub config: PlayConfig,
    pub threads: usize,
}

/// The seeds of a seed set (`1-100`, `1,5,9`, `@file`).
pub fn seeds(text: &str) -> Result<Vec<u64>, String> {
    parse_seed_set(text).map_err(|e| e.to_string())
}

/// Checks `request` as `marathon play` checks its flags, naming what is wrong.
pub fn plan(request: &PlayRequest) -> Result<Plan, String> {
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
    Ok(Plan {
        game,
        cases,
        config,
        threads: request.threads.unwrap_or(0),
    })
}

/// Plays the plan's cases; returns each case's JSON line (as `marathon play --json` writes it),
/// in the order of the seeds, and whether an interruption (`marathon_core::interrupt`) stopped the
/// run early (then only the cases that finished are there). `finished` gets each case's line as
/// the case ends (in the order cases finish), for a caller that shows progress. An error when
/// the worker threads cannot be started, or for a case or setting the plan got wrong.
pub fn play(plan: &Plan, mut finished: impl FnMut(String)) -> Result<(Vec<String>, bool), String> {
    let workers = Workers::start(plan.threads).map_err(|e| format!("threads: {e}"))?;
    let options = RunOptions {
        workers: &workers,
        progress: false,
    };
    let run = run_cases(plan.game, &plan.cases, &plan.config, &options, |outcome| {
        finished(CaseRecord::new(plan.game.legend(), outcome, None).to_line())
    })
    .map_err(|e| e.to_string())?;
    let lines = run
        .outcomes
        .iter()
        .map(|outcome| CaseRecord::new(plan.game.legend(), outcome, None).to_line())
        .collect();
    Ok((lines, run.interrupted))
}

#[cfg(test)]
mod tests {
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
        let plan = plan(&PlayRequest {
            seeds: vec![3, 1, 2],
            ..request("linez")
        })
        .unwrap();
        let mut as_they_finished = Vec::new();
        let (lines, interrupted) = play(&plan, |line| as_they_finished.push(line)).unwrap();
        assert!(!interrupted);
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
        } = PlayRequest::default();
        let _ = (
            game, seeds, player, effort, time_limit, exec, group, threads, settings,
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
        let error = |request: PlayRequest| plan(&request).err().expect("refused");
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
        assert!(seeds("1-3,7").unwrap() == [1, 2, 3, 7]);
        assert!(seeds("x").is_err());
    }
}
