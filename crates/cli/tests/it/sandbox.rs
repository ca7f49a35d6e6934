//! `--sandbox` over every game: what a program must not reach (the network, files outside what
//! it may read, its judge's command line and signals), the caps that stop it (processes, file
//! size, the scratch directory's size), as the user who runs the tests and, when that is root,
//! as an ordinary user too (`setpriv`). A probe answers with one reply line naming what it
//! found, which the judge quotes in its verdict; the same probe without the sandbox shows that
//! it does find what it looks for (a probe that cannot fail proves nothing).
//!
//! Skipped, saying why, only where the kernel lacks a mechanism the sandbox needs
//! (`Sandbox::check_kernel`) or the system forbids it (`sandbox::restriction`).

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use marathon_core::sandbox::{self, Sandbox};
use serde_json::Value;

use super::trust::{
    LIMIT, MARATHON, PATIENCE, assert_none_left, finish, live_with, marker, read_json,
};

/// Why the sandbox cannot run here, when the kernel or the system says so.
pub(super) fn unavailable() -> Option<String> {
    Sandbox::check_kernel().err().or_else(sandbox::restriction)
}

macro_rules! require_sandbox {
    () => {
        if let Some(why) = unavailable() {
            eprintln!("skipped: the sandbox cannot run here: {why}");
            return;
        }
    };
}

/// Where the sandbox tests keep what a sandboxed program must reach: as root, sandboxed programs
/// run as nobody, who cannot enter a checkout in a private directory (a clone under `/root`),
/// so everything they use lives in the system's temporary directory, open to everyone, in a
/// folder of this test run's own (those of runs that have ended are removed).
fn open_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root =
            marathon_testing::scratch::process_dir(&std::env::temp_dir(), "marathon-sandbox-tests");
        set_mode(&root, 0o755);
        root
    })
}

/// A fresh folder `name` under [`open_root`], open to everyone.
pub(super) fn open_dir(name: &str) -> PathBuf {
    let dir = open_root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    set_mode(&dir, 0o777);
    dir
}

/// marathon's binary where nobody can run it: a copy under [`open_root`].
pub(super) fn marathon_bin() -> &'static str {
    static COPY: OnceLock<String> = OnceLock::new();
    COPY.get_or_init(|| {
        let copy = open_root().join("marathon");
        let staged = open_root().join("marathon.copying");
        std::fs::copy(MARATHON, &staged).expect("marathon's binary copies");
        set_mode(&staged, 0o755);
        std::fs::rename(&staged, &copy).unwrap();
        copy.to_str().expect("a UTF-8 path").to_string()
    })
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Who runs marathon in a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum User {
    /// Whoever runs the tests.
    Me,
    /// `nobody`, through `setpriv` (only when the tests run as root).
    Nobody,
}

/// The folders of one game's probes: the working directory (which the program may read), a home
/// directory holding a secret, and a folder outside both; all open to `nobody`.
struct Places {
    work: PathBuf,
    home: PathBuf,
    outside: PathBuf,
}

impl Places {
    fn new(name: &str) -> Self {
        let places = Places {
            work: open_dir(&format!("{name}-work")),
            home: open_dir(&format!("{name}-home")),
            outside: open_dir(&format!("{name}-outside")),
        };
        std::fs::write(places.work.join("here.txt"), "here\n").unwrap();
        std::fs::write(places.home.join("secret.txt"), "secret\n").unwrap();
        for dir in [&places.work, &places.home, &places.outside] {
            open_to_everyone(dir);
        }
        places
    }
}

fn open_to_everyone(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
}

/// What a probe run gave: marathon's exit status and stderr, the case's verdict and the text
/// quoted with it, and how long the case took.
struct Probe {
    code: Option<i32>,
    stderr: String,
    verdict: String,
    text: String,
    pid: u32,
}

/// Plays seed 1 of `game` with `program` (in the sandbox with `sandboxed`) from `places.work`,
/// with `HOME` at `places.home`, and writes marathon's pid to `pidfile` in the working
/// directory for the program to find.
fn probe(
    game: &str,
    places: &Places,
    program: &str,
    sandboxed: bool,
    user: User,
    limit: &str,
) -> Probe {
    let json = places.outside.join(format!("{}.jsonl", marker()));
    let mut command = match user {
        User::Me => Command::new(marathon_bin()),
        User::Nobody => {
            let mut setpriv = Command::new("setpriv");
            setpriv.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
                marathon_bin(),
            ]);
            setpriv
        }
    };
    command
        .args([
            "play",
            game,
            "--seeds",
            "1",
            "--time-limit",
            limit,
            "--quiet",
        ])
        .args(["--no-save", "--summary-only", "--json"])
        .arg(&json)
        .args(["--exec", program])
        .current_dir(&places.work)
        .env("HOME", &places.home)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if sandboxed {
        command.arg("--sandbox");
    }
    let pidfile = places.work.join("pidfile");
    let _ = std::fs::remove_file(&pidfile);
    let child = command.spawn().expect("marathon starts");
    let pid = child.id();
    // `setpriv` execs marathon: the pid is marathon's. Written whole, then renamed.
    let partial = places.work.join("pidfile.partial");
    std::fs::write(&partial, pid.to_string()).unwrap();
    std::fs::rename(&partial, &pidfile).unwrap();
    let started = Instant::now();
    let run = finish(child);
    assert!(started.elapsed() < PATIENCE, "{game}: {program}");
    let cases = read_json(&json);
    let case = cases.first().cloned().unwrap_or(Value::Null);
    let text = case_text(&case);
    Probe {
        code: run.code,
        stderr: run.stderr,
        verdict: case["verdict"].as_str().unwrap_or("none").to_owned(),
        text,
        pid,
    }
}

/// One row of the matrix the closing note shows (`cargo test -p marathon --test it sandbox --
/// --nocapture`): game, scenario, where, verdict, what it said.
fn row(game: &str, scenario: &str, probe: &Probe, sandboxed: bool) {
    let place = if sandboxed { "sandbox" } else { "no sandbox" };
    println!(
        "{game} | {scenario} | {place} | {} | {} | exit {:?}",
        probe.verdict, probe.text, probe.code
    );
}

/// What a verdict says: its detail, reason and the line it quotes.
fn case_text(case: &Value) -> String {
    [&case["detail"], &case["reason"], &case["line"]]
        .iter()
        .filter_map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Waits for marathon's pid (see `probe`), then `$pid` holds it.
const WAIT_FOR_PID: &str = "while [ ! -s pidfile ]; do sleep 0.01; done; pid=$(cat pidfile); ";

/// A program that tries every way out and says which worked, in one reply line.
fn reach_program(port: u16, places: &Places) -> String {
    let secret = places.home.join("secret.txt");
    let outside = places.outside.join("written.txt");
    format!(
        "{WAIT_FOR_PID}\
         if bash -c 'echo hello > /dev/tcp/127.0.0.1/{port}' 2>/dev/null; \
         then net=reached; else net=refused; fi; \
         if cat '{secret}' >/dev/null 2>&1; then home=read; else home=refused; fi; \
         if echo x 2>/dev/null > '{outside}'; then write=written; else write=refused; fi; \
         if tr '\\0' ' ' < /proc/$pid/cmdline 2>/dev/null | grep -q -- --json; \
         then judge=read; else judge=refused; fi; \
         if [ \"$(cat here.txt)\" = here ]; then work=read; else work=refused; fi; \
         if echo x 2>/dev/null > \"$HOME/mine.txt\" && [ -s \"$HOME/mine.txt\" ]; \
         then scratch=written; else scratch=refused; fi; \
         echo \"net:$net home:$home write:$write judge:$judge work:$work scratch:$scratch\"",
        secret = secret.display(),
        outside = outside.display(),
    )
}

/// Whether the listener got a connection since the last call (it never waits).
fn connected(listener: &TcpListener) -> bool {
    match listener.accept() {
        Ok(_) => true,
        Err(e) if e.kind() == ErrorKind::WouldBlock => false,
        Err(e) => panic!("accept: {e}"),
    }
}

fn listener() -> TcpListener {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener on 127.0.0.1");
    listener.set_nonblocking(true).unwrap();
    listener
}

/// The scratch directories a marathon left behind.
fn scratch_left(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("marathon-sandbox-{pid}-");
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
        .map(|entry| entry.path())
        .collect()
}

/// Under `--sandbox` the program reaches no TCP listener on 127.0.0.1, reads nothing outside
/// the system's directories and the working directory (not `$HOME`, not marathon's command
/// line), writes only in its scratch directory, which is gone after the run; without it, the
/// same program reaches all of them.
fn nothing_out_of_reach(game: &str, user: User) {
    let places = Places::new(&format!("{game}-{user:?}"));
    let listener = listener();
    let program = reach_program(listener.local_addr().unwrap().port(), &places);
    let outside = places.outside.join("written.txt");

    let free = probe(game, &places, &program, false, user, "60");
    row(game, &format!("reach ({user:?})"), &free, false);
    assert_eq!(free.code, Some(0), "{game} {user:?}: {}", free.stderr);
    assert!(
        free.text
            .contains("net:reached home:read write:written judge:read work:read scratch:written"),
        "{game} {user:?} without the sandbox: {} {}",
        free.verdict,
        free.text
    );
    assert!(
        connected(&listener),
        "{game} {user:?}: no connection without the sandbox"
    );
    std::fs::remove_file(&outside).expect("the unsandboxed program wrote outside");

    let boxed = probe(game, &places, &program, true, user, "60");
    row(game, &format!("reach ({user:?})"), &boxed, true);
    assert_eq!(boxed.code, Some(0), "{game} {user:?}: {}", boxed.stderr);
    assert_eq!(boxed.verdict, "invalid", "{game} {user:?}: {}", boxed.text);
    assert!(
        boxed.text.contains(
            "net:refused home:refused write:refused judge:refused work:read scratch:written"
        ),
        "{game} {user:?} in the sandbox: {}",
        boxed.text
    );
    assert!(
        !connected(&listener),
        "{game} {user:?}: the sandboxed program connected"
    );
    assert!(
        !outside.exists(),
        "{game} {user:?}: the sandboxed program wrote outside"
    );
    assert_eq!(
        scratch_left(boxed.pid),
        Vec::<PathBuf>::new(),
        "{game} {user:?}"
    );
}

#[test]
fn a_sandboxed_program_reaches_nothing_in_every_game() {
    require_sandbox!();
    thread::scope(|scope| {
        for game in marathon_games::names() {
            scope.spawn(move || nothing_out_of_reach(game, User::Me));
        }
    });
}

/// As an ordinary user (the sandbox needs no privilege), when the tests run as root.
#[test]
fn a_sandboxed_program_of_an_ordinary_user_reaches_nothing() {
    require_sandbox!();
    if !nix::unistd::Uid::effective().is_root() {
        eprintln!("skipped: the tests already run as an ordinary user");
        return;
    }
    if Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("skipped: no setpriv to become an ordinary user");
        return;
    }
    thread::scope(|scope| {
        for game in marathon_games::names() {
            scope.spawn(move || nothing_out_of_reach(game, User::Nobody));
        }
    });
}

/// SIGSTOP and SIGTERM sent to marathon's pid from a sandboxed program reach nothing: the run
/// ends normally, the case is judged on the program's reply. Without the sandbox, the SIGTERM
/// ends the run (exit 143).
#[test]
fn a_sandboxed_program_cannot_signal_its_judge() {
    require_sandbox!();
    let places = Places::new("signals");
    let free = probe(
        "linez",
        &places,
        &format!("{WAIT_FOR_PID}kill -TERM $pid; sleep 1000.{}", marker()),
        false,
        User::Me,
        "60",
    );
    assert_eq!(free.code, Some(143), "{}", free.stderr);
    for game in marathon_games::names() {
        let program = format!(
            "{WAIT_FOR_PID}kill -STOP $pid 2>/dev/null; kill -TERM $pid 2>/dev/null; \
             echo signalled"
        );
        let started = Instant::now();
        let boxed = probe(game, &places, &program, true, User::Me, "60");
        row(game, "SIGSTOP, SIGTERM to marathon", &boxed, true);
        assert_eq!(boxed.code, Some(0), "{game}: {}", boxed.stderr);
        assert_eq!(boxed.verdict, "invalid", "{game}: {}", boxed.text);
        assert!(boxed.text.contains("signalled"), "{game}: {}", boxed.text);
        assert!(started.elapsed() < PATIENCE, "{game}");
    }
}

/// A program that forks without end reaches the process cap and gets a verdict; nothing it
/// started is left. Without the sandbox the bounded version forks all it wants.
#[test]
fn forking_stops_at_the_process_cap_in_every_game() {
    require_sandbox!();
    let cap = sandbox::Caps::default().processes as usize;
    let places = Places::new("fork");
    let bounded = |mark: &str| {
        format!(
            "i=0; while [ $i -lt 300 ]; do sleep 1000.{mark} & i=$((i+1)); done; \
             echo \"forked $i\""
        )
    };
    let mark = marker();
    // Far above what 300 forks take, so that a loaded machine cannot time it out before it
    // says how many it made (at 1 s, a busy run once counted 1.26 s and failed).
    let free = probe("linez", &places, &bounded(&mark), false, User::Me, "60");
    assert!(free.text.contains("forked 300"), "{}", free.text);
    assert_none_left(&format!("1000.{mark}"), "forking without the sandbox");
    thread::scope(|scope| {
        for game in marathon_games::names() {
            let bounded = &bounded;
            scope.spawn(move || {
                // Each game its own folders: a probe writes its pid file in the working one.
                let places = &Places::new(&format!("fork-{game}"));
                for endless in [false, true] {
                    let mark = marker();
                    let program = if endless {
                        format!("while :; do sleep 1000.{mark} & done")
                    } else {
                        bounded(&mark)
                    };
                    let watcher = scope_watch(&format!("1000.{mark}"));
                    let boxed = probe(game, places, &program, true, User::Me, LIMIT);
                    let most = watcher.join().unwrap();
                    let scenario = format!(
                        "{} forking, at most {most} processes seen",
                        if endless { "endless" } else { "300" }
                    );
                    row(game, &scenario, &boxed, true);
                    assert_eq!(boxed.code, Some(0), "{game}: {}", boxed.stderr);
                    // dash dies when a fork fails (crash), bash retries until the time is out.
                    assert!(
                        boxed.verdict == "crash" || boxed.verdict == "timeout",
                        "{game} (endless: {endless}): {} {}",
                        boxed.verdict,
                        boxed.text
                    );
                    // The launcher and the init count too (the limit is the cap + 2), and
                    // carry the program's text in their command lines like every process of
                    // the program; so does `marathon play`'s own (`--exec PROGRAM`), outside
                    // the count. All of them are seen when a scan catches the shell at the
                    // cap, just before its failed fork ends it (a busy machine's slow shell
                    // showed 131).
                    assert!(
                        most <= cap + 3,
                        "{game}: {most} processes over the cap {cap}"
                    );
                    assert_none_left(&format!("1000.{mark}"), "forking in the sandbox");
                }
            });
        }
    });
}

/// Counts the live processes marked `needle` every few milliseconds until none has been seen
/// for a while after some were; returns the most seen at once. Only an upper bound: a count can
/// miss a peak, never invent one.
fn scope_watch(needle: &str) -> thread::JoinHandle<usize> {
    let needle = needle.to_owned();
    thread::spawn(move || {
        let deadline = Instant::now() + PATIENCE;
        let mut most = 0;
        let mut quiet_since = Instant::now();
        while Instant::now() < deadline {
            let live = live_with(&needle).len();
            most = most.max(live);
            if live > 0 {
                quiet_since = Instant::now();
            } else if quiet_since.elapsed() > Duration::from_secs(3) {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        most
    })
}

/// A disk filler stops at the file-size cap (killed by SIGXFSZ, status 153 by the shell's
/// convention), and many files stop at the scratch directory's size; without the sandbox the
/// file is written whole.
#[test]
fn filling_the_disk_stops_at_the_caps_in_every_game() {
    require_sandbox!();
    let caps = sandbox::Caps::default();
    let big = caps.file_size + (4 << 20);
    let filler = format!("head -c {big} /dev/zero > \"$HOME/fill\"; echo \"status $?\"");
    let places = Places::new("fill");
    let free = probe("linez", &places, &filler, false, User::Me, "60");
    assert!(free.text.contains("status 0"), "{}", free.text);
    std::fs::remove_file(places.home.join("fill")).unwrap();
    let piece = 10_000_000;
    let most = caps.scratch_bytes / piece;
    let many = format!(
        "i=0; while [ $i -lt {} ] && head -c {piece} /dev/zero 2>/dev/null > \"$HOME/f$i\"; \
         do i=$((i+1)); done; echo \"files $i\"",
        most + 5
    );
    thread::scope(|scope| {
        for game in marathon_games::names() {
            let (filler, many) = (&filler, &many);
            scope.spawn(move || {
                let places = &Places::new(&format!("fill-{game}"));
                let boxed = probe(game, places, filler, true, User::Me, "60");
                row(game, "a file over the size cap", &boxed, true);
                assert!(boxed.text.contains("status 153"), "{game}: {}", boxed.text);
                let boxed = probe(game, places, many, true, User::Me, "60");
                row(game, "10 MB files until the scratch is full", &boxed, true);
                assert!(
                    boxed.text.contains(&format!("files {most}")),
                    "{game}: {}",
                    boxed.text
                );
            });
        }
    });
}

/// `--sandbox` without `--exec`, and `--allow-read` of a missing path or of `/`, are refused
/// before anything is played.
#[test]
fn sandbox_arguments_are_checked() {
    for args in [
        vec!["play", "linez", "--seeds", "1", "--sandbox"],
        vec![
            "play",
            "linez",
            "--seeds",
            "1",
            "--exec",
            "true",
            "--allow-read",
            "/",
        ],
    ] {
        let output = Command::new(marathon_bin()).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    require_sandbox!();
    for path in ["/", "/no/such/marathon/path"] {
        let output = Command::new(marathon_bin())
            .args([
                "play",
                "linez",
                "--seeds",
                "1",
                "--no-save",
                "--exec",
                "true",
            ])
            .args(["--sandbox", "--allow-read", path])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{path}: {stderr}");
        assert!(stderr.contains(path), "{stderr}");
    }
}

/// `--allow-read` lets the program read a path it could not otherwise.
#[test]
fn an_allowed_path_is_readable() {
    require_sandbox!();
    let places = Places::new("allow");
    let secret = places.home.join("secret.txt");
    let program = format!(
        "if cat '{}' >/dev/null 2>&1; then echo allowed; else echo refused; fi",
        secret.display()
    );
    let json = places.outside.join("allow.jsonl");
    let run = |allow: bool| {
        let mut command = Command::new(marathon_bin());
        command
            .args([
                "play",
                "linez",
                "--seeds",
                "1",
                "--no-save",
                "--quiet",
                "--json",
            ])
            .arg(&json)
            .args(["--sandbox", "--exec", &program])
            .current_dir(&places.work);
        if allow {
            command.arg("--allow-read").arg(&places.home);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        case_text(&read_json(&json)[0])
    };
    assert!(run(false).contains("refused"));
    assert!(run(true).contains("allowed"));
}

/// A run report's replay commands for a sandboxed program keep it in the sandbox.
#[test]
fn a_report_replays_a_sandboxed_program_in_the_sandbox() {
    require_sandbox!();
    let places = Places::new("report");
    let report = places.outside.join("report.html");
    let output = Command::new(marathon_bin())
        .args([
            "play",
            "linez",
            "--seeds",
            "1-2",
            "--no-save",
            "--quiet",
            "--report",
        ])
        .arg(&report)
        .args(["--exec", "echo garbage", "--sandbox", "--allow-read"])
        .arg(&places.home)
        .current_dir(&places.work)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(&report).unwrap();
    let replay = format!(
        "marathon replay linez --seed 1 --sandbox --allow-read '{}' --exec",
        places.home.display()
    );
    assert!(page.contains(&replay), "{replay} not in the report");
}

/// The memory limit holds in the sandbox as outside, and the sandbox's own processes (its
/// launcher and init, a few MiB of marathon's binary) are not counted against the program.
#[test]
fn memory_limits_hold_in_the_sandbox_in_every_game() {
    require_sandbox!();
    thread::scope(|scope| {
        for game in marathon_games::names() {
            scope.spawn(move || {
                let places = Places::new(&format!("memory-{game}"));
                let judge = |program: &str, sandboxed: bool, limit: &str| {
                    let json = places.outside.join(format!("{}.jsonl", marker()));
                    let mut command = Command::new(marathon_bin());
                    command
                        .args(["play", game, "--seeds", "1", "--quiet", "--no-save"])
                        .args(["--memory-limit", limit, "--json"])
                        .arg(&json)
                        .args(["--exec", program])
                        .current_dir(&places.work);
                    if sandboxed {
                        command.args(["--sandbox", "--allow-read", marathon_bin()]);
                    }
                    let output = command.output().expect("marathon runs");
                    assert_eq!(output.status.code(), Some(0), "{game}: {program}");
                    read_json(&json).remove(0)
                };
                let peak = |case: &Value| case["max_rss_kib"].as_u64().expect("a peak");
                let mark = marker();
                let hog = format!(
                    "python3 -c \"b = b'x' * (200 << 20); import time; time.sleep(1000)\" \
                     # 1000.{mark}"
                );
                let over = judge(&hog, true, "100");
                assert_eq!(over["verdict"], "memory", "{game}: {over}");
                assert!(peak(&over) >= 100 << 10, "{game}: {over}");
                assert_none_left(&format!("1000.{mark}"), "a hog in the sandbox");
                let marathon = marathon_bin();
                let play = format!(
                    "python3 -c \"b = b'x' * (50 << 20); import subprocess; \
                     subprocess.run(['sh', '-c', '{marathon} solve {game} --effort 1'])\""
                );
                let under = judge(&play, true, "100");
                assert_eq!(under["verdict"], "ok", "{game}: {under}");
                assert!(
                    (50 << 10..100 << 10).contains(&peak(&under)),
                    "{game}: {under}"
                );
                // The same small program (sh and sleep, under 2 MiB) in and out of the
                // sandbox holds about the same: the launcher and the init (3.6 MiB resident
                // each) are left out. The margin is one of them less a little: the init's child
                // shares the init's pages until it runs `sh` (a vfork), which a reading on a
                // loaded machine can catch, counted alone.
                let small = "sleep 0.5; echo garbage";
                let (free, boxed) = (judge(small, false, "100"), judge(small, true, "100"));
                assert!(peak(&boxed) > 0, "{game}: {boxed}");
                assert!(
                    peak(&boxed) <= peak(&free) + 3 * 1024,
                    "{game}: {} KiB in the sandbox, {} KiB outside",
                    peak(&boxed),
                    peak(&free)
                );
                println!(
                    "{game} | memory in the sandbox | 200 MiB, limit 100: {} ({} MiB) | 50 MiB: \
                     {} ({} MiB) | sh + sleep: {} KiB (outside: {} KiB)",
                    over["verdict"],
                    peak(&over) >> 10,
                    under["verdict"],
                    peak(&under) >> 10,
                    peak(&boxed),
                    peak(&free)
                );
            });
        }
    });
}
