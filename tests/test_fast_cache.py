"""Where the fast path keeps its compiled code (``fast/cache.py``): a folder per set of sources,
so that a kernel whose callee changed in another file is compiled again, never loaded stale;
the folders of other sources are removed once long unused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("numba")

from tienlen.fast import cache

SRC = Path(__file__).resolve().parents[1] / "src" / "tienlen"

CALLEE = """
from ._jit import jit

@jit
def value():
    return {value}
"""

CALLER = """
from ._jit import jit
from .probe_callee import value

@jit
def call():
    return value() + 100
"""

RUN = """
from tienlen.fast.probe_caller import call
print(call(), sum(call.stats.cache_hits.values()))
"""


def test_a_kernel_whose_callee_changed_in_another_file_is_compiled_again(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(SRC, site / "tienlen", ignore=shutil.ignore_patterns("__pycache__", "static"))
    fast = site / "tienlen" / "fast"
    (fast / "probe_caller.py").write_text(CALLER)
    env = {key: v for key, v in os.environ.items() if not key.startswith(("NUMBA_", "TIENLEN_"))}
    env["PYTHONPATH"] = str(site)

    def run(value: int) -> list[str]:
        (fast / "probe_callee.py").write_text(CALLEE.format(value=value))
        done = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True,
                              text=True, timeout=300, check=True)
        return done.stdout.split()

    assert run(1) == ["101", "0"]  # compiled
    assert run(1) == ["101", "1"]  # the same sources: loaded from the cache
    assert run(2) == ["102", "0"]  # the callee changed (the caller's file did not): compiled again
    kept = sorted(p.name for p in (fast / "__pycache__" / "numba").iterdir())
    assert len(kept) == 2 and all(name.startswith(cache.SOURCES) for name in kept)


def test_the_folders_of_other_sources_go_once_unused_for_a_week(tmp_path: Path) -> None:
    old = tmp_path / (cache.SOURCES + "0" * 16)
    recent = tmp_path / (cache.SOURCES + "1" * 16)
    unrelated = tmp_path / "mine"
    for folder in (old, recent, unrelated):
        folder.mkdir()
        (folder / "f.nbi").write_text("")
    week_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    os.utime(old, (week_ago, week_ago))
    os.utime(unrelated, (week_ago, week_ago))
    mine = cache.for_sources(tmp_path)
    assert mine.name == cache.SOURCES + cache.sources_digest() and mine.is_dir()
    assert not old.exists()
    assert recent.exists() and unrelated.exists()  # in use lately; not a folder of sources


def test_the_digest_follows_the_sources_content(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "fast"
    shutil.copytree(SRC / "fast", copy, ignore=shutil.ignore_patterns("__pycache__"))
    digest = cache.sources_digest()
    monkeypatch.setattr(cache, "_HERE", copy)
    assert cache.sources_digest() == digest  # the same sources, wherever they are
    features = copy / "features.py"
    features.write_text(features.read_text() + "\n# changed\n")
    changed = cache.sources_digest()
    assert changed != digest
    (copy / "README.txt").write_text("not a source")
    assert cache.sources_digest() == changed
