"""Benchmark of ``tienlen serve``: restart time and memory per idle table, then the load of many
bot tables and WebSocket clients on one server process.

Restart: builds a database of --restart-tables bots-only tables holding
--restart-moves stored moves (played by the engine, stored as the server
stores them: log rows in group commits, a snapshot where each hand is dealt),
and times rebuilding every table from it (what a server does when it starts)
at half that history and at all of it: with snapshots the time should stay
flat as history grows (target: under 5 s for 1,000 tables and 200,000 moves).
It also times the first start of the same database without its snapshots (an
older database: every move replayed once) and prints the memory each
rebuilt, idle table takes.

Load:
Starts the server on 127.0.0.1 (a fresh SQLite file), creates TABLES tables of
four greedy bots that play hand after hand (a bot waits --bot-delay seconds
before it plays, as at a real table), connects CLIENTS spectators spread over
them and, with --players, more tables where seat 0 is a scripted player who
answers at once. For --seconds it counts the states the spectators receive and
how late each arrives: from the moment the bot move was due (so the server's
queueing, storing and sending all count) to the client's receipt. Prints the
tables held, events per second, the latency percentiles, CPU time per event,
and whether the issue's target (500 bot tables, p99 under 100 ms) is met; the
exit status is 0 when it is. Only loopback traffic; it stops by itself. The
clients share the machine with the server: take figures when the machine is
otherwise idle (the load average is printed).

    python benchmarks/bench_web.py --tables 500 --clients 500 --seconds 20
    python benchmarks/bench_web.py --restart-only   # the restart figures alone
    python benchmarks/bench_web.py --replays-only   # the event loop's lag while replays run
    python benchmarks/bench_web.py --ratings        # the rating update's cost
    python benchmarks/bench_web.py --signin         # argon2's cost, the loop's lag while signing in
    python benchmarks/bench_web.py --search         # the bot tables beside search-bot tables
    python benchmarks/bench_web.py --match          # quick match: 200 players over a minute
    python benchmarks/bench_web.py --wire           # the bytes a seat receives over a hand
    python benchmarks/bench_web.py --bot-tables 500 --against main  # a server's cost, before and after
    python benchmarks/bench_web.py --processes 2 --db postgresql+psycopg://postgres@HOST/DB  # a room of many

Bot tables (--bot-tables N, N 100 when not given; alone): a server's cost per event, for
comparing two versions of the code. A fresh server (``tienlen serve`` in a process of its own,
on a fresh SQLite file, every client limit off, ``TIENLEN_PURE=1``: greedy bots and the room
never use the compiled fast path, which a revision's fresh worktree would otherwise compile
first, for minutes) gets N tables of four greedy bots (--bot-delay, 0.2 s here), each watched by
one spectator in this process (a bots-only table deals only while watched) that applies every
delta to the state it holds, as the page does (``tienlen.web.deltas.apply_delta``; a delta for a
state it does not hold makes it ask for the whole state: counted as a sync). Once every
spectator holds its table and --warmup seconds passed, for --seconds (10 here) it counts the
states the spectators receive (events: moves and deals), the CPU time the server's process and
the processes it started (its bot pool's workers) used (Linux's /proc; the spectators' own CPU is
printed apart), and how late each state arrives: from its ``at`` (when the move was due or the
change made, the server's clock) to its receipt by the spectator (so it includes the server's
queueing, storing, sending, and the spectators' process picking it up). Prints events/s, server
CPU per event, the latency's p50, p99 and max, for each of --rounds rounds (2) and for all of a
server's rounds together. With --against REV (a git revision), REV is checked out in a
temporary worktree (``git worktree add --detach``, removed at the end) and its server (run with
PYTHONPATH at that worktree's src) is measured too, in turn with this checkout's (before, after,
after, before, ...: the order turned round every other round, so that a change in the machine's
load over the run weighs on both alike; each round a fresh server, one at a time, with the same
client code, this checkout's); then the ratio after/before of events/s, CPU per event, p50 and p99. With the
defaults (100 tables, 2 rounds of 3 s + 10 s) a run with --against takes about 80 s on 2
cores, with --bot-tables 500 two to three minutes (the 500 tables made over HTTP each round,
slower on a busy machine). The machine's load average is printed with each round: the
latency, unlike the CPU per event, counts the time the server waits for a core, so other work on
the machine shows in it.

Processes (--processes N, N >= 1, with --db URL: a PostgreSQL database it may empty, every table
dropped and made again before each room): a room of many ``tienlen serve --redis`` processes.
Each step of --ladder (tables per process; 25, 50, 100, 200, 400, 800) starts a fresh room of one
process and a fresh room of N, in turn (one then N, then N then one, ...: a drift of the
machine's load weighs on both), each process run as --bot-tables runs its server
(``TIENLEN_PURE=1``, greedy bots, every client limit off, --bot-delay 0.2 s), on that database
and one Redis (a redis-server of the benchmark's own on a free port, or --redis URL). Each table
is made through one process, which owns it (each process's /healthz is checked to serve those),
and is watched by one spectator in this process connected to the next process: with N >= 2 every
event crosses the bus (``tienlen.web.bus``) to it; alone, to the owner. It is measured as
--bot-tables measures (--warmup 3 s, then --seconds 6 s): events/s, the latency from each
state's ``at`` to its receipt, each process's CPU (its own and its bot pool's), Redis's apart.
A number of processes stops at its first step whose p99 is 100 ms or more, or where a process
used 90% of a core or more (its event loop can go no faster; --every-step: every step anyway).
Then --refine (2) more steps for each, each halfway between its most tables that met the target and
the next step above (200 met, 400 not: 300, then 250 or 350), so that a figure is not read off a
doubling. Its tables per server core: the tables of its largest step under the target, over the
cores its processes used there (their CPU seconds over the window's, summed; not the count of
processes: on a machine shared with the spectators, Redis, PostgreSQL and other work a process is
not given a whole core, and the CPU it used is what its tables cost). The target: N processes keep
at least 0.85 of one process's tables per core. Beside it, at each step both ran, whatever their
p99, each one's CPU per event and their ratio ("events per core kept": the bus's cost at that
load; tables over cores would flatter a starved room, whose tables play slower than their bot
delay).

Then the take-over: a room of N processes (2 at least), --takeover-tables (20) tables made
through the first, each watched from the second; once every spectator holds its table the first
is killed (SIGKILL, no hand-over); each spectator connects again as a page does (on close at
once, then every 0.25 s), to the second, until a connection opened after the kill is sent the
table's state by its new owner, and then its next move. Prints the median and max of both, and
of the close of the connection of before the kill (the second saw the first gone), from the
kill (target: every table held again within 10 s; a lease, and a process's liveness key in
Redis, last 6 s; --takeover-only: this alone). The exit status is 0 when both targets are met
(with N = 1: when a step met the p99 target). A step takes 20 to 30 s a room on 2 cores (the
room started, its tables made over HTTP, 9 s watched), the take-over 30 to 40 s: a run with the
defaults took 1 to 4 minutes there, as far as its ladder went; with --every-step --ladder
25,50,100,200, about 3.5 minutes.

Search: the load above twice, each on a server of its own with a one-worker bot pool
(--bot-workers 1; 0: a server of before the pool, whose search bots decide on its event loop):
first as it is (the baseline), then with --search-tables more tables of
four search bots, each watched by one spectator (the search bots decide in the pool). Prints
the other tables' latency percentiles beside the baseline's and their ratio (target: p99 at
most 2x the baseline's), the search tables' own move lag (from the move's due time to its
receipt: the pool's queue and the decision count), and, with --players, the players' round
trip (move sent -> its state received; p95) in both runs.

Quick match: --match-players players (ratings drawn around a new player's, mu 25 +- 5) press
Play now for 4-seat southern tables over --match-arrivals seconds (a Poisson process), in
this process: the server's queue (SQLite), matchmaker, lobby and tables, the matchmaker
looking every 0.5 s and bots filling after --match-wait seconds, as ``tienlen serve`` does.
--match-speed N runs the clock N times faster (arrivals, the wait and the matchmaker's looks
all divided by N; the figures are given back in the players' seconds). Prints the wait from
Play now to a seat (p50, p95, max), the share seated with bots (at a table made with bots, or
given a bot's seat from its next hand), the tables made and the matchmaker's cost per look.

Ratings: the cost of rating one finished hand (openskill's Plackett-Luce update of every
seat, two players and the rest bots at their anchors) alone, and with the store's
transaction (read, compute, write the ratings and their points of the curve) in memory and
in an SQLite file, for a 4- and an 8-seat hand; microseconds per update, the best of 3.

Sign-in: one argon2id hash and one check (argon2-cffi's defaults, the best of 10, in this
process), then a server in this process (uvicorn in a thread, the accounts' try limits off)
with --signin-clients accounts: a 10 ms ticker on its event loop measures how late each tick
wakes (p99 and max), first for --seconds with nothing to do, then while --signin-clients clients
(another process) sign in again and again, each its own account, so that that many sign-ins are
under way at once; the lag while signing in is printed beside the idle figures, and as a ratio.

Wire: the bytes seat 0 (a player who answers at once) and a spectator receive over one whole
8-player mien-nam hand of a practice table (its bots greedy; --wire-seed), in this process: the
room, its committer and its connections as the server runs them, without the network. Printed
before and after, from the one hand: as sent now (the first state whole, then what changed:
deltas) and as the whole state at every change with the history twice, as text and as events
(what the server sent before deltas: each message the connection got counted again at that
moment as that whole state). Also printed by the default run.

Replays: a 4- and an 8-player hand's replay against one load of its record (in this process: the replay
steps through the hand once), then a server with one finished 8-player hand, whose event loop
lag is measured (how long /healthz, answered on the loop, takes, every 20 ms) idle and while
--replay-clients clients ask for that hand's replay again and again (worker processes make
them, so the lag should stay near the idle figure).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import websockets

if TYPE_CHECKING:
    from tienlen.web.room.room import Room

TARGET_TABLES = 500
TARGET_P99 = 0.100  # seconds
TARGET_RESTART = 5.0  # seconds, for 1,000 tables holding 200,000 moves
TARGET_KEPT = 0.85  # --processes: 2 processes' tables per server core over one process's
TARGET_TAKEOVER = 10.0  # seconds from a kill -9 to its tables held again by another process
TAKEOVER_WAIT = 60.0  # seconds a take-over is waited for at most
SATURATED = 0.9  # a process using this share of a core (its one event loop) can go no faster
NO_CLIENT_LIMITS = ["--tables-per-client", "0", "--tables-per-address", "0",
                    "--creates-per-minute", "0", "--creates-per-address", "0",
                    "--messages-per-second", "0", "--messages-per-address", "0",
                    "--connections-per-address", "0", "--replays-per-client", "0"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str, bot_delay: float, bot_workers: int | None = None,
                 code: Path | None = None, pure: bool = False, redis: str | None = None,
                 log: Path | None = None) -> subprocess.Popen[bytes]:
    """``tienlen serve`` in a process of its own; ``code``: the ``src`` folder it runs from
    (first on its PYTHONPATH; None: this process's own path); ``pure``: without the compiled
    fast path (``TIENLEN_PURE=1``: nothing compiled at start); ``redis``: a process of a room of
    many (``--redis``); ``log``: the file its output goes to (None: its errors kept in a pipe,
    read if it stops)."""
    cmd = [sys.executable, "-m", "tienlen.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", db, "--bot-delay", str(bot_delay), *NO_CLIENT_LIMITS]
    if bot_workers is not None:
        cmd += ["--bot-workers", str(bot_workers)]
    if redis is not None:
        cmd += ["--redis", redis]
    env = {**os.environ, **({"PYTHONPATH": str(code)} if code is not None else {}),
           **({"TIENLEN_PURE": "1"} if pure else {})}
    if log is None:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    with log.open("ab") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)


def said_by(proc: subprocess.Popen[bytes], log: Path | None = None) -> str:
    """What a stopped server said: its log file's end, else its errors' pipe."""
    if log is not None:
        return log.read_text(errors="replace")[-4000:] if log.exists() else ""
    return proc.stderr.read().decode(errors="replace") if proc.stderr else ""


async def wait_up(base: str, proc: subprocess.Popen[bytes], log: Path | None = None) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(200):
            if proc.poll() is not None:
                raise SystemExit(f"the server stopped: {said_by(proc, log)}")
            try:
                if (await http.get(base + "/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


async def as_a_browser(base: str, body: dict[str, object]) -> httpx.Response:
    """``POST /api/tables`` from a new browser (its cookies from the lobby, its own page's
    headers): a rated table seats only an identity; the player then plays by the seat token."""
    page = {"Origin": base, "Sec-Fetch-Site": "same-origin"}
    async with httpx.AsyncClient(timeout=120, headers=page) as own:
        await own.get(base + "/", headers={"Sec-Fetch-Site": "none"})
        return await own.post(base + "/api/tables", json=body)


async def create_tables(base: str, n: int, player: bool = False,
                        level: str = "greedy") -> list[tuple[str, str]]:
    """``n`` quick tables of ``level`` bots (with ``player``: seat 0 is a player's); (id, token)
    each."""
    made: list[tuple[str, str]] = []
    async with httpx.AsyncClient(timeout=120) as http:
        sem = asyncio.Semaphore(16)

        async def one(k: int) -> None:
            body: dict[str, object] = {"quick": True, "players": 4, "level": level}
            if player:
                body["name"] = "Player"
            async with sem:
                r = await (as_a_browser(base, body) if player
                           else http.post(base + "/api/tables", json=body))
                r.raise_for_status()
                made.append((r.json()["id"], r.json()["token"] or ""))

        await asyncio.gather(*(one(k) for k in range(n)))
    return made


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # bot tables: from the move's due time to receipt
        self.round_trips: list[float] = []  # player tables: from sending a move to its state
        self.events = 0
        self.errors = 0
        self.refusals = 0
        self.syncs = 0  # deltas for a state the client did not hold (the whole state asked again)
        self.watching = 0  # spectators that hold their table's state
        self.measuring = False


class Held:
    """The table's state a connection holds, each delta applied to it as the page does
    (:func:`tienlen.web.deltas.apply_delta`)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def take(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The state held after ``msg`` (a ``state`` or a ``delta``); None: a delta for a
        state not held (the client asks for the whole state: ``sync``)."""
        from tienlen.web.room.deltas import apply_delta

        made = msg if msg["type"] == "state" else \
            apply_delta(self.state, msg) if self.state is not None else None
        if made is not None:
            self.state = made
        return made


async def watch(url: str, stats: Stats) -> None:
    """A spectator: every state it receives counts (deltas applied to the state it holds),
    with how late it arrives."""
    try:
        async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
            seq = 1
            await ws.send(json.dumps({"type": "hello", "seq": seq}))
            last, held = -1, Held()
            async for raw in ws:
                now = time.time()
                msg = json.loads(raw)
                if msg.get("type") not in ("state", "delta") or msg["version"] <= last:
                    continue
                if held.take(msg) is None:
                    seq += 1
                    stats.syncs += 1
                    await ws.send(json.dumps({"type": "sync", "seq": seq}))
                    continue
                if last < 0:
                    stats.watching += 1
                last = msg["version"]
                if stats.measuring:
                    stats.events += 1
                    stats.latencies.append(now - msg["at"])
    except (OSError, websockets.WebSocketException):
        stats.errors += 1


async def play(url: str, token: str, stats: Stats) -> None:
    """A player who answers at once (its first legal move, the next hand when one ends):
    the time from sending a move to receiving the state it makes is a round trip."""

    try:
        async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
            seq = 1
            await ws.send(json.dumps({"type": "hello", "seq": seq, "token": token}))
            me: int | None = None
            sent: tuple[int, float] | None = None  # (version acted on, when)
            held = Held()
            async for raw in ws:
                now = time.time()
                msg = json.loads(raw)
                if msg["type"] in ("state", "delta"):
                    made = held.take(msg)
                    if made is None:  # not for the state held: the whole of it again
                        seq += 1
                        await ws.send(json.dumps({"type": "sync", "seq": seq}))
                        continue
                    msg = made
                if msg["type"] == "welcome":
                    me = msg["seat"]
                    continue
                if msg["type"] == "error":
                    stats.refusals += 1
                    sent = None
                    continue
                if msg["type"] != "state":
                    continue
                version, view = msg["version"], msg["view"]
                if sent is not None and version > sent[0]:
                    if stats.measuring:
                        stats.round_trips.append(now - sent[1])
                    sent = None
                if sent is not None or view is None or me is None:
                    continue
                seq += 1
                if view["is_over"]:
                    await ws.send(json.dumps({"type": "next_hand", "seq": seq, "version": version}))
                elif view["legal"] and (view["turn"] == me or view["prompt"]):
                    await ws.send(json.dumps({"type": "play", "seq": seq, "version": version,
                                              "move": view["legal"][0]}))
                else:
                    continue
                sent = (version, time.time())
    except (OSError, websockets.WebSocketException):
        stats.errors += 1


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (None: no such process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux; NaN elsewhere)."""
    fields = _stat(pid)
    if fields is None:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and of those it started (a server and its
    bot pool's workers): each living one's own, and what its ended children had used (Linux;
    NaN elsewhere)."""
    fields = _stat(pid)
    if fields is None:
        return float("nan")
    ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    children = (tree_cpu_seconds(child) for child in _children(pid))
    return ticks / os.sysconf("SC_CLK_TCK") + sum(c for c in children if c == c)  # NaN: ended


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


def restart_figures(tables: int, moves: int) -> bool:
    """Build the history, time the rebuild at half and at all of it; True when the target is met."""
    import gc
    import shutil

    from tienlen.web.lobby.lobby import Lobby, NewTable
    from tienlen.web.room.room import Client
    from tienlen.web.schema import open_repository
    from tienlen.web.table.staged import Staged

    folder = Path(tempfile.mkdtemp(prefix="tienlen-restart-"))
    url = f"sqlite:///{folder / 'history.sqlite3'}"
    try:
        repo = open_repository(url)
        lobby = Lobby(repo, bot_delay=0.0)
        spec = NewTable(quick=True, players=4, level="random")
        t0 = time.perf_counter()
        rooms = [lobby.create(spec)[0] for _ in range(tables)]
        watching = Client(lambda _text: None)  # watched: the bots-only tables deal hand after hand
        for room in rooms:
            room.clients.add(watching)
        stored = 0
        times: list[tuple[int, float]] = []
        for goal in (moves // 2, moves):
            while stored < goal:
                staged = [(room, action) for room in rooms
                          if isinstance(action := room.clock.owed(), Staged)][:goal - stored]
                repo.append_many([action.write for _, action in staged])
                for room, action in staged:
                    room.table.install(action)
                stored += len(staged)
            print(f"history: {tables} tables, {stored} stored moves (built in "
                  f"{time.perf_counter() - t0:.0f} s)")
            elapsed, per_table, replayed = _time_restore(url, tables)
            times.append((stored, elapsed))
            print(f"  restart: {elapsed:.2f} s to rebuild {tables} tables from snapshots and the "
                  f"{replayed} moves after them; memory per idle table {per_table / 1024:.1f} KiB")
        repo.close()
        old = folder / "old.sqlite3"
        shutil.copy(folder / "history.sqlite3", old)
        _drop_snapshots(f"sqlite:///{old}")
        elapsed, _, _ = _time_restore(f"sqlite:///{old}", tables)
        print(f"  the same database without snapshots (its first start replays all {stored} "
              f"moves, then stores snapshots): {elapsed:.2f} s")
        flat = times[1][1] < 1.5 * times[0][1] + 0.2
        met = times[-1][1] < TARGET_RESTART and flat
        print(f"target (restart of {tables} tables / {stored} moves under {TARGET_RESTART:.0f} s, "
              f"flat as history grows): {'MET' if met else 'NOT MET'} "
              f"({times[0][1]:.2f} s at {times[0][0]} moves, {times[1][1]:.2f} s at {times[1][0]})")
        gc.collect()
        return met
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _time_restore(url: str, tables: int) -> tuple[float, float, int]:
    """Seconds to rebuild every table stored at ``url``, the memory each rebuilt (idle) table
    holds, in bytes (traced by tracemalloc in a second, untimed rebuild), and how many stored
    moves a rebuild replays."""
    import gc
    import tracemalloc

    from tienlen.web.lobby.lobby import Lobby
    from tienlen.web.schema import open_repository

    gc.collect()
    t0 = time.perf_counter()
    repo = open_repository(url)
    held = Lobby(repo, bot_delay=0.0).restore()
    elapsed = time.perf_counter() - t0
    assert held == tables, f"rebuilt {held} tables of {tables}"
    replayed = sum(len(t.log) for t in repo.load_all())
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    lobby = Lobby(repo, bot_delay=0.0)
    lobby.restore()
    gc.collect()
    per_table = (tracemalloc.get_traced_memory()[0] - base) / max(1, held)
    tracemalloc.stop()
    repo.close()
    del lobby
    gc.collect()
    return elapsed, per_table, replayed


def _drop_snapshots(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM tienlen_snapshots"))
    engine.dispose()


def wire_bytes(seed: int) -> None:
    """Print the bytes a seat and a spectator receive over one whole 8-player mien-nam hand,
    after (deltas) and before (whole states with the history as text) from the one hand."""
    print(asyncio.run(_wire_hand(seed)))


class _Counted:
    """One connection to ``room``: its bytes as sent, and as the whole state at each change
    would have been (the history as text beside its events), counted as each is delivered."""

    def __init__(self, room: Room) -> None:
        from tienlen.web.room.room import Client

        self.room = room
        self.sent = self.whole = self.messages = 0
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client = Client(self.deliver)
        room.attach(self.client)

    def deliver(self, text: str) -> None:
        from tienlen.web.room.protocol import event_body, with_seq

        msg = json.loads(text)
        size = len(text.encode())
        self.sent += size
        self.messages += 1
        if msg["type"] in ("state", "delta"):
            whole = self.room.state_for(self.client)
            size = len(with_seq(msg["seq"], event_body(whole)).encode())
            if whole.view is not None:
                size += len(f'"history":{_history_text(self.room, whole.view.seat)},'.encode())
        self.whole += size
        self.inbox.put_nowait(msg)


def _history_text(room: Room, seat: int | None) -> str:
    """The history as text, as a seat's view held it before deltas (``[[seat, "5s 5h"], ...]``)."""
    from tienlen.view import events_for

    assert room.game is not None
    return json.dumps([[s, str(m)] for s, m in events_for(room.game, seat)],
                      separators=(",", ":"), ensure_ascii=False)


async def _wire_hand(seed: int) -> str:
    from tienlen.web.lobby.lobby import Lobby, NewTable
    from tienlen.web.room.deltas import apply_delta
    from tienlen.web.room.protocol import Hello, PlayMove
    from tienlen.web.schema import open_repository

    repo = open_repository("sqlite://")
    room, _, token = Lobby(repo, bot_delay=0.0).create(NewTable(
        rules="mien-nam", players=8, quick=True, name="Lan", level="greedy", seed=seed,
        away_timeout=3600.0))
    seat, watcher = _Counted(room), _Counted(room)
    room.handle(watcher.client, Hello(type="hello", seq=1))
    room.handle(seat.client, Hello(type="hello", seq=1, token=token))
    held: dict[str, Any] | None = None
    seq, acted = 1, -1
    while True:
        msg: dict[str, Any] | None = await asyncio.wait_for(seat.inbox.get(), 60)
        if msg is not None and msg["type"] == "delta":
            msg = apply_delta(held, msg) if held is not None else None
        assert msg is not None, "a delta for a state the seat does not hold"
        if msg["type"] != "state":
            continue
        held, view, version = msg, msg["view"], msg["version"]
        if view["is_over"]:
            break
        if view["legal"] and (view["turn"] == 0 or view["prompt"]) and version != acted:
            seq, acted = seq + 1, version
            room.handle(seat.client, PlayMove(type="play", seq=seq, version=version,
                                              move=view["legal"][0]))
    room.stop()
    repo.close()
    lines = [f"wire: one 8-player mien-nam hand (seed {seed}; the table's log at {room.version}"
             " entries), the bytes each connection receives"]
    for who, c in (("seat 0", seat), ("spectator", watcher)):
        lines.append(f"  {who}: {c.messages} messages; before (whole states, the history as text "
                     f"too) {c.whole:,} B; after (deltas) {c.sent:,} B: "
                     f"{c.whole / max(c.sent, 1):.1f}x fewer")
    return "\n".join(lines)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, search: int = 0, bot_workers: int | None = None,
              searched: Stats | None = None) -> bool:
    """The load figures; with ``search``, that many tables of search bots besides, their
    spectators' figures in ``searched``."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="tienlen-bench-"))
    db = args.db or f"sqlite:///{folder / 'bench.sqlite3'}"
    proc = start_server(port, db, args.bot_delay, bot_workers)
    try:
        await wait_up(base, proc)
        t0 = time.perf_counter()
        bots = await create_tables(base, args.tables)
        players = await create_tables(base, args.players, player=True)
        experts = await create_tables(base, search, level="search")
        print(f"created {len(bots)} bot tables, {len(players)} tables with a player and "
              f"{len(experts)} search-bot tables in {time.perf_counter() - t0:.1f} s")
        stats = Stats()
        args.last_stats = stats
        ws = f"ws://127.0.0.1:{port}/ws/"
        tasks = [asyncio.create_task(watch(ws + bots[k % len(bots)][0], stats))
                 for k in range(args.clients if bots else 0)]
        tasks += [asyncio.create_task(play(ws + table_id, token, stats)) for table_id, token in players]
        searched = searched if searched is not None else Stats()
        tasks += [asyncio.create_task(watch(ws + table_id, searched)) for table_id, _ in experts]
        await asyncio.sleep(args.warmup)
        async with httpx.AsyncClient(timeout=60) as http:
            before = (await http.get(base + "/healthz")).json()
            stats.measuring = searched.measuring = True
            t0 = time.perf_counter()
            cpu0, mine0 = cpu_seconds(proc.pid), time.process_time()
            await asyncio.sleep(args.seconds)
            stats.measuring = searched.measuring = False
            elapsed = time.perf_counter() - t0
            server_cpu, client_cpu = cpu_seconds(proc.pid) - cpu0, time.process_time() - mine0
            health = (await http.get(base + "/healthz")).json()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lat, rtt = stats.latencies, stats.round_trips
        moves = health.get("bot_moves", 0) - before.get("bot_moves", 0)
        batches = health.get("batches", 0) - before.get("batches", 0)
        print(f"tables held: {health['tables']} ({health['playing']} playing), "
              f"connections: {before['connections']}")
        print(f"events received: {stats.events} in {elapsed:.1f} s = {stats.events / elapsed:.0f} events/s "
              f"(bot delay {args.bot_delay} s; the server made {moves / elapsed:.0f} bot moves/s "
              f"in {batches / elapsed:.0f} group commits/s)")
        print(f"event latency (due -> received): {summary(lat)}")
        if players:
            print(f"player round trip (move sent -> its state received), {len(rtt)} moves: {summary(rtt)}"
                  f"; refused: {stats.refusals}")
        per_event = server_cpu / max(1, stats.events) * 1000
        print(f"CPU: server {server_cpu / elapsed * 100:.0f}% of a core ({per_event:.2f} ms per event), "
              f"benchmark clients {client_cpu / elapsed * 100:.0f}%; load average {os.getloadavg()[0]:.2f} "
              f"on {os.cpu_count()} cores")
        print(f"client errors: {stats.errors}")
        met = bool(lat) and pct(lat, 0.99) < TARGET_P99 and len(bots) >= TARGET_TABLES \
            and health["tables"] >= TARGET_TABLES and stats.errors == 0
        print(f"target ({TARGET_TABLES} bot tables, p99 < {TARGET_P99 * 1000:.0f} ms): "
              f"{'MET' if met else 'NOT MET'} (p99 {pct(lat, 0.99) * 1000:.1f} ms with {len(bots)} tables)")
        return met
    finally:
        stop_server(proc, folder)


def stop_server(proc: subprocess.Popen[bytes], folder: Path) -> None:
    """Stop a server started by :func:`start_server` and remove its database's ``folder``."""
    import shutil

    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    shutil.rmtree(folder, ignore_errors=True)


def search_part(args: argparse.Namespace) -> bool:
    """The bot tables' latency with and without --search-tables search-bot tables beside them,
    on a one-worker bot pool; True when the others' p99 stays within 2x the baseline's."""
    runner = asyncio.run
    try:
        import uvloop
        runner = uvloop.run
    except ImportError:
        pass
    workers = args.bot_workers or None  # 0: a server of before the pool (search on the loop)
    pool = f"--bot-workers {workers}" if workers else "no bot pool"
    print(f"-- baseline: {args.tables} bot tables, {args.players} tables with a player, "
          f"no search tables ({pool})")
    runner(run(args, 0, workers))
    base = args.last_stats
    print(f"-- with {args.search_tables} search-bot tables besides ({pool})")
    searched = Stats()
    runner(run(args, args.search_tables, workers, searched))
    loaded = args.last_stats
    p99, p99_base = pct(loaded.latencies, 0.99), pct(base.latencies, 0.99)
    ratio = p99 / p99_base if p99_base > 0 else float("nan")
    print(f"other tables' event latency: p99 {p99 * 1000:.1f} ms beside the baseline's "
          f"{p99_base * 1000:.1f} ms ({ratio:.2f}x; target at most 2x): "
          f"{'MET' if ratio <= 2 else 'NOT MET'}")
    print(f"other tables, p50: {pct(loaded.latencies, 0.5) * 1000:.1f} ms (baseline "
          f"{pct(base.latencies, 0.5) * 1000:.1f} ms)")
    print(f"search tables' move lag (due -> received), {len(searched.latencies)} moves: "
          f"{summary(searched.latencies)}")
    if args.players:
        print(f"a player's move acknowledged (sent -> its state): p95 "
              f"{pct(loaded.round_trips, 0.95) * 1000:.1f} ms with the search tables, "
              f"{pct(base.round_trips, 0.95) * 1000:.1f} ms without")
    return ratio <= 2


@dataclass
class Round:
    """One server's figures over one measured window of --bot-tables."""

    events: int  # the states (moves and deals) the spectators received
    seconds: float
    server_cpu: float  # the server's process and its workers', seconds
    client_cpu: float  # this process's (the spectators'), seconds
    latencies: list[float] = field(repr=False)  # due -> received, seconds
    errors: int
    syncs: int
    load: float = float("nan")  # the machine's load average (1 minute) at the round's end
    each_cpu: list[float] = field(default_factory=list)  # with --processes: each process's
    redis_cpu: float = float("nan")  # with --processes: the Redis server's, when it is ours

    def line(self) -> str:
        each = "" if len(self.each_cpu) < 2 else \
            ": " + " + ".join(f"{c / self.seconds * 100:.0f}%" for c in self.each_cpu)
        if self.redis_cpu == self.redis_cpu:
            each += f"; Redis {self.redis_cpu / self.seconds * 100:.0f}%"
        return (f"{self.events / self.seconds:.0f} events/s, server CPU "
                f"{self.server_cpu / max(1, self.events) * 1000:.3f} ms per event "
                f"({self.server_cpu / self.seconds * 100:.0f}% of a core{each}); latency p50 "
                f"{pct(self.latencies, 0.5) * 1000:.1f} ms, p99 {pct(self.latencies, 0.99) * 1000:.1f} ms,"
                f" max {max(self.latencies, default=float('nan')) * 1000:.1f} ms; spectators' CPU "
                f"{self.client_cpu / self.seconds * 100:.0f}%; errors {self.errors}, syncs {self.syncs}"
                + ("" if self.load != self.load else f"; load average {self.load:.2f}"))


def pooled(rounds: list[Round]) -> Round:
    """One server's rounds as one window."""
    return Round(sum(r.events for r in rounds), sum(r.seconds for r in rounds),
                 sum(r.server_cpu for r in rounds), sum(r.client_cpu for r in rounds),
                 [x for r in rounds for x in r.latencies], sum(r.errors for r in rounds),
                 sum(r.syncs for r in rounds))


async def until(done: Callable[[], bool], seconds: float) -> bool:
    """Wait until ``done()`` (checked every 50 ms), at most ``seconds``; whether it is."""
    end = time.perf_counter() + seconds
    while not done() and time.perf_counter() < end:
        await asyncio.sleep(0.05)
    return done()


async def wait_prepared(base: str, seconds: float = 300.0) -> None:
    """Wait while the server compiles its fast path at start (``/healthz``'s ``engine``:
    "preparing"), so that compiling is not measured."""
    async with httpx.AsyncClient(timeout=60) as http:
        end = time.perf_counter() + seconds
        while (await http.get(base + "/healthz")).json().get("engine") == "preparing":
            if time.perf_counter() > end:
                raise SystemExit(f"the server was still compiling its fast path after {seconds:.0f} s")
            await asyncio.sleep(0.5)


async def bot_tables_round(args: argparse.Namespace, code: Path | None) -> Round:
    """A fresh server (running the ``src`` folder ``code``; None: this checkout's) with
    --bot-tables bots-only tables, each watched by one spectator: after --warmup, --seconds of
    the events the spectators receive, their latency and the server's CPU time."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="tienlen-bench-"))
    # greedy bots and the room never use the compiled fast path (search bots and hints do): a
    # revision's fresh worktree would compile it first, for minutes on 2 cores
    proc = start_server(port, f"sqlite:///{folder / 'bench.sqlite3'}", args.bot_delay, code=code,
                        pure=True)
    try:
        await wait_up(base, proc)
        await wait_prepared(base)
        return await measure_bot_tables(base, proc.pid, args)
    finally:
        stop_server(proc, folder)


async def measure_bot_tables(base: str, pid: int, args: argparse.Namespace) -> Round:
    """On the server at ``base`` (its process ``pid``): --bot-tables bots-only tables, each
    watched by one spectator in this process; after --warmup, --seconds of the events they
    receive, how late, and the CPU time of ``pid`` and the processes it started."""
    tables = await create_tables(base, args.bot_tables)
    return await measure_watched([ws_of(base) + table_id for table_id, _ in tables], [pid], args)


def ws_of(base: str) -> str:
    """The tables' WebSocket address on the server at ``base``, less the table's id."""
    return base.replace("http://", "ws://", 1) + "/ws/"


async def measure_watched(urls: list[str], pids: list[int], args: argparse.Namespace,
                          redis_pid: int | None = None) -> Round:
    """One spectator in this process at each of ``urls`` (a table's WebSocket); once each holds
    its table and --warmup passed, --seconds of the events they receive, how late, and the CPU
    time of each of ``pids`` (servers) and the processes they started (and of ``redis_pid``'s,
    apart)."""
    stats = Stats()
    tasks = [asyncio.create_task(watch(url, stats)) for url in urls]
    try:
        if not await until(lambda: stats.watching + stats.errors >= len(tasks), 120):
            raise SystemExit(f"only {stats.watching} of {len(tasks)} spectators were sent their table")
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        t0, mine0 = time.perf_counter(), time.process_time()
        cpu0 = [tree_cpu_seconds(pid) for pid in pids]
        redis0 = cpu_seconds(redis_pid) if redis_pid is not None else float("nan")
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        each = [tree_cpu_seconds(pid) - c for pid, c in zip(pids, cpu0, strict=True)]
        redis_cpu = cpu_seconds(redis_pid) - redis0 if redis_pid is not None else float("nan")
        client_cpu = time.process_time() - mine0
        elapsed = time.perf_counter() - t0
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Round(stats.events, elapsed, sum(each), client_cpu, stats.latencies,
                 stats.errors, stats.syncs, os.getloadavg()[0], each, redis_cpu)


@contextlib.contextmanager
def checkout(rev: str | None) -> Iterator[Path | None]:
    """The ``src`` folder of ``rev`` (a git revision) checked out in a temporary worktree,
    removed on leaving (None: no revision given)."""
    if rev is None:
        yield None
        return
    import shutil

    repo = Path(__file__).resolve().parents[1]
    known = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet",
                            f"{rev}^{{commit}}"], capture_output=True, text=True)
    if known.returncode != 0:
        raise SystemExit(f"--against {rev!r}: not a revision of {repo}")
    folder = Path(tempfile.mkdtemp(prefix="tienlen-against-"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "--quiet", str(tree),
                    known.stdout.strip()], check=True)
    try:
        yield served_from(tree / "src")
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
                       check=False)
        shutil.rmtree(folder, ignore_errors=True)


def served_from(code: Path) -> Path:
    """``code`` (a ``src`` folder), once a Python run with it first on its PYTHONPATH is seen
    to import ``tienlen`` from there (as :func:`start_server` runs the server)."""
    found = subprocess.run([sys.executable, "-c", "import tienlen; print(tienlen.__file__)"],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(code)})
    if found.returncode != 0 or not Path(found.stdout.strip()).is_relative_to(code):
        raise SystemExit(f"a server run from {code} imports tienlen from elsewhere: "
                         f"{found.stdout.strip() or found.stderr.strip()}")
    return code


def compared(whole: dict[str, Round]) -> list[str]:
    """Each server's figures (``whole``: before, then after), and with two their ratio, after
    over before."""
    lines = [f"{label}: {got.line()}" for label, got in whole.items()]
    if len(whole) == 2:
        old, new = whole.values()

        def ratio(f: Callable[[Round], float]) -> str:
            return f"{f(new) / f(old):.2f}" if f(old) > 0 else "n/a"

        lines.append(f"after/before: events/s {ratio(lambda r: r.events / r.seconds)}, server CPU "
                     f"per event {ratio(lambda r: r.server_cpu / max(1, r.events))}, latency p50 "
                     f"{ratio(lambda r: pct(r.latencies, 0.5))}, p99 "
                     f"{ratio(lambda r: pct(r.latencies, 0.99))}")
    return lines


def bot_tables(args: argparse.Namespace) -> dict[str, Round]:
    """--bot-tables (see the module's text): this checkout's server, and with --against REV's,
    round after round in turn; prints each round, each server's figures and their ratio."""
    runner: Callable[[Any], Round] = asyncio.run
    try:
        import uvloop
        runner = uvloop.run
    except ImportError:
        pass
    here = served_from(Path(__file__).resolve().parents[1] / "src")
    print(f"bot tables: {args.bot_tables} bots-only tables of four greedy bots, each watched by "
          f"one spectator; bot delay {args.bot_delay:g} s; {args.rounds} round(s) of "
          f"{args.warmup:g} s warm-up + {args.seconds:g} s measured per server; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with checkout(args.against) as before:
        servers = ([(f"before ({args.against})", before)] if before is not None else []) + \
            [("after (this checkout)", here)]
        rounds: dict[str, list[Round]] = {label: [] for label, _ in servers}
        for k in range(args.rounds):
            for label, code in servers[::-1] if k % 2 else servers:  # ABBA: a drift cancels out
                got = runner(bot_tables_round(args, code))
                rounds[label].append(got)
                print(f"  round {k + 1}, {label}: {got.line()}")
    whole = {label: pooled(got) for label, got in rounds.items()}
    print("\n".join(compared(whole)))
    return whole


def runner_of() -> Callable[[Any], Any]:
    """uvloop's ``run`` where it is installed (the server runs on it too), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def ladder_of(text: str) -> list[int]:
    """``--ladder``'s steps ("50,100,200"): tables per process, positive and growing."""
    try:
        steps = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not whole numbers: {text!r}") from None
    if not steps or steps[0] < 1 or any(b <= a for a, b in itertools.pairwise(steps)):
        raise argparse.ArgumentTypeError(f"steps must be positive and growing: {text!r}")
    return steps


def watcher_of(owner: int, processes: int) -> int:
    """The process a spectator of a table served by process ``owner`` connects to: the next one
    (every event crosses the bus), the owner itself when it is alone."""
    return (owner + 1) % processes


@dataclass
class Processes:
    """A room of ``tienlen serve --redis`` processes the benchmark started, on one database and
    one Redis."""

    procs: list[subprocess.Popen[bytes]]
    bases: list[str]
    logs: list[Path]

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]


def emptied(db: str) -> None:
    """Drop every table of the database at ``db`` and make them again, empty."""
    from tienlen.web.schema import drop_everything, open_repository

    repo = open_repository(db)
    try:
        drop_everything(repo.engine)
    finally:
        repo.close()


async def start_room(args: argparse.Namespace, processes: int, folder: Path) -> Processes:
    """``processes`` fresh ``tienlen serve --redis`` processes on --db (emptied first) and the
    Redis at ``args.redis``: greedy bots, --bot-delay, no client limit, ``TIENLEN_PURE=1``."""
    emptied(args.db)
    ports = [free_port() for _ in range(processes)]
    logs = [folder / f"p{k}-{port}.log" for k, port in enumerate(ports)]
    room = Processes([start_server(port, args.db, args.bot_delay, pure=True, redis=args.redis,
                                   log=log) for port, log in zip(ports, logs, strict=True)],
                     [f"http://127.0.0.1:{port}" for port in ports], logs)
    try:
        await asyncio.gather(*(wait_up(base, proc, log) for base, proc, log
                               in zip(room.bases, room.procs, room.logs, strict=True)))
    except BaseException:
        stop_room(room)
        raise
    return room


def stop_room(room: Processes) -> None:
    """Stop every process of ``room`` (SIGTERM: each hands its tables over; killed after 20 s)."""
    for proc in room.procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in room.procs:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


async def served_counts(room: Processes) -> list[int]:
    """The tables each process of ``room`` serves now (its ``/healthz``)."""
    async with httpx.AsyncClient(timeout=60) as http:
        answers = await asyncio.gather(*(http.get(base + "/healthz") for base in room.bases))
    return [int(a.json()["tables"]) for a in answers]


async def room_round(args: argparse.Namespace, processes: int, per_process: int,
                     folder: Path) -> Round:
    """A fresh room of ``processes`` processes; ``per_process`` bot tables made through each
    (it owns them), each watched by one spectator connected to the next process
    (:func:`watcher_of`); the figures of :func:`measure_watched` over every process."""
    room = await start_room(args, processes, folder)
    try:
        made = await asyncio.gather(*(create_tables(base, per_process) for base in room.bases))
        counts = await served_counts(room)
        if counts != [per_process] * processes:
            raise SystemExit(f"each process should serve the {per_process} tables made through "
                             f"it; they serve {counts}")
        urls = [ws_of(room.bases[watcher_of(owner, processes)]) + table_id
                for owner, tables in enumerate(made) for table_id, _ in tables]
        return await measure_watched(urls, room.pids, args, args.redis_pid)
    finally:
        stop_room(room)


@dataclass
class Step:
    """One step of --processes' ladder: ``processes`` processes, ``per_process`` tables each."""

    processes: int
    per_process: int
    got: Round

    @property
    def tables(self) -> int:
        return self.processes * self.per_process

    @property
    def cores(self) -> float:
        """The cores the servers used: their CPU seconds over the window's, summed."""
        return self.got.server_cpu / self.got.seconds

    @property
    def cpu_per_event(self) -> float:
        return self.got.server_cpu / max(1, self.got.events)

    @property
    def p99(self) -> float:
        return pct(self.got.latencies, 0.99)

    @property
    def met(self) -> bool:
        return bool(self.got.latencies) and self.p99 < TARGET_P99 and self.got.errors == 0

    @property
    def saturated(self) -> bool:
        """A process used :data:`SATURATED` of a core or more (one event loop: it can go no
        faster)."""
        return any(c / self.got.seconds >= SATURATED for c in self.got.each_cpu)

    def verdict(self) -> str:
        said = "p99 under target" if self.met else f"p99 {self.p99 * 1000:.0f} ms: over target"
        return said + ("; a process saturated" if self.saturated else "")


def tables_per_core(steps: list[Step]) -> tuple[Step | None, float]:
    """The step with the most tables that met the target, and its tables per server core
    (the tables over the cores the servers used there); (None, 0.0) when none met it."""
    met = [s for s in steps if s.met]
    if not met:
        return None, 0.0
    top = max(met, key=lambda s: s.tables)
    return top, top.tables / top.cores if top.cores > 0 else float("nan")


def said_processes(n: int) -> str:
    return f"{n} process" + ("" if n == 1 else "es")


def ladder_lines(steps: dict[int, list[Step]]) -> tuple[list[str], float]:
    """For each number of processes, the tables per core at p99 under target; with two numbers,
    the ratio (more processes over one) against :data:`TARGET_KEPT`, and that ratio (NaN with one)."""
    lines: list[str] = []
    per_core: dict[int, float] = {}
    for n, got in steps.items():
        top, per_core[n] = tables_per_core(got)
        if top is None:
            lines.append(f"{said_processes(n)}: no step met p99 < {TARGET_P99 * 1000:.0f} ms")
            continue
        lines.append(f"{said_processes(n)}: {top.tables} tables at p99 < {TARGET_P99 * 1000:.0f} ms "
                     f"(p99 {top.p99 * 1000:.1f} ms), the servers' CPU there {top.cores:.2f} "
                     f"cores: {per_core[n]:.0f} tables per core "
                     f"({top.cpu_per_event * 1000:.3f} ms per event)")
    if len(steps) < 2:
        return lines, float("nan")
    one, more = (per_core[n] for n in steps)
    ratio = more / one if one > 0 else float("nan")
    n = list(steps)[1]
    lines += step_ratios(*steps.values())
    lines.append(f"target ({said_processes(n)} keep at least {TARGET_KEPT:.2f} of one process's "
                 f"tables per core): {'MET' if ratio >= TARGET_KEPT else 'NOT MET'} "
                 f"({ratio:.2f}: {more:.0f} / {one:.0f} tables per core)")
    return lines, ratio


def step_ratios(ones: list[Step], mores: list[Step]) -> list[str]:
    """At each step both numbers of processes ran, whatever their p99: the servers' CPU per
    event of each, and the events per core kept with more processes (one's CPU per event over
    theirs: the cost of the bus at that load). Tables over cores would flatter a starved room:
    its tables play slower than their bot delay."""
    lines = []
    for one in ones:
        for more in (m for m in mores if m.per_process == one.per_process):
            a, b = one.cpu_per_event, more.cpu_per_event
            lines.append(f"  at {one.per_process} tables per process, whatever the p99: server "
                         f"CPU per event {a * 1000:.3f} ms with one process, {b * 1000:.3f} ms "
                         f"with {more.processes}: events per core kept {a / b:.2f}")
    return lines


def processes_ladder(args: argparse.Namespace, folder: Path) -> dict[int, list[Step]]:
    """One process and --processes N in turn (ABBA), step after step of --ladder, each a fresh
    room; a number of processes stops at its first step over the target or saturated (unless
    --every-step)."""
    runner = runner_of()
    numbers = [1, args.processes] if args.processes > 1 else [1]
    steps: dict[int, list[Step]] = {n: [] for n in numbers}
    going = set(numbers)
    for k, per in enumerate(args.ladder):
        for n in numbers[::-1] if k % 2 else numbers:
            if n not in going:
                continue
            step = Step(n, per, runner(room_round(args, n, per, folder)))
            steps[n].append(step)
            print(f"  {per} tables per process, {said_processes(n)} ({step.tables} tables): "
                  f"{step.got.line()}; {step.verdict()}")
            if not args.every_step and (not step.met or step.saturated):
                going.discard(n)
        if not going:
            break
    for k in range(args.refine):  # halve each number's gap between its last step met and the next
        for n in numbers[::-1] if k % 2 else numbers:
            per = between(steps[n])
            if per is None:
                continue
            step = Step(n, per, runner(room_round(args, n, per, folder)))
            steps[n].append(step)
            print(f"  {per} tables per process, {said_processes(n)} ({step.tables} tables), "
                  f"between two steps: {step.got.line()}; {step.verdict()}")
    return steps


def between(steps: list[Step]) -> int | None:
    """The tables per process halfway between the most that met the target (unsaturated) and
    the fewest above it that did not; None when no such gap is left wider than an eighth."""
    met = [s.per_process for s in steps if s.met and not s.saturated]
    if not met:
        return None
    low = max(met)
    above = [s.per_process for s in steps if s.per_process > low]
    if not above:
        return None
    high = min(above)
    return (low + high) // 2 if high - low > max(2, low // 8) else None


@dataclass
class Followed:
    """A spectator of a table whose owner is killed: when it first held the table, and the
    seconds from the kill to the whole state from the new owner, to the move after it, and to
    the close of its connection of before the kill (the process it is on saw the owner gone)."""

    holding: bool = False
    taken: float | None = None
    resumed: float | None = None
    closed: float | None = None


class Kill:
    """When the owner was killed (``time.monotonic()``; None: not yet)."""

    at: float | None = None


async def follow(url: str, kill: Kill, got: Followed) -> None:
    """A spectator that reconnects as the page does (on close at once, then every 0.25 s) until
    a connection opened after the kill holds the table's state and sees its next move."""
    wait, version = 0.0, -1
    while got.resumed is None:
        await asyncio.sleep(wait)
        fresh, wait = kill.at is not None, 0.25
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "seq": 1}))
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") not in ("state", "delta"):
                        continue
                    got.holding, wait = True, 0.0
                    if not fresh or kill.at is None:
                        continue
                    since = time.monotonic() - kill.at
                    if got.taken is None:
                        got.taken, version = since, msg["version"]
                    elif msg["version"] > version:
                        got.resumed = since
                        return
        except (OSError, websockets.WebSocketException):
            pass
        if not fresh and kill.at is not None and got.closed is None:
            got.closed = time.monotonic() - kill.at


async def takeover_round(args: argparse.Namespace, folder: Path) -> list[Followed]:
    """A room of --processes processes (2 at least); --takeover-tables tables on the first (A),
    each watched from the second (B); A killed (SIGKILL) once every spectator holds its table:
    each spectator's :class:`Followed`."""
    room = await start_room(args, max(2, args.processes), folder)
    kill = Kill()
    try:
        made = await create_tables(room.bases[0], args.takeover_tables)
        got = [Followed() for _ in made]
        tasks = [asyncio.create_task(follow(ws_of(room.bases[1]) + table_id, kill, f))
                 for (table_id, _), f in zip(made, got, strict=True)]
        try:
            if not await until(lambda: all(f.holding for f in got), 120):
                raise SystemExit("not every spectator was sent its table before the kill")
            await asyncio.sleep(1.0)
            room.procs[0].kill()
            kill.at = time.monotonic()
            await until(lambda: all(f.resumed is not None for f in got), TAKEOVER_WAIT)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return got
    finally:
        stop_room(room)


def takeover_lines(got: list[Followed]) -> tuple[list[str], bool]:
    """The take-over's figures (median and max over the tables) and whether the target is met:
    every table held again within :data:`TARGET_TAKEOVER`."""
    taken = [f.taken for f in got if f.taken is not None]
    resumed = [f.resumed for f in got if f.resumed is not None]
    closed = [f.closed for f in got if f.closed is not None]
    lost = len(got) - len(taken)

    def fig(xs: list[float]) -> str:
        return f"median {pct(xs, 0.5):.2f} s, max {max(xs, default=float('nan')):.2f} s"

    met = bool(taken) and not lost and max(taken) < TARGET_TAKEOVER
    return [f"take-over after kill -9 of the owner of {len(got)} tables (their spectators on "
            f"another process, reconnecting as a page does): the new owner's state {fig(taken)}"
            + (f"; {lost} never held again within {TAKEOVER_WAIT:.0f} s" if lost else "")
            + f"; its next move {fig(resumed)} (the connection of before closed {fig(closed)})",
            f"target (take-over under {TARGET_TAKEOVER:.0f} s): {'MET' if met else 'NOT MET'}"], met


@contextlib.contextmanager
def own_redis(url: str | None, folder: Path) -> Iterator[tuple[str, int | None]]:
    """``url``, or a redis-server of the benchmark's own on a free port (with its process id),
    stopped on leaving."""
    if url is not None:
        yield url, None
        return
    import shutil

    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--processes needs a Redis: redis-server is not installed; give --redis URL")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    own = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(own, socket_connect_timeout=0.5)
        for _ in range(100):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            time.sleep(0.1)
        client.close()
        yield own, proc.pid
    finally:
        proc.terminate()
        proc.wait(20)


def processes_run(args: argparse.Namespace) -> bool:
    """--processes (see the module's text): the ladder, then the take-over; True when the
    targets are met."""
    import shutil

    folder = Path(tempfile.mkdtemp(prefix="tienlen-processes-"))
    try:
        with own_redis(args.redis, folder) as (args.redis, args.redis_pid):
            print(f"processes: {' and '.join(said_processes(n) for n in sorted({1, args.processes}))}"
                  f" of `tienlen serve --redis` on one PostgreSQL and one Redis ({args.redis}); "
                  f"greedy bots, bot delay {args.bot_delay:g} s; steps of "
                  f"{', '.join(map(str, args.ladder))} tables per process, each a fresh room, "
                  f"{args.warmup:g} s warm-up + {args.seconds:g} s measured; each table made "
                  f"through one process (it owns it), its spectator on "
                  f"{'the next process (every event crosses the bus)' if args.processes > 1 else 'it'}"
                  f"; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())} on "
                  f"{os.cpu_count()} cores")
            ratio = float("inf")  # --takeover-only: the take-over alone decides
            if not args.takeover_only:
                steps = processes_ladder(args, folder)
                lines, ratio = ladder_lines(steps)
                print("\n".join(lines))
                if args.processes < 2:
                    return tables_per_core(steps[1])[0] is not None
            got = runner_of()(takeover_round(args, folder))
            said, quick = takeover_lines(got)
            print("\n".join(said))
            print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
            return ratio >= TARGET_KEPT and quick
    finally:
        shutil.rmtree(folder, ignore_errors=True)

def best(fn: Callable[[], object], n: int = 20) -> float:
    """The shortest of ``n`` timings of ``fn()``, in seconds."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def replay_cost() -> None:
    """A 4- and an 8-player hand: each one's replay against one load of its record, in this
    process (the replay steps through the hand once: linear in its length)."""
    from tienlen import Game, Rules, Session
    from tienlen.arena import play_out
    from tienlen.bots import get_bot
    from tienlen.web.records.replays import replay_steps

    for players in (4, 8):
        session = Session(Rules.preset("mien-nam"), players, seed=3)
        play_out(session.game, [get_bot("heuristic", seed=s) for s in range(players)])
        text = session.game.record()
        load = best(lambda: Game.from_record(text))  # noqa: B023 (timed at once)
        replay = best(lambda: replay_steps(text))  # noqa: B023
        actions = len(session.game.history)
        print(f"{players}-player mien-nam hand, {actions} actions: load {load * 1000:.1f} ms, "
              f"replay {replay * 1000:.1f} ms ({replay / load:.1f}x a load, "
              f"{replay / actions * 1e6:.0f} µs an action)")


async def lag(http: httpx.AsyncClient, base: str, seconds: float) -> list[float]:
    """How long /healthz takes, asked every 20 ms for ``seconds``."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        (await http.get(base + "/healthz")).raise_for_status()
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(0.02)
    return times


async def replay_lag(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="tienlen-bench-"))
    proc = start_server(port, f"sqlite:///{folder / 'bench.sqlite3'}", 0.0)
    try:
        await wait_up(base, proc)
        async with httpx.AsyncClient(timeout=60) as http:
            made = (await http.post(base + "/api/tables", json={
                "quick": True, "players": 8, "rules": "mien-nam", "seed": 3})).json()
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{made['id']}") as ws:
                await ws.send(json.dumps({"type": "hello", "seq": 1}))
                while (await http.get(f"{base}/api/tables/{made['id']}")).json()["records"] < 1:
                    await asyncio.sleep(0.1)
            url = f"{base}/api/tables/{made['id']}/records/1/replay"
            (await http.get(url)).raise_for_status()  # the workers started
            idle = await lag(http, base, args.seconds / 2)
            served = 0
            stop = False

            async def asker() -> None:
                nonlocal served
                async with httpx.AsyncClient(timeout=60) as own:
                    while not stop:
                        (await own.get(url)).raise_for_status()
                        served += 1

            askers = [asyncio.create_task(asker()) for _ in range(args.replay_clients)]
            await asyncio.sleep(0.5)
            served = 0
            busy = await lag(http, base, args.seconds / 2)
            stop = True
            await asyncio.gather(*askers)
        print(f"event loop lag (/healthz) idle: {summary(idle)}")
        print(f"while {args.replay_clients} clients ask for replays ({served / (args.seconds / 2):.0f} "
              f"replays/s): {summary(busy)}")
    finally:
        proc.terminate()
        proc.wait(10)
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()


def ratings_cost(updates: int) -> None:
    from tienlen.web.ratings.ratings import Bot, Rating, rate_hand
    from tienlen.web.ratings.store import MemoryRatingStore, SqlRatingStore, record_hand
    from tienlen.web.schema import open_repository

    def best(fn: Callable[[int], object], n: int) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            for k in range(n):
                fn(k)
            times.append((time.perf_counter() - start) / n)
        return min(times) * 1e6

    with tempfile.TemporaryDirectory() as folder:
        repo = open_repository(f"sqlite:///{Path(folder) / 'ratings.sqlite3'}")
        stores = {"memory": MemoryRatingStore(), "SQLite": SqlRatingStore(repo.engine)}
        for seats in (4, 8):
            def sat(k: int, seats: int = seats) -> list[str | Bot]:
                # 100 players in pairs, the other seats bots; the order of finish turns round
                return [f"p{(2 * k) % 100}", f"p{(2 * k + 1) % 100}",
                        *(Bot(("random", "greedy", "heuristic")[i % 3]) for i in range(seats - 2))]

            def order(k: int, seats: int = seats) -> list[int]:
                return [(k + i) % seats for i in range(seats)]

            alone = best(lambda k: rate_hand("published", sat(k), order(k),
                                             {"p0": Rating(), "p1": Rating()}), updates)
            line = [f"{seats} seats: the update alone {alone:.0f} µs"]
            for name, store in stores.items():
                n = updates if name == "memory" else max(1, updates // 4)
                cost = best(lambda k, store=store: record_hand(store, "published", sat(k), order(k)), n)
                line.append(f"{name} {cost:.0f} µs")
            print("rating one hand, " + line[0] + ", with the store: " + ", ".join(line[1:]))
        repo.close()


async def match_run(args: argparse.Namespace) -> None:
    """Quick match's waits (see the module's text)."""
    import dataclasses
    import random

    from tienlen.web.limits import Limits
    from tienlen.web.matchmaker import EVERY, Plan, match_once
    from tienlen.web.quickmatch.matchqueue import QueueEntry
    from tienlen.web.ratings.ratings import Rating
    from tienlen.web.schema import open_repository
    from tienlen.web.services import Services

    speed = args.match_speed
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        repo = open_repository(args.db or f"sqlite:///{Path(folder) / 'match.sqlite3'}")
        limits = dataclasses.replace(Limits(), match_wait=args.match_wait / speed, bot_workers=1)
        svc = Services.make(repo, args.bot_delay / speed, limits)
        players = []
        for i in range(args.match_players):
            who = svc.identities.new_guest(f"P{i}", f"{i:064x}", "bench")
            svc.ratings.put(who.id, "southern", Rating(rng.gauss(25.0, 5.0), rng.uniform(2.0, 8.3)))
            players.append(who)
        arrivals, at = [], 0.0
        for _ in players:  # a Poisson process: as many arrivals on average over the minute
            at += rng.expovariate(args.match_players / args.match_arrivals)
            arrivals.append(at / speed)
        looks: list[float] = []
        plans: list[Plan] = []  # one process: every claim it makes is won, its plans are what was done
        start = time.time()

        async def matcher() -> None:
            while True:
                await asyncio.sleep(EVERY / speed)
                began = time.perf_counter()
                plans.append(match_once(svc, time.time()))
                looks.append(time.perf_counter() - began)

        task = asyncio.create_task(matcher())
        for who, when in zip(players, arrivals, strict=True):
            await asyncio.sleep(max(0.0, start + when - time.time()))
            rating = svc.ratings.get(who.id, "southern") or Rating()
            svc.queue.join(QueueEntry(who.id, who.name, "southern", 4, rating.mu, rating.sigma,
                                      time.time()))
        while svc.queue.count() and time.time() - start < 10 * args.match_arrivals / speed:
            await asyncio.sleep(EVERY / speed)
        task.cancel()
        kept = sum(len(p.takes) for p in plans)
        with_bots = kept + sum(len(g.players) for p in plans for g in p.groups if g.bots)
        entries = [svc.queue.get(who.id) for who in players]
        seated = [e for e in entries if e is not None and e.matched is not None]
        waits = [(e.matched - e.joined) * speed for e in seated if e.matched is not None]
        rooms = {r.id: r for r in svc.lobby.rooms.values() if r.settings.quick_match}
        for room in rooms.values():
            room.stop()
        svc.lobby.committer.pool.close()
        repo.close()
    print(f"quick match: {len(players)} players over {args.match_arrivals:g} s (Poisson), "
          f"4-seat southern tables, --match-wait {args.match_wait:g} s, clock x{speed:g}")
    print(f"  seated {len(seated)} of {len(players)}; wait p50 {pct(waits, 0.5):.1f} s, "
          f"p95 {pct(waits, 0.95):.1f} s, max {max(waits, default=float('nan')):.1f} s")
    print(f"  seated with bots: {with_bots / max(1, len(seated)):.0%} ({with_bots}); "
          f"tables made: {len(rooms)}; given a bot's seat from the next hand: {kept}")
    slowest = max(range(len(looks)), key=looks.__getitem__, default=None)
    most = "" if slowest is None else (f"; the slowest made {len(plans[slowest].groups)} tables "
                                       f"and gave {len(plans[slowest].takes)} seats")
    print(f"  the matchmaker's look: {summary(looks)} ({len(looks)} looks{most})")


def signin_cost() -> None:
    """One argon2id hash and one check, the best of 10, on this thread."""
    from tienlen.web.accounts.passwords import hash_now, verify_now

    stored = hash_now("a bench password")
    hashing = best(lambda: hash_now("a bench password"), 10)
    checking = best(lambda: verify_now(stored, "a bench password"), 10)
    print(f"argon2id (argon2-cffi defaults: {stored.split('$')[3]}): hash {hashing * 1000:.1f} ms, "
          f"check {checking * 1000:.1f} ms")


async def ticks(seconds: float, every: float = 0.010) -> list[float]:
    """How late a ``every``-second sleep wakes, again and again for ``seconds`` (on this loop)."""
    late: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        late.append(max(0.0, time.perf_counter() - t0 - every))
    return late


async def signin_clients(base: str, clients: int, seconds: float) -> None:
    """(In the clients' process.) ``clients`` clients, each signing in as its own account
    again and again for ``seconds``; prints how many sign-ins were done and how long each took."""
    took: list[float] = []

    async def client(k: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60, headers={"Origin": base}) as http:
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                answer = await http.post("/api/account/signin",
                                         json={"name": f"Bench {k}", "password": "a bench password"})
                answer.raise_for_status()
                took.append(time.perf_counter() - t0)

    start = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    print(json.dumps({"signins": len(took), "took": took, "wall": time.perf_counter() - start}))


def signin_lag(args: argparse.Namespace) -> None:
    import threading

    import uvicorn

    from tienlen.web.accounts.identity import Claim, new_id
    from tienlen.web.accounts.names import account_key, confusable_key
    from tienlen.web.accounts.passwords import WORKERS, hash_now
    from tienlen.web.accounts.session import digest, new_secret
    from tienlen.web.app import create_app
    from tienlen.web.limits import RateLimit

    signin_cost()
    folder = Path(tempfile.mkdtemp(prefix="tienlen-bench-"))
    app = create_app(f"sqlite:///{folder / 'bench.sqlite3'}", bot_delay=0.0)
    accounts = app.state.accounts
    accounts.per_place = RateLimit(0, 1.0)  # every client signs in again and again
    accounts.per_name = RateLimit(0, 1.0)
    accounts.per_address = RateLimit(0, 1.0)
    stored = hash_now("a bench password")
    for k in range(args.signin_clients):
        name = f"Bench {k}"
        accounts.store.claim(Claim(new_id(), name, account_key(name), confusable_key(name), stored, [],
                                   digest(new_secret()), new=True))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        loop = app.state.loop

        def on_loop(seconds: float) -> list[float]:
            return asyncio.run_coroutine_threadsafe(ticks(seconds), loop).result(seconds + 60)

        idle = on_loop(args.seconds)
        clients = subprocess.Popen([sys.executable, __file__, "--signin-client", base,
                                    "--signin-clients", str(args.signin_clients),
                                    "--seconds", str(args.seconds + 1.0)],
                                   stdout=subprocess.PIPE, env={**os.environ})
        time.sleep(1.0)  # the clients started and under way
        busy = on_loop(args.seconds - 0.5)
        out, _ = clients.communicate(timeout=args.seconds + 120)
        done = json.loads(out.decode().strip().splitlines()[-1])
    finally:
        server.should_exit = True
        thread.join(20)
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()
    took = done["took"]
    print(f"{args.signin_clients} clients signing in at once: {done['signins'] / done['wall']:.1f} "
          f"sign-ins/s ({WORKERS} hashing threads), each {summary(took)}")
    def lateness(late: list[float]) -> str:
        return f"p99 {pct(late, 0.99) * 1000:.2f} ms, max {max(late) * 1000:.2f} ms ({len(late)} ticks)"

    ratio_p99 = pct(busy, 0.99) / max(pct(idle, 0.99), 1e-6)
    ratio_max = max(busy) / max(max(idle), 1e-6)
    print(f"event loop lag (a 10 ms ticker's lateness), idle: {lateness(idle)}")
    print(f"event loop lag, while {args.signin_clients} sign in at once: {lateness(busy)}; "
          f"{ratio_p99:.1f}x idle at p99, {ratio_max:.1f}x at max")


def summary(values: list[float]) -> str:
    return (f"p50 {pct(values, 0.5) * 1000:.1f} ms, p90 {pct(values, 0.9) * 1000:.1f} ms, "
            f"p99 {pct(values, 0.99) * 1000:.1f} ms, max {max(values, default=float('nan')) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--clients", type=int, default=500, help="spectators, spread over the bot tables")
    parser.add_argument("--players", type=int, default=0,
                        help="more tables, each with a player who answers at once (round trips)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds measured (default 20; with --bot-tables 10 a round)")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--bot-delay", type=float, default=None,
                        help="seconds a bot waits before it plays (default 0.5; with --bot-tables 0.2)")
    parser.add_argument("--bot-tables", type=int, nargs="?", const=100, default=None, metavar="N",
                        help="server CPU per event and latency with N watched bot tables, alone "
                             "(N: 100 when not given)")
    parser.add_argument("--against", default=None, metavar="REV",
                        help="with --bot-tables: the server of git revision REV too, in turn")
    parser.add_argument("--rounds", type=int, default=2,
                        help="with --bot-tables: measured rounds per server")
    parser.add_argument("--processes", type=int, default=None, metavar="N",
                        help="tables per server core of 1 and N `tienlen serve --redis` processes, "
                             "spectators on another process than the owner, then the take-over "
                             "time after a kill (needs --db, a PostgreSQL it empties)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="with --processes: a Redis of the benchmark's use (default: a "
                             "redis-server of its own)")
    parser.add_argument("--ladder", type=ladder_of, default=ladder_of("25,50,100,200,400,800"),
                        metavar="T,T,...",
                        help="with --processes: the steps, in tables per process")
    parser.add_argument("--refine", type=int, default=2, metavar="K",
                        help="with --processes: K more steps for each number of processes, each "
                             "halfway between its most tables that met the target and the next "
                             "step (default 2: the ladder's doublings read to a quarter)")
    parser.add_argument("--every-step", action="store_true",
                        help="with --processes: every step of the ladder, even past the target "
                             "(a busy machine's tables per core at each load)")
    parser.add_argument("--takeover-only", action="store_true",
                        help="with --processes: the take-over time alone, no ladder")
    parser.add_argument("--takeover-tables", type=int, default=20,
                        help="with --processes: the killed process's tables")
    parser.add_argument("--db", default=None, help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--restart-tables", type=int, default=1000)
    parser.add_argument("--restart-moves", type=int, default=200_000,
                        help="stored moves in the restart database (timed at half and at all)")
    parser.add_argument("--restart-only", action="store_true", help="the restart figures alone")
    parser.add_argument("--load-only", action="store_true", help="the load figures alone")
    parser.add_argument("--replays-only", action="store_true",
                        help="the event loop's lag while replays run, alone")
    parser.add_argument("--replay-clients", type=int, default=12)
    parser.add_argument("--ratings", action="store_true", help="the rating update's cost, alone")
    parser.add_argument("--rating-updates", type=int, default=2000,
                        help="updates timed per figure (a quarter of them with SQLite)")
    parser.add_argument("--signin", action="store_true",
                        help="argon2's cost and the event loop's lag while clients sign in, alone")
    parser.add_argument("--signin-clients", type=int, default=50)
    parser.add_argument("--signin-client", default=None, help=argparse.SUPPRESS)  # the clients' process
    parser.add_argument("--search", action="store_true",
                        help="the bot tables' latency beside search-bot tables, alone")
    parser.add_argument("--search-tables", type=int, default=5)
    parser.add_argument("--match", action="store_true", help="quick match's waits, alone")
    parser.add_argument("--match-players", type=int, default=200)
    parser.add_argument("--match-arrivals", type=float, default=60.0,
                        help="seconds over which the players arrive")
    parser.add_argument("--match-wait", type=float, default=20.0)
    parser.add_argument("--match-speed", type=float, default=1.0,
                        help="run the clock this many times faster (figures in the players' seconds)")
    parser.add_argument("--wire", action="store_true",
                        help="the bytes a seat receives over an 8-player hand, alone")
    parser.add_argument("--wire-seed", type=int, default=1)
    parser.add_argument("--bot-workers", type=int, default=1,
                        help="the server's bot pool in --search (0: a server without one)")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    if args.processes is not None:
        args.seconds = 6.0 if args.seconds is None else args.seconds
        args.bot_delay = 0.2 if args.bot_delay is None else args.bot_delay
        if args.processes < 1 or args.takeover_tables < 1 or args.seconds <= 0 \
                or args.bot_delay <= 0:
            parser.error("--processes, --takeover-tables, --seconds and --bot-delay must be positive")
        if not (args.db or "").startswith("postgresql"):
            parser.error("--processes needs --db URL, a PostgreSQL database it may empty "
                         "(postgresql+psycopg://...)")
        sys.exit(0 if processes_run(args) else 1)
    if args.bot_tables is not None:
        args.seconds = 10.0 if args.seconds is None else args.seconds
        args.bot_delay = 0.2 if args.bot_delay is None else args.bot_delay
        if args.bot_tables < 1 or args.rounds < 1 or args.seconds <= 0 or args.bot_delay <= 0:
            parser.error("--bot-tables, --rounds, --seconds and --bot-delay must be positive")
        bot_tables(args)
        sys.exit(0)
    if args.against is not None:
        parser.error("--against REV compares with --bot-tables only")
    args.seconds = 20.0 if args.seconds is None else args.seconds
    args.bot_delay = 0.5 if args.bot_delay is None else args.bot_delay
    if args.signin_client:
        asyncio.run(signin_clients(args.signin_client, args.signin_clients, args.seconds))
        sys.exit(0)
    if args.signin:
        signin_lag(args)
        sys.exit(0)
    if args.ratings:
        ratings_cost(args.rating_updates)
        sys.exit(0)
    if args.search:
        sys.exit(0 if search_part(args) else 1)
    if args.match:
        asyncio.run(match_run(args))
        sys.exit(0)
    if args.wire:
        wire_bytes(args.wire_seed)
        sys.exit(0)
    if args.replays_only:
        replay_cost()
        asyncio.run(replay_lag(args))
        sys.exit(0)
    restart_met = True
    if not args.restart_only:
        wire_bytes(args.wire_seed)
    if not args.load_only:
        restart_met = restart_figures(args.restart_tables, args.restart_moves)
        if args.restart_only:
            sys.exit(0 if restart_met else 1)
    try:
        import uvloop  # the server runs on it too (uvicorn's standard extra)
    except ImportError:
        met = asyncio.run(run(args))
    else:
        met = uvloop.run(run(args))
    sys.exit(0 if met and restart_met else 1)


if __name__ == "__main__":
    main()
