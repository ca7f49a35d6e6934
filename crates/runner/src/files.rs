//! Output files that are either whole or untouched: written to a temporary file beside them and
//! renamed over them, so an interruption or a full disk never leaves half a file; and checked
//! before a run starts, so a bad path is refused before the first case, not after the last.
//!
//! An output path that is a symbolic link is written through: the link's target (the end of
//! its chain of links) is replaced, in its own directory, and the link stays. An output that is
//! not a regular file (a device such as `/dev/null`, a FIFO) is written to directly: replacing
//! it would put a regular file in its place.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::fcntl::{Flock, FlockArg};

/// The most symbolic links followed from one path (the kernel's own limit, `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// Where writing `path` lands: the end of its chain of symbolic links (a relative link is
/// resolved against the directory holding it), or `path` itself when it is not a link. The
/// target need not exist (a dangling link is written through, creating its target).
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links from {}",
        path.display()
    )))
}

/// A temporary file's path beside `path` (same directory, so the rename stays on one file
/// system), unique to this process.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Whether `path` (already resolved) exists and is neither a regular file nor a directory: a
/// device, a FIFO or a socket, which are written to, not replaced.
fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

/// Replaces `path` (through its symbolic links) with `bytes` in one step; writes a device or a
/// FIFO directly.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = resolve(path)?;
    if is_special(&target) {
        let mut file = OpenOptions::new().write(true).open(&target)?;
        return file.write_all(bytes).and_then(|()| file.flush());
    }
    let temporary = temporary_beside(&target);
    let written = File::create(&temporary).and_then(|mut file| {
        // The replacement keeps the replaced file's permissions.
        if let Ok(meta) = fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()
    });
    match written.and_then(|()| fs::rename(&temporary, &target)) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

/// Whether [`write_atomically`] could write `path`: its target is not a directory, and a file
/// can be created beside it (or, for a device or a FIFO, it may be written). Leaves no trace.
pub fn check_writable(path: &Path) -> io::Result<()> {
    let target = resolve(path)?;
    if target.is_dir() {
        return Err(io::Error::other("it is a directory"));
    }
    if is_special(&target) {
        // Opening a FIFO to check it would wait for its reader: ask for the permission instead.
        return nix::unistd::access(&target, nix::unistd::AccessFlags::W_OK)
            .map_err(io::Error::from);
    }
    let temporary = temporary_beside(&target);
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)?;
    fs::remove_file(&temporary)
}

/// Checks each output given as (flag, path) with [`check_writable`], and refuses two flags that
/// name one file ([`same_file`]): each would replace what the other wrote. The messages name
/// the flags; nothing is written.
pub fn check_outputs(outputs: &[(&str, Option<&Path>)]) -> Result<(), String> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(flag, path)| Some((flag, path?)))
        .collect();
    for (i, &(flag, path)) in given.iter().enumerate() {
        check_writable(path)
            .map_err(|e| format!("{flag} {}: cannot write there: {e}", path.display()))?;
        for &(other_flag, other) in &given[..i] {
            if same_file(path, other) {
                return Err(format!(
                    "{other_flag} {} and {flag} {} are one file: each would replace the other's \
                     content; give them different files",
                    other.display(),
                    path.display()
                ));
            }
        }
    }
    Ok(())
}

/// Whether two output paths would write one regular file: the same file (through links, hard
/// links included) where it exists, the same place where it does not. Two outputs to one
/// device or FIFO (`/dev/null`) are each written in full, so they do not count.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(a), Ok(b)) = (resolve(a), resolve(b)) else {
        return false;
    };
    match (fs::metadata(&a), fs::metadata(&b)) {
        (Ok(x), Ok(y)) => x.is_file() && x.dev() == y.dev() && x.ino() == y.ino(),
        (Err(_), Err(_)) => match (place(&a), place(&b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

/// Where a file that does not exist yet would be: its directory's canonical path and its name.
fn place(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(name))
}

/// An exclusive lock on the directory that holds `path`'s target, for a read-change-write of
/// that file that other processes do the same way (`BestScores::save`): the
/// file itself is replaced by a rename, so a lock on it would be a lock on a file that is gone.
/// Released when dropped. `None` where the directory cannot be locked (the update then runs
/// unlocked, as it always did).
pub fn lock_beside(path: &Path) -> Option<Flock<File>> {
    let target = resolve(path).ok()?;
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let handle = File::open(dir).ok()?;
    Flock::lock(handle, FlockArg::LockExclusive).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("marathon-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_a_file_whole_and_leaves_no_temporary() {
        let dir = fresh_dir("whole");
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

    #[test]
    fn writes_through_links_and_into_devices() {
        let dir = fresh_dir("links");
        fs::create_dir(dir.join("elsewhere")).unwrap();
        let target = dir.join("elsewhere/best.txt");
        fs::write(&target, "old").unwrap();
        let link = dir.join("best.txt");
        std::os::unix::fs::symlink("elsewhere/best.txt", &link).unwrap();
        let chained = dir.join("chained.txt");
        std::os::unix::fs::symlink(&link, &chained).unwrap();
        check_writable(&chained).unwrap();
        write_atomically(&chained, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            fs::symlink_metadata(&chained)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        // A dangling link creates its target.
        let dangling = dir.join("dangling.txt");
        std::os::unix::fs::symlink("elsewhere/new.txt", &dangling).unwrap();
        write_atomically(&dangling, b"made").unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("elsewhere/new.txt")).unwrap(),
            "made"
        );
        // No temporary is left in either directory.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 4);
        assert_eq!(fs::read_dir(dir.join("elsewhere")).unwrap().count(), 2);
        // A device is written, not replaced.
        check_writable(Path::new("/dev/null")).unwrap();
        write_atomically(Path::new("/dev/null"), b"gone").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
        // A loop of links is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        assert!(write_atomically(&dir.join("loop-a"), b"x").is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_file_under_two_names_is_found() {
        let dir = fresh_dir("same");
        let file = dir.join("x.txt");
        fs::write(&file, "").unwrap();
        std::os::unix::fs::symlink(&file, dir.join("link.txt")).unwrap();
        fs::hard_link(&file, dir.join("hard.txt")).unwrap();
        assert!(same_file(&file, &dir.join("link.txt")));
        assert!(same_file(&file, &dir.join("hard.txt")));
        // Not there yet: the same place.
        assert!(same_file(
            &dir.join("new.txt"),
            &dir.join(".").join("new.txt")
        ));
        assert!(!same_file(&dir.join("new.txt"), &dir.join("other.txt")));
        assert!(!same_file(&file, &dir.join("new.txt")));
        // One device twice is two outputs.
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
        fs::remove_dir_all(&dir).unwrap();
    }
}
