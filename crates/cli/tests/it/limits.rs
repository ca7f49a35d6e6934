//! The contests' other limits, over every game: memory (the player's whole process tree, a
//! wrapper's child included) and the CPU clock (a sleeping program is not charged until the wall
//! cap, a busy one is, and a busy machine beside it changes nothing). Each scenario checks its
//! verdict, the peak memory the case reports, and that nothing it started is left. No bound
//! here is close: the memory hogs hold twice the limit or half of it, the sleeps and busy loops
//! are far past or far inside their limits.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;

use serde_json::Value;

use crate::trust::{MARATHON, assert_none_left, finish, marathon, marker, read_json, temp_dir};

/// A Python line that holds `mib` MiB of touched memory (bytes built by repetition are
/// written, so they are resident), then runs `then`.
fn hold(mib: u64, then: &str) -> String {
    format!("b = b'x' * ({mib} << 20); {then}")
}

/// `marathon solve GAME` at a small fixed effort: a legal player that needs little time.
fn solver(game: &str) -> String {
    format!("{MARATHON} solve {game} --effort 1")
}

/// Plays seed 1 of `game` with `command` (where `{m}` becomes a marker every process that must
/// not survive carries) and `flags`; returns the case's record.
fn judge(game: &str, command: &str, flags: &[&str]) -> Value {
    let mark = marker();
    let command = command.replace("{m}", &mark);
    let json = temp_dir(&format!("limits-{game}-{mark}")).join("cases.jsonl");
    let mut args = vec![
        "play",
        game,
        "--seeds",
        "1",
        "--quiet",
        "--summary-only",
        "--json",
        json.to_str().expect("UTF-8 path"),
        "--exec",
        &command,
    ];
    args.extend_from_slice(flags);
    let run = finish(marathon(&args).spawn().expect("marathon starts"));
    assert_eq!(
        run.code,
        Some(0),
        "{game}: {command}: {}{}",
        run.stdout,
        run.stderr
    );
    let mut cases = read_json(Path::new(&json));
    assert_eq!(cases.len(), 1, "{game}: {command}: {cases:?}");
    assert_none_left(&mark, &command);
    cases.remove(0)
}

fn verdict(case: &Value) -> (&str, &str) {
    (
        case["verdict"].as_str().unwrap_or("?"),
        case["detail"].as_str().unwrap_or(""),
    )
}

fn peak_mib(case: &Value) -> u64 {
    case["max_rss_kib"]
        .as_u64()
        .expect("a program's case reports its peak")
        / 1024
}

fn memory_scenarios(game: &str) -> Vec<String> {
    let mut rows = Vec::new();
    let python = |code: &str| format!("python3 -c \"{code}\" # {{m}}");
    let sleep = "import time; time.sleep(1000)";
    // Plays through a child while the memory stays held (an exec would drop it at once).
    let play = format!(
        "import subprocess; subprocess.run(['sh', '-c', '{}'])",
        solver(game)
    );

    // Twice the limit, held by the program itself: stopped with the verdict `memory`.
    let over = judge(game, &python(&hold(200, sleep)), &["--memory-limit", "100"]);
    let (kind, detail) = verdict(&over);
    assert_eq!(kind, "memory", "{game}: {over}");
    assert!(
        detail.contains("over the 100 MiB limit"),
        "{game}: {detail}"
    );
    assert!((100..400).contains(&peak_mib(&over)), "{game}: {over}");
    assert_eq!(over["score"].as_f64(), Some(0.0), "{game}: {over}");
    rows.push(format!(
        "{game} | 200 MiB, limit 100 | {kind} | {} MiB",
        peak_mib(&over)
    ));

    // Half the limit, then a legal game: ok, and the peak is what the program held.
    let under = judge(game, &python(&hold(50, &play)), &["--memory-limit", "100"]);
    assert_eq!(verdict(&under).0, "ok", "{game}: {under}");
    assert!((50..100).contains(&peak_mib(&under)), "{game}: {under}");
    rows.push(format!(
        "{game} | 50 MiB, limit 100 | ok | {} MiB",
        peak_mib(&under)
    ));

    // No limit: the same hog plays on, its peak still measured.
    let free = judge(
        game,
        &python(&hold(200, &play)),
        &["--memory-limit", "none"],
    );
    assert_eq!(verdict(&free).0, "ok", "{game}: {free}");
    assert!(peak_mib(&free) >= 200, "{game}: {free}");
    rows.push(format!(
        "{game} | 200 MiB, no limit | ok | {} MiB",
        peak_mib(&free)
    ));

    // A Python wrapper whose child holds the memory: the tree is counted, not the wrapper.
    let child = format!(
        "import subprocess; subprocess.run(['python3', '-c', \\\"{}\\\"])",
        hold(200, sleep)
    );
    let wrapped = judge(game, &python(&child), &["--memory-limit", "100"]);
    assert_eq!(verdict(&wrapped).0, "memory", "{game}: {wrapped}");
    rows.push(format!(
        "{game} | wrapper's child 200 MiB, limit 100 | memory | {} MiB",
        peak_mib(&wrapped)
    ));
    rows
}

/// Runs `scenarios` for every game at once, one thread a game, and prints the rows they give:
/// `cargo test -p marathon --test it limits -- --nocapture` shows the matrix.
fn in_every_game(scenarios: fn(&str) -> Vec<String>) {
    let rows: Vec<String> = thread::scope(|scope| {
        let runs: Vec<_> = marathon_games::names()
            .into_iter()
            .map(|game| scope.spawn(move || scenarios(game)))
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().expect("no scenario fails"))
            .collect()
    });
    println!("{}", rows.join("\n"));
}

#[test]
fn memory_limits_hold_for_the_whole_tree_in_every_game() {
    in_every_game(memory_scenarios);
}

/// The Python interpreter itself, not a wrapper that starts it (pyenv's shim runs programs of
/// its own first).
fn real_python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    String::from_utf8(out.stdout)
        .expect("a UTF-8 path")
        .trim()
        .to_owned()
}

/// A vfork's child shares its parent's address space until it runs its program, and reports
/// all of its parent's pages as its own: counted once, not twice, however long it waits. The
/// wait is made certain with strace, which holds the child's `execve` for 2 s (a busy machine
/// makes shorter waits of its own). Needs strace: without it the check is skipped with a note,
/// unless `MARATHON_REQUIRE_STRACE` is set (CI sets it after installing Debian's `strace`).
#[test]
fn a_vfork_child_waiting_to_run_its_program_is_counted_once() {
    if Command::new("strace").arg("-V").output().is_err() {
        assert!(
            std::env::var_os("MARATHON_REQUIRE_STRACE").is_none(),
            "MARATHON_REQUIRE_STRACE is set but strace does not run"
        );
        eprintln!("NOTE: no strace on the PATH: the vfork check was skipped");
        return;
    }
    // Python's subprocess starts its child with vfork; strace's second execve is the child's
    // (its first starts Python).
    let play = format!(
        "import subprocess; subprocess.run(['sh', '-c', '{}'])",
        solver("linez")
    );
    let command = format!(
        "strace -f -qq -o /dev/null -e trace=execve -e inject=execve:delay_enter=2000000:when=2 \
         {} -c \"{}\" # {{m}}",
        real_python(),
        hold(60, &play)
    );
    let case = judge("linez", &command, &["--memory-limit", "100"]);
    // Twice what the program holds would be over the limit.
    assert_eq!(verdict(&case).0, "ok", "{case}");
    assert!((60..100).contains(&peak_mib(&case)), "{case}");
}

/// A fork's child that has not run a program, but allocates on its own: its memory is its
/// own and counts (the vfork rule above must not spare it).
#[test]
fn a_fork_child_that_allocates_without_running_a_program_counts() {
    let code = format!(
        "import os, time\nif os.fork() == 0:\n    {}\nelse:\n    os.wait()",
        hold(200, "time.sleep(1000)")
    );
    let command = format!("python3 -c \"{code}\" # {{m}}");
    let case = judge("linez", &command, &["--memory-limit", "100"]);
    let (kind, detail) = verdict(&case);
    assert_eq!(kind, "memory", "{case}");
    assert!(detail.contains("over the 100 MiB limit"), "{detail}");
}

/// Under the CPU clock, waiting is free up to the wall cap, spinning is not.
fn clock_scenarios(game: &str) -> Vec<String> {
    let mut rows = Vec::new();
    // Sleeps 11 s, past the 10 s limit, then plays: a timeout on the wall clock, ok on the CPU
    // clock (its cap for 10 s is 21 s of wall time: 10 s left for a game's turns, whose wall
    // time a busy machine stretches).
    let late = format!(": {{m}}; sleep 11; exec {}", solver(game));
    let on_wall = judge(game, &late, &["--time-limit", "10", "--clock", "wall"]);
    assert_eq!(verdict(&on_wall).0, "timeout", "{game}: {on_wall}");
    assert!(
        verdict(&on_wall).1.contains("wall clock"),
        "{game}: {on_wall}"
    );
    let on_cpu = judge(game, &late, &["--time-limit", "10", "--clock", "cpu"]);
    assert_eq!(verdict(&on_cpu).0, "ok", "{game}: {on_cpu}");
    rows.push(format!(
        "{game} | sleeps 11 s, 10 s limit | wall: timeout, cpu: ok"
    ));

    // Sleeps for ever: the wall cap ends it (1 s limit: 3 s of wall time).
    let asleep = judge(
        game,
        "sleep 1000.{m}",
        &["--time-limit", "1", "--clock", "cpu"],
    );
    let (kind, detail) = verdict(&asleep);
    assert_eq!(kind, "timeout", "{game}: {asleep}");
    assert!(detail.contains("wall time passed"), "{game}: {detail}");
    rows.push(format!(
        "{game} | sleeps for ever, cpu | timeout (wall cap)"
    ));

    // Spins for ever: its CPU time ends it.
    let spin = ": {m}; while :; do :; done";
    let busy = judge(game, spin, &["--time-limit", "1", "--clock", "cpu"]);
    let (kind, detail) = verdict(&busy);
    assert_eq!(kind, "timeout", "{game}: {busy}");
    assert!(detail.contains("CPU clock"), "{game}: {detail}");
    rows.push(format!("{game} | spins for ever, cpu | timeout (CPU time)"));
    rows
}

#[test]
fn the_cpu_clock_charges_work_not_waiting_in_every_game() {
    in_every_game(clock_scenarios);
}

/// Processes that spin until killed, one per core: a busy machine.
struct BusyLoops(Vec<Child>);

impl BusyLoops {
    fn start() -> Self {
        let cores = thread::available_parallelism().map_or(2, usize::from);
        BusyLoops(
            (0..cores)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .spawn()
                        .expect("a busy loop starts")
                })
                .collect(),
        )
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A program that uses 0.2 s of CPU time, then plays, under a 30 s CPU limit: ok on a quiet
/// machine and beside a busy loop on every core, which stretches its wall time but not its
/// CPU time. The wall cap, 61 s, leaves room for the stretch and for the scheduling delay of
/// every turn (a 10,000-move tiles game beside busy loops took over 5 s of wall time for 0.55 s
/// of CPU: the cap of a 2 s limit ended it; with a 10 s limit and its cap of 21 s, a case failed
/// here with two CI runs and a busy loop on two cores). The limit changes nothing else: a game
/// takes what it takes.
#[test]
fn the_cpu_clock_gives_the_same_verdict_beside_a_busy_loop() {
    let work = "import os, time; start = time.process_time()\nwhile time.process_time() - start < 0.2: pass";
    for game in marathon_games::names() {
        let command = format!(
            "python3 -c \"{work}\nos.execvp('sh', ['sh', '-c', '{}'])\" # {{m}}",
            solver(game)
        );
        let flags = ["--time-limit", "30", "--clock", "cpu"];
        let quiet = judge(game, &command, &flags);
        let loaded = {
            let _busy = BusyLoops::start();
            judge(game, &command, &flags)
        };
        for case in [&quiet, &loaded] {
            assert_eq!(verdict(case).0, "ok", "{game}: {case}");
            let counted = case["time_ms"].as_u64().unwrap_or(0);
            assert!((200..30_000).contains(&counted), "{game}: {case}");
        }
    }
}
