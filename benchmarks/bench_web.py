"""Load benchmark of ``tienlen serve``: many bot tables and many WebSocket clients, one server process.

Starts the server on 127.0.0.1 (a fresh SQLite file), creates TABLES tables of
four bots that play hand after hand (a bot waits --bot-delay seconds before it
plays, as at a real table), connects CLIENTS spectators spread over them, and
for --seconds counts the events the clients receive and how late each arrives
(from the server's change to the client's receipt). Prints the tables held,
events per second and the latency percentiles. Only loopback traffic; it stops
by itself.

    python benchmarks/bench_web.py --tables 500 --clients 500 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str, bot_delay: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tienlen.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", db, "--bot-delay", str(bot_delay)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(200):
            if proc.poll() is not None:
                raise SystemExit(f"the server stopped: {proc.stderr.read().decode() if proc.stderr else ''}")
            try:
                if (await http.get(base + "/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


async def create_tables(base: str, n: int) -> list[str]:
    ids: list[str] = []
    async with httpx.AsyncClient(timeout=120) as http:
        sem = asyncio.Semaphore(16)

        async def one(k: int) -> None:
            async with sem:
                r = await http.post(base + "/api/tables", json={"quick": True, "players": 4, "seed": k,
                                                                "level": "greedy"})
                r.raise_for_status()
                ids.append(r.json()["id"])

        await asyncio.gather(*(one(k) for k in range(n)))
    return ids


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.events = 0
        self.errors = 0
        self.measuring = False


async def watch(url: str, stats: Stats, stop: asyncio.Event) -> None:
    try:
        async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "seq": 1}))
            last = -1
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                now = time.time()
                msg = json.loads(raw)
                if msg.get("type") != "state" or msg["version"] <= last:
                    continue
                last = msg["version"]
                if stats.measuring:
                    stats.events += 1
                    stats.latencies.append(now - msg["at"])
    except (OSError, websockets.WebSocketException):
        stats.errors += 1


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="tienlen-bench-"))
    db = args.db or f"sqlite:///{folder / 'bench.sqlite3'}"
    proc = start_server(port, db, args.bot_delay)
    try:
        await wait_up(base, proc)
        t0 = time.perf_counter()
        ids = await create_tables(base, args.tables)
        print(f"created {len(ids)} bot tables in {time.perf_counter() - t0:.1f} s")
        stats = Stats()
        stop = asyncio.Event()
        tasks = [asyncio.create_task(watch(f"ws://127.0.0.1:{port}/ws/{ids[k % len(ids)]}", stats, stop))
                 for k in range(args.clients)]
        await asyncio.sleep(args.warmup)
        async with httpx.AsyncClient(timeout=60) as http:
            before = (await http.get(base + "/healthz")).json()
            stats.measuring = True
            t0 = time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            health = (await http.get(base + "/healthz")).json()
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = stats.latencies
        print(f"tables held: {health['tables']} ({health['playing']} playing), "
              f"connections: {before['connections']}")
        print(f"events received: {stats.events} in {elapsed:.1f} s = {stats.events / elapsed:.0f} events/s "
              f"(bot delay {args.bot_delay} s)")
        print(f"event latency: p50 {pct(lat, 0.5) * 1000:.1f} ms, p90 {pct(lat, 0.9) * 1000:.1f} ms, "
              f"p99 {pct(lat, 0.99) * 1000:.1f} ms, max {max(lat, default=float('nan')) * 1000:.1f} ms")
        print(f"client errors: {stats.errors}")
        target = "met" if lat and pct(lat, 0.99) < 0.1 and health["tables"] >= 500 else "not met"
        print(f"target (500 tables, p99 < 100 ms): {target}")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--db", default=None, help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
