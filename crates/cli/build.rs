//! Records the commit marathon is built from (`MARATHON_COMMIT`), for the runs it keeps; a
//! build outside a git checkout records none.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // A new commit moves HEAD or the branch it names. Only that branch is watched, not every
    // branch (a commit on another worktree's branch rebuilt this one's binary), and only files
    // that exist: cargo reruns a script whose watched file is missing on every build (a
    // checkout without packed-refs rebuilt the binary each time). In a linked worktree, HEAD
    // and the branches live in different directories.
    if let (Some(git_dir), Some(common_dir)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) {
        let mut watched = vec![
            Path::new(&git_dir).join("HEAD"),
            Path::new(&common_dir).join("packed-refs"),
        ];
        // A detached HEAD names no branch: HEAD itself holds the commit.
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(Path::new(&common_dir).join(branch));
        }
        for path in watched.iter().filter(|path| path.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=MARATHON_COMMIT={commit}");
    }
}
