#!/usr/bin/env bash
# Every check: ruff, mypy, then pytest across the machine's cores (pytest-xdist: each worker has
# its own servers, ports, PostgreSQL database and browser). Installs what they need first:
# tienlen with the test extra into .venv (again only when pyproject.toml changes:
# scripts/install.sh), and what the web tests need besides (scripts/web_services.sh).
# Options go to pytest: bash scripts/test.sh -q, bash scripts/test.sh tests/web -n 0 (serially).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/install.sh
tienlen_install test
echo "test.sh: installed ($SECONDS s)" >&2
. .venv/bin/activate
# The fast path's kernels (the hint's search, the playouts) compiled once into numba's cache now
# (about 100 s of CPU the first time, 2 s after), so that the workers load them rather than
# each compiling them at once: on the second core while ruff and mypy run on the first.
_tl_compile_log=$(mktemp)
python -c 'from tienlen import Rules; from tienlen.fast import bench; from tienlen.hints import prepare
prepare(Rules()); bench.run(hands=1)' >"$_tl_compile_log" 2>&1 &
_tl_compile=$!
ruff check src tests benchmarks
mypy
echo "test.sh: ruff and mypy passed ($SECONDS s)" >&2
. scripts/web_services.sh   # chromium and a throwaway PostgreSQL for the web tests
if ! wait "$_tl_compile"; then
    cat "$_tl_compile_log" >&2
    echo "compiling the fast path failed" >&2
    exit 1
fi
rm -f "$_tl_compile_log"
echo "test.sh: web services up, fast path compiled; the tests start ($SECONDS s)" >&2
# worksteal: a worker that runs out takes tests from the others, so the slow files stay spread
python -m pytest -n auto --dist worksteal "$@"
