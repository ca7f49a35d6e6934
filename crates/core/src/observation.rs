//! Reading the judge's text on the player's side (built-in players speaking the protocol).

use std::io::{self, BufRead};

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
        if input.read_line(&mut line)? == 0 {
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
        let trimmed = line.trim_end_matches(['\n', '\r']).len();
        line.truncate(trimmed);
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
