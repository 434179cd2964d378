"""``benchmarks/bench_web.py --bot-tables``: its figures come from a server's CPU time and its
spectators' states, and ``--against REV`` runs REV's code from a worktree it then removes;
``--processes``' pure parts: its options, where a spectator connects, the tables per core and
the take-over's verdict (no server started)."""

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
from typing import Any

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


def test_processes_needs_a_postgresql_it_may_empty(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bench_web.py", "--processes", "2", "--ladder", "5,10"])
    with pytest.raises(SystemExit) as refused:
        bench().main()
    assert refused.value.code == 2 and "--processes needs --db URL" in capsys.readouterr().err


def test_the_ladder_is_growing_steps_of_tables_per_process() -> None:
    b = bench()
    assert b.ladder_of("50,100, 200") == [50, 100, 200]
    for wrong in ("", "0,10", "100,50", "10,10", "ten"):
        with pytest.raises(argparse.ArgumentTypeError):
            b.ladder_of(wrong)


def test_a_spectator_connects_to_another_process_than_the_owner_unless_alone() -> None:
    b = bench()
    assert b.watcher_of(0, 1) == 0
    assert [b.watcher_of(k, 2) for k in range(2)] == [1, 0]
    assert all(b.watcher_of(k, 3) != k for k in range(3))


def test_tables_per_core_is_the_largest_step_under_target_over_the_cores_it_used() -> None:
    b = bench()

    def step(n: int, per: int, cpu: float, p99: float) -> Any:
        # 10 s measured, 1000 events, each process half of the CPU
        return b.Step(n, per, b.Round(1000, 10.0, cpu, 0.0, [p99] * 100, 0, 0,
                                      each_cpu=[cpu / n] * n))

    one = [step(1, 50, 2.0, 0.02), step(1, 100, 4.0, 0.05), step(1, 200, 9.5, 0.3)]
    two = [step(2, 50, 5.0, 0.03), step(2, 100, 10.0, 0.2)]
    top, per_core = b.tables_per_core(one)
    assert top is one[1] and per_core == 100 / 0.4  # 4 CPU seconds over 10 s: 0.4 cores
    assert one[2].saturated and not one[1].saturated and not one[2].met
    lines, ratio = b.ladder_lines({1: one, 2: two})
    assert ratio == (100 / 0.5) / 250  # 2 processes: 100 tables on 0.5 cores
    assert lines[-1].startswith("target (2 processes keep at least 0.85 of one process's "
                                "tables per core): NOT MET (0.80")
    assert "events per core kept 0.40" in lines[2]  # at 50 per process: 2.0 ms vs 5.0 ms
    assert b.tables_per_core(two[1:]) == (None, 0.0)


def test_the_ladder_is_refined_halfway_between_the_last_step_met_and_the_next() -> None:
    b = bench()

    def step(per: int, p99: float, cpu: float = 2.0) -> Any:
        return b.Step(1, per, b.Round(1000, 10.0, cpu, 0.0, [p99] * 100, 0, 0, each_cpu=[cpu]))

    ladder = [step(100, 0.05), step(200, 0.07), step(400, 0.3)]
    assert b.between(ladder) == 300
    ladder.append(step(300, 0.2))  # over: between 200 and 300
    assert b.between(ladder) == 250
    ladder.append(step(250, 0.08))  # met: between 250 and 300
    assert b.between(ladder) == 275
    assert b.between([*ladder, step(275, 0.09), step(287, 0.2)]) is None  # close enough
    assert b.between([step(100, 0.3)]) is None  # nothing met: nothing to halve
    assert b.between([step(100, 0.05), step(200, 0.06)]) is None  # nothing over: no gap
    assert b.between([step(100, 0.05), step(200, 0.06, cpu=9.5), step(400, 0.3)]) == 150


def test_the_takeover_is_met_when_every_table_is_held_again_in_time() -> None:
    b = bench()
    quick = [b.Followed(True, 6.5, 6.8), b.Followed(True, 7.5, 7.9)]
    lines, met = b.takeover_lines(quick)
    assert met and "the new owner's state median 7.50 s, max 7.50 s" in lines[0]
    assert not b.takeover_lines([*quick, b.Followed(True, None, None)])[1]  # one never held
    assert not b.takeover_lines([b.Followed(True, 10.5, 11.0)])[1]
