#!/usr/bin/env bash
# Every test: the Rust workspace's, then the Python package's (python/ci.sh builds it in a
# virtualenv of its own under target/ and runs pytest, the Ray tests in a network namespace).
set -euo pipefail
cd "$(dirname "$0")"
cargo test --workspace
bash python/ci.sh
