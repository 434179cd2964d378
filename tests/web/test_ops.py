"""The operator's view of a server: ``/metrics`` (Prometheus's text format: its figures move as
tables are played, name no table, player or address, and are served where ``tienlen serve``
says, to whom it says), ``/healthz`` (200 while the database answers, 503 saying why when it
does not, and ok again once it is back) and ``tienlen serve --log-json`` (every line a JSON
object)."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import pickle
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")
import httpx
from prometheus_client.parser import text_string_to_metric_families

from tienlen.cli import main
from tienlen.web.app import create_app
from tienlen.web.ops import process
from tienlen.web.ops.health import Health, Probe
from tienlen.web.ops.logs import JsonLines
from tienlen.web.ops.options import Ops
from tienlen.web.workers.botpool import CPU_SECONDS, timed

from . import conftest
from .conftest import Server, free_port, running
from .waiting import in_a_thread, poll

Figures = dict[tuple[str, tuple[tuple[str, str], ...]], float]
# the only labels a tienlen figure has, each from a fixed set: no id, name or address fits
LABELS = {"outcome": {"accepted", "refused"}, "work": {"decision", "hint", "records", "engine"},
          "role": {"single", "leader", "follower"}, "engine": {"compiled", "preparing", "pure"}}


def read(text: str) -> Figures:
    """Every sample of a scrape, by its name and labels (the text must parse)."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def figures(server: Server) -> Figures:
    answer = server.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return read(answer.text)


def figure(got: Figures, name: str, **labels: str) -> float:
    return got.get((name, tuple(sorted(labels.items()))), 0.0)


def test_the_figures_move_as_a_table_is_played(server: Server) -> None:
    got = figures(server)
    assert figure(got, "tienlen_tables_owned") == 0 and figure(got, "tienlen_connections") == 0
    assert figure(got, "tienlen_commands_total", outcome="accepted") == 0
    assert figure(got, "tienlen_role", role="single") == 1
    # the process's own figures, on the app's own registry
    assert ("process_cpu_seconds_total", ()) in got and ("process_resident_memory_bytes", ()) in got
    assert any(name == "python_info" for name, _ in got)
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 11}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    got = poll(lambda: figures(server),
               lambda got: figure(got, "tienlen_event_latency_seconds_count") >= 1)
    assert figure(got, "tienlen_tables_owned") == 1 and figure(got, "tienlen_connections") == 1
    assert figure(got, "tienlen_commands_total", outcome="accepted") == 1  # its hello
    assert figure(got, "tienlen_moves_stored_total") >= 1  # the bots' before Lan's turn
    assert figure(got, "tienlen_events_total") >= 2  # its welcome and the table's state
    # its hello's wait for its welcome: in a bucket, and under a minute all told
    assert figure(got, "tienlen_event_latency_seconds_bucket", le="+Inf") == 1
    assert 0 < figure(got, "tienlen_event_latency_seconds_sum") < 60
    me.send_raw("{oops")
    assert "not JSON" in me.error()["reason"]
    poll(lambda: figures(server),
         lambda got: figure(got, "tienlen_commands_total", outcome="refused") == 1)
    state = me.state if me.state is not None and me.state["view"]["turn"] == me.seat else \
        me.until(lambda m: m["type"] == "state" and m["view"]["turn"] == me.seat)
    stored = figure(got, "tienlen_moves_stored_total")
    me.send(type="play", version=state["version"], move=state["view"]["legal"][0])
    got = poll(lambda: figures(server),
               lambda got: figure(got, "tienlen_moves_stored_total") > stored
               and figure(got, "tienlen_event_latency_seconds_count") == 2)  # hello, play
    assert figure(got, "tienlen_commands_total", outcome="accepted") == 2
    assert figure(got, "tienlen_refused_writes_total") == 0
    assert figure(got, "tienlen_lease_takeovers_total") == 0
    services = server.app.state.services
    services.metrics.took_over()  # the table leases' hook
    assert figure(figures(server), "tienlen_lease_takeovers_total") == 1
    # work made in the bot pool's worker (a process of its own): its CPU is counted
    pool = services.lobby.committer.pool
    assert figure(got, "tienlen_bot_cpu_seconds_total", work="records") == 0
    assert server.call(lambda: pool.record_work(sum, range(3_000_000))).result(120) > 0
    got = poll(lambda: figures(server),
               lambda got: figure(got, "tienlen_bot_cpu_seconds_total", work="records") > 0)
    assert figure(got, "tienlen_bot_cpu_seconds_total", work="records") < 60
    me.close()
    poll(lambda: figures(server), lambda got: figure(got, "tienlen_connections") == 0)


def test_a_workers_cpu_seconds_come_back_with_its_answer_or_its_failure() -> None:
    answer, seconds = timed(sum, range(1_000_000))
    assert answer == 499999500000 and 0 < seconds < 60
    with pytest.raises(ValueError) as failed:
        timed(int, "not a number")
    crossed = pickle.loads(pickle.dumps(failed.value))  # as it comes back from a worker
    assert 0 <= vars(crossed)[CPU_SECONDS] < 60


def test_the_figures_name_no_table_no_player_and_no_address(server: Server) -> None:
    host = server.browser()
    made = host.post("/api/tables", {"name": "Zephyrine", "table_name": "Quiet Room Quokka",
                                     "private": True, "players": 3, **conftest.UNRATED}).json()
    guest = server.browser()
    conn = guest.ws(made["id"])
    conn.hello()
    conn.send(type="join", name="Xanthippe")
    conn.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    conn.send(type="talk", text="meet me at the usual place")
    text = poll(lambda: server.get("/metrics").text,
                lambda text: "tienlen_connections 1.0" in text)
    for secret in (made["id"], made["token"], "Zephyrine", "Quokka", "Xanthippe", "usual place",
                   "127.0.0.1", host.cookie, guest.cookie):
        assert secret not in text
    for (name, labels), _ in read(text).items():
        if name.startswith("tienlen_"):
            assert all(key == "le" or value in LABELS[key] for key, value in labels), (name, labels)
    conn.close()


def test_the_main_port_answers_metrics_to_this_machine_only_unless_told(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from_outside = {"X-Forwarded-For": "203.0.113.7"}  # as a proxy here says (uvicorn believes it)
    for server in running(sqlite_url):
        assert server.get("/metrics").status_code == 200
        refused = httpx.get(server.base + "/metrics", headers=from_outside, timeout=10)
        assert refused.status_code == 403
        assert refused.headers["content-type"] == "application/problem+json"
        assert "--metrics-public" in refused.json()["detail"]
        assert "tienlen_" not in refused.text
        # the health is everyone's: a load balancer elsewhere asks it
        assert httpx.get(server.base + "/healthz", headers=from_outside, timeout=10).status_code == 200
    monkeypatch.setattr(conftest, "create_app", functools.partial(
        create_app, operations=Ops(metrics_public=True)))
    for server in running(sqlite_url):
        opened = httpx.get(server.base + "/metrics", headers=from_outside, timeout=10)
        assert opened.status_code == 200 and "tienlen_tables_owned" in opened.text


class Uvicorn:
    """uvicorn stood in for: each run's app and options kept, after ``during(app)`` ran (what
    the test does while the server "runs")."""

    def __init__(self) -> None:
        self.runs: list[dict[str, Any]] = []
        self.during: Callable[[Any], None] = lambda app: None

    def run(self, app: Any, **options: Any) -> None:
        self.runs.append({"app": app, **options})
        self.during(app)


@pytest.fixture
def serving(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Uvicorn]:
    """``tienlen serve`` as far as uvicorn (stood in for), in ``tmp_path``; the logging's
    handlers and levels as they were, after."""
    import uvicorn

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("TIENLEN_PURE", "1")  # no compiled engine to prepare
    stand_in = Uvicorn()
    monkeypatch.setattr(uvicorn, "run", stand_in.run)
    loggers = [logging.getLogger(name) for name in ("tienlen", "uvicorn", "uvicorn.error",
                                                     "uvicorn.access")]
    kept = [(logger.handlers[:], logger.level, logger.propagate) for logger in loggers]
    yield stand_in
    for logger, (handlers, level, propagate) in zip(loggers, kept, strict=True):
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


async def main_port(app: Any, path: str) -> httpx.Response:
    """``path`` asked of ``app`` itself (its lifespan not run), as a client at 127.0.0.1."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://test") as http:
        return await http.get(path)


def test_a_metrics_address_serves_them_there_and_not_on_the_main_port(
        serving: Uvicorn, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    apart = free_port()
    seen: dict[str, Any] = {}

    def during(app: Any) -> None:
        there = httpx.get(f"http://127.0.0.1:{apart}/metrics", timeout=10)
        seen["there"] = (there.status_code, read(there.text))
        seen["main"] = in_a_thread(main_port(app, "/metrics")).status_code  # from 127.0.0.1

    serving.during = during
    db = f"sqlite:///{tmp_path / 'apart.sqlite3'}"
    assert main(["serve", "--db", db, "--metrics-address", f"127.0.0.1:{apart}"]) == 0
    status, got = seen["there"]
    assert status == 200 and figure(got, "tienlen_tables_owned") == 0
    assert ("process_cpu_seconds_total", ()) in got
    assert seen["main"] == 404
    assert f"/metrics (Prometheus) at http://127.0.0.1:{apart}/metrics, not on the main port" \
        in capsys.readouterr().out
    with pytest.raises(httpx.ConnectError):  # the listener stops with the server
        httpx.get(f"http://127.0.0.1:{apart}/metrics", timeout=10)
    # an address that is not one, or that cannot be listened on, is refused with a reason
    with pytest.raises(SystemExit):
        main(["serve", "--metrics-address", "9100"])
    assert "'9100' is not HOST:PORT" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--db", db, "--metrics-address", f"127.0.0.1:{port}"]) == 2
    assert f"cannot serve /metrics at http://127.0.0.1:{port}/: " in capsys.readouterr().err


def test_health_is_ok_while_the_database_answers(server: Server) -> None:
    answer = server.get("/healthz")
    assert answer.status_code == 200
    health = answer.json()
    assert health["status"] == "ok" and health["role"] == "single"
    assert health["database"] == {"ok": True, "dialect": "sqlite"}
    assert health["redis"] is None  # the server holds no Redis client
    assert health["pid"] == os.getpid() and health["process"] == process.name()
    assert 0 <= health["uptime"] < 600 and health["tables"] == 0


def test_health_is_503_saying_why_while_the_database_is_away_then_ok_again(
        tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    for server in running(f"sqlite:///{folder / 'tienlen.sqlite3'}"):
        assert server.get("/healthz").status_code == 200
        # the disk is gone: the pool's idle connections are dropped, and a new one cannot open
        # the file (its folder is elsewhere, so even root cannot)
        folder.rename(tmp_path / "elsewhere")
        server.call(server.app.state.services.repo.engine.dispose)
        answer = server.get("/healthz")
        assert answer.status_code == 503
        health = answer.json()
        assert health["status"] == "degraded" and health["database"]["ok"] is False
        assert "unable to open database file" in health["database"]["error"]
        assert "Traceback" not in answer.text
        (tmp_path / "elsewhere").rename(folder)  # back
        answer = server.get("/healthz")
        assert answer.status_code == 200 and answer.json()["database"]["ok"] is True


class Redis:
    """A stand-in for a redis-py client: its blocking ``ping`` (or, ``asyncio``, its asyncio
    client's, whose ``ping()`` gives what to await)."""

    def __init__(self, up: bool, asyncio_client: bool = False) -> None:
        self.up = up
        self.asyncio_client = asyncio_client

    def ping(self) -> Any:
        if self.asyncio_client:
            return self._ping()
        if not self.up:
            raise ConnectionError("Error 111 connecting to localhost:6379. Connection refused.")
        return True

    async def _ping(self) -> bool:
        if not self.up:
            raise ConnectionError("Connection refused.")
        return True


def test_health_pings_redis_when_the_server_holds_a_client(server: Server) -> None:
    services = server.app.state.services
    state = server.app.state

    def holding(client: Any) -> None:  # the server's checks, as if it held ``client``
        state.health = Health(services.repo.engine, lambda: client)

    for client in (Redis(up=True), Redis(up=True, asyncio_client=True)):
        holding(client)
        answer = server.get("/healthz")
        assert answer.status_code == 200 and answer.json()["redis"] == {"ok": True}
    for client in (Redis(up=False), Redis(up=False, asyncio_client=True)):
        holding(client)
        answer = server.get("/healthz")
        assert answer.status_code == 503 and answer.json()["status"] == "degraded"
        assert answer.json()["redis"]["ok"] is False
        assert "ConnectionError: " in answer.json()["redis"]["error"]
        assert answer.json()["database"]["ok"] is True
    holding(None)
    assert server.get("/healthz").json()["redis"] is None


def test_a_check_that_does_not_answer_is_waited_for_a_while_and_never_twice() -> None:
    started: list[int] = []

    async def silent() -> dict[str, Any]:
        started.append(1)
        await asyncio.sleep(3600)  # a database host gone silent
        return {"ok": True}

    async def probe() -> None:
        check = Probe(silent)
        for _ in range(3):  # a load balancer's probes, one after another
            assert await check(timeout=0.01) == {"ok": False, "error": "no answer within 0.01 s"}
        assert started == [1]  # one check under way, not three
        assert check._running is not None
        check._running.cancel()

    in_a_thread(probe())


def test_a_log_record_is_one_json_line_with_its_table() -> None:
    record = logging.LogRecord("tienlen.web", logging.WARNING, __file__, 1,
                               "table %s: its writes were not stored (%s)", ("t1", "disk full"),
                               None)
    record.table = "t1"
    line = JsonLines().format(record)
    assert "\n" not in line
    said = json.loads(line)
    assert said["level"] == "WARNING" and said["logger"] == "tienlen.web"
    assert said["event"] == "table t1: its writes were not stored (disk full)"
    assert said["table"] == "t1" and said["pid"] == os.getpid()
    assert said["process"] == process.name() and said["time"].endswith("+00:00")
    try:
        raise RuntimeError("boom\non two lines")
    except RuntimeError:
        failed = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Lỗi: %s",
                                   ("bàn",), sys.exc_info())
    said = json.loads(JsonLines().format(failed))
    assert said["event"] == "Lỗi: bàn" and "table" not in said
    assert said["error"].startswith("Traceback") and "RuntimeError: boom" in said["error"]


def test_serve_log_json_makes_every_line_json(serving: Uvicorn, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def during(app: Any) -> None:  # what the server logs while it runs
        logging.getLogger("tienlen.web").warning("table %s could not be closed", "t9",
                                                 extra={"table": "t9"})
        logging.getLogger("uvicorn.error").warning("a uvicorn warning")

    serving.during = during
    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'json.sqlite3'}", "--log-json"]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    lines = [json.loads(line) for line in err.splitlines()]
    assert {"time", "level", "logger", "pid", "process", "event"} <= set(lines[0])
    assert lines[0]["event"].startswith("tienlen: serving on http://127.0.0.1:8000/")
    assert any(line["event"].startswith("tienlen: limits: ") for line in lines)
    closed = [line for line in lines if line.get("table") == "t9"]
    assert closed and closed[0]["event"] == "table t9 could not be closed"
    assert closed[0]["level"] == "WARNING"
    assert any(line["event"] == "a uvicorn warning" and line["logger"] == "uvicorn.error"
               for line in lines)
    assert serving.runs[0]["log_config"] is None  # configured already: uvicorn leaves it
    assert serving.runs[0]["log_level"] == "warning"


def test_without_log_json_the_logs_stay_as_they_were(serving: Uvicorn, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn.config

    assert main(["serve", "--db", f"sqlite:///{tmp_path / 'plain.sqlite3'}"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("tienlen: serving on http://127.0.0.1:8000/")
    assert "/metrics (Prometheus) at http://127.0.0.1:8000/metrics, to clients on this machine only" \
        in out
    assert serving.runs[0]["log_config"] is uvicorn.config.LOGGING_CONFIG
    assert not logging.getLogger("tienlen").handlers
