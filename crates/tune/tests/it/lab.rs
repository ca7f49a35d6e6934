//! The lab subcommands end to end on tiny inputs (a few games or seeds, fixed efforts, so that
//! nothing depends on the machine's speed): each prints what it did, in its shape, and a bad
//! argument or file is refused with exit status 2 and a message naming it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use marathon_linez::ai::ntuple::Network;

const TUNE: &str = env!("CARGO_BIN_EXE_marathon-tune");

/// Far above what a fixed-effort game here needs.
const NO_HURRY: &str = "1000";

/// A directory of this test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("marathon-lab-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

fn tune<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(TUNE).args(args).output().unwrap()
}

/// Runs a subcommand that must succeed; its stdout's lines.
fn lines<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Vec<String> {
    let output = tune(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn network(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    Network::from_bytes(&bytes).expect("a Linez network");
    bytes
}

#[test]
fn linez_train_reports_and_writes_the_same_network_from_the_same_seed() {
    let dir = Scratch::new("train");
    let (a, b) = (dir.path("a.bin"), dir.path("b.bin"));
    let args = |out: &Path| {
        vec![
            "linez-train".into(),
            "3".into(),
            out.as_os_str().to_owned(),
            "--report".into(),
            "2".into(),
            "--seed".into(),
            "5".into(),
            "--lambda".into(),
            "0.3".into(),
            "--horizon".into(),
            "4".into(),
        ]
    };
    let report = lines(&args(&a));
    assert_eq!(report.len(), 2, "{report:?}");
    for (line, games) in report.iter().zip(["2", "3"]) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            words[..3],
            ["games", &format!("{games}:"), "mean"],
            "{line}"
        );
        assert_eq!(words[4], "moves", "{line}");
        assert_eq!(words.last(), Some(&"s"), "{line}");
    }
    lines(&args(&b));
    assert_eq!(network(&a), network(&b), "one seed, one network");

    // Trained on from a with two stages, and averaged with itself: the same network again.
    let c = dir.path("c.bin");
    let on = lines(&[
        "linez-train".as_ref(),
        "2".as_ref(),
        c.as_os_str(),
        "--init".as_ref(),
        a.as_os_str(),
        "--stages".as_ref(),
        "2".as_ref(),
        "--rate".as_ref(),
        "0.1".as_ref(),
    ]);
    assert_eq!(on.len(), 1, "{on:?}");
    assert!(on[0].starts_with("games 2: mean "), "{on:?}");
    let mean = dir.path("mean.bin");
    let quiet = lines(&[
        "linez-average".as_ref(),
        mean.as_os_str(),
        c.as_os_str(),
        c.as_os_str(),
    ]);
    assert!(quiet.is_empty(), "{quiet:?}");
    assert_eq!(network(&mean), network(&c));
}

#[test]
fn linez_train_resumes_where_it_stopped_and_learns_as_if_never_stopped() {
    let dir = Scratch::new("resume");
    let (whole, halves) = (dir.path("whole.bin"), dir.path("halves.bin"));
    let train_args = |games: &str, out: &Path, more: &[&str]| {
        let mut args: Vec<std::ffi::OsString> = vec![
            "linez-train".into(),
            games.into(),
            out.as_os_str().to_owned(),
            "--report".into(),
            "2".into(),
        ];
        args.extend(more.iter().map(|&a| a.into()));
        args
    };
    let train = |games: &str, out: &Path, more: &[&str]| lines(&train_args(games, out, more));
    let settings = [
        "--seed",
        "9",
        "--lambda",
        "0.3",
        "--horizon",
        "4",
        "--rate",
        "0.5",
        "--clear-first",
    ];
    train("6", &whole, &settings);
    // Stopped after 4 games (as an interruption after the report at 4 would leave it), then
    // resumed to 6: the same spawns, rates and network as the run that never stopped.
    train("4", &halves, &settings);
    let resumed = train("6", &halves, &["--resume"]);
    assert_eq!(resumed.len(), 1, "{resumed:?}");
    assert!(resumed[0].starts_with("games 6: mean "), "{resumed:?}");
    assert_eq!(
        network(&whole),
        network(&halves),
        "resuming changes nothing"
    );

    // The curve: the command, a header, a line per report; the resumption is noted.
    let curve = std::fs::read_to_string(dir.path("halves.bin.curve.tsv")).unwrap();
    let rows: Vec<&str> = curve.lines().collect();
    assert!(
        rows[0].starts_with("# ") && rows[0].contains("--seed 9"),
        "{curve}"
    );
    assert_eq!(rows[1], "games\tmean_score\tmean_moves\tseconds", "{curve}");
    assert!(
        rows[2].starts_with("2\t") && rows[3].starts_with("4\t"),
        "{curve}"
    );
    assert!(rows[4].starts_with("# resumed at 4 games: "), "{curve}");
    assert!(rows[5].starts_with("6\t"), "{curve}");

    // A resumed run keeps its own settings: giving one is refused, as is a missing state.
    let refused = tune(&train_args("8", &halves, &["--resume", "--rate", "2"]));
    assert_eq!(refused.status.code(), Some(2));
    let missing = dir.path("never.bin");
    let refused = tune(&train_args("8", &missing, &["--resume"]));
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("never.bin.state"), "{message}");
}

#[test]
fn linez_hazard_plays_the_judges_games_and_counts_every_move() {
    use marathon_core::{CaseId, PlayConfig, Settings};
    let scratch = Scratch::new("hazard");
    let moves = scratch.path("moves.tsv");
    let out = lines(&[
        "linez-hazard".as_ref(),
        "1-3".as_ref(),
        "--effort".as_ref(),
        "1".as_ref(),
        "--set".as_ref(),
        "depth=2".as_ref(),
        "--moves".as_ref(),
        moves.as_os_str(),
    ]);
    let linez = marathon_games::lookup("linez").unwrap();
    let mut judged = Vec::new();
    for seed in 1..=3 {
        let config = PlayConfig {
            settings: Settings::default().with("depth", "2"),
            ..PlayConfig::builtin("ai", std::time::Duration::from_secs(1000), Some(1))
        };
        judged.push(linez.play(&CaseId::seed(seed), &config).unwrap());
    }
    let mean: f64 = judged.iter().map(|o| o.score).sum::<f64>() / 3.0;
    assert!(
        out[0].starts_with(&format!("3 games: mean {mean:.1} ")),
        "{out:?}"
    );
    let text = std::fs::read_to_string(&moves).unwrap();
    for (seed, outcome) in (1..=3).zip(&judged) {
        let game = format!("g\t{seed}\t{}\t{}", outcome.score, outcome.moves);
        assert!(text.lines().any(|line| line == game), "{game} in {text}");
        let counted = text
            .lines()
            .filter(|line| line.starts_with(&format!("m\t{seed}\t")))
            .count() as u64;
        assert_eq!(counted, outcome.moves);
    }
    // Seven levels, each a row.
    assert_eq!(out.len(), 3 + 7, "{out:?}");
    assert!(out[3].trim_start().starts_with("<= 40"));
}

#[test]
fn reversi_ga_stats_prints_a_line_per_seed_then_the_histogram() {
    let out = lines(&["reversi-ga-stats", "1-2"]);
    assert_eq!(out.len(), 2 + 10, "{out:#?}");
    assert!(out[0].starts_with("seed   1 n  7 mean "), "{}", out[0]);
    assert!(out[1].starts_with("seed   2 n  7 mean "), "{}", out[1]);
    assert!(out[2].starts_with("|d| <  0.5: "), "{}", out[2]);
    assert!(out[11].starts_with("|d| <  inf: "), "{}", out[11]);
    assert!(out[11].ends_with("(cumulative 1.000)"), "{}", out[11]);
}

#[test]
fn reversi_ceiling_prints_a_line_per_noise_and_the_oracle_predicts_everything() {
    let out = lines(&[
        "reversi-ceiling",
        "1-2",
        "--effort",
        "1",
        "0",
        "2.5",
        "sibling",
    ]);
    assert_eq!(out.len(), 3, "{out:#?}");
    for (line, noise) in out.iter().zip(["0", "2.5", "sibling"]) {
        assert!(
            line.starts_with(&format!("noise {noise:>8}: mean ")),
            "{line}"
        );
        assert!(line.contains(" (se "), "{line}");
    }
    // With the true weights the model's move is the opponent's move.
    assert!(out[0].ends_with("predicted 1.000"), "{}", out[0]);
}

#[test]
fn reversi_infer_stats_and_predict() {
    let stats = lines(&["reversi-infer", "stats", "1-2"]);
    assert_eq!(stats.len(), 2, "{stats:#?}");
    assert!(stats[0].starts_with("seed   1 n  7 mean "), "{}", stats[0]);
    assert!(stats[0].contains(" corr "), "{}", stats[0]);
    for model in ["first", "flips", "sibling"] {
        let out = lines(&["reversi-infer", "predict", "1-2", model]);
        assert_eq!(out.len(), 3, "{out:#?}");
        assert!(out[0].starts_with("seed   1 n  7 predicted "), "{}", out[0]);
        assert!(
            out[2].starts_with(&format!("{model}: predicted ")),
            "{}",
            out[2]
        );
        assert!(out[2].contains(" (by third: "), "{}", out[2]);
    }
    let output = tune(&[
        "reversi-infer",
        "predict",
        "1",
        "lineage",
        "--sweeps",
        "1",
        "--chains",
        "1",
        "--thin",
        "1",
        "--kin-share",
        "0.8",
        "--reset-truth",
        "--debug",
    ]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("seed   1 n  7 predicted "), "{stdout}");
    assert!(stdout.contains("\nlineage: predicted "), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("decisions "), "--debug: {stderr}");
}

#[test]
fn tiles_trace_prints_the_boards_the_candidates_and_the_game() {
    let out = lines(&[
        "tiles-trace",
        "7",
        "--effort",
        "1",
        "--time-limit",
        NO_HURRY,
        "--stop",
        "60",
        "--trace",
        "50",
        "--explain",
        "3-5",
        "--set",
        "discard=2",
    ]);
    let text = out.join("\n");
    let traced: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("seed 7 move "))
        .collect();
    assert_eq!(traced.len(), 2, "moves 0 and 50: {text}");
    assert!(traced[1].starts_with("seed 7 move 50 score "), "{text}");
    let explained: Vec<&String> = out.iter().filter(|l| l.contains(" chose ")).collect();
    assert_eq!(explained.len(), 2, "moves 3 and 4: {text}");
    assert!(explained[0].starts_with("move 3 counter "), "{text}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("  ") && l.contains("Features {")),
        "candidates: {text}"
    );
    let game = &out[out.len() - 2];
    assert!(game.starts_with("seed    7 N= 8 "), "{text}");
    assert!(game.contains(" moves    60 "), "stopped at 60: {text}");
    assert_eq!(
        out[out.len() - 1].split(" time ").next(),
        Some("effort=Some(1) set [discard=2]")
    );
}

/// Weights that make the player leave homes open until a tile has none and no discard is
/// left: seed 2 then gives up at a fixed move (if a change to the player makes it play on,
/// find another seed with `--last-moves`).
#[test]
fn tiles_trace_prints_the_last_moves_before_a_give_up() {
    let out = lines(&[
        "tiles-trace",
        "2",
        "--effort",
        "1",
        "--time-limit",
        NO_HURRY,
        "--stop",
        "3000",
        "--last-moves",
        "4",
        "--set",
        "crowd=-200",
        "--set",
        "homeless=-50",
    ]);
    let text = out.join("\n");
    let at = out
        .iter()
        .position(|l| l.starts_with("seed 2 gave up at move "))
        .unwrap_or_else(|| panic!("no give-up: {text}"));
    for line in &out[at + 1..at + 5] {
        assert!(line.starts_with("  move "), "{text}");
    }
    assert!(out[at + 4].ends_with("-> GiveUp"), "{text}");
}

#[test]
fn bad_arguments_and_files_exit_2_naming_them() {
    let dir = Scratch::new("bad");
    let junk = dir.path("junk.bin");
    std::fs::write(&junk, "not a network").unwrap();
    let (junk, missing, out) = (
        junk.display().to_string(),
        dir.path("missing.bin").display().to_string(),
        dir.path("out.bin").display().to_string(),
    );
    let missing_seeds = format!("@{missing}");
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["linez-train", "5", &out, "--init", &missing],
            vec!["--init", &missing],
        ),
        (
            vec!["linez-train", "5", &out, "--init", &junk],
            vec!["--init", &junk, "not a Linez network"],
        ),
        (
            vec!["linez-train", "5", &out, "--lambda", "1.5"],
            vec!["--lambda"],
        ),
        (vec!["linez-average", &out, &junk, &missing], vec![&junk]),
        (vec!["linez-average", &out, &missing], vec![&missing]),
        (
            vec!["reversi-ceiling", "1-2", "--effort", "1", "loud"],
            vec!["NOISE", "loud"],
        ),
        (vec!["reversi-ga-stats", "5-3"], vec!["SEEDS", "backwards"]),
        (
            vec!["reversi-infer", "stats", &missing_seeds],
            vec!["SEEDS", &missing],
        ),
        (
            vec![
                "reversi-infer",
                "predict",
                "1",
                "lineage",
                "--kin-share",
                "2",
            ],
            vec!["--kin-share"],
        ),
        (
            vec!["reversi-infer", "predict", "1", "oracle"],
            vec!["MODEL", "oracle"],
        ),
        (
            vec!["tiles-trace", "1", "--explain", "5-3"],
            vec!["--explain", "5-3"],
        ),
        (vec!["tiles-trace", "1", "--set", "dpeth=1"], vec!["dpeth"]),
        (
            vec!["tiles-trace", "1", "--time-limit", "0"],
            vec!["--time-limit"],
        ),
    ];
    for (args, needles) in cases {
        let output = tune(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{args:?}: {stderr}");
        }
        assert!(output.stdout.is_empty(), "{args:?} ran anyway");
    }
    assert!(!Path::new(&out).exists(), "nothing was written");
}
