//! Text files a person names as input (`--seeds @FILE`, `--best`, `--compare FILE`, `merge`'s
//! parts), read line by line within bounds: a file larger than [`MAX_INPUT_BYTES`] or with a
//! line longer than [`MAX_INPUT_LINE`] is refused with its name, before it can take the
//! machine's memory. That also ends a stream that is not a file at all (`/dev/zero`, a pipe
//! that never ends) after at most that much reading.
//!
//! The bounds are far above any legitimate file: a `--json` line is a few hundred bytes (a
//! verdict quotes at most a few hundred bytes of what a program wrote), so a million cases,
//! the most one run plays, fit in a few hundred MiB.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The largest input file read: 1 GiB.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// The longest line of an input file: 1 MiB.
pub const MAX_INPUT_LINE: usize = 1 << 20;

/// One line of an input file, without its line end (`\n` or `\r\n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Counted from 1.
    pub number: usize,
    pub text: &'a str,
    /// Whether a newline ended it: only the file's last line can lack one, and when it does the
    /// file may have been cut off while it was written (a full disk, a killed writer).
    pub terminated: bool,
}

/// Calls `each` with every line of `path`, in order, until it returns an error (which is
/// returned). Errors name the file (and line): unreadable, too large, a line too long, not
/// UTF-8.
pub fn for_each_line(
    path: &Path,
    mut each: impl FnMut(Line<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let name = path.display();
    let file = File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    // A regular file says its size: refuse it without reading it.
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > MAX_INPUT_BYTES
    {
        return Err(format!(
            "{name}: {} bytes, over the {MAX_INPUT_BYTES} bytes an input file may hold",
            meta.len()
        ));
    }
    let mut reader = BufReader::new(file).take(MAX_INPUT_BYTES + 1);
    let mut bytes = Vec::new();
    let mut number = 0usize;
    loop {
        bytes.clear();
        // One byte more than a line may hold, plus its newline, tells a line that is too long.
        let read = (&mut reader)
            .take(MAX_INPUT_LINE as u64 + 2)
            .read_until(b'\n', &mut bytes);
        match read {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        }
        number += 1;
        if reader.limit() == 0 {
            return Err(format!(
                "{name}: more than {MAX_INPUT_BYTES} bytes, over what an input file may hold \
                 (not a regular file? a device or a stream that does not end)"
            ));
        }
        let terminated = bytes.last() == Some(&b'\n');
        let mut line = bytes.as_slice();
        if terminated {
            line = &line[..line.len() - 1];
        }
        line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_INPUT_LINE {
            return Err(format!(
                "{name}:{number}: a line longer than {MAX_INPUT_LINE} bytes: not an input file \
                 of marathon's"
            ));
        }
        let text = std::str::from_utf8(line).map_err(|e| {
            format!(
                "{name}:{number}: not UTF-8 (byte {} of the line)",
                e.valid_up_to() + 1
            )
        })?;
        each(Line {
            number,
            text,
            terminated,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(path: &Path) -> Result<Vec<(usize, String, bool)>, String> {
        let mut lines = Vec::new();
        for_each_line(path, |line| {
            lines.push((line.number, line.text.to_string(), line.terminated));
            Ok(())
        })?;
        Ok(lines)
    }

    #[test]
    fn lines_their_numbers_and_a_last_line_without_newline() {
        let dir = std::env::temp_dir().join(format!("marathon-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lines.txt");
        std::fs::write(&path, "one\r\n\ntwo\nthr").unwrap();
        assert_eq!(
            lines_of(&path).unwrap(),
            [
                (1, "one".to_string(), true),
                (2, String::new(), true),
                (3, "two".to_string(), true),
                (4, "thr".to_string(), false),
            ]
        );
        std::fs::write(&path, b"ok\n\xff\n").unwrap();
        let error = lines_of(&path).unwrap_err();
        assert!(error.contains("lines.txt:2: not UTF-8"), "{error}");
        let long = "x".repeat(MAX_INPUT_LINE + 1);
        std::fs::write(&path, format!("ok\n{long}\n")).unwrap();
        let error = lines_of(&path).unwrap_err();
        assert!(error.contains("lines.txt:2: a line longer"), "{error}");
        // The longest line allowed is read.
        std::fs::write(&path, format!("{}\r\n", &long[1..])).unwrap();
        assert_eq!(lines_of(&path).unwrap()[0].1.len(), MAX_INPUT_LINE);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn endless_streams_are_refused_after_a_line() {
        for device in ["/dev/zero", "/dev/full"] {
            if !Path::new(device).exists() {
                continue;
            }
            let error = lines_of(Path::new(device)).unwrap_err();
            assert!(
                error.contains(&format!("{device}:1: a line longer")),
                "{error}"
            );
        }
        let error = lines_of(Path::new("/nonexistent/input")).unwrap_err();
        assert!(error.contains("cannot read /nonexistent/input"), "{error}");
    }
}
