#!/usr/bin/env bash
# The Python package's checks, run by ./test.sh after the Rust tests: the bindings' own lints, then
# a virtualenv with maturin, gymnasium, numpy, ray, optuna and pytest from the package index
# (and jax, optax and matplotlib, about 400 MB, for the learning example's smoke run), the
# package built from this checkout and installed (`pip install ./python`), and its tests, which
# compare with the `marathon` binary. The Ray tests run in a network namespace of their own: a
# local Ray cluster binds the machine's interface, not loopback.
#
# Nothing is compiled twice: the extension is built with the workspace's dev profile (the one
# `cargo test` uses, optimised), into the same target directory, and the tests use the binary
# `cargo test` built (`MARATHON_BIN`, set by ./test.sh; built here if unset). The virtualenv is
# kept between runs (target/python-ci-venv) and only topped up.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="$root/target/python-ci-venv"
stage() { printf '\n== python: %s\n' "$*"; }

stage "virtualenv $venv (maturin gymnasium numpy pytest ray optuna jax optax matplotlib)"
# A virtualenv is not relocatable: its scripts (pip, pytest, maturin) start the interpreter by
# the absolute path it was made at. One copied with target/ from another checkout would install
# into that checkout's: make a new one.
# (A path with spaces puts the interpreter on the script's second line.)
if [ -x "$venv/bin/python" ] && ! head -n 2 "$venv/bin/pip" 2>/dev/null | grep -qF "$venv/bin/python"; then
    echo "the virtualenv's scripts start another's interpreter ($(head -n 1 "$venv/bin/pip" 2>/dev/null)): making it anew"
    rm -rf "$venv"
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# As if activated: maturin's build hook runs `maturin` from the PATH.
export PATH="$venv/bin:$PATH"
"$venv/bin/pip" install --quiet --disable-pip-version-check maturin gymnasium numpy pytest ray optuna \
    jax optax matplotlib

stage "build and install the package (pip install ./python, dev profile)"
# Without build isolation pip uses the maturin just installed instead of fetching another.
# The test build registers the test-only sixth game (crates/dice), as the Rust tests' build does.
MATURIN_PEP517_ARGS="--profile dev --features python,marathon-games/test-game" \
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation ./python
if [ -z "${MARATHON_BIN:-}" ]; then
    cargo build --quiet -p marathon
    MARATHON_BIN="$root/target/debug/marathon"
fi
export MARATHON_BIN

# Run from python/ with pytest's own launcher, not `python -m pytest`: that would put python/ on
# sys.path, where the sources shadow the installed package (which has the extension).
cd python
stage "pytest: the package's tests (the Ray tests are skipped here and run next)"
"$venv/bin/pytest" -q -p no:cacheprovider tests
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null; then
    stage "pytest: the Ray tests, in a network namespace of their own"
    unshare -n sh -c 'ip link set lo up &&
        MARATHON_RAY_TESTS=1 exec "$0" -q -p no:cacheprovider tests/test_ray.py' "$venv/bin/pytest"
else
    echo "WARNING: not root (or no unshare/ip): the Ray tests need a network namespace and were skipped" >&2
fi
