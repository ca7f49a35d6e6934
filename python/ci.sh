#!/usr/bin/env bash
# The Python package's checks, run by .ci/run after the Rust tests: the bindings' own lints, then
# a fresh virtualenv with maturin, gymnasium, numpy, ray, optuna and pytest from the package
# index, the package built from this checkout and installed (`pip install ./python`), and its
# tests, which compare with the release `marathon` binary. The Ray tests run in a network
# namespace of their own: a local Ray cluster binds the machine's interface, not loopback.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="$root/target/python-ci-venv"

# The module itself is behind the `python` feature, which the workspace's clippy does not turn on.
cargo clippy -p marathon-python --features python --all-targets -- -D warnings

python3 -m venv --clear "$venv"
# As if activated: maturin's build hook runs `maturin` from the PATH.
export PATH="$venv/bin:$PATH"
"$venv/bin/pip" install --quiet --disable-pip-version-check maturin gymnasium numpy pytest ray optuna
# Without build isolation pip uses the maturin just installed instead of fetching another.
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation ./python
cargo build --release --quiet -p marathon

# Run from python/ with pytest's own launcher, not `python -m pytest`: that would put python/ on
# sys.path, where the sources shadow the installed package (which has the extension).
cd python
export MARATHON_BIN="$root/target/release/marathon"
"$venv/bin/pytest" -q -p no:cacheprovider tests
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null; then
    unshare -n sh -c 'ip link set lo up &&
        MARATHON_RAY_TESTS=1 exec "$0" -q -p no:cacheprovider tests/test_ray.py' "$venv/bin/pytest"
else
    echo "WARNING: not root (or no unshare/ip): the Ray tests need a network namespace and were skipped" >&2
fi
