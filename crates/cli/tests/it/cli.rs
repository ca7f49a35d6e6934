//! The `marathon` binary end to end: misbehaving `--exec` programs get the right verdicts while
//! the runner keeps going, built-in players are reproducible in-process and as programs down to
//! every move, and bad command lines fail with a message instead of a panic.
//!
//! Fixture programs are `sh` one-liners. A program that should play a few legal moves first
//! pipes the judge's text through a `read` loop (the shell reads a pipe byte by byte, so it takes
//! exactly the lines it counts, and `printf` does not buffer) into `marathon solve linez`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use marathon_core::{CaseId, Game, Replayed, TIME_LIMIT_ENV};
use marathon_linez::LINEZ;
use marathon_linez::generator::INITIAL_BALLS;
use serde_json::Value;

const MARATHON: &str = env!("CARGO_BIN_EXE_marathon");

/// Where the runs `play` keeps go in these tests: a temporary folder, not the source tree.
fn runs_dir() -> PathBuf {
    marathon_testing::scratch::process_dir(&std::env::temp_dir(), "marathon-cli-runs")
}

/// The binary as a word of an `sh -c` command.
fn marathon_sh() -> String {
    shell_quote(MARATHON)
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn path_sh(path: &Path) -> String {
    shell_quote(path.to_str().expect("temp paths are UTF-8"))
}

/// A finished run of the binary.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn assert_success(&self) {
        assert_eq!(
            self.code,
            Some(0),
            "expected success; stderr:\n{}",
            self.stderr
        );
    }

    /// A usage error: exit status 2 and a message on stderr (checked against `needles`).
    fn assert_usage_error(&self, needles: &[&str]) {
        assert_eq!(
            self.code,
            Some(2),
            "expected exit status 2; stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr does not mention {needle:?}:\n{}",
                self.stderr
            );
        }
    }
}

fn run(args: &[&str]) -> Run {
    run_with_input(args, None)
}

fn run_with_input(args: &[&str], input: Option<&[u8]>) -> Run {
    let started = Instant::now();
    let mut command = Command::new(MARATHON);
    command
        .args(args)
        .env("MARATHON_RUNS_DIR", runs_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = command.spawn().expect("the marathon binary starts");
    if let Some(input) = input {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("piped stdin");
        // A solver that fails early closes its input; that is what some tests are about.
        let _ = stdin.write_all(input);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("marathon runs");
    let run = Run {
        code: status.code(),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
        elapsed: started.elapsed(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "marathon {args:?} panicked:\n{}",
        run.stderr
    );
    run
}

/// A fresh directory for one test's files, removed afterwards unless the test failed.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("marathon-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temp dir");
        TempDir(path)
    }

    fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// `marathon play linez` with `extra` flags and `--json`; returns the run and one object per
/// case, after checking the documented fields are there.
fn play_json(dir: &TempDir, extra: &[&str]) -> (Run, Vec<Value>) {
    play_game_json(dir, "linez", extra)
}

/// [`play_json`] for any game.
fn play_game_json(dir: &TempDir, game: &str, extra: &[&str]) -> (Run, Vec<Value>) {
    let json = dir.join(format!("run-{}.jsonl", next_number()));
    let json_arg = json.to_str().expect("UTF-8 path").to_owned();
    let mut args = vec!["play", game, "--threads", "2", "--json", &json_arg];
    args.extend_from_slice(extra);
    let run = run(&args);
    run.assert_success();
    let text = std::fs::read_to_string(&json).expect("the --json file was written");
    let mut cases: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON object"))
        .collect();
    // Lines come in the order the cases finished; the tests read them in the order asked.
    cases.sort_by_key(|case| {
        (
            case["seed"].as_u64(),
            case["case"].as_str().map(str::to_owned),
        )
    });
    for case in &cases {
        for field in [
            "game", "seed", "params", "score", "moves", "time_ms", "verdict",
        ] {
            assert!(case.get(field).is_some(), "no {field:?} in {case}");
        }
        assert_eq!(case["game"], game);
        let extra_fields: &[&str] = match case["verdict"].as_str().expect("verdict is a string") {
            "ok" => &[],
            "invalid" => &["line", "line_bytes", "reason"],
            "timeout" => &["limit_ms", "used_ms", "detail"],
            "crash" | "protocol" => &["detail"],
            other => panic!("unknown verdict {other:?} in {case}"),
        };
        for field in extra_fields {
            assert!(case.get(field).is_some(), "no {field:?} in {case}");
        }
    }
    (run, cases)
}

fn next_number() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn seeds_of(cases: &[Value]) -> Vec<u64> {
    cases.iter().map(|c| c["seed"].as_u64().unwrap()).collect()
}

fn score(case: &Value) -> f64 {
    case["score"].as_f64().expect("score is a number")
}

fn moves(case: &Value) -> u64 {
    case["moves"].as_u64().expect("moves is a count")
}

fn str_field<'a>(case: &'a Value, field: &str) -> &'a str {
    case[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field:?} is not a string in {case}"))
}

/// Plays `moves` on the case of `seed` through the game's environment, apart from the judge;
/// panics on a move the rules refuse.
fn replay(seed: u64, moves: &[String]) -> Replayed {
    LINEZ
        .replay(&CaseId::seed(seed), moves)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// A fixture that passes the first `moves` observations to `marathon solve linez --player
/// greedy`, recording them in `DIR/in_PID.txt` and the replies in `DIR/out_PID.txt`, then runs
/// `then`.
fn greedy_then(dir: &TempDir, moves: usize, then: &str) -> String {
    format!(
        "{{ i=0; while [ $i -lt {lines} ] && IFS= read -r l; do printf '%s\\n' \"$l\"; \
         printf '%s\\n' \"$l\" >> {d}/in_$$.txt; i=$((i+1)); done; }} \
         | {m} solve linez --player greedy | tee {d}/out_$$.txt; {then}",
        lines = moves * 10,
        m = marathon_sh(),
        d = path_sh(&dir.0),
    )
}

/// The games a [`greedy_then`] fixture recorded, as (seed, moves) in seed order; the seed is
/// the one whose first observation the recorded input starts with.
fn recorded_games(dir: &TempDir, seeds: &[u64]) -> Vec<(u64, Vec<String>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir.0).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let Some(pid) = name.strip_prefix("in_") else {
            continue;
        };
        let input = std::fs::read_to_string(&path).unwrap();
        let fits: Vec<u64> = seeds
            .iter()
            .copied()
            .filter(|&seed| {
                input.starts_with(&LINEZ.generate(&CaseId::seed(seed)).expect("a case"))
            })
            .collect();
        assert_eq!(fits.len(), 1, "{name} fits seeds {fits:?} of {seeds:?}");
        let moves: Vec<String> = std::fs::read_to_string(dir.join(format!("out_{pid}")))
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        found.push((fits[0], moves));
    }
    found.sort();
    assert_eq!(
        found.iter().map(|(seed, _)| *seed).collect::<Vec<_>>(),
        seeds,
        "one recorded game per seed"
    );
    found
}

// ---------------------------------------------------------------------------------------------
// 1. Fixture programs and their verdicts

#[test]
fn legal_program_plays_every_seed_to_the_end() {
    let dir = TempDir::new("legal");
    let program = format!("{} solve linez --player random", marathon_sh());
    let (run, cases) = play_json(&dir, &["--seeds", "1-4", "--quiet", "--exec", &program]);
    assert_eq!(seeds_of(&cases), [1, 2, 3, 4]);
    for case in &cases {
        assert_eq!(case["verdict"], "ok", "{case}");
        assert!(moves(case) > 0, "{case}");
        assert!(case.get("reason").is_none() && case.get("detail").is_none());
    }
    // The table shows every case, the summary no failure.
    for seed in 1..=4 {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{seed} ")) && l.ends_with("ok")),
            "no ok row for seed {seed}:\n{}",
            run.stdout
        );
    }
    // The same player in-process sees the same text, so it plays the same games.
    let (_, builtin) = play_json(&dir, &["--seeds", "1-4", "--player", "random"]);
    for (exec, builtin) in cases.iter().zip(&builtin) {
        assert_eq!((score(exec), moves(exec)), (score(builtin), moves(builtin)));
    }
}

#[test]
fn the_judge_tells_a_program_its_time_limit_and_solve_reads_it() {
    // The protocol carries no time limit: the judge passes it in the environment, and `solve`
    // without --time-limit plans for it (the order of flag, environment and contest limit is
    // checked by `select::solve_time_limit`'s own test). Whether the AI then keeps inside 1 s
    // is a matter of machine load, so that is measured (docs/results.md), not tested here.
    let run = run(&[
        "play",
        "linez",
        "--seeds",
        "1",
        "--no-save",
        "--time-limit",
        "7.5",
        "--exec",
        "echo \"told $MARATHON_TIME_LIMIT\" >&2; exit 3",
    ]);
    run.assert_success();
    assert!(run.stderr.contains("told 7.5"), "{}", run.stderr);
    let solve = Command::new(MARATHON)
        .args(["solve", "linez"])
        .env(TIME_LIMIT_ENV, "soon")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(solve.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&solve.stderr);
    assert!(stderr.contains("MARATHON_TIME_LIMIT=\"soon\""), "{stderr}");
}

/// Reads one observation and answers `reply`, forever.
fn answering(reply: &str) -> String {
    format!(
        "while :; do for i in 1 2 3 4 5 6 7 8 9 10; do read -r l || exit 0; done; echo {reply}; done"
    )
}

#[test]
fn garbage_reply_is_invalid_and_the_runner_goes_on() {
    let dir = TempDir::new("garbage");
    let (run, cases) = play_json(
        &dir,
        &["--seeds", "1-3", "--quiet", "--exec", &answering("hello")],
    );
    assert_eq!(seeds_of(&cases), [1, 2, 3]);
    for case in &cases {
        assert_eq!(case["verdict"], "invalid", "{case}");
        assert_eq!(case["line"], "hello", "{case}");
        assert!(!str_field(case, "reason").is_empty(), "{case}");
        assert_eq!((score(case), moves(case)), (0.0, 0), "{case}");
    }
    assert!(run.stdout.contains("\"hello\""), "{}", run.stdout);
}

#[test]
fn well_formed_but_illegal_move_is_invalid() {
    let dir = TempDir::new("illegal");
    // A1 to A1 is never legal: either no ball is there or the target is taken.
    let (_, cases) = play_json(
        &dir,
        &["--seeds", "1-3", "--quiet", "--exec", &answering("A1A1")],
    );
    assert_eq!(seeds_of(&cases), [1, 2, 3]);
    for case in &cases {
        assert_eq!(case["verdict"], "invalid", "{case}");
        assert_eq!(case["line"], "A1A1", "{case}");
        assert!(str_field(case, "reason").contains("A1"), "{case}");
        assert_eq!((score(case), moves(case)), (0.0, 0), "{case}");
    }
}

#[test]
fn program_that_exits_at_once_is_a_protocol_failure_or_a_crash() {
    let dir = TempDir::new("exits");
    let (_, cases) = play_json(&dir, &["--seeds", "1-3", "--quiet", "--exec", "true"]);
    assert_eq!(seeds_of(&cases), [1, 2, 3]);
    for case in &cases {
        assert_eq!(case["verdict"], "protocol", "{case}");
        assert!(
            str_field(case, "detail").contains("exit status 0"),
            "{case}"
        );
        assert_eq!((score(case), moves(case)), (0.0, 0), "{case}");
    }
    let (_, cases) = play_json(&dir, &["--seeds", "1-3", "--quiet", "--exec", "exit 3"]);
    assert_eq!(seeds_of(&cases), [1, 2, 3]);
    for case in &cases {
        assert_eq!(case["verdict"], "crash", "{case}");
        assert!(str_field(case, "detail").contains("status 3"), "{case}");
        assert_eq!((score(case), moves(case)), (0.0, 0), "{case}");
    }
    let (_, cases) = play_json(&dir, &["--seeds", "4", "--quiet", "--exec", "kill -9 $$"]);
    assert_eq!(cases[0]["verdict"], "crash", "{}", cases[0]);
    assert!(
        str_field(&cases[0], "detail").contains("SIGKILL"),
        "{}",
        cases[0]
    );
}

#[test]
fn sleeping_program_times_out_and_is_killed() {
    let dir = TempDir::new("sleep");
    // The program and a background child that keeps the pipes open both sleep past the limit;
    // each carries a marker in its command line (`sleep` reads `1000.MARK` as a number), so
    // that whatever of it started is found, however late a busy machine let it start.
    let mark = crate::trust::marker();
    let program = format!("sleep 1000.{mark} & sleep 1000.{mark} # {mark}");
    let (run, cases) = play_json(
        &dir,
        &[
            "--seeds",
            "1-3",
            "--quiet",
            "--time-limit",
            "1",
            "--exec",
            &program,
        ],
    );
    assert_eq!(seeds_of(&cases), [1, 2, 3]);
    for case in &cases {
        assert_eq!(case["verdict"], "timeout", "{case}");
        assert_eq!(case["limit_ms"], 1000, "{case}");
        // At least the limit, and nowhere near the 1000 s sleep: the judge did not wait for it
        // (the bound is loose so that a busy machine's late wake-up cannot fail the test).
        let time = case["time_ms"].as_u64().unwrap();
        assert!((1000..60_000).contains(&time), "{case}");
        assert_eq!((score(case), moves(case)), (0.0, 0), "{case}");
    }
    // Three one-second cases on two threads: about two seconds, far from the 1000 s sleeps.
    assert!(
        run.elapsed < Duration::from_secs(120),
        "took {:?}",
        run.elapsed
    );
    // Killed grandchildren are reaped by init, maybe not at once.
    crate::trust::assert_none_left(&mark, &program);
}

#[test]
fn program_that_hangs_mid_game_times_out_keeping_its_points() {
    let dir = TempDir::new("hang");
    let program = greedy_then(&dir, 15, "exec sleep 1000");
    let (run, cases) = play_json(
        &dir,
        &[
            "--seeds",
            "5-6",
            "--quiet",
            "--time-limit",
            "10",
            "--exec",
            &program,
        ],
    );
    // Far from the 1000 s sleep: the judge ended the case at its limit.
    assert!(
        run.elapsed < Duration::from_secs(120),
        "took {:?}",
        run.elapsed
    );
    let recorded = recorded_games(&dir, &[5, 6]);
    assert_eq!(recorded.len(), 2);
    for (case, (seed, moves_played)) in cases.iter().zip(&recorded) {
        assert_eq!(case["seed"], *seed);
        assert_eq!(case["verdict"], "timeout", "{case}");
        assert_eq!(moves(case), 15, "{case}");
        assert_eq!(moves_played.len(), 15);
        let state = replay(*seed, moves_played);
        assert_eq!(score(case), state.score, "{case}");
    }
}

#[test]
fn program_that_crashes_mid_game_keeps_its_points() {
    let dir = TempDir::new("crash");
    let program = greedy_then(&dir, 20, "exit 7");
    let (_, cases) = play_json(&dir, &["--seeds", "1-3", "--quiet", "--exec", &program]);
    let recorded = recorded_games(&dir, &[1, 2, 3]);
    assert_eq!(recorded.len(), 3);
    let mut total = 0.0;
    for (case, (seed, moves_played)) in cases.iter().zip(&recorded) {
        assert_eq!(case["seed"], *seed);
        assert_eq!(case["verdict"], "crash", "{case}");
        assert!(str_field(case, "detail").contains("status 7"), "{case}");
        assert_eq!(moves(case), 20, "{case}");
        assert_eq!(moves_played.len(), 20);
        // The points of the legal moves stand, exactly as the rules count them.
        let state = replay(*seed, moves_played);
        assert_eq!(score(case), state.score, "{case}");
        total += score(case);
    }
    assert!(total > 0.0, "20 greedy moves should clear a line somewhere");
}

#[test]
fn illegal_move_mid_game_keeps_the_points() {
    let dir = TempDir::new("late-invalid");
    let program = greedy_then(
        &dir,
        20,
        "for i in 1 2 3 4 5 6 7 8 9 10; do read -r l; done; echo A1A1",
    );
    let (_, cases) = play_json(&dir, &["--seeds", "2-3", "--quiet", "--exec", &program]);
    let recorded = recorded_games(&dir, &[2, 3]);
    for (case, (seed, moves_played)) in cases.iter().zip(&recorded) {
        assert_eq!(case["seed"], *seed);
        assert_eq!(case["verdict"], "invalid", "{case}");
        assert_eq!(case["line"], "A1A1", "{case}");
        assert_eq!(moves(case), 20, "{case}");
        assert_eq!(score(case), replay(*seed, moves_played).score);
    }
}

#[test]
fn stderr_is_passed_through_with_the_seed_unless_quiet() {
    let dir = TempDir::new("stderr");
    let program = format!(
        "printf 'note one\\nnote two' >&2; exec {} solve linez --player random",
        marathon_sh()
    );
    let (run, cases) = play_json(&dir, &["--seeds", "2-3", "--exec", &program]);
    assert!(cases.iter().all(|c| c["verdict"] == "ok"), "{cases:?}");
    for seed in [2, 3] {
        for note in ["note one", "note two"] {
            let line = format!("[linez seed {seed}] {note}");
            assert!(
                run.stderr.lines().any(|l| l == line),
                "no line {line:?} in stderr:\n{}",
                run.stderr
            );
        }
    }
    let (quiet, _) = play_json(&dir, &["--seeds", "2-3", "--quiet", "--exec", &program]);
    assert!(!quiet.stderr.contains("note"), "{}", quiet.stderr);
}

#[test]
fn last_words_of_a_crashing_program_are_not_lost() {
    // The program's stderr is copied on a helper thread; a line written just before dying must
    // still come out before marathon exits (a single short case is the tightest race).
    for _ in 0..60 {
        let run = run(&[
            "play",
            "linez",
            "--seeds",
            "3",
            "--summary-only",
            "--exec",
            "echo 'last words' >&2; exit 1",
        ]);
        run.assert_success();
        assert!(
            run.stderr.lines().any(|l| l == "[linez seed 3] last words"),
            "stderr lost the program's last line:\n{}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Reproducibility

/// A time limit far above what any fixed-effort game in these tests needs, so that they never
/// depend on the machine's speed (tiles seed 99 at effort 4 once timed out at the contest's 20 s
/// on a loaded machine).
const NO_HURRY: &str = "1000";

/// Every registered game's AI at a fixed effort, played in-process and as a program (`marathon
/// solve`) on the same cases: the same games. The program's replies, recorded on their way to
/// the judge, replay through the game's environment to the judge's score.
#[test]
fn fixed_effort_ai_plays_the_same_in_process_and_as_a_program() {
    for &game in marathon_games::games() {
        let name = game.name();
        let dir = TempDir::new(&format!("repro-{name}"));
        let cases = ["--seeds", "1-2"];
        let mut builtin_args = cases.to_vec();
        builtin_args.extend(["--player", "ai", "--effort", "1", "--time-limit", NO_HURRY]);
        let (_, builtin) = play_game_json(&dir, name, &builtin_args);
        let program = format!(
            "{} solve {name} --effort 1 | tee {}/replies_$$.txt",
            marathon_sh(),
            path_sh(&dir.0)
        );
        let mut exec_args = cases.to_vec();
        exec_args.extend(["--quiet", "--time-limit", NO_HURRY, "--exec", &program]);
        let (_, exec) = play_game_json(&dir, name, &exec_args);
        assert!(!builtin.is_empty(), "{name}: no cases played");
        assert_eq!(builtin.len(), exec.len(), "{name}");
        // Polyomino's score also counts the player's time; its `raw` score is the moves' alone.
        let points = |case: &Value| {
            case["metrics"]["raw"]
                .as_f64()
                .unwrap_or_else(|| score(case))
        };
        for (b, e) in builtin.iter().zip(&exec) {
            assert_eq!(b["verdict"], "ok", "{name}: {b}");
            assert_eq!(e["verdict"], "ok", "{name}: {e}");
            assert_eq!(
                (b["seed"].as_u64(), points(b), moves(b)),
                (e["seed"].as_u64(), points(e), moves(e)),
                "{name}: in-process {b} vs program {e}"
            );
        }
        // Each recorded transcript replays, apart from the judge, to one of the judged games.
        let mut replayed = Vec::new();
        for entry in std::fs::read_dir(&dir.0).unwrap() {
            let path = entry.unwrap().path();
            if !path
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("replies_")
            {
                continue;
            }
            let replies: Vec<String> = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .map(str::to_owned)
                .collect();
            let fits = exec.iter().find_map(|case| {
                let id = match game.groups() {
                    Some((_, group)) => CaseId::in_group(group, seed_of(case)),
                    None => CaseId::seed(seed_of(case)),
                };
                let replayed = game.replay(&id, &replies).ok()?;
                (replayed.score == points(case) && replayed.moves == moves(case)).then_some(())
            });
            assert!(fits.is_some(), "{name}: {path:?} replays to no judged game");
            replayed.push(path);
        }
        assert_eq!(
            replayed.len(),
            exec.len(),
            "{name}: one transcript per case"
        );
    }
}

fn seed_of(case: &Value) -> u64 {
    case["seed"].as_u64().expect("a seed")
}

#[test]
fn captured_game_replays_move_for_move() {
    for seed in [1u64, 2] {
        let dir = TempDir::new(&format!("capture-{seed}"));
        let program = format!(
            "tee {d}/in_$$.txt | {m} solve linez --effort 2 | tee {d}/out_$$.txt",
            d = path_sh(&dir.0),
            m = marathon_sh()
        );
        let seed_text = seed.to_string();
        let (_, cases) = play_json(
            &dir,
            &[
                "--seeds",
                &seed_text,
                "--quiet",
                "--time-limit",
                NO_HURRY,
                "--exec",
                &program,
            ],
        );
        let case = &cases[0];
        assert_eq!(case["verdict"], "ok", "{case}");
        let file = |prefix: &str| {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&dir.0)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
                .collect();
            assert_eq!(found.len(), 1, "{prefix}* files: {found:?}");
            std::fs::read(found.pop().unwrap()).unwrap()
        };
        let (input, output) = (file("in_"), file("out_"));
        let moves_played: Vec<String> = String::from_utf8(output.clone())
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        // One observation of 10 lines per move, starting with the case as `gen` prints it.
        assert_eq!(moves_played.len() as u64, moves(case), "{case}");
        let input_text = String::from_utf8(input.clone()).unwrap();
        assert_eq!(input_text.lines().count() as u64, 10 * moves(case));
        let generated = run(&["gen", "linez", "--seed", &seed_text]);
        generated.assert_success();
        assert!(input_text.starts_with(&generated.stdout));
        // The judge's score is the rules' score of these moves, and the game is over.
        let state = replay(seed, &moves_played);
        assert!(state.over, "seed {seed}: the replayed game is not over");
        assert_eq!(score(case), state.score, "{case}");
        // The same program fed the captured text answers exactly the same moves.
        let again = run_with_input(&["solve", "linez", "--effort", "2"], Some(&input));
        again.assert_success();
        assert!(
            again.stdout.as_bytes() == output.as_slice(),
            "seed {seed}: solve on the captured input answered differently"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Command-line errors and the other verbs

#[test]
fn bad_seed_sets_name_the_token_or_file() {
    run(&["play", "linez", "--seeds", "5-3"]).assert_usage_error(&["5-3", "backwards"]);
    run(&["play", "linez", "--seeds", "x"]).assert_usage_error(&["\"x\""]);
    run(&["play", "linez", "--seeds", "1,,2"]).assert_usage_error(&["1,,2"]);
    run(&[
        "play",
        "linez",
        "--seeds",
        "@/nonexistent/marathon-seeds.txt",
    ])
    .assert_usage_error(&["/nonexistent/marathon-seeds.txt"]);
    let dir = TempDir::new("seedfile");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "1\n# fine\n2-x\n").unwrap();
    run(&["play", "linez", "--seeds", &format!("@{}", bad.display())])
        .assert_usage_error(&["bad.txt:3", "2-x"]);
}

#[test]
fn seed_file_runs_its_seeds_in_order() {
    let dir = TempDir::new("seedfile-good");
    let file = dir.join("seeds.txt");
    std::fs::write(&file, "# a few\n9\n\n2-3 # and a range\n").unwrap();
    let seeds = format!("@{}", file.display());
    let (run, cases) = play_json(&dir, &["--seeds", &seeds, "--player", "random"]);
    assert_eq!(seeds_of(&cases), [2, 3, 9]);
    // The table lists them in the file's order (the JSON lines in the order they finished).
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .skip(1)
        .take(3)
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert_eq!(rows, ["9", "2", "3"], "{}", run.stdout);
}

#[test]
fn unknown_game_lists_the_games() {
    run(&["play", "chess"]).assert_usage_error(&["chess", "linez"]);
    run(&["gen", "chess"]).assert_usage_error(&["chess", "linez"]);
    run(&["solve", "chess"]).assert_usage_error(&["chess", "linez"]);
}

#[test]
fn unknown_player_lists_the_players() {
    let needles = ["nope", "ai", "greedy", "random"];
    run(&["play", "linez", "--player", "nope"]).assert_usage_error(&needles);
    run(&["solve", "linez", "--player", "nope"]).assert_usage_error(&needles);
}

#[test]
fn bad_time_limits_are_refused() {
    // clap reads `-1` as a flag; either way the value is named.
    run(&["play", "linez", "--time-limit", "-1"]).assert_usage_error(&["-1"]);
    for value in ["-1", "0", "nan", "inf"] {
        let flag = format!("--time-limit={value}");
        let run = run(&["play", "linez", "--seeds", "1", &flag]);
        run.assert_usage_error(&["--time-limit", "above 0"]);
        assert!(run.stdout.is_empty(), "played anyway:\n{}", run.stdout);
    }
    run(&["solve", "linez", "--time-limit=0"]).assert_usage_error(&["above 0"]);
    run(&["play", "linez", "--time-limit", "soon"]).assert_usage_error(&["soon"]);
    // The bound is stated.
    run(&["play", "linez", "--time-limit", "1e7"]).assert_usage_error(&["at most 1000000"]);
}

#[test]
fn player_settings_are_listed_checked_and_played() {
    let listed = run(&["players", "linez"]);
    listed.assert_success();
    let lines: Vec<&str> = listed.stdout.lines().collect();
    let line_of = |start: &str| -> Vec<&str> {
        let line = lines
            .iter()
            .find(|line| line.trim_start().starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?}:\n{}", listed.stdout));
        line.split_whitespace().collect()
    };
    // Every player and setting is described.
    assert_eq!(line_of("hand")[..4], ["hand", "the", "same", "search"]);
    assert_eq!(line_of("depth=3")[..3], ["depth=3", "spawns", "per"]);
    assert_eq!(line_of("max_rounds=64")[1..3], ["the", "most"]);
    assert_eq!(
        line_of("random")[1..],
        ["a", "uniformly", "random", "legal", "move"]
    );
    assert!(
        !listed.stdout.contains(&u64::MAX.to_string()),
        "{}",
        listed.stdout
    );
    assert!(
        listed.stdout.contains("What its tables show:"),
        "{}",
        listed.stdout
    );
    assert!(
        listed.stdout.lines().all(|l| l.chars().count() <= 100),
        "{}",
        listed.stdout
    );
    let tiles = run(&["players", "tiles"]);
    assert!(
        tiles.stdout.contains("10k = 1 when the game reached"),
        "{}",
        tiles.stdout
    );
    // An unbounded count reads `none`.
    let polyomino = run(&["players", "polyomino"]);
    assert!(
        polyomino.stdout.contains(" per_row=none "),
        "{}",
        polyomino.stdout
    );
    // Refused before anything plays, naming the setting and the ones there are.
    for (args, needles) in [
        (
            &["--set", "dpeth=2"][..],
            &["dpeth", "depth, candidates"][..],
        ),
        (&["--set", "depth=9"], &["depth=9", "1 to 4"]),
        (&["--set", "depth=two"], &["depth=two"]),
        (
            &["--set", "max_rounds=lots"],
            &["max_rounds=lots", "or none"],
        ),
        (&["--set", "depth"], &["NAME=VALUE"]),
        (
            &["--player", "random", "--set", "depth=2"],
            &["random has no settings"],
        ),
        (&["--exec", "true", "--set", "depth=2"], &["--set"]),
    ] {
        let mut all = vec!["play", "linez", "--seeds", "1", "--effort", "1"];
        all.extend_from_slice(args);
        let run = run(&all);
        run.assert_usage_error(needles);
        assert!(run.stdout.is_empty(), "played anyway:\n{}", run.stdout);
    }
    run(&["solve", "linez", "--set", "depth=0"]).assert_usage_error(&["depth=0"]);
    // A setting changes the game: one candidate is the evaluation's first choice, unsearched.
    let dir = TempDir::new("settings");
    let (_, default) = play_json(&dir, &["--seeds", "1-2", "--effort", "2"]);
    let (_, narrow) = play_json(
        &dir,
        &["--seeds", "1-2", "--effort", "2", "--set", "candidates=1"],
    );
    let scores = |cases: &[Value]| cases.iter().map(score).collect::<Vec<_>>();
    assert_ne!(scores(&default), scores(&narrow));
    // `none`, as listed, is a value: no bound, the default.
    let (_, unbounded) = play_json(
        &dir,
        &[
            "--seeds",
            "1-2",
            "--effort",
            "2",
            "--set",
            "max_rounds=none",
        ],
    );
    assert_eq!(scores(&unbounded), scores(&default));
}

/// With `--best`, the table's relative scores are the JSON lines': against the best known
/// before the run where it was higher, else 100 (the case's own new best).
#[test]
fn relative_scores_agree_between_table_and_json() {
    let dir = TempDir::new("relative");
    let best = dir.join("best.txt");
    std::fs::write(&best, "linez 1 100000\n").unwrap();
    let best_arg = best.to_str().unwrap().to_owned();
    let (run, cases) = play_json(
        &dir,
        &["--seeds", "1-2", "--player", "greedy", "--best", &best_arg],
    );
    for case in &cases {
        let relative = case["relative"].as_f64().expect("a relative score");
        let expected = match case["seed"].as_u64() {
            Some(1) => 100.0 * score(case) / 100000.0,
            _ => 100.0,
        };
        assert!((relative - expected).abs() < 1e-9, "{case}");
        let seed = case["seed"].to_string();
        let row = run
            .stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(seed.as_str()))
            .expect("a table row per case");
        assert!(
            row.split_whitespace()
                .any(|cell| cell == format!("{relative:.1}")),
            "{row} lacks {relative:.1}"
        );
    }
}

#[test]
fn by_splits_the_summary_by_case_parameter() {
    let dir = TempDir::new("by");
    let report = dir.join("report.html");
    let report_arg = report.to_str().unwrap().to_owned();
    let (played, cases) = play_game_json(
        &dir,
        "tiles",
        &[
            "--seeds",
            "1-6",
            "--effort",
            "1",
            "--time-limit",
            "1000",
            "--by",
            "N",
            "--report",
            &report_arg,
        ],
    );
    let rows: Vec<Vec<&str>> = played
        .stdout
        .lines()
        .skip_while(|line| *line != "tiles by N:")
        .skip(2)
        .take_while(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().collect())
        .collect();
    // One row per value of N among the cases, in order, with their count and mean.
    let mut by_n: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for case in &cases {
        by_n.entry(case["params"]["N"].as_u64().unwrap())
            .or_default()
            .push(score(case));
    }
    assert_eq!(rows.len(), by_n.len(), "{}", played.stdout);
    for (row, (n, scores)) in rows.iter().zip(&by_n) {
        assert_eq!(row[0], format!("N={n}"));
        assert_eq!(row[1], scores.len().to_string());
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        assert_eq!(row[2], format!("{mean:.2}"));
    }
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(
        page.contains("Mean score by N"),
        "the report has the breakdown chart"
    );
    // A parameter the game does not have is refused before anything plays.
    let refused = run(&["play", "linez", "--seeds", "1", "--by", "N"]);
    refused.assert_usage_error(&["--by N", "linez", "none"]);
    assert!(refused.stdout.is_empty());
}

/// Shards of a run merged are the whole run: the same records, the same summary.
#[test]
fn shards_merged_are_the_whole_run() {
    let dir = TempDir::new("shards");
    let common = ["--seeds", "1-7", "--effort", "1", "--time-limit", "1000"];
    let (whole_run, whole) = play_game_json(&dir, "tiles", &common);
    let mut parts = Vec::new();
    for index in 1..=3 {
        let part = dir.join(format!("part{index}.jsonl"));
        let shard = format!("{index}/3");
        let mut args = vec![
            "play",
            "tiles",
            "--shard",
            &shard,
            "--json",
            part.to_str().unwrap(),
        ];
        args.extend_from_slice(&common);
        run(&args).assert_success();
        parts.push(part.to_str().unwrap().to_owned());
    }
    let merged = dir.join("merged.jsonl");
    let mut args = vec![
        "merge",
        "--json",
        merged.to_str().unwrap(),
        "--summary-only",
    ];
    args.extend(parts.iter().map(String::as_str));
    let merge = run(&args);
    merge.assert_success();
    let untimed = |text: &str| -> Vec<Value> {
        text.lines()
            .map(|line| {
                let mut record: Value = serde_json::from_str(line).unwrap();
                record.as_object_mut().unwrap().remove("time_ms");
                record
            })
            .collect()
    };
    let merged_records = untimed(&std::fs::read_to_string(&merged).unwrap());
    let whole_records: Vec<Value> = whole
        .iter()
        .map(|case| {
            let mut record = case.clone();
            record.as_object_mut().unwrap().remove("time_ms");
            record
        })
        .collect();
    assert_eq!(merged_records, whole_records);
    // The summary row but its time column.
    let summary_row = |text: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|line| line.starts_with("tiles "))
            .unwrap();
        let mut cells: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        cells.pop();
        cells
    };
    assert_eq!(summary_row(&merge.stdout), summary_row(&whole_run.stdout));
    // Each part's records say which part they are; merge says what each part held and, for a
    // whole run, warns of nothing.
    for (index, part) in parts.iter().enumerate() {
        let text = std::fs::read_to_string(part).unwrap();
        for line in text.lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            assert_eq!(record["shard"], format!("{}/3", index + 1), "{line}");
        }
    }
    let held = merge.stdout.lines().next().unwrap().to_owned();
    assert!(held.starts_with("merged 3 parts: "), "{held}");
    for (part, cases, shard) in [(&parts[0], 3, 1), (&parts[1], 2, 2), (&parts[2], 2, 3)] {
        let said = format!("{part} {cases} cases (shard {shard}/3)");
        assert!(merge.stdout.contains(&said), "{said}:\n{}", merge.stdout);
    }
    assert!(!merge.stderr.contains("warning"), "{}", merge.stderr);
    // Parts 1 and 3 of 3 merge, with a warning that part 2 is missing.
    let partial = run(&["merge", "--summary-only", &parts[0], &parts[2]]);
    partial.assert_success();
    assert!(
        partial
            .stderr
            .contains("warning: the run was played in 3 parts")
            && partial.stderr.contains("(part 2)"),
        "{}",
        partial.stderr
    );
    assert_eq!(summary_row(&partial.stdout)[1], "5", "{}", partial.stdout);
    // A case in two parts is refused, naming it and both files.
    let twice = run(&["merge", &parts[0], &parts[0]]);
    twice.assert_usage_error(&["is in both", &parts[0]]);
    for bad in ["0/3", "4/3", "1-3"] {
        run(&["play", "tiles", "--seeds", "1", "--shard", bad]).assert_usage_error(&[bad]);
    }
}

/// Every play is kept unless `--no-save`; `marathon runs` lists the kept runs newest first, and
/// `--compare last` / `best` / a run's id find them.
#[test]
fn runs_are_kept_listed_and_compared() {
    let dir = TempDir::new("history");
    let kept = dir.join("runs");
    let marathon = |args: &[String]| -> Run {
        let output = Command::new(MARATHON)
            .args(args)
            .env("MARATHON_RUNS_DIR", &kept)
            .output()
            .unwrap();
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            elapsed: Duration::ZERO,
        }
    };
    let seeds = ["play", "linez", "--seeds", "1-3", "--summary-only"];
    let with = |extra: &[&str]| -> Vec<String> {
        seeds.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let greedy = with(&["--player", "greedy", "--label", "greedy one"]);
    marathon(&greedy).assert_success();
    let random = with(&["--player", "random", "--compare", "last"]);
    let second = marathon(&random);
    second.assert_success();
    assert!(second.stdout.contains("(greedy one)"), "{}", second.stdout);
    let unsaved = with(&["--player", "greedy", "--compare", "best", "--no-save"]);
    let third = marathon(&unsaved);
    third.assert_success();
    // The best kept run is greedy's, which this run plays again: ties everywhere.
    assert!(
        third
            .stdout
            .contains("(greedy one): 3 cases, 0 wins, 0 losses, 3 ties"),
        "{}",
        third.stdout
    );
    let listed = marathon(&["runs".to_string()]);
    listed.assert_success();
    let rows: Vec<&str> = listed.stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "--no-save kept nothing:\n{}", listed.stdout);
    assert!(
        rows[1].ends_with("greedy one"),
        "newest first:\n{}",
        listed.stdout
    );
    assert!(rows[0].contains("linez (3, "), "{}", listed.stdout);
    let id = rows[1].split_whitespace().next().unwrap();
    let by_id = with(&["--player", "greedy", "--compare", id, "--no-save"]);
    assert!(marathon(&by_id).stdout.contains("3 ties"));
    let nowhere = with(&["--compare", "no-such-run", "--no-save"]);
    marathon(&nowhere).assert_usage_error(&["no-such-run"]);
    let record = std::fs::read_to_string(kept.join(id).join("run.json")).unwrap();
    let info: Value = serde_json::from_str(&record).unwrap();
    assert_eq!(info["label"], "greedy one");
    assert_eq!(info["complete"], true);
    assert_eq!(info["games"][0]["cases"], 3);
    let cases = std::fs::read_to_string(kept.join(id).join("cases.jsonl")).unwrap();
    assert_eq!(cases.lines().count(), 3);
}

#[test]
fn zero_threads_are_refused() {
    run(&["play", "linez", "--threads", "0"]).assert_usage_error(&["--threads", "0"]);
}

#[test]
fn exec_and_player_conflict() {
    run(&["play", "linez", "--player", "random", "--exec", "true"]).assert_usage_error(&["--exec"]);
}

#[test]
fn gen_prints_one_observation() {
    for seed in [1u64, 2, 1 << 40] {
        let seed_text = seed.to_string();
        let run = run(&["gen", "linez", "--seed", &seed_text]);
        run.assert_success();
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), 10, "{}", run.stdout);
        assert!(run.stdout.ends_with('\n'));
        for row in &lines[..9] {
            assert_eq!(row.len(), 9, "{row:?}");
            assert!(row.chars().all(|c| c == '.' || ('1'..='7').contains(&c)));
        }
        let balls = lines[..9]
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c != '.')
            .count();
        assert_eq!(balls, INITIAL_BALLS, "{}", run.stdout);
        assert_eq!(lines[9].len(), 3);
        assert!(lines[9].chars().all(|c| ('1'..='7').contains(&c)));
        // The same case every time, and the one the judge plays.
        assert_eq!(
            run.stdout,
            LINEZ.generate(&CaseId::seed(seed)).expect("a case")
        );
    }
    assert_ne!(
        run(&["gen", "linez", "--seed", "1"]).stdout,
        run(&["gen", "linez", "--seed", "2"]).stdout
    );
}

#[test]
fn solve_answers_a_move_and_stops_at_end_of_input() {
    let observation = LINEZ.generate(&CaseId::seed(4)).expect("a case");
    let run = run_with_input(
        &["solve", "linez", "--player", "greedy"],
        Some(observation.as_bytes()),
    );
    run.assert_success();
    let reply = run.stdout.trim_end();
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    let state = replay(4, &[reply.to_owned()]);
    assert_eq!(state.moves, 1);
    // No input at all: the judge closed it before the first turn.
    let empty = run_with_input(&["solve", "linez"], Some(b""));
    empty.assert_success();
    assert!(empty.stdout.is_empty());
}

#[test]
fn solve_rejects_malformed_input_with_a_message() {
    let good = LINEZ.generate(&CaseId::seed(1)).expect("a case");
    let good_lines: Vec<&str> = good.lines().collect();
    let with_line = |index: usize, text: &str| {
        let mut lines = good_lines.clone();
        lines[index] = text;
        lines.join("\n") + "\n"
    };
    let cases: Vec<(String, &[&str])> = vec![
        (with_line(0, "........"), &["line 1", "9 characters", "8"]),
        (with_line(3, "....x...."), &["line 4", "'x'"]),
        (with_line(9, "89"), &["line 10"]),
        (with_line(9, "189"), &["line 10", "'8'"]),
        (good_lines[..9].join("\n") + "\n", &["ended"]),
    ];
    for (input, needles) in cases {
        let run = run_with_input(&["solve", "linez"], Some(input.as_bytes()));
        assert_ne!(run.code, Some(0), "accepted {input:?}");
        assert!(run.stderr.starts_with("marathon: "), "{}", run.stderr);
        for needle in needles {
            assert!(
                run.stderr.contains(needle),
                "{input:?}: stderr does not mention {needle:?}: {}",
                run.stderr
            );
        }
    }
}

/// A grouped case's table shows its id, and the legend under it says how such ids read; its
/// record's alphabet is text also when it is all digits.
#[test]
fn grouped_cases_are_explained_and_their_alphabet_is_text() {
    let dir = TempDir::new("grouped");
    let (run, cases) = play_game_json(
        &dir,
        "solitaire",
        &[
            "--group",
            "3",
            "--seeds",
            "1-2",
            "--effort",
            "1",
            "--time-limit",
            NO_HURRY,
        ],
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("g3:1 ")),
        "{}",
        run.stdout
    );
    let legend = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        legend.contains("case = g6:3 means seed 3 of group 6"),
        "{legend}"
    );
    assert!(legend.contains("alphabet = the piece types"), "{legend}");
    for case in &cases {
        assert_eq!(case["params"]["alphabet"], "12", "{case}");
    }
}

#[test]
fn tour_prints_a_summary_naming_every_game() {
    let run = run(&[
        "play",
        "--seeds",
        "1-2",
        "--effort",
        "1",
        "--threads",
        "2",
        "--time-limit",
        NO_HURRY,
    ]);
    run.assert_success();
    let header = run
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("game"))
        .unwrap_or_else(|| panic!("no summary header:\n{}", run.stdout));
    assert!(header.contains("failures"), "{header}");
    for game in marathon_games::names() {
        let row: Vec<&str> = run
            .stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(game))
            .unwrap_or_else(|| panic!("no {game} row:\n{}", run.stdout))
            .split_whitespace()
            .collect();
        // game, cases, mean, total, median, min, max, failures, time
        assert_eq!(row[1], "2", "{row:?}");
        assert_eq!(row[7], "0", "{row:?}");
    }
    // Under the summary, what it means: what time sums, and each game's figures.
    assert!(
        run.stdout
            .contains("\ntime = the players' time as the judge counts it, summed over"),
        "{}",
        run.stdout
    );
    for game in marathon_games::names() {
        assert!(
            run.stdout.contains(&format!("\n{game}: score = ")),
            "{game}: {}",
            run.stdout
        );
    }
    // The note tells what was actually played.
    assert!(run.stdout.contains("seeds 1-2"), "{}", run.stdout);
    // The tour prints no per-case table.
    assert!(!run.stdout.contains("verdict"), "{}", run.stdout);
}

#[test]
fn report_and_compare_against_an_earlier_run() {
    let dir = TempDir::new("report");
    let (_, first) = play_json(&dir, &["--seeds", "1-3", "--player", "greedy"]);
    let earlier = dir.join("earlier.jsonl");
    let lines: Vec<String> = first.iter().map(Value::to_string).collect();
    std::fs::write(&earlier, lines.join("\n") + "\n").unwrap();
    let report = dir.join("report.html");
    let compared = run(&[
        "play",
        "linez",
        "--seeds",
        "1-4",
        "--player",
        "greedy",
        "--compare",
        earlier.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    compared.assert_success();
    // Greedy is deterministic: the three common cases tie; seed 4 is not in the earlier run.
    assert!(
        compared
            .stdout
            .contains("3 cases, 0 wins, 0 losses, 3 ties, ratio 1.000"),
        "{}",
        compared.stdout
    );
    let page = std::fs::read_to_string(&report).expect("the report was written");
    assert!(page.contains("marathon replay linez --seed"), "{page}");
    assert!(page.contains("--player greedy"));
    assert!(page.contains("3 ties"));

    let missing = dir.join("missing.jsonl");
    let args = ["play", "linez", "--seeds", "1", "--compare"];
    let mut args = args.to_vec();
    args.push(missing.to_str().unwrap());
    run(&args).assert_usage_error(&["missing.jsonl"]);
}

#[test]
fn serve_prints_its_address_and_answers_there_and_refuses_a_taken_port() {
    use std::io::{BufRead, BufReader, Read, Write};
    /// The server, stopped however the test ends.
    struct Running(std::process::Child);
    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Running(
        Command::new(MARATHON)
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("marathon serve starts"),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address is printed");
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "{line}");
    let mut stream = std::net::TcpStream::connect(&address).expect("it listens");
    write!(
        stream,
        "GET /api/games HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"solitaire\""), "{answer}");
    // A second server on the same port cannot listen, and says so.
    let port = address.rsplit(':').next().expect("a port");
    let taken = Command::new(MARATHON)
        .args(["serve", "--port", port])
        .output()
        .expect("runs");
    assert_eq!(taken.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&taken.stderr);
    assert!(stderr.contains("cannot listen"), "{stderr}");
}

#[test]
fn the_linez_ai_plays_the_network_file_its_variable_names() {
    let dir = TempDir::new("network-variable");
    let solver = |network: Option<&Path>| match network {
        Some(path) => format!(
            "env MARATHON_LINEZ_NETWORK={} {} solve linez --effort 2",
            path_sh(path),
            marathon_sh()
        ),
        None => format!("{} solve linez --effort 2", marathon_sh()),
    };
    let scores = |network: Option<&Path>| {
        let exec = solver(network);
        let (_, cases) = play_json(&dir, &["--seeds", "1-2", "--exec", &exec]);
        cases.iter().map(score).collect::<Vec<_>>()
    };
    let builtin = dir.join("builtin.bin");
    std::fs::write(
        &builtin,
        marathon_linez::ai::ntuple::Network::builtin().to_bytes(),
    )
    .unwrap();
    let zero = dir.join("zero.bin");
    std::fs::write(
        &zero,
        marathon_linez::ai::ntuple::Network::new(2).to_bytes(),
    )
    .unwrap();
    let standard = scores(None);
    assert_eq!(
        scores(Some(&builtin)),
        standard,
        "the built-in network as a file"
    );
    assert_ne!(
        scores(Some(&zero)),
        standard,
        "a network of zeros plays other games"
    );

    // A file that is not a network: the player stops, naming the variable and the file.
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, "not a network").unwrap();
    let json = dir.join("junk.jsonl");
    let run = run(&[
        "play",
        "linez",
        "--seeds",
        "1",
        "--json",
        json.to_str().unwrap(),
        "--exec",
        &solver(Some(&junk)),
    ]);
    assert!(
        run.stderr.contains("MARATHON_LINEZ_NETWORK=") && run.stderr.contains("junk.bin"),
        "{}",
        run.stderr
    );
    let case: Value = serde_json::from_str(std::fs::read_to_string(&json).unwrap().trim()).unwrap();
    assert_eq!(case["verdict"], "crash", "{case}");
}
