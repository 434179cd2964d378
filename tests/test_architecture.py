"""The import contract of docs/architecture.md (``[tool.importlinter]`` in pyproject.toml), run by
import-linter: the front ends above the play layer, the arena and the bots, above the fast path
and the engine core; inside the web room, the routes above the features above a shared bottom, and
the table knowing no room and no HTTP; no import circle among the modules of any package; the
core on the standard library alone. Every import counts, also those inside functions and under
TYPE_CHECKING. And the shape of ``Game``: a class of at most 500 lines whose private names no
other module reads."""

from __future__ import annotations

import ast
import os
import re
import shutil
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
SOURCES = ROOT / "src" / "tienlen"
GAME = SOURCES / "game.py"
# the one module besides game.py that may touch a game's insides: the fast path's conversion,
# which writes a compiled position back into a game's play state
CONVERSION = SOURCES / "fast" / "encoding.py"
_LINT = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(config_filenames=(sys.argv[1],), no_cache=True, no_logo=True))")


def _lint(sources: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package under ``sources``, with this project's contracts."""
    path = os.pathsep.join(p for p in (str(sources), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-c", _LINT, str(PYPROJECT)], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True,
                          timeout=120)


def test_the_import_contract_holds() -> None:
    """``lint-imports`` on the sources under test (wherever they are imported from); a broken
    contract fails with import-linter's report: which module imports which, and on what line."""
    done = _lint(Path(tienlen.__file__).resolve().parents[1])
    assert done.returncode == 0, f"the import contract is broken:\n{done.stdout}{done.stderr}"
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("web/table/clock.py", "from ..room import protocol", "The table knows no room"),
    ("web/table/hands.py", "import starlette.requests", "The table knows no room"),
    ("web/storage.py", "from .accounts import identity", "The web room: server > app"),
    ("web/tablelog/rows.py", "from ..accounts import rows", "The web room: server > app"),
    ("web/accounts/rows.py", "from .. import schema", "The web room: server > app"),
])
def test_the_web_contract_catches_a_table_that_reaches_up(tmp_path: Path, module: str, line: str,
                                                          broken: str) -> None:
    """A copy of the sources with one import added that the web room's contract forbids (the
    table reaching the room it serves, or HTTP; the shared bottom or the tables' log reaching a
    feature; a feature's rows reaching the schema above them): the contract reports it broken."""
    shutil.copytree(Path(tienlen.__file__).resolve().parent, tmp_path / "tienlen",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "*.npz"))
    changed = tmp_path / "tienlen" / module
    changed.write_text(changed.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    done = _lint(tmp_path)
    assert done.returncode != 0
    assert f"{broken}" in done.stdout and "BROKEN" in done.stdout, done.stdout


def test_the_contracts_ignore_no_import() -> None:
    """No circle is left to excuse: every contract holds for every import."""
    ignored = [(c["id"], rule) for c in CONTRACTS for rule in c.get("ignore_imports", ())]
    assert ignored == []


def _game_class() -> ast.ClassDef:
    tree = ast.parse(GAME.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")


def test_class_game_is_at_most_500_lines() -> None:
    """Game is the rules, the state and the phases' entry points; the phases live in their own
    modules (trading, claims, legal, playing, ending)."""
    game = _game_class()
    assert game.end_lineno is not None
    assert game.end_lineno - game.lineno + 1 <= 500


def _private_names_of_game() -> set[str]:
    """The names Game defines (methods, attributes set on ``self``) that start with one ``_``."""
    names: set[str] = set()
    for node in ast.walk(_game_class()):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "self" and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_no_module_reads_a_private_name_of_game() -> None:
    """Other modules read a game through its public surface and its documented play state
    (``game.state``): no ``game._x``, no ``Game._x``, no private name imported from game.py."""
    private = _private_names_of_game()
    assert {"_apply", "_normalize"} <= private  # the scan sees Game's private names
    found = []
    for path in sorted(SOURCES.rglob("*.py")):
        if path in (GAME, CONVERSION):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("game"):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: import {a.name}"
                          for a in node.names if a.name.startswith("_")]
    assert found == []


def test_every_layer_is_named_on_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = next(c for c in CONTRACTS if c["id"] == "layers")["layers"]
    names = {name.strip(" ()") for layer in layers for name in re.split(r"[|:]", layer)}
    assert sorted(n for n in names if not re.search(rf"`{n}(\.py|/)?`", page)) == []


def test_every_folder_of_the_web_room_is_named_on_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = next(c for c in CONTRACTS if c["id"] == "web-layers")["layers"]
    names = {name.strip(" ()") for layer in layers for name in re.split(r"[|:]", layer)}
    assert sorted(n for n in names if not re.search(rf"`(web/)?{n}(\.py|/)`", page)) == []


def test_the_core_is_the_same_in_both_contracts() -> None:
    """The last layer (the engine core) is the set of modules held to the standard library."""
    layers = next(c for c in CONTRACTS if c["id"] == "layers")["layers"]
    core = {f"tienlen.{name.strip()}" for name in layers[-1].split(":")}
    assert core == set(next(c for c in CONTRACTS if c["id"] == "stdlib-core")["source_modules"])
