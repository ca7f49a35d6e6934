//! The play page in a real browser: headless Chromium, driven over the DevTools protocol (on
//! a pipe, `--remote-debugging-pipe`), opens the page of a running server and plays a few moves
//! of every game with mouse clicks on the board and the buttons, asks for a hint, takes a move
//! back, and where a game can be ended by its player ends it. After each step the score the
//! page shows must be the judge's for the replies played (`Game::replay`), the replies must be
//! the ones the clicks meant, and the page must report no script error. Screenshots are left
//! in the target's temporary directory for a person to look at.
//!
//! Without a browser the check is skipped with a note, unless `MARATHON_REQUIRE_BROWSER` is set
//! (CI sets it after installing Debian's `chromium`).

use crate::common;

use crate::browser;

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

use browser::browser_or_skip;
use common::{judged, legal_of, replies_of, start_server};
use marathon_core::{Game, format_score};
use serde_json::{Value, json};

/// How long the browser gets for any one wait; seconds are plenty, a loaded machine is slow.
const PATIENCE: Duration = Duration::from_secs(60);

/// A headless Chromium and one page in it, spoken to over the DevTools protocol: JSON messages
/// ending in a NUL byte, written to its fd 3 and read from its fd 4.
struct Browser {
    child: Child,
    commands: File,
    answers: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
}

impl Browser {
    fn launch(path: &Path, profile: &Path) -> Browser {
        let (from_us, to_browser) = std::io::pipe().expect("a pipe");
        let (from_browser, to_us) = std::io::pipe().expect("a pipe");
        let (read_fd, write_fd) = (from_us.as_raw_fd(), to_us.as_raw_fd());
        let mut command = Command::new(path);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2) on fds of
        // this process. The pipes are close-on-exec: copies are made above any fd the child
        // needs, then put at 3 and 4 (dup2 leaves them open across exec).
        unsafe {
            command.pre_exec(move || {
                use nix::libc::{F_DUPFD, dup2, fcntl};
                let read = fcntl(read_fd, F_DUPFD, 10);
                let write = fcntl(write_fd, F_DUPFD, 10);
                if read < 0 || write < 0 || dup2(read, 3) < 0 || dup2(write, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("the browser starts");
        drop((from_us, to_us));
        let (sender, answers) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(from_browser);
            loop {
                let mut message = Vec::new();
                let mut byte = [0u8; 1];
                loop {
                    match reader.read(&mut byte) {
                        Ok(1) if byte[0] == 0 => break,
                        Ok(1) => message.push(byte[0]),
                        _ => return,
                    }
                }
                let Ok(value) = serde_json::from_slice::<Value>(&message) else {
                    continue;
                };
                if sender.send(value).is_err() {
                    return;
                }
            }
        });
        Browser {
            child,
            commands: File::from(std::os::fd::OwnedFd::from(to_browser)),
            answers,
            next_id: 1,
            session: None,
        }
    }

    /// Sends `method` (to the page, once one is open) and waits for its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.commands.write_all(&bytes).expect("the browser reads");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = self
                .answers
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("{method}: no answer within {PATIENCE:?}"));
            if answer["id"] == json!(id) {
                if let Some(error) = answer.get("error") {
                    panic!("{method}: {error}");
                }
                return answer["result"].clone();
            }
        }
    }

    /// Opens `url` in a new page of `width` x `height` and talks to it from then on.
    fn open(&mut self, url: &str) {
        self.session = None;
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        self.session = attached["sessionId"].as_str().map(str::to_string);
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1280, "height": 960, "deviceScaleFactor": 1, "mobile": false}),
        );
        self.call("Page.navigate", json!({"url": url}));
    }

    /// The value of a script expression (awaited if a promise).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{expression}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true (a page still loading may not define it yet).
    fn wait_for(&mut self, expression: &str, what: &str) {
        let deadline = Instant::now() + PATIENCE;
        let guarded = format!(
            "(() => {{ try {{ return Boolean({expression}); }} catch (e) {{ return false; }} }})()"
        );
        while self.eval(&guarded) != json!(true) {
            assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
            thread::sleep(Duration::from_millis(30));
        }
    }

    /// A left click at a point of the page, as a mouse makes it.
    fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Clicks the middle of the element with id `id`.
    fn click_id(&mut self, id: &str) {
        let centre = self.eval(&format!(
            "(() => {{ const e = document.getElementById({id:?}); if (!e || e.disabled) return null; \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = point(&centre).unwrap_or_else(|| panic!("no enabled #{id}"));
        self.click_at(x, y);
    }

    /// Clicks the middle of cell `i` of the board.
    fn click_cell(&mut self, i: usize) {
        let centre = self.eval(&format!("play.cellCenter({i})"));
        let (x, y) = point(&centre).expect("a cell's centre");
        self.click_at(x, y);
    }

    fn state(&mut self) -> Value {
        self.eval("play.state()")
    }

    fn text(&mut self, id: &str) -> String {
        let text = self.eval(&format!("document.getElementById({id:?}).textContent"));
        text.as_str().unwrap_or_default().to_string()
    }

    fn screenshot(&mut self, file: &Path) {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let bytes = base64(shot["data"].as_str().expect("image data"));
        std::fs::write(file, bytes).expect("the screenshot is written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn point(value: &Value) -> Option<(f64, f64)> {
    Some((value.get(0)?.as_f64()?, value.get(1)?.as_f64()?))
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut bits = 0u32;
        for (k, &d) in chunk.iter().enumerate() {
            bits |= u32::from(d) << (18 - 6 * k);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// Waits for the page to have `count` replies and no request under way; returns the state.
fn settle(browser: &mut Browser, count: usize, what: &str) -> Value {
    browser.wait_for(
        &format!(
            "!play.busy() && play.state() !== null && play.state().replies.length === {count}"
        ),
        what,
    );
    browser.state()
}

/// The page's score must be the judge's for the replies played.
fn check_score(browser: &mut Browser, game: &dyn Game, state: &Value, what: &str) {
    let replies = replies_of(state);
    let expected = format_score(judged(game, state, &replies));
    let shown = browser.text("score");
    assert_eq!(
        shown, expected,
        "{what}: the page shows {shown}, the judge scores {expected} for {replies:?}"
    );
}

/// Says `reply` by the clicks the game's controller names for it (`play.clicksFor`).
fn click_reply(browser: &mut Browser, reply: &str) {
    let clicks = browser.eval(&format!("play.clicksFor({})", json!(reply)));
    let clicks = clicks.as_array().expect("a list of clicks").clone();
    assert!(!clicks.is_empty(), "no clicks say {reply:?}");
    for click in clicks {
        match (click[0].as_str(), &click[1]) {
            (Some("cell"), Value::Number(i)) => {
                browser.click_cell(i.as_u64().expect("a cell") as usize)
            }
            (Some("button"), Value::String(id)) => browser.click_id(id),
            (Some("value"), Value::String(id)) => {
                browser.eval(&format!(
                    "document.getElementById({}).value = {}",
                    json!(id),
                    json!(click[2])
                ));
            }
            _ => panic!("{reply:?}: a click the test cannot make: {click}"),
        }
    }
}

/// Plays one move of `game` by clicks: the hint, unless it ends the game, else a listed legal
/// reply that does not; returns the reply.
fn play_move(browser: &mut Browser, game: &dyn Game, state: &Value, k: usize) -> String {
    let ends = |reply: &str| game.final_reply() == Some(reply);
    browser.click_id("hint");
    browser.wait_for(
        "!play.busy() && play.hint() !== null",
        &format!("{}: a hint", game.name()),
    );
    let hint = browser.eval("play.hint()");
    let hint = hint.as_str().expect("a hint").to_string();
    let reply = if ends(&hint) {
        let going: Vec<String> = legal_of(state).into_iter().filter(|r| !ends(r)).collect();
        going[(k * 5) % going.len()].clone()
    } else {
        hint
    };
    click_reply(browser, &reply);
    reply
}

#[test]
fn a_person_plays_every_game_by_clicking_and_the_page_scores_as_the_judge() {
    let Some(path) = browser_or_skip("the play page is") else {
        return;
    };
    let dir =
        marathon_testing::scratch::process_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "serve");
    let address = start_server();
    let mut browser = Browser::launch(&path, &dir.join("profile"));
    for game in marathon_games::games() {
        let name = game.name();
        browser.open(&format!("http://{address}/#game={name}&seed=3"));
        let mut state = settle(
            &mut browser,
            0,
            &format!("{name}: the page starts the game"),
        );
        assert_eq!(state["game"], name);
        let cell_width = browser.eval("play.cellWidth()").as_f64().expect("a width");
        if cell_width < 12.0 {
            // Small cells (Polyomino's large boards): a person zooms in, and the clicks must
            // still land.
            browser.eval(
                "(() => { const z = document.getElementById('zoom'); z.value = '2'; \
                 z.dispatchEvent(new Event('change')); return true; })()",
            );
        }
        let mut replies: Vec<String> = Vec::new();
        for k in 0..4 {
            let reply = play_move(&mut browser, *game, &state, k);
            replies.push(reply.clone());
            state = settle(&mut browser, replies.len(), &format!("{name}: {reply}"));
            assert_eq!(
                replies_of(&state),
                replies,
                "{name}: the clicks meant {reply}"
            );
            check_score(
                &mut browser,
                *game,
                &state,
                &format!("{name} after {reply}"),
            );
        }
        // A hint: shown, marked, and legal where it is given.
        browser.click_id("hint");
        browser.wait_for(
            "!play.busy() && play.hint() !== null",
            &format!("{name}: a hint"),
        );
        let hint = browser.eval("play.hint()");
        let hint = hint.as_str().expect("a hint").to_string();
        assert!(
            browser.text("status").contains(&hint),
            "{name}: hint not shown"
        );
        let mut with_hint = replies.clone();
        with_hint.push(hint.clone());
        assert!(
            game.replay(&common::case_of(&state), &with_hint).is_ok(),
            "{name}: the hint {hint:?} is refused"
        );
        browser.screenshot(&dir.join(format!("{name}-hint.png")));
        // Take a move back.
        browser.click_id("undo");
        replies.pop();
        state = settle(&mut browser, replies.len(), &format!("{name}: undo"));
        assert_eq!(replies_of(&state), replies, "{name}: undo");
        check_score(&mut browser, *game, &state, &format!("{name} after undo"));
        let errors = browser.eval("window.pageErrors");
        assert_eq!(errors, json!([]), "{name}: script errors");
        // End the game where its player can, and check the final score.
        if let Some(ending) = game.final_reply() {
            click_reply(&mut browser, ending);
            browser.wait_for(
                "!play.busy() && play.state().over === true",
                &format!("{name}: the end"),
            );
            let state = browser.state();
            let replies = replies_of(&state);
            let rules = game
                .replay(&common::case_of(&state), &replies)
                .expect("replays");
            assert!(rules.over, "{name}: over under the rules too");
            assert_eq!(browser.text("final"), format_score(rules.score), "{name}");
            let href = browser.eval("document.getElementById('save').getAttribute('href')");
            assert_eq!(
                href,
                json!(format!("/api/replay?session={}", state["session"])),
                "{name}"
            );
            browser.screenshot(&dir.join(format!("{name}-end.png")));
            let errors = browser.eval("window.pageErrors");
            assert_eq!(errors, json!([]), "{name}: script errors");
            // The saved replay is a replay page that steps through the game without errors.
            let page = browser.eval(
                "fetch(document.getElementById('save').getAttribute('href')).then((r) => r.text())",
            );
            let file = dir.join(format!("{name}-replay.html"));
            std::fs::write(&file, page.as_str().expect("the replay page")).expect("written");
            browser.open(&format!("file://{}#selftest", file.display()));
            browser.wait_for(
                "document.body.dataset.selftest !== undefined",
                &format!("{name}: the saved replay's self-test"),
            );
            let result = browser.eval("document.body.dataset.selftest");
            let result = result.as_str().unwrap_or_default();
            let steps = format!("steps={}", state["steps"].as_array().map_or(0, Vec::len));
            assert!(
                result.starts_with("ok ") && result.contains(&steps),
                "{name}: the saved replay: {result}"
            );
        }
        eprintln!(
            "{name}: played {replies:?}, hint {hint:?}; screenshots in {}",
            dir.display()
        );
    }
}
