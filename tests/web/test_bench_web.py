"""``benchmarks/bench_web.py --bot-tables``: its figures come from a server's CPU time and its
spectators' states, and ``--against REV`` runs REV's code from a worktree it then removes."""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import Server, running
from .waiting import in_a_thread

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_web", ROOT / "benchmarks" / "bench_web.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def slow_bots(sqlite_url: str) -> Iterator[Server]:
    yield from running(sqlite_url, bot_delay=0.05)


def test_a_round_counts_every_state_its_spectators_receive_with_its_latency(
        slow_bots: Server) -> None:
    args = argparse.Namespace(bot_tables=2, warmup=0.1, seconds=0.5)
    # in a thread of its own: a browser test before it in this worker keeps a loop running here
    got = in_a_thread(bench().measure_bot_tables(slow_bots.base, os.getpid(), args))
    assert got.events > 0 and len(got.latencies) == got.events
    assert all(0 <= late < 30 for late in got.latencies)  # from its due time to its receipt
    assert got.server_cpu > 0 and got.errors == 0 and got.syncs == 0  # each delta applied


def test_the_ratio_is_after_over_before() -> None:
    b = bench()
    before = b.Round(100, 1.0, 0.2, 0.0, [0.01] * 100, 0, 0)
    after = b.Round(200, 1.0, 0.2, 0.0, [0.02] * 200, 0, 0)
    lines = b.compared({"before (x)": before, "after (this checkout)": after})
    assert lines[0].startswith("before (x): 100 events/s, server CPU 2.000 ms per event")
    assert lines[1].startswith("after (this checkout): 200 events/s, server CPU 1.000 ms per event")
    assert lines[2] == ("after/before: events/s 2.00, server CPU per event 0.50, "
                        "latency p50 2.00, p99 2.00")


git_checkout = pytest.mark.skipif(not (ROOT / ".git").exists(),
                                  reason="--against needs a git checkout")


@git_checkout
def test_a_revision_runs_from_a_worktree_removed_afterwards() -> None:
    def worktrees() -> str:
        return subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True,
                              text=True, check=True).stdout

    with bench().checkout("HEAD") as src:
        assert src is not None and (src / "tienlen" / "__init__.py").is_file()
        assert str(src.parent) in worktrees()
    assert not src.exists() and str(src.parent) not in worktrees()


@git_checkout
def test_a_revision_git_does_not_know_is_refused_by_name() -> None:
    with pytest.raises(SystemExit, match="--against 'no-such-rev': not a revision"), \
            bench().checkout("no-such-rev"):
        pass


def test_the_servers_cpu_counts_the_processes_it_started() -> None:
    """A process whose two children each burn CPU, one ended, one still living: the tree's
    time counts both children's, the process's own time neither."""
    burn = ("import sys, time\nend = time.process_time() + 0.3\n"
            "while time.process_time() < end: pass\nprint(flush=True)\nsys.stdin.read()")
    parent = subprocess.Popen([sys.executable, "-c",
                               "import subprocess, sys\n"
                               f"subprocess.run([sys.executable, '-c', {burn!r}], input=b'')\n"
                               f"subprocess.Popen([sys.executable, '-c', {burn!r}])\n"
                               "sys.stdin.read()"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline() == "\n" and parent.stdout.readline() == "\n"
        b = bench()
        assert b.tree_cpu_seconds(parent.pid) - b.cpu_seconds(parent.pid) >= 0.5
    finally:
        parent.communicate("", timeout=30)
