//! `marathon-tune sweep` end to end: one row per combination, each row's games the judge's
//! games under those settings, and bad settings refused before anything plays.

use std::process::Command;
use std::time::Duration;

use marathon_core::{CaseId, PlayConfig, Settings};
use serde_json::Value;

const TUNE: &str = env!("CARGO_BIN_EXE_marathon-tune");

/// Far above what a fixed-effort game here needs.
const NO_HURRY: &str = "1000";

#[test]
fn each_row_plays_the_judges_games_under_its_settings() {
    let json = std::env::temp_dir().join(format!("marathon-tune-{}.jsonl", std::process::id()));
    let output = Command::new(TUNE)
        .args([
            "sweep",
            "linez",
            "--seeds",
            "1-2",
            "--effort",
            "1",
            "--threads",
            "2",
        ])
        .args(["--time-limit", NO_HURRY, "--set", "depth=2"])
        .args(["--vary", "candidates=1,4", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[0].starts_with("linez ai, seeds 1-2 (2 cases), effort 1, set depth=2"));
    assert!(rows[1].split_whitespace().eq([
        "candidates",
        "cases",
        "mean",
        "±",
        "se",
        "failures",
        "max",
        "time"
    ]));
    assert_eq!(rows.len(), 4, "{stdout}");
    let records: Vec<Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    std::fs::remove_file(&json).ok();
    assert_eq!(records.len(), 4);
    let linez = marathon_games::lookup("linez").unwrap();
    for candidates in ["1", "4"] {
        let settings = Settings::default()
            .with("depth", "2")
            .with("candidates", candidates);
        let mut mean = 0.0;
        for seed in [1, 2] {
            let config = PlayConfig {
                settings: settings.clone(),
                ..PlayConfig::builtin("ai", Duration::from_secs(1000), Some(1))
            };
            let outcome = linez.play(&CaseId::seed(seed), &config).unwrap();
            mean += outcome.score / 2.0;
            let record = records
                .iter()
                .find(|r| r["seed"] == seed && r["settings"]["candidates"] == candidates)
                .expect("a record of the row's case");
            assert_eq!(
                record["score"], outcome.score,
                "candidates={candidates} seed {seed}"
            );
            assert_eq!(record["settings"]["depth"], "2");
        }
        let row = rows
            .iter()
            .find(|row| row.split_whitespace().next() == Some(candidates))
            .unwrap();
        let shown: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert_eq!(shown, (mean * 10.0).round() / 10.0, "{row}");
    }
}

#[test]
fn bad_settings_are_refused_before_anything_plays() {
    for (args, needle) in [
        (&["--vary", "dpeth=1,2"][..], "dpeth"),
        (&["--vary", "depth=1,9"], "depth=9"),
        (&["--set", "depth"], "NAME=VALUE"),
        (&["--vary", "depth=1,,2"], "no empty value"),
        (&["--player", "random", "--set", "depth=2"], "no settings"),
    ] {
        let output = Command::new(TUNE)
            .args(["sweep", "linez", "--seeds", "1", "--effort", "1"])
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?} played anyway");
    }
}

/// `--by` splits each row as a run's breakdown does (the same labels), and a parameter the
/// cases lack is refused before anything plays.
#[test]
fn by_splits_the_rows_as_a_runs_breakdown_does() {
    let sweep = |by: &str| {
        Command::new(TUNE)
            .args(["sweep", "tiles", "--seeds", "1-6", "--effort", "1"])
            .args(["--time-limit", NO_HURRY, "--threads", "2", "--by", by])
            .args(["--vary", "discard=0,1"])
            .output()
            .unwrap()
    };
    let output = sweep("N");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let header = stdout.lines().nth(1).expect("a header");
    assert!(header.contains("N="), "{header}");
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    let refused = sweep("nosuch");
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("nosuch") && stderr.contains("they have: N"),
        "{stderr}"
    );
}
