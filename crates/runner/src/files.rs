//! Output files that are either whole or untouched: written to a temporary file beside them and
//! renamed over them, so an interruption or a full disk never leaves half a file; and checked
//! before a run starts, so a bad path is refused before the first case, not after the last.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A temporary file's path beside `path` (same directory, so the rename stays on one file
/// system), unique to this process.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Replaces `path` with `bytes` in one step.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path);
    let written = File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| fs::rename(&temporary, path)) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

/// Whether [`write_atomically`] could write `path`: it is not a directory and a file can be
/// created beside it. Leaves no trace.
pub fn check_writable(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::other("it is a directory"));
    }
    let temporary = temporary_beside(path);
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)?;
    fs::remove_file(&temporary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_a_file_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("marathon-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("best.txt");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        check_writable(&path).unwrap();
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        assert!(check_writable(&dir).is_err());
        assert!(check_writable(&dir.join("no-such-dir/x.html")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
