"""The server is ready when it says it is: ``tienlen serve`` compiles the fast path at start in a
process of its own while the bot pool's workers answer on the pure engine, so the first hint or
Expert bot after an install never waits for the compiler; once compiled, the workers are
replaced by ones on the compiled engine, given work once they have loaded it. Where the
compiled code is kept (``fast/cache.py``), a read-only install does not compile again at every
start."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("numba")

from tienlen import fast
from tienlen.fast.cache import sources_digest
from tienlen.web.server import engine_text, prepared_text
from tienlen.web.workers.botpool import BotPool, prepare_compiled, warm

from .test_bot_pool import Held
from .waiting import in_a_thread

SRC = Path(__file__).resolve().parents[2] / "src" / "tienlen"


def engine_in_worker() -> bool:
    """In a worker: whether the compiled engine is what it plays on."""
    return fast.available()


def test_a_worker_started_while_preparing_plays_on_the_pure_engine() -> None:
    pool = BotPool(1)
    assert pool.engine == "compiled"  # the fast extra is installed here
    for compiled in (False, True):
        pool._compiled = compiled  # as prepare() sets it (below), for the processes it starts
        workers = pool._processes()
        try:
            assert workers.submit(engine_in_worker).result(60) is compiled
        finally:
            workers.shutdown()


def test_new_workers_load_the_compiled_engine_before_work_and_old_work_still_answers() -> None:
    outcome: list[Any] = []
    made: list[tuple[bool, Held]] = []  # each worker: on the compiled engine, its stand-in

    async def main() -> None:
        pool = BotPool(1)
        assert pool.engine == "compiled"

        def workers() -> Executor:
            made.append((pool._compiled, Held()))
            return made[-1][1]

        pool._make = workers
        compiler = Held()
        assert pool.prepare(outcome.append, preparer=lambda: compiler)
        assert pool.engine == "preparing"
        assert [fn for fn, _, _ in compiler.jobs] == [prepare_compiled]
        first = pool._submit(pool._queue, engine_in_worker)  # asked at once, on a pure worker
        assert len(made) == 1 and made[0][1].jobs
        compiler.jobs.pop(0)[2].set_result(True)  # compiled (the stand-in's word for it)
        while len(made) < 2:
            await asyncio.sleep(0.01)
        assert [fn for fn, _, _ in made[1][1].jobs] == [warm]  # loading the compiled engine
        assert pool.engine == "preparing"  # no work for the new worker before it has loaded
        made[1][1].jobs.pop(0)[2].set_result(True)
        while pool.engine != "compiled":
            await asyncio.sleep(0.01)
        second = pool._submit(pool._queue, engine_in_worker)  # waits: one decision at a time
        made[0][1].release()  # the old worker's answer comes back after the change
        outcome.append(await asyncio.wrap_future(first))
        while not made[1][1].jobs:
            await asyncio.sleep(0.01)
        made[1][1].release()  # the new worker makes the next
        outcome.append(await asyncio.wrap_future(second))

    in_a_thread(main())
    assert [compiled for compiled, _ in made] == [False, True]
    assert len(outcome) == 3 and outcome[0] is not None  # seconds, then both answers
    assert outcome[1:] == [True, True]  # the stand-in runs in this process: both answered
    assert not made[0][1].jobs and not made[1][1].jobs


def test_a_failed_preparation_leaves_the_pure_engine_and_says_so() -> None:
    outcome: list[float | None] = []

    async def main() -> None:
        pool = BotPool(1, executor=Held)
        compiler = Held()
        pool.prepare(outcome.append, preparer=lambda: compiler)
        compiler.jobs.pop(0)[2].set_exception(RuntimeError("no compiler"))
        while pool.engine == "preparing":
            await asyncio.sleep(0.01)
        assert pool.engine == "pure"
        assert not pool.prepare(outcome.append)  # nothing to prepare any more

    in_a_thread(main())
    assert outcome == [None]
    assert "pure engine" in prepared_text(None)
    assert "ready (63 s)" in prepared_text(62.6)


def test_serve_says_what_the_bots_and_hints_play_on(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    # engine_text sets NUMBA_CACHE_DIR for the workers: set here first, so that the test's end
    # takes it away again (else every later test's workers compile afresh into tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("TIENLEN_CACHE_DIR", str(tmp_path / "kept"))
    line = engine_text()
    assert "preparing the compiled engine" in line and str(tmp_path / "kept" / "numba") in line
    kept = Path(os.environ["NUMBA_CACHE_DIR"])  # for the workers: this set of sources' folder
    assert kept == tmp_path / "kept" / "numba" / f"src-{sources_digest()}"
    monkeypatch.setenv("TIENLEN_PURE", "1")
    assert "the pure engine (install the fast extra" in engine_text()
    assert "bộ máy Python thuần" in engine_text("vi")


def _read_only(folder: Path, command: list[str], env: dict[str, str]) -> str:
    """``command``'s output, run where ``folder`` is mounted read-only (a mount namespace of
    its own: nothing outside the command sees it)."""
    shell = (f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" '
             f'"{folder}" && exec "$@"')
    done = subprocess.run(["unshare", "-m", "sh", "-c", shell, "sh", *command], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _can_mount_read_only(tmp_path: Path) -> str | None:
    """Why a read-only mount cannot be made here (None: it can)."""
    if shutil.which("unshare") is None:
        return "no unshare command"
    probe = tmp_path / "probe"
    probe.mkdir()
    try:
        _read_only(probe, ["true"], dict(os.environ))
    except AssertionError as exc:
        return f"mount namespaces are not allowed here ({str(exc)[:80]})"
    return None


PROBE = """
from tienlen.fast._jit import jit

@jit
def twice(x):
    return 2 * x

twice(3)
print(sum(twice.stats.cache_hits.values()), sum(twice.stats.cache_misses.values()))
"""


@pytest.mark.parametrize("given", [False, True], ids=["no-home", "cache-dir"])
def test_a_read_only_install_compiles_once(tmp_path: Path, given: bool) -> None:
    why = _can_mount_read_only(tmp_path)
    if why is not None:
        pytest.skip(f"a read-only install cannot be staged: {why}")
    site = tmp_path / "site"
    shutil.copytree(SRC, site / "tienlen", ignore=shutil.ignore_patterns("__pycache__", "static"))
    (site / "probe.py").write_text(PROBE)
    (site / "home").mkdir()  # the service's home: inside the read-only mount too
    env = {key: v for key, v in os.environ.items() if not key.startswith(("NUMBA_", "TIENLEN_"))}
    env.update(PYTHONPATH=str(site), HOME=str(site / "home"), XDG_CACHE_HOME="",
               TMPDIR=str(tmp_path))
    if given:
        env["TIENLEN_CACHE_DIR"] = str(tmp_path / "kept")

    def run_probe() -> str:
        return _read_only(site, [sys.executable, str(site / "probe.py")], env)

    first, second = run_probe().split(), run_probe().split()
    assert first == ["0", "1"]  # compiled the first time
    assert second == ["1", "0"]  # loaded from the cache the second
    kept = tmp_path / "kept" if given else tmp_path / f"tienlen-cache-{os.getuid()}"
    assert list((kept / "numba").rglob("*.nbi")), "the compiled code is kept outside the install"


def test_the_private_fallback_is_never_a_folder_others_can_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tienlen.fast.cache import private_folder

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    planted = tmp_path / f"tienlen-cache-{os.getuid()}"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)  # another user could put a pickle there
    assert private_folder() is None
    planted.chmod(0o700)
    assert private_folder() == planted / "numba"



def test_closing_the_pool_ends_a_compilation_under_way() -> None:
    """The server stopped during its first start does not wait minutes for the compiler: the
    preparing process is ended, and nothing it might answer later is installed."""
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    made: list[ProcessPoolExecutor] = []

    def busy_compiler() -> Executor:  # a process that stays busy for five minutes first
        made.append(ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=time.sleep, initargs=(300.0,)))
        return made[-1]

    async def main() -> None:
        pool = BotPool(1, executor=Held)
        assert pool.prepare(preparer=busy_compiler)
        processes = list(made[0]._processes.values())  # type: ignore[attr-defined]
        while not processes:  # started with the work submitted
            await asyncio.sleep(0.01)
            processes = list(made[0]._processes.values())  # type: ignore[attr-defined]
        pool.close()
        for _ in range(3000):  # ended within 30 s, however busy the machine
            if not any(p.is_alive() for p in processes):
                break
            await asyncio.sleep(0.01)
        assert not any(p.is_alive() for p in processes)
        assert pool.engine == "preparing" and pool._executor is None

    in_a_thread(main())
