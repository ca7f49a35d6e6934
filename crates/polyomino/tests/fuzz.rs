//! No reply can make the judge panic: the protocol parser and the judge are fed huge, negative,
//! overflowing, empty, long and non-ASCII lines, and every one ends in a clear verdict.

use std::io::BufRead;
use std::time::Duration;

use marathon_core::{Endpoint, Verdict};
use marathon_polyomino::generator::PolyominoCase;
use marathon_polyomino::judge::run_game;

/// Generous: an in-process player here needs microseconds, and a slow machine must not fail.
const LIMIT: Duration = Duration::from_secs(60);

/// A small case: 156 x 23 with 578 covered cells.
const SEED: u64 = 5;

/// Reads one line of the judge's text, without its newline.
fn read_line(input: &mut dyn BufRead) -> std::io::Result<String> {
    let mut line = String::new();
    input.read_line(&mut line)?;
    Ok(line.trim_end().to_string())
}

/// Plays `SEED` with a player that reads the case, asks for a tromino (`GET 3`), reads the
/// piece and then sends `hostile` with `{i}` replaced by the piece's index; returns the verdict.
fn get_then(hostile: &str) -> Verdict {
    let hostile = hostile.to_string();
    let mut endpoint = Endpoint::spawn_thread(LIMIT, move |input, output| {
        let header = read_line(input)?;
        let count: usize = header.split_whitespace().nth(2).unwrap().parse().unwrap();
        for _ in 0..count {
            read_line(input)?;
        }
        writeln!(output, "GET 3")?;
        output.flush()?;
        let piece = read_line(input)?;
        let mut fields = piece.split_whitespace();
        let index = fields.next().unwrap().to_string();
        let height: usize = fields.next().unwrap().parse().unwrap();
        for _ in 0..height {
            read_line(input)?;
        }
        writeln!(output, "{}", hostile.replace("{i}", &index))?;
        output.flush()?;
        // Wait for the judge to close our input.
        while !read_line(input)?.is_empty() {}
        Ok(())
    })
    .expect("the player thread starts");
    let case = PolyominoCase::new(SEED);
    let (_, verdict) = run_game(&case, &mut endpoint, None);
    endpoint.close();
    verdict
}

fn reason(verdict: &Verdict) -> &str {
    match verdict {
        Verdict::Invalid { reason, .. } => reason,
        other => panic!("expected an invalid verdict, got {other}"),
    }
}

#[test]
fn a_huge_x_is_off_the_board_not_an_overflow() {
    let verdict = get_then("PLACE {i} 9223372036854775807 0 0");
    let reason = reason(&verdict);
    assert!(
        reason.contains("x = 9223372036854775807") && reason.contains("156-wide board"),
        "{reason}"
    );
}
