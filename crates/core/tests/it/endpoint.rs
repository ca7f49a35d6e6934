//! The endpoint against small misbehaving players: `sh -c` one-liners and closures on threads.
//! Timing bounds are loose on purpose (the tests share a small, busy machine); the ones that
//! matter are far apart from what a wrong implementation would give.

use std::io::{self, BufRead, Write};
use std::thread;
use std::time::{Duration, Instant};

use marathon_core::endpoint::MAX_LINE_BYTES;
use marathon_core::{Endpoint, Failure, StderrMode};
use nix::errno::Errno;
use nix::sys::signal::kill;
use nix::unistd::Pid;

/// Generous enough never to expire in tests that are not about timeouts.
const LIMIT: Duration = Duration::from_secs(100);

/// How long a wait may take here: far above what it needs (milliseconds), so that a busy
/// machine cannot fail a test, and far below what a wrong endpoint takes (the programs sleep for
/// 1000 s where the bound matters).
const PATIENCE: Duration = Duration::from_secs(60);

fn spawn(command: &str) -> Endpoint {
    spawn_limited(command, LIMIT)
}

fn spawn_limited(command: &str, limit: Duration) -> Endpoint {
    Endpoint::spawn_process(command, limit, StderrMode::Discard).expect("sh starts")
}

fn protocol_detail(result: Result<String, Failure>) -> String {
    match result {
        Err(Failure::Protocol { detail }) => detail,
        other => panic!("expected a protocol failure, got {other:?}"),
    }
}

fn crash_detail<T: std::fmt::Debug>(result: Result<T, Failure>) -> String {
    match result {
        Err(Failure::Crash { detail }) => detail,
        other => panic!("expected a crash, got {other:?}"),
    }
}

/// Whether `pid` still exists at all (a zombie counts: it has not been reaped).
fn exists(pid: u32) -> bool {
    match kill(Pid::from_raw(pid as i32), None) {
        Ok(()) => true,
        Err(Errno::ESRCH) => false,
        Err(error) => panic!("kill({pid}, 0): {error}"),
    }
}

/// Processes of process group `pgid` that are not dead. Killed grandchildren are reparented to
/// init, which may be slow to reap them (or, in some containers, never does), so zombies do not
/// count.
fn live_members(pgid: u32) -> Vec<u32> {
    let mut live = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc is mounted") {
        let name = entry.expect("readable /proc").file_name();
        let Some(pid) = name.to_str().and_then(|name| name.parse::<u32>().ok()) else {
            continue;
        };
        // Processes come and go while we scan.
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`; comm may contain anything, so cut at the last ')'.
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let (state, pgrp) = (fields[0], fields[2]);
        if pgrp == pgid.to_string() && state != "Z" && state != "X" {
            live.push(pid);
        }
    }
    live
}

/// Waits (briefly) until no live process is left in group `pgid`.
fn assert_group_dies(pgid: u32) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let live = live_members(pgid);
        if live.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "still alive in group {pgid}: {live:?}"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn echo_loop_answers_every_exchange() {
    let mut endpoint = spawn(r#"while read l; do echo "got $l"; done"#);
    for i in 0..5 {
        endpoint.send(&format!("message {i}\n")).unwrap();
        assert_eq!(endpoint.receive_line().unwrap(), format!("got message {i}"));
    }
    assert!(endpoint.time_used() < LIMIT);
    let pid = endpoint.pid().unwrap();
    endpoint.close();
    assert!(!exists(pid), "the player was not reaped");
}

#[test]
fn several_lines_in_one_write_crlf_and_a_last_line_without_newline() {
    let mut endpoint = spawn(r"printf 'a\r\nb\n\nc\rd\nlast'");
    for expected in ["a", "b", "", "c\rd", "last"] {
        assert_eq!(endpoint.receive_line().unwrap(), expected);
    }
    let detail = protocol_detail(endpoint.receive_line());
    assert_eq!(detail, "exited before replying (exit status 0)");
}

#[test]
fn overlong_line_is_a_protocol_failure_and_sticks() {
    let mut endpoint = spawn(r"head -c 2000000 /dev/zero | tr '\0' x; sleep 5");
    let detail = protocol_detail(endpoint.receive_line());
    assert!(
        detail.contains(&format!("longer than {MAX_LINE_BYTES}")),
        "{detail}"
    );
    assert_eq!(
        endpoint.receive_line(),
        Err(Failure::Protocol {
            detail: detail.clone()
        })
    );
    assert_eq!(endpoint.send("more\n"), Err(Failure::Protocol { detail }));
}

#[test]
fn line_of_exactly_the_maximum_length_is_accepted() {
    let command = format!(r"head -c {MAX_LINE_BYTES} /dev/zero | tr '\0' x; printf '\r\nnext\n'");
    let mut endpoint = spawn(&command);
    let line = endpoint.receive_line().unwrap();
    assert_eq!(line.len(), MAX_LINE_BYTES);
    assert!(line.bytes().all(|byte| byte == b'x'));
    assert_eq!(endpoint.receive_line().unwrap(), "next");
}

#[test]
fn line_one_byte_too_long_is_rejected() {
    let command = format!(
        r"head -c {} /dev/zero | tr '\0' x; echo",
        MAX_LINE_BYTES + 1
    );
    let detail = protocol_detail(spawn(&command).receive_line());
    assert!(detail.contains("longer than"), "{detail}");
}

#[test]
fn non_utf8_output_is_a_protocol_failure() {
    let mut endpoint = spawn(r"printf 'fine\nab\377\n'; sleep 5");
    assert_eq!(endpoint.receive_line().unwrap(), "fine");
    let detail = protocol_detail(endpoint.receive_line());
    assert!(detail.contains("not UTF-8"), "{detail}");
    assert!(
        detail.contains("line 2") && detail.contains("byte offset 7"),
        "{detail}"
    );
}

#[test]
fn exit_status_zero_before_replying_is_a_protocol_failure() {
    let detail = protocol_detail(spawn("exit 0").receive_line());
    assert_eq!(detail, "exited before replying (exit status 0)");
}

fn timeout<T: std::fmt::Debug>(result: Result<T, Failure>) -> (Duration, Duration, bool) {
    match result {
        Err(Failure::Timeout {
            limit,
            used,
            unread_input,
            ..
        }) => (limit, used, unread_input),
        other => panic!("expected a timeout, got {other:?}"),
    }
}

/// A program's exit decides its verdict at once, not the end of its output, which a child left
/// in the background holds open for 1000 s.
#[test]
fn exit_before_replying_is_judged_at_once_whatever_its_children_hold() {
    for (command, crash) in [
        ("sleep 1000 & exit 3", Some("exit status 3")),
        ("sleep 1000 & exit 0", None),
        ("setsid sleep 1000 & exit 0", None),
    ] {
        let mut endpoint = spawn(command);
        let started = Instant::now();
        let result = endpoint.receive_line();
        assert!(
            started.elapsed() < PATIENCE,
            "{command}: {:?}",
            started.elapsed()
        );
        match crash {
            Some(status) => assert_eq!(crash_detail(result), status, "{command}"),
            None => assert_eq!(
                protocol_detail(result),
                "exited before replying (exit status 0)",
                "{command}"
            ),
        }
    }
}

/// A complete last reply followed by an exit is a reply, however the exit races with the
/// judge's write of a message the program never reads (here larger than a pipe buffer).
#[test]
fn a_reply_written_before_exiting_is_read_whatever_the_race() {
    let message = "x".repeat(200_000) + "\n";
    for round in 0..30 {
        let command = match round % 3 {
            0 => "echo DONE",
            1 => "printf DONE",
            _ => "sleep 1000 & echo DONE; exit 0",
        };
        let mut endpoint = spawn(command);
        endpoint.send(&message).unwrap();
        assert_eq!(endpoint.receive_line().unwrap(), "DONE", "{command}");
        endpoint.close();
    }
}

#[test]
fn nonzero_exit_status_is_a_crash() {
    let mut endpoint = spawn("echo partial; exit 3");
    assert_eq!(endpoint.receive_line().unwrap(), "partial");
    let detail = crash_detail(endpoint.receive_line());
    assert_eq!(detail, "exit status 3");
    // Sticky, for both directions.
    assert_eq!(endpoint.send("x\n"), Err(Failure::Crash { detail }));
}

#[test]
fn missing_program_is_a_crash_with_the_shells_status() {
    let detail = crash_detail(spawn("no-such-program-marathon-test").receive_line());
    assert_eq!(detail, "exit status 127");
}

#[test]
fn death_by_signal_is_a_crash_naming_the_signal() {
    let detail = crash_detail(spawn("kill -SEGV $$").receive_line());
    assert!(detail.contains("SIGSEGV"), "{detail}");
}

/// `sh -c` reports a command killed by a signal as status 128 + N; the verdict names it.
#[test]
fn death_by_signal_behind_the_shell_is_named() {
    let detail = crash_detail(spawn("sh -c 'kill -SEGV $$'; exit $?").receive_line());
    assert_eq!(
        detail,
        "exit status 139: signal SIGSEGV by the shell's convention (128 + 11)"
    );
}

#[test]
fn closed_output_while_still_running_is_a_protocol_failure() {
    let mut endpoint = spawn("exec >&-; sleep 1000");
    let started = Instant::now();
    let detail = protocol_detail(endpoint.receive_line());
    assert!(detail.contains("still running"), "{detail}");
    assert!(started.elapsed() < PATIENCE);
}

#[test]
fn silent_player_times_out_long_before_it_would_finish() {
    let limit = Duration::from_millis(300);
    let mut endpoint = spawn_limited("sleep 1000", limit);
    let started = Instant::now();
    endpoint.send("are you there?\n").unwrap();
    let failure = endpoint.receive_line().unwrap_err();
    let (got_limit, used, _) = timeout::<()>(Err(failure.clone()));
    assert_eq!(got_limit, limit);
    assert!(used >= limit && used < PATIENCE, "{used:?}");
    assert!(started.elapsed() < PATIENCE);
    assert_eq!(endpoint.time_used(), used);
    assert_eq!(endpoint.send("again\n"), Err(failure));
    let pid = endpoint.pid().unwrap();
    let closing = Instant::now();
    endpoint.close();
    assert!(closing.elapsed() < PATIENCE);
    assert!(!exists(pid), "the player was not reaped");
}

#[test]
fn grandchild_holding_the_output_is_killed_with_its_group() {
    let limit = Duration::from_millis(300);
    let mut endpoint = spawn_limited("sleep 1000 & sleep 1000", limit);
    let pid = endpoint.pid().unwrap();
    timeout(endpoint.receive_line());
    assert!(
        live_members(pid).len() >= 2,
        "expected the shell's children in group {pid}"
    );
    let closing = Instant::now();
    endpoint.close();
    // Must not wait for the grandchild to let go of the pipe.
    assert!(closing.elapsed() < PATIENCE);
    assert!(!exists(pid), "the player was not reaped");
    assert_group_dies(pid);
}

#[test]
fn dropping_without_close_also_kills_and_reaps() {
    let endpoint = spawn("sleep 30 & sleep 30");
    let pid = endpoint.pid().unwrap();
    drop(endpoint);
    assert!(!exists(pid), "the player was not reaped");
    assert_group_dies(pid);
}

#[test]
fn only_waiting_for_replies_counts_as_time_used() {
    let mut endpoint = spawn(r#"while read l; do sleep 0.2; echo "$l"; done"#);
    let judge_thinking = Duration::from_millis(500);
    let started = Instant::now();
    for i in 0..3 {
        if i > 0 {
            // The judge thinking: the player is idle, waiting for input.
            thread::sleep(judge_thinking);
        }
        endpoint.send(&format!("{i}\n")).unwrap();
        assert_eq!(endpoint.receive_line().unwrap(), i.to_string());
    }
    let elapsed = started.elapsed();
    let used = endpoint.time_used();
    assert!(used >= Duration::from_millis(600), "{used:?}");
    // Whatever the machine's speed: the judge's two pauses are not in the count, so the count
    // and the pauses fit in the time that passed (counting a pause would exceed it).
    assert!(
        used + judge_thinking * 2 <= elapsed,
        "{used:?} of {elapsed:?}"
    );
}

#[test]
fn send_to_a_dead_process_is_accepted_and_the_reply_wait_reports_how_it_died() {
    for (command, expect_crash) in [("exit 3", true), ("exit 0", false)] {
        let mut endpoint = spawn(command);
        thread::sleep(Duration::from_millis(50));
        // Closing its input is the program's right; only a missing reply is judged.
        for _ in 0..5 {
            endpoint.send("hello\n").unwrap();
        }
        match endpoint.receive_line() {
            Err(Failure::Crash { detail }) if expect_crash => assert_eq!(detail, "exit status 3"),
            Err(Failure::Protocol { detail }) if !expect_crash => {
                assert_eq!(detail, "exited before replying (exit status 0)")
            }
            other => panic!("{command}: unexpected {other:?}"),
        }
    }
}

#[test]
fn stderr_is_forwarded_without_disturbing_the_conversation() {
    let mut endpoint = Endpoint::spawn_process(
        "echo 'a note for the log' >&2; printf 'no newline' >&2; echo reply",
        LIMIT,
        StderrMode::Prefixed("[endpoint test] ".into()),
    )
    .unwrap();
    assert_eq!(endpoint.receive_line().unwrap(), "reply");
}

#[test]
fn many_endpoints_leave_no_process_behind() {
    let mut pids = Vec::new();
    for i in 0..50 {
        let command = match i % 10 {
            0 => "sleep 10",
            1 => "exit 0",
            2 => "exit 5",
            _ => "cat",
        };
        let mut endpoint = spawn(command);
        pids.push(endpoint.pid().unwrap());
        if command == "cat" {
            endpoint.send("ping\n").unwrap();
            assert_eq!(endpoint.receive_line().unwrap(), "ping");
        }
        endpoint.close();
    }
    let left: Vec<u32> = pids.into_iter().filter(|&pid| exists(pid)).collect();
    assert!(left.is_empty(), "not reaped: {left:?}");
}

fn thread_endpoint<F>(player: F) -> Endpoint
where
    F: FnOnce(&mut dyn BufRead, &mut dyn Write) -> io::Result<()> + Send + 'static,
{
    Endpoint::spawn_thread(LIMIT, player).expect("thread starts")
}

#[test]
fn thread_player_answers_every_exchange() {
    let mut endpoint = thread_endpoint(|input, output| {
        let mut line = String::new();
        while input.read_line(&mut line)? > 0 {
            writeln!(output, "got {}", line.trim_end())?;
            output.flush()?;
            line.clear();
        }
        Ok(())
    });
    assert_eq!(endpoint.pid(), None);
    for i in 0..5 {
        endpoint.send(&format!("{i}\n")).unwrap();
        assert_eq!(endpoint.receive_line().unwrap(), format!("got {i}"));
    }
    endpoint.close();
}

#[test]
fn thread_player_panic_is_a_crash_with_its_message() {
    let mut endpoint = thread_endpoint(|input, _output| {
        let mut line = String::new();
        input.read_line(&mut line)?;
        panic!("boom at {}", line.trim_end());
    });
    endpoint.send("turn 1\n").unwrap();
    let detail = crash_detail(endpoint.receive_line());
    assert_eq!(detail, "panicked: boom at turn 1");
}

#[test]
fn thread_player_error_is_a_crash() {
    let mut endpoint = thread_endpoint(|_input, _output| Err(io::Error::other("no luck")));
    let detail = crash_detail(endpoint.receive_line());
    assert_eq!(detail, "error: no luck");
}

#[test]
fn thread_player_returning_early_is_a_protocol_failure() {
    let mut endpoint = thread_endpoint(|input, output| {
        let mut line = String::new();
        input.read_line(&mut line)?;
        writeln!(output, "one answer only")?;
        Ok(())
    });
    endpoint.send("1\n").unwrap();
    // Not flushed by the player, but delivered when its writer is dropped.
    assert_eq!(endpoint.receive_line().unwrap(), "one answer only");
    let detail = protocol_detail(endpoint.receive_line());
    assert!(
        detail.contains("closed its output before replying"),
        "{detail}"
    );
}

#[test]
fn thread_player_that_never_answers_times_out() {
    let limit = Duration::from_millis(200);
    let mut endpoint = Endpoint::spawn_thread(limit, |input, _output| {
        // Waits for input that never comes, until the judge closes it.
        let mut line = String::new();
        input.read_line(&mut line)?;
        Ok(())
    })
    .unwrap();
    let (got, used, unread) = timeout(endpoint.receive_line());
    assert_eq!(got, limit);
    assert!(used >= limit, "{used:?}");
    assert!(!unread, "the judge sent nothing");
    endpoint.close();
}

#[test]
fn player_that_does_not_read_its_input_cannot_block_send() {
    let limit = Duration::from_millis(300);
    let mut endpoint = spawn_limited("sleep 1000", limit);
    // Far more than a pipe buffer: a send that waited for the player to read would wait for
    // its 1000 s sleep.
    let text = "x".repeat(1 << 16) + "\n";
    let started = Instant::now();
    for _ in 0..64 {
        endpoint.send(&text).unwrap();
    }
    assert!(started.elapsed() < PATIENCE);
    let (_, used, unread) = timeout(endpoint.receive_line());
    assert!(unread);
    assert!(used >= limit, "{used:?}");
    assert!(started.elapsed() < PATIENCE);
}

/// The clock runs from the judge's first byte, not from when the player reads it: a program
/// that sleeps before reading a message larger than the pipe buffer is charged for the sleep.
#[test]
fn time_before_reading_a_large_message_counts() {
    let mut endpoint = spawn("sleep 0.4; head -c 300001 >/dev/null; echo ok");
    endpoint.send(&("x".repeat(300_000) + "\n")).unwrap();
    assert_eq!(endpoint.receive_line().unwrap(), "ok");
    let used = endpoint.time_used();
    assert!(used >= Duration::from_millis(400), "{used:?}");
}

/// The same program at a limit below its sleeps times out: reading late gains nothing.
#[test]
fn a_program_that_delays_reading_cannot_escape_its_limit() {
    let limit = Duration::from_millis(600);
    let mut endpoint = spawn_limited(
        "sleep 0.4; head -c 300001 >/dev/null; sleep 0.4; echo ok",
        limit,
    );
    endpoint.send(&("x".repeat(300_000) + "\n")).unwrap();
    let (_, used, _) = timeout(endpoint.receive_line());
    assert!(used >= limit, "{used:?}");
}
