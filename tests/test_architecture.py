"""The import contract of docs/architecture.md (``[tool.importlinter]`` in pyproject.toml), run by
import-linter: the front ends above the play layer, the arena and the bots, above the fast path
and the engine core; no import circle among the modules of any package; the core on the standard
library alone. Every import counts, also those inside functions and under TYPE_CHECKING."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tienlen

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
CONTRACTS = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
# the one circle left (issue 20's Game split removes it): its edges alone may be ignored
GAME_CIRCLE = {f"tienlen.{m}" for m in ("game", "explain", "payments", "places", "record",
                                         "scoring", "session", "view")}
_LINT = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filenames=(sys.argv[1],), no_cache=True, no_logo=True))")


def test_the_import_contract_holds() -> None:
    """``lint-imports`` on the sources under test (wherever they are imported from); a broken
    contract fails with import-linter's report: which module imports which, and on what line."""
    sources = Path(tienlen.__file__).resolve().parents[1]
    path = os.pathsep.join(p for p in (str(sources), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-c", _LINT, str(PYPROJECT)], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"the import contract is broken:\n{done.stdout}{done.stderr}"
    assert "0 broken" in done.stdout


def test_only_the_game_circle_is_ignored() -> None:
    ignored = [(c["id"], rule) for c in CONTRACTS for rule in c.get("ignore_imports", ())]
    assert ignored, "the game circle is gone: remove GAME_CIRCLE here and this test"
    for contract, rule in ignored:
        importer, _, imported = (part.strip() for part in rule.partition("->"))
        assert contract == "acyclic" and {importer, imported} <= GAME_CIRCLE, rule


def test_every_layer_is_named_on_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = next(c for c in CONTRACTS if c["id"] == "layers")["layers"]
    names = {name.strip(" ()") for layer in layers for name in re.split(r"[|:]", layer)}
    assert sorted(n for n in names if not re.search(rf"`{n}(\.py|/)?`", page)) == []


def test_the_core_is_the_same_in_both_contracts() -> None:
    """The last layer (the engine core) is the set of modules held to the standard library."""
    layers = next(c for c in CONTRACTS if c["id"] == "layers")["layers"]
    core = {f"tienlen.{name.strip()}" for name in layers[-1].split(":")}
    assert core == set(next(c for c in CONTRACTS if c["id"] == "stdlib-core")["source_modules"])
