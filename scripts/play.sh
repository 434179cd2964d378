#!/usr/bin/env bash
# Install tienlen into .venv (the first time, and again only when pyproject.toml changes:
# scripts/install.sh), then start a game against bots: bash scripts/play.sh [tienlen play's options].
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/install.sh
tienlen_install tui

status=0
.venv/bin/tienlen play "$@" || status=$?
if [ "$(command -v tienlen 2>/dev/null)" != "$PWD/.venv/bin/tienlen" ]; then
    cat >&2 <<EOF

tienlen is installed in $PWD/.venv. To use the command, in your shell:
    . .venv/bin/activate        then: tienlen --help, tienlen play --rules mien-nam, ...
or run it without activating: $PWD/.venv/bin/tienlen
EOF
fi
exit "$status"
