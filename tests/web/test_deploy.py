"""What docs/deploy.md ships is what runs: ``deploy/systemd/tienlen@.service`` passes
``systemd-analyze verify`` (a broken copy of it does not), a redis-server runs on
``deploy/redis/tienlen.conf`` with its settings, and ``deploy/nginx/tienlen.conf``,
run by a real nginx in front of two real ``tienlen serve --redis`` processes (the helpers of
test_cluster_processes.py), spreads requests over both in turn, carries a WebSocket that plays
a hand, never passes ``/metrics`` on, refuses a body the server would refuse, and hands the
client's address on to a process that believes it."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tienlen.web.limits import Limits

from .conftest import IN_CI, WsClient, free_port
from .test_cluster_processes import (
    REDIS_SERVER,
    Process,
    Room,
    _needs,
    lease_owner,
    moves_logged,
    play_some,
)
from .waiting import poll

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "tienlen@.service"
ENV_EXAMPLE = ROOT / "deploy" / "systemd" / "tienlen.env.example"
NGINX_CONF = ROOT / "deploy" / "nginx" / "tienlen.conf"
REDIS_CONF = ROOT / "deploy" / "redis" / "tienlen.conf"
SHIPPED_BINARY = "/opt/tienlen/.venv/bin/tienlen"  # the unit's ExecStart, as shipped
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")  # not root's PATH


def _nginx_needed() -> str:
    if NGINX is None:
        if IN_CI:
            pytest.fail("no nginx: scripts/test.sh installs it (Debian's nginx)")
        pytest.skip("no nginx: scripts/test.sh installs it (Debian's nginx)")
    return NGINX


# ---------------------------------------------------------------------------------- systemd
def _verify(unit: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of the template ``unit`` as its instance for port 8001, its
    ExecStart pointed at a program that exists here (verify checks that it does)."""
    text = unit.read_text()
    assert f"ExecStart={SHIPPED_BINARY} serve " in text
    binary = Path(sys.executable).parent / "tienlen"
    if not os.access(binary, os.X_OK):  # the package not installed as a script: a stand-in
        binary = folder / "tienlen"
        binary.write_text("#!/bin/sh\n")
        binary.chmod(0o755)
    copy = folder / "tienlen@.service"
    copy.write_text(text.replace(f"ExecStart={SHIPPED_BINARY} ", f"ExecStart={binary} "))
    return subprocess.run([SYSTEMD_ANALYZE or "systemd-analyze", "verify", "--man=no",
                           str(folder / "tienlen@8001.service")],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="no systemd-analyze (systemd) here")
def test_the_unit_verifies_and_a_broken_one_does_not(tmp_path: Path) -> None:
    """verify's exit status passes a unit with an unknown key or a bad value (it only warns):
    a unit passes when verify says nothing at all. The same check fails a copy with a typo."""
    (tmp_path / "good").mkdir()
    done = _verify(UNIT, tmp_path / "good")
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "unit").write_text(UNIT.read_text().replace("Restart=on-failure",
                                                           "Restrat=on-failure"))
    done = _verify(broken / "unit", broken)
    assert "Unknown key 'Restrat'" in done.stderr


def _settings(unit: Path) -> dict[str, list[str]]:
    """The unit's ``Key=value`` lines (each key's values in order; comments left out)."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if line.strip() and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_serves_its_port_in_the_room_and_stops_by_handing_over() -> None:
    unit = _settings(UNIT)
    start = unit["ExecStart"][0].split()
    assert start[1:2] == ["serve"]
    for option, value in (("--port", "%i"), ("--db", "${TIENLEN_DB}"),
                          ("--redis", "${TIENLEN_REDIS}"), ("--cache-dir", "%C/tienlen")):
        assert start[start.index(option) + 1] == value
    assert unit["CacheDirectory"] == ["tienlen"]
    assert unit["KillSignal"] == ["SIGTERM"] and unit["KillMode"] == ["mixed"]
    assert unit["Restart"] == ["on-failure"]
    # long enough for uvicorn to close the sockets and the leases to be handed over
    assert int(unit["TimeoutStopSec"][0]) >= 20
    assert int(unit["LimitNOFILE"][0]) >= 65536
    for hardening in ("DynamicUser", "PrivateTmp", "NoNewPrivileges", "ProtectHome"):
        assert unit[hardening] == ["yes"], hardening
    assert unit["ProtectSystem"] == ["strict"]
    # every variable the unit reads is in the example environment file
    example = {line.split("=", 1)[0].lstrip("#") for line in ENV_EXAMPLE.read_text().splitlines()
               if "=" in line and not line.startswith("# ")}
    used = set(re.findall(r"\$\{?(TIENLEN_[A-Z_]+)", unit["ExecStart"][0]))
    assert used and used <= example, used - example
    assert "FORWARDED_ALLOW_IPS" in example


# ---------------------------------------------------------------------------------- Redis
def test_redis_reads_its_settings(tmp_path: Path) -> None:
    """A redis-server started on deploy/redis/tienlen.conf (on a port of the test's own) has
    the settings it says: nothing on disk, a memory ceiling that drops expiring keys."""
    if REDIS_SERVER is None:
        if IN_CI:
            pytest.fail("no redis-server: scripts/test.sh installs it")
        pytest.skip("no redis-server: scripts/test.sh installs it (Debian's redis-server)")
    import redis

    port = free_port()
    proc = subprocess.Popen([REDIS_SERVER, str(REDIS_CONF), "--port", str(port), "--bind",
                             "127.0.0.1", "--dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    client = redis.Redis(port=port, socket_connect_timeout=1, decode_responses=True)
    try:
        def said() -> dict[str, str]:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                return {k: v for key in ("save", "appendonly", "maxmemory",
                                         "maxmemory-policy", "client-output-buffer-limit")
                        for k, v in client.config_get(key).items()}
            except redis.ConnectionError:
                return {}

        settings = poll(said, bool, timeout=20)
    finally:
        client.close()
        proc.terminate()
        proc.wait(20)
    assert settings["save"] == "" and settings["appendonly"] == "no"
    assert settings["maxmemory"] == str(256 * 2**20)
    assert settings["maxmemory-policy"] == "volatile-ttl"
    assert "pubsub 268435456 67108864 60" in settings["client-output-buffer-limit"]


# ---------------------------------------------------------------------------------- nginx
def test_the_proxy_is_round_robin_and_refuses_what_the_server_would() -> None:
    text = NGINX_CONF.read_text()
    directives = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    # the headers the processes need, set for the whole server: a location that set one header
    # of its own would inherit none of these (the client's address is not seen through nginx
    # from this machine: it is checked here)
    headers = re.findall(r"^( *)proxy_set_header (\S+) (\S+);", directives, re.M)
    assert {name: value for _, name, value in headers} == {
        "Upgrade": "$http_upgrade", "Connection": "$connection_upgrade", "Host": "$http_host",
        "X-Forwarded-For": "$remote_addr", "X-Forwarded-Proto": "$scheme"}
    assert {len(indent) for indent, _, _ in headers} == {4}  # the server's, no location's
    upstream = re.search(r"upstream tienlen \{(.*?)\}", directives, re.S)
    assert upstream is not None
    for sticky in ("ip_hash", "hash ", "sticky", "least_conn", "random"):
        assert sticky not in upstream.group(1)
    size = re.search(r"client_max_body_size (\d+)k;", directives)
    assert size is not None and int(size.group(1)) * 1024 == Limits().max_body


def _render(folder: Path, port: int, upstreams: list[int], root: bool) -> Path:
    """The shipped configuration as it runs here: the upstream's servers the test's processes,
    the listen a free loopback port, everything else as shipped; inside an nginx.conf of the
    test's own (its logs and temporary files in ``folder``; the access log names the process
    each request went to)."""
    text = NGINX_CONF.read_text()
    servers = re.findall(r"^    server 127\.0\.0\.1:\d+;\n", text, re.M)
    assert len(servers) == 4
    text = text.replace("".join(servers), "".join(f"    server 127.0.0.1:{p};\n"
                                                  for p in upstreams))
    for shipped, here in (("    listen 80;\n", f"    listen 127.0.0.1:{port};\n"),
                          ("    listen [::]:80;\n", "")):
        assert text.count(shipped) == 1
        text = text.replace(shipped, here)
    (folder / "tienlen.conf").write_text(text)
    temp = " ".join(f"{kind}_temp_path {folder / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = folder / "nginx.conf"
    main.write_text(
        ("user root;\n" if root else "") +
        "worker_processes 1;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        "    log_format upstream '$request_method $uri $upstream_addr $status';\n"
        f"    access_log {folder / 'access.log'} upstream;\n"
        f"    {temp}\n"
        f"    include {folder / 'tienlen.conf'};\n"
        "}\n")
    return main


def _nginx_command(folder: Path, main: Path) -> list[str]:
    return [_nginx_needed(), "-p", str(folder), "-c", str(main), "-e", str(folder / "error.log"),
            "-g", f"daemon off; pid {folder / 'nginx.pid'};"]


def test_nginx_reads_the_shipped_configuration(tmp_path: Path) -> None:
    command = _nginx_command(tmp_path, _render(tmp_path, free_port(), [free_port(), free_port()],
                                               os.geteuid() == 0))
    done = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


class Nginx:
    """nginx running the shipped configuration in front of ``processes``."""

    def __init__(self, folder: Path, processes: list[Process]) -> None:
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        main = _render(folder, self.port, [p.port for p in processes], os.geteuid() == 0)
        self.proc = subprocess.Popen(_nginx_command(folder, main), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.STDOUT)
        poll(self._up, bool, timeout=30)

    def _up(self) -> bool:
        assert self.proc.poll() is None, (self.folder / "error.log").read_text()
        try:
            httpx.get(self.base + "/healthz", timeout=2)
            return True
        except httpx.TransportError:
            return False

    def ws(self, table_id: str) -> WsClient:
        from websockets.sync.client import connect

        return WsClient(connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=10,
                                proxy=None, additional_headers={"Origin": self.base},
                                ping_interval=None, legacy=True))

    def went_to(self, method: str, path: str) -> list[str]:
        """The processes' addresses the requests for ``path`` went to, in order (a WebSocket's
        line is written when it closes)."""
        lines = (self.folder / "access.log").read_text().splitlines()
        return [line.split()[2] for line in lines if line.split()[:2] == [method, path]]

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(20)


@pytest.fixture
def front(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Nginx, Room, list[Process]]]:
    """nginx in front of a room of two processes on this worker's PostgreSQL database and a
    Redis of the test's own. The second process believes forwarded headers from 192.0.2.1
    only (``FORWARDED_ALLOW_IPS``, as tienlen.env.example says), not from this machine."""
    _nginx_needed()
    _needs()
    room = Room(request.getfixturevalue("one_database"), tmp_path)
    made: Nginx | None = None
    try:
        redis = room.start_redis()
        a = Process(room.db, redis.url, tmp_path, "p0")
        monkeypatch.setenv("FORWARDED_ALLOW_IPS", "192.0.2.1")
        b = Process(room.db, redis.url, tmp_path, "p1")
        monkeypatch.delenv("FORWARDED_ALLOW_IPS")
        room.made.extend([a, b])
        a.wait_up()
        b.wait_up()
        (tmp_path / "nginx").mkdir()
        made = Nginx(tmp_path / "nginx", [a, b])
        yield made, room, [a, b]
    finally:
        if made is not None:
            made.end()
        room.end()


def test_nginx_in_front_of_two_processes(front: tuple[Nginx, Room, list[Process]]) -> None:
    nginx, room, (a, b) = front
    upstream = {f"127.0.0.1:{a.port}": a, f"127.0.0.1:{b.port}": b}

    # round-robin: each request to the next process, whoever asks
    answered = [httpx.get(nginx.base + "/healthz", timeout=10).json() for _ in range(6)]
    assert all(h["status"] == "ok" and h["redis"]["ok"] for h in answered)
    pids = [h["pid"] for h in answered]
    assert set(pids) == {a.proc.pid, b.proc.pid}
    assert all(one != next_one for one, next_one in itertools.pairwise(pids)), pids

    # a table made through nginx (its page's Origin checked against the Host nginx passes on),
    # Lan's seat and a spectator's: two WebSockets in a row, so one on each process, one of
    # them carried over Redis to the table's owner
    made = httpx.post(nginx.base + "/api/tables", timeout=10, headers={"Origin": nginx.base},
                      json={"name": "Lan", "players": 2, "quick": True, "seed": 3,
                            "options": "stake = 2"})
    assert made.status_code == 200, made.text
    table_id, token = made.json()["id"], made.json()["token"]
    lan = nginx.ws(table_id)
    watcher = nginx.ws(table_id)
    watched = watcher.hello()
    state, played = play_some(lan, lan.hello(token=token), 1000)
    assert state["view"]["is_over"] and played
    if not watched["view"]["is_over"]:  # the watcher sees the hand to its end too
        watcher.until(lambda m: m["type"] == "state" and m["view"]["is_over"])
    lan.close()
    watcher.close()
    assert moves_logged(room.db, table_id) == played
    went = poll(lambda: nginx.went_to("GET", f"/ws/{table_id}"), lambda w: len(w) == 2)
    assert {upstream[w] for w in went} == {a, b}
    owner = lease_owner(room.db, table_id)
    assert owner is not None and int(owner.split(":")[1]) in (a.proc.pid, b.proc.pid)

    # /metrics is the operator's: nginx answers 404 and passes nothing on; the process itself
    # answers its own machine
    assert httpx.get(nginx.base + "/metrics", timeout=10).status_code == 404
    assert poll(lambda: nginx.went_to("GET", "/metrics"), bool) == ["-"]
    assert httpx.get(a.base + "/metrics", timeout=10).status_code == 200

    # 100 KiB: refused by nginx (413) before any process reads it, as the server refuses it
    body = b'{"name": "' + b"x" * (100 * 1024) + b'"}'
    headers = {"Origin": nginx.base, "Content-Type": "application/json"}
    refused = httpx.post(nginx.base + "/api/tables", content=body, headers=headers, timeout=10)
    assert refused.status_code == 413 and "nginx" in refused.text
    # (nginx logs the refusal once it has read the rest of the body, after answering it)
    assert poll(lambda: nginx.went_to("POST", "/api/tables"), lambda w: len(w) == 2)[1] == "-"
    assert httpx.post(a.base + "/api/tables", content=body, timeout=10,
                      headers={**headers, "Origin": a.base}).status_code == 413

    # the client's address as nginx sends it: believed from 127.0.0.1 by default (the client
    # named is not this machine: /metrics refused), not by the process told to believe
    # another address only
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    assert httpx.get(a.base + "/metrics", headers=forwarded, timeout=10).status_code == 403
    assert httpx.get(b.base + "/metrics", headers=forwarded, timeout=10).status_code == 200
    # and the scheme: nginx's own, whatever the client says (the cookies Secure over https)
    https = {"X-Forwarded-Proto": "https"}
    assert _cookies_secure(a.base, https) == [True, True]
    assert _cookies_secure(nginx.base, https) == [False, False]


def _cookies_secure(base: str, headers: dict[str, str]) -> list[bool]:
    """Whether each cookie the page's first load sets (the session's, the device's) is Secure."""
    page = httpx.get(base + "/", headers=headers, timeout=10)
    assert page.status_code == 200
    return ["; secure" in cookie.lower() for cookie in page.headers.get_list("set-cookie")]

