#!/usr/bin/env bash
# Install what the tests need into .venv, then run every check: ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip >/dev/null
python -m pip install -q -e ".[test]"
ruff check src tests benchmarks
mypy
. scripts/web_services.sh   # chromium and a throwaway PostgreSQL for the web tests
python -m pytest "$@"
