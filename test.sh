#!/usr/bin/env bash
# Every test: the Rust workspace's, then the Python package's (python/ci.sh builds it in a
# virtualenv of its own under target/ and runs pytest, the Ray tests in a network namespace).
set -euo pipefail
cd "$(dirname "$0")"
printf '== rust: cargo test --workspace\n'
cargo test --workspace
# The Python tests compare with the binary the Rust tests just built: nothing is built twice.
MARATHON_BIN="$PWD/target/debug/marathon" bash python/ci.sh
if ! command -v chromium >/dev/null 2>&1; then
    printf '\nNOTE: no chromium on the PATH: the browser checks of the replay and play pages were skipped (they passed as no-ops); install Debian'"'"'s chromium to run them.\n'
fi
if ! command -v strace >/dev/null 2>&1; then
    printf '\nNOTE: no strace on the PATH: the memory check of a waiting vfork child was skipped; install Debian'"'"'s strace to run it.\n'
fi
