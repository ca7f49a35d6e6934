//! What a judge must survive, over every game: misbehaving programs (each with the verdict it
//! must get and a check that none of its processes is left), signals, closed pipes, a full disk
//! and bad output paths. Timing bounds are loose (the machine may be busy); the timeouts here
//! come from programs that sleep for 1000 s, so a wrong judge shows as a wrong verdict or a
//! hang, never as a close call.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

pub(crate) const MARATHON: &str = env!("CARGO_BIN_EXE_marathon");

/// How long a wait or a run may take here: far above what any of them needs (milliseconds, a
/// second or two for a case), so that a busy machine cannot fail a test, and far below what a
/// wrong judge takes (the misbehaving programs sleep for 1000 s).
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// A reply that ends a game at once and validly, where the protocol has one.
pub(crate) fn final_reply(game: &str) -> Option<&'static str> {
    marathon_games::find(game).and_then(|game| game.final_reply())
}

/// What the rules score for the game's final reply at the start of the case `record` names.
fn at_once(game: &str, record: &Value) -> f64 {
    let game = marathon_games::find(game).expect("a registered game");
    let seed = record["seed"].as_u64().expect("a seed");
    let case = marathon_games::seed_case(game, seed, None).expect("a case");
    let reply = game.final_reply().expect("a final reply").to_string();
    game.replay(&case, &[reply])
        .expect("the final reply is valid")
        .score
}

/// The limit of the timeout cases: short, and far below the programs' sleeps.
pub(crate) const LIMIT: &str = "1";

/// What a misbehaving program must get: the verdict's kind, and a piece of its detail or
/// reason.
struct Behaviour {
    name: &'static str,
    /// `sh -c` text; `{m}` becomes a marker unique to the run, put in the command line of every
    /// process that must not survive (`sleep 1000.{m}`).
    command: &'static str,
    verdict: &'static str,
    says: &'static str,
}

const BEHAVIOURS: &[Behaviour] = &[
    Behaviour {
        name: "garbage",
        command: "echo 'hello judge'; sleep 1000.{m}",
        verdict: "invalid",
        says: "hello judge",
    },
    Behaviour {
        name: "empty line",
        command: "echo; sleep 1000.{m}",
        verdict: "invalid",
        says: "",
    },
    Behaviour {
        name: "huge numbers",
        command: "echo '9223372036854775807 -9223372036854775808 18446744073709551616 1e400'; \
                  sleep 1000.{m}",
        verdict: "invalid",
        says: "",
    },
    Behaviour {
        name: "exit 0 at once",
        command: "exit 0",
        verdict: "protocol",
        says: "exited before replying (exit status 0)",
    },
    Behaviour {
        name: "exit 3 at once",
        command: "exit 3",
        verdict: "crash",
        says: "exit status 3",
    },
    Behaviour {
        name: "SIGSEGV",
        command: "kill -SEGV $$",
        verdict: "crash",
        says: "SIGSEGV",
    },
    Behaviour {
        name: "SIGSEGV behind the shell",
        command: "sh -c 'kill -SEGV $$'; exit $?",
        verdict: "crash",
        says: "signal SIGSEGV",
    },
    Behaviour {
        name: "missing program",
        command: "no-such-program-marathon-trust-{m}",
        verdict: "crash",
        says: "exit status 127",
    },
    Behaviour {
        name: "sleeps",
        command: "sleep 1000.{m}",
        verdict: "timeout",
        says: "counted, over the 1 s limit",
    },
    Behaviour {
        name: "ignores SIGTERM",
        command: "trap '' TERM; sleep 1000.{m}",
        verdict: "timeout",
        says: "counted",
    },
    Behaviour {
        name: "slow drip without a newline",
        command: "while :; do printf x; sleep 0.05; done",
        verdict: "timeout",
        says: "counted",
    },
    Behaviour {
        name: "closes its input",
        command: "exec 0<&-; sleep 1000.{m}",
        verdict: "timeout",
        says: "counted",
    },
    Behaviour {
        name: "junk flood",
        command: "yes junk",
        verdict: "invalid",
        says: "junk",
    },
    Behaviour {
        name: "30 MB line",
        command: "head -c 30000000 /dev/zero | tr '\\0' x; sleep 1000.{m}",
        verdict: "protocol",
        says: "longer than",
    },
    Behaviour {
        name: "not UTF-8",
        command: "printf '\\377\\376\\n'; sleep 1000.{m}",
        verdict: "protocol",
        says: "not UTF-8",
    },
    Behaviour {
        name: "stderr flood",
        command: "head -c 5000000 /dev/zero >&2; sleep 1000.{m}",
        verdict: "timeout",
        says: "counted",
    },
    Behaviour {
        name: "background child holds the output, exit 3",
        command: "sleep 1000.{m} & exit 3",
        verdict: "crash",
        says: "exit status 3",
    },
    Behaviour {
        name: "background child holds the output, exit 0",
        command: "sleep 1000.{m} & exit 0",
        verdict: "protocol",
        says: "exited before replying",
    },
    Behaviour {
        name: "setsid escape",
        command: "setsid sleep 1000.{m} & exit 0",
        verdict: "protocol",
        says: "exited before replying",
    },
    Behaviour {
        name: "double fork out of the group",
        command: "(setsid sleep 1000.{m} &); sleep 1000.{m}",
        verdict: "timeout",
        says: "counted",
    },
    Behaviour {
        name: "orphan with a cleared environment",
        command: "env -i setsid sh -c 'sleep 1000.{m}' & sleep 0.2; exit 0",
        verdict: "protocol",
        says: "exited before replying",
    },
    Behaviour {
        name: "many children",
        command: "i=0; while [ $i -lt 100 ]; do sleep 1000.{m} & i=$((i+1)); done; \
                  sleep 1000.{m}",
        verdict: "timeout",
        says: "counted",
    },
];

pub(crate) fn marker() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}{:03}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A fresh directory for one test's files, this test process's own.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    marathon_testing::scratch::fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "trust", name)
}

/// Live processes (zombies are dead) whose command line contains `needle`.
pub(crate) fn live_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let path = entry.path();
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        let zombie = stat
            .rfind(')')
            .and_then(|close| stat[close + 1..].split_whitespace().next())
            .is_none_or(|state| state == "Z" || state == "X");
        if cmdline.contains(needle) && !zombie {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// Asserts that no live process has `needle` in its command line, giving the dying a moment.
pub(crate) fn assert_none_left(needle: &str, what: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = live_with(needle);
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: still running: {left:?}");
        thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) struct Finished {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

pub(crate) fn finish(mut child: Child) -> Finished {
    // Both pipes at once, so that neither fills while the other is read.
    let stderr = child.stderr.take().map(|mut err| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = err.read_to_end(&mut bytes);
            // Only the end matters (the stderr flood is megabytes of NULs).
            let tail = bytes.len().saturating_sub(10_000);
            String::from_utf8_lossy(&bytes[tail..]).into_owned()
        })
    });
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut stdout).expect("stdout is UTF-8");
    }
    let stderr = stderr
        .map(|reader| reader.join().expect("stderr is read"))
        .unwrap_or_default();
    let status = child.wait().expect("marathon runs");
    assert!(!stderr.contains("panicked"), "marathon panicked:\n{stderr}");
    Finished {
        code: status.code(),
        stdout,
        stderr,
    }
}

/// Where the runs `play` keeps go in these tests: a temporary folder, not the source tree.
fn runs_dir() -> std::path::PathBuf {
    marathon_testing::scratch::process_dir(&std::env::temp_dir(), "marathon-trust-runs")
}

pub(crate) fn marathon(args: &[&str]) -> Command {
    marathon_at(MARATHON, args)
}

/// [`marathon`] with the binary at `binary`.
pub(crate) fn marathon_at(binary: &str, args: &[&str]) -> Command {
    let mut command = Command::new(binary);
    command
        .args(args)
        .env("MARATHON_RUNS_DIR", runs_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

pub(crate) fn read_json(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Plays seeds 1-2 of `game` with each behaviour (in the sandbox with `sandbox`) and checks its
/// verdicts and that nothing it started is left.
fn hostile_programs_get_their_verdicts(
    game: &str,
    final_reply: Option<&'static str>,
    sandbox: bool,
) {
    let dir = temp_dir(&format!("{game}{}", if sandbox { "-sandbox" } else { "" }));
    let mut rows = Vec::new();
    let mut wrong = Vec::new();
    let final_behaviour = final_reply.map(|reply| Behaviour {
        name: "a valid final reply, then exit, racing the judge's writes",
        command: "",
        verdict: "ok",
        says: reply,
    });
    for behaviour in BEHAVIOURS.iter().chain(final_behaviour.as_ref()) {
        let mark = marker();
        let command = match final_reply {
            Some(reply) if behaviour.command.is_empty() => format!("echo '{reply}'"),
            _ => behaviour.command.replace("{m}", &mark),
        };
        let json = dir.join(format!("{mark}.jsonl"));
        let started = Instant::now();
        let mut args = vec![
            "play",
            game,
            "--seeds",
            "1-2",
            "--threads",
            "2",
            "--time-limit",
            LIMIT,
            // The wall clock: the CPU clock's own verdicts are checked in `limits`, and its
            // wall cap (3 s for 1 s) would only slow the sleepers down.
            "--clock",
            "wall",
            "--summary-only",
            "--json",
            json.to_str().expect("UTF-8 path"),
            "--exec",
            &command,
        ];
        if behaviour.name != "stderr flood" {
            args.push("--quiet");
        }
        if sandbox {
            args.push("--sandbox");
        }
        let mut command = marathon(&args);
        if sandbox {
            // The sandbox binds marathon's working directory: one nobody can enter (see
            // `sandbox::open_dir`).
            command = marathon_at(super::sandbox::marathon_bin(), &args);
            command.current_dir(super::sandbox::open_dir(&format!("hostile-{game}")));
        }
        let run = finish(command.spawn().expect("marathon starts"));
        let elapsed = started.elapsed();
        assert_eq!(
            run.code,
            Some(0),
            "{game} / {}: {}{}",
            behaviour.name,
            run.stdout,
            run.stderr
        );
        let cases = read_json(&json);
        assert_eq!(cases.len(), 2, "{game} / {}: {cases:?}", behaviour.name);
        for case in &cases {
            let verdict = case["verdict"].as_str().unwrap_or("?");
            let text = [&case["detail"], &case["reason"], &case["line"]]
                .iter()
                .filter_map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(" | ");
            rows.push(format!(
                "{game}{} | {} | {verdict} | {text} | {} ms",
                if sandbox { " (sandbox)" } else { "" },
                behaviour.name,
                case["time_ms"]
            ));
            if verdict != behaviour.verdict
                || (!text.contains(behaviour.says) && verdict != "ok")
                || (verdict == "ok" && case["score"].as_f64() != Some(at_once(game, case)))
            {
                wrong.push(format!(
                    "{}: expected {} ({:?}), got {case}",
                    behaviour.name, behaviour.verdict, behaviour.says
                ));
            }
            // A verdict quotes at most a few hundred bytes of what the program wrote.
            assert!(case.to_string().len() < 2000, "{game}: {case}");
        }
        // Two cases on two threads, each at most the 1 s limit, whatever the program holds.
        assert!(
            elapsed < PATIENCE,
            "{game} / {}: took {elapsed:?}",
            behaviour.name
        );
        assert_none_left(&format!("1000.{mark}"), behaviour.name);
    }
    // The table the closing note shows: `cargo test -p marathon --test it trust -- --nocapture`.
    println!("{}", rows.join("\n"));
    assert!(wrong.is_empty(), "{game}:\n{}", wrong.join("\n"));
}

#[test]
fn hostile_programs_get_their_verdicts_in_every_game() {
    // One thread per game: the timeouts of one game overlap with the others'.
    let games: Vec<&'static str> = marathon_games::names();
    thread::scope(|scope| {
        for game in games {
            scope
                .spawn(move || hostile_programs_get_their_verdicts(game, final_reply(game), false));
        }
    });
}

/// The same programs in the sandbox get the same verdicts, and leave nothing either.
#[test]
fn hostile_programs_get_their_verdicts_in_a_sandbox_in_every_game() {
    if let Some(why) = super::sandbox::unavailable() {
        eprintln!("skipped: the sandbox cannot run here: {why}");
        return;
    }
    let games: Vec<&'static str> = marathon_games::names();
    thread::scope(|scope| {
        for game in games {
            scope.spawn(move || hostile_programs_get_their_verdicts(game, final_reply(game), true));
        }
    });
}

/// The variable every player of marathon process `pid` carries (see `process_tree`).
fn player_tag_of(pid: u32) -> String {
    format!("MARATHON_PLAYER_{pid}_")
}

/// Live processes whose environment holds `needle`.
fn live_with_environment(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environ
            .windows(needle.len())
            .any(|window| window == needle.as_bytes())
        {
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            if !stat.contains(") Z") {
                found.push(pid);
            }
        }
    }
    found
}

fn wait_for_lines(path: &Path, lines: usize) {
    let deadline = Instant::now() + PATIENCE;
    while read_json(path).len() < lines {
        assert!(Instant::now() < deadline, "no {lines} cases in {path:?}");
        thread::sleep(Duration::from_millis(20));
    }
}

/// Ctrl-C (or SIGTERM, or SIGHUP: the terminal closed, issue 40's defect 2) during a run: no
/// new case, the running players killed, what finished on disk (JSON lines, best scores,
/// report) and in a summary marked as interrupted; exit 130 / 143 / 129.
#[test]
fn an_interrupted_run_keeps_what_finished_and_leaves_no_player() {
    for (signal, code) in [
        (Signal::SIGINT, 130),
        (Signal::SIGTERM, 143),
        (Signal::SIGHUP, 129),
    ] {
        let dir = temp_dir(&format!("interrupt-{signal}"));
        let (json, best, report) = (
            dir.join("run.jsonl"),
            dir.join("best.txt"),
            dir.join("report.html"),
        );
        // A program: the greedy player, through `marathon solve`, on many short cases.
        let program = format!("'{MARATHON}' solve linez --player greedy");
        let child = marathon(&[
            "play",
            "linez",
            "--seeds",
            "1-100000",
            "--threads",
            "2",
            "--json",
            json.to_str().unwrap(),
            "--best",
            best.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
            "--exec",
            &program,
        ])
        .spawn()
        .expect("marathon starts");
        let pid = child.id();
        wait_for_lines(&json, 3);
        kill(Pid::from_raw(pid as i32), signal).expect("the signal is sent");
        let started = Instant::now();
        let run = finish(child);
        assert!(started.elapsed() < PATIENCE, "{:?}", started.elapsed());
        assert_eq!(run.code, Some(code), "{}", run.stdout);
        let cases = read_json(&json);
        assert!(cases.len() >= 3 && cases.len() < 100_000, "{}", cases.len());
        assert!(cases.iter().all(|c| c["verdict"] == "ok"), "{cases:?}");
        let summary = format!(
            "interrupted by {}: {} of 100000 cases finished",
            signal.as_str(),
            cases.len()
        );
        assert!(run.stdout.contains(&summary), "{}", run.stdout);
        let row = run
            .stdout
            .lines()
            .find(|l| l.starts_with("linez"))
            .expect("a summary row");
        assert_eq!(
            row.split_whitespace().nth(1),
            Some(cases.len().to_string().as_str()),
            "{row}"
        );
        let best_lines = std::fs::read_to_string(&best).expect("best scores written");
        assert_eq!(best_lines.lines().count(), cases.len() + 1, "{best_lines}");
        assert!(std::fs::metadata(&report).expect("a report").len() > 1000);
        assert!(
            live_with_environment(&player_tag_of(pid)).is_empty(),
            "players of {pid} left"
        );
    }
}

/// A second Ctrl-C does not wait for the running cases: it kills the players and exits.
#[test]
fn a_second_interrupt_exits_at_once_killing_the_players() {
    let dir = temp_dir("interrupt-twice");
    let json = dir.join("run.jsonl");
    let mark = marker();
    let program = format!("trap '' TERM INT; sleep 1000.{mark}");
    let child = marathon(&[
        "play",
        "linez",
        "--seeds",
        "1-4",
        "--time-limit",
        "500",
        "--json",
        json.to_str().unwrap(),
        "--exec",
        &program,
    ])
    .spawn()
    .expect("marathon starts");
    let pid = Pid::from_raw(child.id() as i32);
    let deadline = Instant::now() + PATIENCE;
    while live_with(&format!("1000.{mark}")).len() < 2 {
        assert!(Instant::now() < deadline, "the players never started");
        thread::sleep(Duration::from_millis(20));
    }
    kill(pid, Signal::SIGINT).unwrap();
    kill(pid, Signal::SIGINT).unwrap();
    let started = Instant::now();
    let run = finish(child);
    assert!(started.elapsed() < PATIENCE);
    assert_eq!(run.code, Some(130));
    assert_none_left(&format!("1000.{mark}"), "after a second Ctrl-C");
    assert!(read_json(&json).is_empty());
}

/// `marathon ... | head -1`: printing stops quietly, the run goes on and its files are written.
#[test]
fn a_closed_stdout_loses_nothing() {
    let dir = temp_dir("closed-stdout");
    let json = dir.join("run.jsonl");
    let mut child = marathon(&[
        "play",
        "linez",
        "--seeds",
        "1-20",
        "--player",
        "greedy",
        "--json",
        json.to_str().unwrap(),
    ])
    .spawn()
    .expect("marathon starts");
    // Close the read end at once, as `head` does once it has its line.
    drop(child.stdout.take());
    let run = finish(child);
    assert_eq!(run.code, Some(0));
    assert_eq!(read_json(&json).len(), 20);

    let mut gen_case = marathon(&["gen", "polyomino", "--seed", "18"])
        .spawn()
        .expect("marathon starts");
    let mut first = [0u8; 1];
    gen_case
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(gen_case.stdout.take());
    assert_eq!(finish(gen_case).code, Some(0));
}

/// A full disk is an error with a message and exit 1, not a panic.
#[test]
fn a_full_disk_is_an_error() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let output = Command::new(MARATHON)
        .args(["gen", "polyomino", "--seed", "18"])
        .stdout(full)
        .output()
        .expect("marathon runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let dir = temp_dir("full-disk");
    let output = Command::new(MARATHON)
        .env("MARATHON_RUNS_DIR", runs_dir())
        .args(["play", "linez", "--seeds", "1-3", "--player", "random"])
        .args(["--best", dir.join("best.txt").to_str().unwrap()])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .expect("marathon runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The files are written all the same.
    let best = std::fs::read_to_string(dir.join("best.txt")).unwrap();
    assert_eq!(best.lines().count(), 4, "{best}");
}

/// A path that cannot be written is refused before the first case, not after the last.
#[test]
fn bad_output_paths_are_refused_before_playing() {
    for flag in ["--json", "--best", "--report"] {
        let started = Instant::now();
        let output = Command::new(MARATHON)
            .env("MARATHON_RUNS_DIR", runs_dir())
            .args([
                "play",
                "linez",
                "--seeds",
                "1-20",
                flag,
                "/nonexistent/dir/file",
            ])
            .output()
            .expect("marathon runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(flag), "{stderr}");
        assert!(stderr.contains("/nonexistent/dir/file"), "{stderr}");
        // Twenty cases at the contest's 20 s would take minutes.
        assert!(started.elapsed() < PATIENCE, "{flag}");
    }
}

/// Issue 40, defect 1: a player's child killed with it while its shell lives was reparented to
/// marathon (the subreaper) and never reaped: its zombie held a process slot for the whole run.
/// Each player here counts, before it breaks the protocol, the zombies whose parent is marathon
/// (its own parent): with one case at a time, every earlier case's children must be reaped.
#[test]
fn killed_players_leave_no_zombie_behind() {
    let dir = temp_dir("zombies");
    let counts = dir.join("zombies.txt");
    let mark = marker();
    let program = format!(
        "sleep 1000.{mark} & read l; \
         awk -v p=$PPID '$3 == \"Z\" && $4 == p' /proc/[0-9]*/stat 2>/dev/null | wc -l >> '{}'; \
         echo garbage; sleep 1000.{mark}",
        counts.display()
    );
    let run = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1-6",
            "--threads",
            "1",
            "--quiet",
            "--no-save",
            "--exec",
            &program,
        ])
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let counts = std::fs::read_to_string(&counts).expect("the players counted");
    let counts: Vec<u32> = counts
        .lines()
        .map(|line| line.trim().parse().expect("a count"))
        .collect();
    assert_eq!(
        counts, [0; 6],
        "zombies of marathon seen by each case's player"
    );
    assert_none_left(&format!("1000.{mark}"), "zombie test");
}

/// Issue 40, defect 3: an output given as a symbolic link is written through it (the link
/// stays, its target is replaced), and one that is not a regular file (a FIFO here, a device
/// such as /dev/full or /dev/null alike) is written to, not replaced by a regular file.
#[test]
fn outputs_are_written_through_links_and_into_fifos() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, symlink};
    let dir = temp_dir("through-links");
    std::fs::create_dir(dir.join("kept")).unwrap();
    let (best, report, page) = (
        dir.join("kept/best.txt"),
        dir.join("kept/report.html"),
        dir.join("kept/replay.html"),
    );
    for (target, link) in [(&best, "best"), (&report, "report"), (&page, "page")] {
        std::fs::write(target, "# old\n").unwrap();
        symlink(target.strip_prefix(&dir).unwrap(), dir.join(link)).unwrap();
    }
    let run = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1-3",
            "--player",
            "greedy",
            "--no-save",
            "--best",
        ])
        .args([dir.join("best"), "--report".into(), dir.join("report")])
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let replayed = finish(
        marathon(&["replay", "linez", "--seed", "2", "--player", "greedy", "-o"])
            .arg(dir.join("page"))
            .spawn()
            .expect("marathon starts"),
    );
    assert_eq!(replayed.code, Some(0), "{}", replayed.stderr);
    for (target, link) in [(&best, "best"), (&report, "report"), (&page, "page")] {
        let meta = std::fs::symlink_metadata(dir.join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} was replaced");
        let written = std::fs::read_to_string(target).unwrap();
        assert!(written.len() > 50, "{link}'s target not written: {written}");
    }
    assert_eq!(std::fs::read_to_string(&best).unwrap().lines().count(), 4);
    // No temporary left beside the link or the target.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
    assert_eq!(std::fs::read_dir(dir.join("kept")).unwrap().count(), 3);

    let fifo = dir.join("report.fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        thread::spawn(move || std::fs::read_to_string(fifo).unwrap_or_default())
    };
    let run = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1",
            "--player",
            "greedy",
            "--no-save",
        ])
        .arg("--report")
        .arg(&fifo)
        .spawn()
        .expect("marathon starts"),
    );
    // Should marathon never have opened the FIFO, the reader still waits in its open: a writer
    // opened here lets it end (empty). Opened without waiting, because when marathon did write,
    // the reader may be gone already, and a blocking open would wait for a reader for ever
    // (seen beside a busy loop: the reader had not yet ended when asked, then ended).
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(&fifo);
    let read = reader.join().expect("the reader ends");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        read.contains("<html"),
        "the report went elsewhere: {read:?}"
    );
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
}

/// Issue 40, defect 5: two of --json, --best and --report naming one file (here also through a
/// link) would each replace the other's content: refused before anything is played, the file
/// untouched, both flags named.
#[test]
fn one_file_for_two_outputs_is_refused() {
    let dir = temp_dir("one-file-two-outputs");
    let file = dir.join("x.txt");
    std::fs::write(&file, "# precious\n").unwrap();
    std::os::unix::fs::symlink(&file, dir.join("alias.txt")).unwrap();
    let (file, alias) = (file.to_str().unwrap(), dir.join("alias.txt"));
    let alias = alias.to_str().unwrap();
    for (first, second, other) in [
        ("--json", "--best", file),
        ("--json", "--report", file),
        ("--best", "--report", file),
        ("--json", "--best", alias),
    ] {
        let run = finish(
            marathon(&[
                "play",
                "linez",
                "--seeds",
                "1-3",
                "--player",
                "greedy",
                "--no-save",
                first,
                file,
                second,
                other,
            ])
            .spawn()
            .expect("marathon starts"),
        );
        assert_eq!(run.code, Some(2), "{first} {second}: {}", run.stderr);
        assert!(
            run.stderr.contains(first) && run.stderr.contains(second),
            "{}",
            run.stderr
        );
        assert_eq!(std::fs::read_to_string(file).unwrap(), "# precious\n");
    }
    let merged = finish(
        marathon(&["merge", file, "--json", file, "--report", alias])
            .spawn()
            .expect("marathon starts"),
    );
    assert_eq!(merged.code, Some(2), "{}", merged.stderr);
    assert!(merged.stderr.contains("--report"), "{}", merged.stderr);
    assert_eq!(std::fs::read_to_string(file).unwrap(), "# precious\n");
}

/// Issue 40, defect 6: a run refused before its first case (here: its runs cannot be kept)
/// leaves an existing --json file as it was.
#[test]
fn a_refused_run_leaves_its_json_file_alone() {
    let dir = temp_dir("refused-json");
    let json = dir.join("p.jsonl");
    std::fs::write(&json, "{\"earlier\":1}\n").unwrap();
    // A folder under a regular file cannot be made, whoever asks (root too).
    let blocker = dir.join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let run = finish(
        marathon(&[
            "play", "linez", "--seeds", "1", "--player", "greedy", "--json",
        ])
        .arg(&json)
        .env("MARATHON_RUNS_DIR", blocker.join("runs"))
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("cannot keep the run"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "{\"earlier\":1}\n");
}

/// Runs marathon with `args` under an address-space limit of 2 GB (`ulimit -v`): a safety net,
/// so that a regression that reads an endless stream whole fails the test (with an allocation
/// error) instead of taking the machine's memory.
fn marathon_in_2_gb(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 2000000 && exec \"$0\" \"$@\"", MARATHON])
        .args(args)
        .env("MARATHON_RUNS_DIR", runs_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Issue 40, defect 4: input files are read within bounds (docs/runs.md): an endless stream
/// named as --best, --seeds @FILE, --compare or a part to merge is refused at once, exit 2,
/// naming the file, instead of growing marathon until the machine runs out of memory.
#[test]
fn endless_input_streams_are_refused() {
    let mut seen = Vec::new();
    for device in ["/dev/zero", "/dev/full"] {
        if !Path::new(device).exists() {
            eprintln!("no {device} here: skipped");
            continue;
        }
        let seeds = format!("@{device}");
        for args in [
            vec!["play", "linez", "--seeds", "1", "--best", device],
            vec!["play", "linez", "--seeds", &seeds],
            vec!["play", "linez", "--seeds", "1", "--compare", device],
            vec!["merge", device],
        ] {
            let mut args = args;
            if args[0] == "play" {
                args.extend(["--player", "greedy", "--no-save"]);
            }
            let started = Instant::now();
            let run = finish(marathon_in_2_gb(&args).spawn().expect("marathon starts"));
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("{device}:1: a line longer than")),
                "{args:?}: {}",
                run.stderr
            );
            assert!(started.elapsed() < PATIENCE);
            seen.push(args.join(" "));
        }
    }
    println!("refused: {seen:?}");
}

/// Issue 40, defect 10: a --json file whose last line was cut off (a full disk or a killed
/// run mid-write) is read up to its last complete line by `merge` and `--compare`, which say
/// so on stderr, instead of being refused whole.
#[test]
fn a_cut_off_json_file_is_read_up_to_its_last_line() {
    let dir = temp_dir("torn-json");
    let json = dir.join("run.jsonl");
    let run = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1-3",
            "--player",
            "greedy",
            "--no-save",
        ])
        .arg("--json")
        .arg(&json)
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let whole = std::fs::read_to_string(&json).unwrap();
    let extra = whole
        .lines()
        .next()
        .unwrap()
        .replace("\"seed\":1,", "\"seed\":4,");
    std::fs::write(&json, format!("{whole}{}", &extra[..extra.len() / 2])).unwrap();
    let merged = finish(
        marathon(&["merge", "--summary-only"])
            .arg(&json)
            .spawn()
            .expect("marathon starts"),
    );
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    assert!(
        merged
            .stderr
            .contains("run.jsonl:4: the last line is cut off")
            && merged.stderr.contains("read the 3 records before it"),
        "{}",
        merged.stderr
    );
    let row = merged.stdout.lines().find(|l| l.starts_with("linez"));
    assert_eq!(row.and_then(|r| r.split_whitespace().nth(1)), Some("3"));
    let compared = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1-3",
            "--player",
            "greedy",
            "--no-save",
        ])
        .arg("--compare")
        .arg(&json)
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(compared.code, Some(0), "{}", compared.stderr);
    assert!(compared.stderr.contains("cut off"), "{}", compared.stderr);
    assert!(compared.stdout.contains("3 cases"), "{}", compared.stdout);
}

/// Issue 40, defect 7: two runs in parallel on one --best file (shards, two terminals) keep
/// both runs' bests. Each run's players wait for a signal file until both runs have started
/// playing, so both have read the (empty) file before either writes it.
#[test]
fn parallel_runs_on_one_best_file_keep_every_update() {
    let dir = temp_dir("parallel-best");
    let (best, go) = (dir.join("best.txt"), dir.join("go"));
    let runs: Vec<Child> = ["1-10", "11-20"]
        .iter()
        .enumerate()
        .map(|(part, seeds)| {
            let program = format!(
                "touch '{dir}/started-{part}'; while [ ! -e '{go}' ]; do sleep 0.01; done; \
                 exec '{MARATHON}' solve linez --player greedy",
                dir = dir.display(),
                go = go.display()
            );
            marathon(&[
                "play",
                "linez",
                "--seeds",
                seeds,
                "--threads",
                "2",
                "--time-limit",
                "1000",
                "--no-save",
                "--quiet",
                "--exec",
                &program,
            ])
            .arg("--best")
            .arg(&best)
            .spawn()
            .expect("marathon starts")
        })
        .collect();
    let deadline = Instant::now() + PATIENCE;
    while !(dir.join("started-0").exists() && dir.join("started-1").exists()) {
        assert!(Instant::now() < deadline, "the runs never started");
        thread::sleep(Duration::from_millis(10));
    }
    std::fs::write(&go, "").unwrap();
    for run in runs {
        let run = finish(run);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let text = std::fs::read_to_string(&best).unwrap();
    let mut seeds: Vec<u64> = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    seeds.sort_unstable();
    assert_eq!(seeds, (1..=20).collect::<Vec<u64>>(), "{text}");
}

/// Issue 40, defect 10: --threads is bounded (1 to 1024), and threads the machine cannot start
/// (here: an address-space limit of 300 MB against 1024 threads' stacks) are an error naming
/// the flag, exit 2, before anything is written, not a panic.
#[test]
fn threads_beyond_the_machine_are_an_error_not_a_panic() {
    let dir = temp_dir("threads");
    let json = dir.join("run.jsonl");
    std::fs::write(&json, "{\"earlier\":1}\n").unwrap();
    let json = json.to_str().unwrap();
    let too_many = finish(
        marathon(&[
            "play",
            "linez",
            "--seeds",
            "1",
            "--player",
            "greedy",
            "--threads",
            "5000",
        ])
        .spawn()
        .expect("marathon starts"),
    );
    assert_eq!(too_many.code, Some(2), "{}", too_many.stderr);
    assert!(too_many.stderr.contains("--threads"), "{}", too_many.stderr);
    let mut limited = Command::new("sh");
    limited
        .args(["-c", "ulimit -v 300000 && exec \"$0\" \"$@\"", MARATHON])
        .args([
            "play",
            "linez",
            "--seeds",
            "1",
            "--player",
            "greedy",
            "--no-save",
        ])
        .args(["--threads", "1024", "--json", json])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let run = finish(limited.spawn().expect("marathon starts"));
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--threads: cannot start 1024 worker threads"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(json).unwrap(), "{\"earlier\":1}\n");
}
