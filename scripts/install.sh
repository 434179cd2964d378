# Sourced by scripts/play.sh and scripts/test.sh, from the checkout's root:
# `tienlen_install EXTRA` installs tienlen with that extra into .venv in the checkout, the first
# time and again only when pyproject.toml changes. The install is editable (the sources are read
# from the checkout), so only a change to pyproject.toml (dependencies, extras, the command) asks
# for another: its hash is kept in .venv, a stamp for each extra.
tienlen_install() {
    local extra=$1 stamp=".venv/.tienlen-install-$1" want
    if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "tienlen needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2
        return 1
    fi
    [ -x .venv/bin/python ] || python3 -m venv .venv
    want=$(python3 -c 'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())')
    if [ ! -x .venv/bin/tienlen ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        echo "Installing tienlen[$extra] into .venv (again only when pyproject.toml changes) ..." >&2
        .venv/bin/python -m pip install -q -e ".[$extra]" >/dev/null
        echo "$want" > "$stamp"
    fi
}
