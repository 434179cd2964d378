#!/usr/bin/env bash
# Install tienlen into .venv (the first time, and again only when pyproject.toml changes), then
# start a game against bots: bash scripts/play.sh [tienlen play's options].
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "tienlen needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
    exit 1
fi
[ -x .venv/bin/python ] || python3 -m venv .venv

# The install is editable (the sources are read from here), so only a change to pyproject.toml
# (dependencies, extras, the command) asks for another: its hash is kept in .venv.
stamp=.venv/.tienlen-install
want="$(python3 -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())') tui"
if [ ! -x .venv/bin/tienlen ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "Installing tienlen and the terminal game into .venv ..." >&2
    .venv/bin/python -m pip install -q -e ".[tui]" >/dev/null
    echo "$want" > "$stamp"
fi

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
