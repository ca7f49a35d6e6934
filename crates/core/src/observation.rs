//! Reading the judge's text on the player's side (built-in players speaking the protocol).

use std::fmt::Display;
use std::io::{self, BufRead};

/// Reads the next line into `line`, its line end removed. Returns `false` at the end of the
/// input (the judge closed it: the game is over).
pub fn read_line(input: &mut dyn BufRead, line: &mut String) -> io::Result<bool> {
    line.clear();
    if input.read_line(line)? == 0 {
        return Ok(false);
    }
    let kept = line.trim_end_matches(['\n', '\r']).len();
    line.truncate(kept);
    Ok(true)
}

/// The error a player gives up with when the judge's text is not what the protocol says.
pub fn invalid_data(message: impl Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_string())
}

/// Reads the next observation of exactly `count` lines (line ends removed) into `lines`.
/// Returns `false` when the input ended cleanly before it (the judge closed it: the game is
/// over), and an error when it ended inside an observation.
pub fn read_observation(
    input: &mut dyn BufRead,
    count: usize,
    lines: &mut Vec<String>,
) -> io::Result<bool> {
    lines.clear();
    while lines.len() < count {
        let mut line = String::new();
        if !read_line(input, &mut line)? {
            if lines.is_empty() {
                return Ok(false);
            }
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "input ended inside an observation (after {} of {count} lines)",
                    lines.len()
                ),
            ));
        }
        lines.push(line);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_whole_observations_and_tells_a_clean_end_from_a_cut() {
        let mut input: &[u8] = b"a\r\nb\nc\nd\n";
        let mut lines = Vec::new();
        assert!(read_observation(&mut input, 2, &mut lines).unwrap());
        assert_eq!(lines, ["a", "b"]);
        assert!(read_observation(&mut input, 2, &mut lines).unwrap());
        assert_eq!(lines, ["c", "d"]);
        assert!(!read_observation(&mut input, 2, &mut lines).unwrap());
        let mut cut: &[u8] = b"x\n";
        let err = read_observation(&mut cut, 3, &mut lines).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(err.to_string().contains("after 1 of 3 lines"), "{err}");
    }
}
