#!/usr/bin/env bash
# Every check: ruff, mypy, then pytest across the machine's cores (pytest-xdist: each worker has
# its own servers, ports, PostgreSQL database and browser). Installs what they need first:
# tienlen with the test extra into .venv (again only when pyproject.toml changes:
# scripts/install.sh), and what the web tests need besides (scripts/web_services.sh).
# Options go to pytest: bash scripts/test.sh -q, bash scripts/test.sh tests/web -n 0 (serially).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/install.sh
# numba first (seconds), so that the fast path's kernels (the hint's search, the playouts, the
# self-play actors) compile into numba's cache on the second core while the rest installs and
# ruff and mypy run (about 90 s of CPU the first time, 2 s after): the workers then load them
# rather than each compiling them at once.
tienlen_install fast
_tl_compile_log=$(mktemp)
_tl_compile() {
    .venv/bin/python -c 'from tienlen import Rules; from tienlen.fast import bench; from tienlen.hints import prepare
from tienlen.bots.learned import load_net; from tienlen.rl.actors import Actors
prepare(Rules()); bench.run(hands=1); Actors(Rules(), 4, envs=2).step(load_net())' >"$_tl_compile_log" 2>&1
}
_tl_compile &
_tl_compiling=$!
. scripts/web_services.sh   # chromium, axe-core and a throwaway PostgreSQL for the web tests
tienlen_install test
echo "test.sh: installed ($SECONDS s)" >&2
. .venv/bin/activate
ruff check src tests benchmarks
mypy
echo "test.sh: ruff and mypy passed ($SECONDS s)" >&2
# the test install may have replaced a package the compile had loaded: then once more, at once
if ! wait "$_tl_compiling" && ! _tl_compile; then
    cat "$_tl_compile_log" >&2
    echo "compiling the fast path failed" >&2
    exit 1
fi
rm -f "$_tl_compile_log"
echo "test.sh: the fast path compiled; the tests start ($SECONDS s)" >&2
# One worker more than the cores: a worker waits on its servers and browsers much of the time (on
# 2 cores a fresh clone's tests took 11.8 min on three workers, 13 on two, in one hour).
# worksteal: a worker that runs out takes tests from the others, so the slow files stay spread.
export PYTEST_XDIST_AUTO_NUM_WORKERS=${PYTEST_XDIST_AUTO_NUM_WORKERS:-$(( $(nproc) + 1 ))}
# a test skipped because a package would not import fails the run (tests/conftest.py): the test
# extra installs every package the tests import
export TIENLEN_TEST_EVERY_PACKAGE=1
python -m pytest -n auto --dist worksteal "$@"
