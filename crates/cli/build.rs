//! Records the commit marathon is built from (`MARATHON_COMMIT`), for the runs it keeps; a
//! build outside a git checkout records none.

use std::process::Command;

fn main() {
    // A new commit moves HEAD or the branch it names.
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
    println!("cargo:rerun-if-changed=../../.git/packed-refs");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok());
    if let Some(commit) = commit {
        println!("cargo:rustc-env=MARATHON_COMMIT={}", commit.trim());
    }
}
