//! Directories for a test run's files, one per test process: two `cargo test` runs in one
//! checkout (or one run's several test binaries) never write into each other's files.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `root/PREFIX-PID`, created on first use. Directories left there by earlier processes of the
/// same prefix that are no longer running are removed then, so that runs do not pile up; a
/// running one's are left alone.
pub fn process_dir(root: &Path, prefix: &str) -> PathBuf {
    static CLEANED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let own = root.join(format!("{prefix}-{}", std::process::id()));
    let mut cleaned = CLEANED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !cleaned.iter().any(|done| done == prefix) {
        remove_dead(root, prefix);
        cleaned.push(prefix.to_string());
    }
    std::fs::create_dir_all(&own)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", own.display()));
    own
}

/// A fresh, empty `name` inside this process's `root/PREFIX-PID`.
pub fn fresh_dir(root: &Path, prefix: &str, name: &str) -> PathBuf {
    let dir = process_dir(root, prefix).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn remove_dead(root: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(prefix))
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_keeps_its_own_directory_and_clears_the_dead_ones() {
        let root = std::env::temp_dir().join(format!("marathon-scratch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        // No process has pid u32::MAX - 1 (pid_max is at most 2^22); pid 1 always runs.
        let dead = root.join(format!("runs-{}", u32::MAX - 1));
        let alive = root.join("runs-1");
        let other = root.join(format!("other-{}", u32::MAX - 1));
        for dir in [&dead, &alive, &other] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let own = fresh_dir(&root, "runs", "case");
        std::fs::write(own.join("file"), "x").unwrap();
        assert_eq!(
            own,
            root.join(format!("runs-{}", std::process::id()))
                .join("case")
        );
        assert!(!dead.exists(), "a dead process's directory is removed");
        assert!(alive.exists(), "a running process's directory stays");
        assert!(other.exists(), "another prefix's directory stays");
        assert!(
            fresh_dir(&root, "runs", "case")
                .read_dir()
                .unwrap()
                .next()
                .is_none()
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
