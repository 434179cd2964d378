#!/usr/bin/env bash
# Install tienlen into .venv and start a game against bots.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q -e ".[tui]" >/dev/null
exec tienlen play "$@"
