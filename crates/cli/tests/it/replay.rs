//! Replay pages end to end: `marathon replay` writes a page for a recorded game, and the page
//! works in a real browser. A headless Chromium opens it, steps through the whole game forward
//! and back (the page's `#selftest`), and must report no script error and a board that changed;
//! then it takes a screenshot for a person to look at.
//!
//! Without a browser the check is skipped with a note, unless `MARATHON_REQUIRE_BROWSER` is set
//! (CI sets it after installing Debian's `chromium`).

use crate::browser;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use browser::browser_or_skip;

const MARATHON: &str = env!("CARGO_BIN_EXE_marathon");

/// How every registered game's case is recorded: seed 3 (in the default group), the default
/// player at a fixed effort, with a limit far above what it needs.
const RECORD_ARGS: &[&str] = &["--seed", "3", "--effort", "1", "--time-limit", "1000"];

/// A headless browser gets this long per page; it needs a few seconds on a busy machine.
const BROWSER_LIMIT: Duration = Duration::from_secs(90);

fn out_dir() -> PathBuf {
    marathon_testing::scratch::process_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "replays")
}

/// Runs `command` to its end or kills it at the deadline; returns its stdout.
fn run_with_deadline(mut command: Command, what: &str) -> String {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).map(|_| text)
    });
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait on the browser") {
            assert!(status.success(), "{what}: {status}");
            break;
        }
        if started.elapsed() > BROWSER_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no result within {BROWSER_LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("reader thread").unwrap_or_default()
}

fn browser_command(browser: &Path, profile: &Path) -> Command {
    let mut command = Command::new(browser);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--window-size=1000,720",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

#[test]
fn replay_pages_step_without_errors_in_a_headless_browser() {
    let Some(browser) = browser_or_skip("replay pages") else {
        return;
    };
    let dir = out_dir();
    for game in marathon_games::names() {
        let page = dir.join(format!("{game}.html"));
        let output = Command::new(MARATHON)
            .args(["replay", game])
            .args(RECORD_ARGS)
            .arg("-o")
            .arg(&page)
            .output()
            .expect("marathon runs");
        assert!(
            output.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let url = format!("file://{}", page.display());
        let profile = dir.join(format!("profile-{game}"));

        let mut dump = browser_command(&browser, &profile);
        dump.arg("--dump-dom").arg(format!("{url}#selftest"));
        let dom = run_with_deadline(dump, &format!("{game}: dump-dom"));
        let marker = "data-selftest=\"";
        let at = dom
            .find(marker)
            .unwrap_or_else(|| panic!("{game}: the self-test did not run:\n{dom}"));
        let result = &dom[at + marker.len()..];
        let result = &result[..result.find('"').unwrap_or(result.len())];
        assert!(result.starts_with("ok steps="), "{game}: {result}");
        assert!(!result.contains("script-errors"), "{game}: {result}");

        let shot = dir.join(format!("{game}.png"));
        let _ = std::fs::remove_file(&shot);
        let mut screenshot = browser_command(&browser, &profile);
        screenshot
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("{url}#step=40"));
        run_with_deadline(screenshot, &format!("{game}: screenshot"));
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(
            size > 10_000,
            "{game}: screenshot {} is {size} bytes",
            shot.display()
        );
        eprintln!(
            "{game}: replay {} screenshot {}",
            page.display(),
            shot.display()
        );
    }
}

#[test]
fn replay_refuses_what_it_cannot_do() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["replay", "linez", "-o", "/nonexistent-dir/x.html"],
            "cannot write",
        ),
        (&["replay", "chess", "-o", "x.html"], "unknown game"),
        (
            &["replay", "linez", "--group", "2", "-o", "x.html"],
            "no case groups",
        ),
        (
            &["replay", "linez", "--player", "nobody", "-o", "x.html"],
            "no player",
        ),
    ];
    for (args, needle) in cases {
        let output = Command::new(MARATHON).args(*args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
