# Sourced by scripts/test.sh: what the web tests need besides Python packages.
# Installs chromium, PostgreSQL, Redis, nginx and npm when missing (as root, Debian), axe-core
# (the accessibility checker, from npm) into .cache/axe, starts a throwaway PostgreSQL and a
# throwaway Redis on free loopback ports (both stopped when the script's shell exits) and
# exports TIENLEN_TEST_PG_URL, TIENLEN_TEST_REDIS_URL, TIENLEN_CHROMIUM and TIENLEN_AXE.
# Anything that cannot be had is left unset and those tests skip, saying why. nginx is for
# tests/web/test_deploy.py, which runs one of its own on a free port (where packages start
# their services on install, Debian's nginx also starts on port 80; the tests never use it).

# what stops the services started here, run at exit (one EXIT trap for them all)
_tl_stops=()
_tl_stop_all() { local stop; for stop in ${_tl_stops[@]+"${_tl_stops[@]}"}; do "$stop"; done; }
_tl_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

_tl_need=()
command -v chromium >/dev/null 2>&1 || _tl_need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || _tl_need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || _tl_need+=(redis-server)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || _tl_need+=(nginx)
command -v npm >/dev/null 2>&1 || _tl_need+=(npm)
if [ ${#_tl_need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${_tl_need[*]} for the web tests" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq "${_tl_need[@]}" >/dev/null || echo "could not install ${_tl_need[*]}" >&2
fi
if [ -x /usr/bin/chromium ]; then export TIENLEN_CHROMIUM=/usr/bin/chromium; fi

# axe-core, pinned, injected into Chromium by tests/web/test_accessibility.py (never committed)
_tl_axe_version=4.14.1
_tl_axe_dir=.cache/axe
if ! grep -qs "\"version\": \"$_tl_axe_version\"" "$_tl_axe_dir/node_modules/axe-core/package.json" \
        && command -v npm >/dev/null 2>&1; then
    echo "installing axe-core $_tl_axe_version for the accessibility tests" >&2
    npm install --no-save --no-audit --no-fund --silent --prefix "$_tl_axe_dir" \
        "axe-core@$_tl_axe_version" >/dev/null || echo "could not install axe-core" >&2
fi
if [ -f "$_tl_axe_dir/node_modules/axe-core/axe.min.js" ]; then
    export TIENLEN_AXE="$PWD/$_tl_axe_dir/node_modules/axe-core/axe.min.js"
fi

_tl_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "${TIENLEN_TEST_PG_URL:-}" ] && [ -n "$_tl_bin" ]; then
    _tl_port=$(_tl_free_port)
    _tl_dir=$(mktemp -d /tmp/tienlen-pg.XXXXXX)
    _tl_as=()
    if [ "$(id -u)" = 0 ]; then chown postgres "$_tl_dir"; _tl_as=(runuser -u postgres --); fi
    if "${_tl_as[@]}" "$_tl_bin/initdb" -A trust -U postgres -D "$_tl_dir/data" >"$_tl_dir/initdb.log" 2>&1 \
        && "${_tl_as[@]}" "$_tl_bin/pg_ctl" -D "$_tl_dir/data" -l "$_tl_dir/server.log" -w \
            -o "-p $_tl_port -k $_tl_dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
        && "${_tl_as[@]}" "$_tl_bin/createdb" -h 127.0.0.1 -p "$_tl_port" -U postgres tienlen_test; then
        export TIENLEN_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$_tl_port/tienlen_test"
        _tl_stop_pg() { "${_tl_as[@]}" "$_tl_bin/pg_ctl" -D "$_tl_dir/data" -m fast stop >/dev/null 2>&1; rm -rf "$_tl_dir"; }
        _tl_stops+=(_tl_stop_pg)
    else
        echo "could not start PostgreSQL for the tests (see $_tl_dir); its tests will skip" >&2
    fi
fi

# Redis, for the limits counted across processes (tests/web/test_shared_counts.py): nothing
# kept on disk; the test workers share it, each test under keys of its own
if [ -z "${TIENLEN_TEST_REDIS_URL:-}" ] && command -v redis-server >/dev/null 2>&1; then
    _tl_redis_port=$(_tl_free_port)
    _tl_redis_dir=$(mktemp -d /tmp/tienlen-redis.XXXXXX)
    _tl_stop_redis() {
        [ -f "$_tl_redis_dir/redis.pid" ] && kill "$(cat "$_tl_redis_dir/redis.pid")" 2>/dev/null
        rm -rf "$_tl_redis_dir"
    }
    _tl_redis_up() { python3 -c 'import socket, sys; s=socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1); s.sendall(b"PING\r\n"); sys.exit(s.recv(7) != b"+PONG\r\n")' "$_tl_redis_port" 2>/dev/null; }
    if redis-server --port "$_tl_redis_port" --bind 127.0.0.1 --save "" --appendonly no \
            --dir "$_tl_redis_dir" --daemonize yes --pidfile "$_tl_redis_dir/redis.pid" \
            --logfile "$_tl_redis_dir/redis.log"; then
        _tl_stops+=(_tl_stop_redis)
        for _ in $(seq 50); do _tl_redis_up && break; sleep 0.1; done
    fi
    if _tl_redis_up; then
        export TIENLEN_TEST_REDIS_URL="redis://127.0.0.1:$_tl_redis_port/0"
    else
        echo "could not start Redis for the tests (see $_tl_redis_dir); its tests will skip" >&2
    fi
fi
trap _tl_stop_all EXIT
