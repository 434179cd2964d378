"""Each feature owns its tables (its ``rows.py``), and one place makes them all: a fresh database
opened by ``schema.open_repository`` gets every table any module of the web room declares,
whichever modules the opening process happened to import, and nothing else makes tables."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

import tienlen.web
from tienlen.web import schema
from tienlen.web.storage import Base

WEB = Path(tienlen.web.__file__).parent

# a process that imports nothing of the web room but the schema, opens a fresh database, and
# says which tables it holds and what the tables' repository counts in them
_OPEN = """
import json, sys
from sqlalchemy import inspect
from tienlen.web.schema import open_repository
repo = open_repository(sys.argv[1])
print(json.dumps({"tables": sorted(inspect(repo.engine).get_table_names()),
                  "counts": repo.count_rows()}))
repo.close()
"""


def _declared() -> dict[str, str]:
    """Every table declared on ``Base`` by any module of the web room (all of them imported),
    with the module that declares it."""
    for info in pkgutil.walk_packages([str(WEB)], "tienlen.web."):
        importlib.import_module(info.name)
    return {m.local_table.name: m.class_.__module__ for m in Base.registry.mappers}


def test_a_fresh_database_gets_every_table_of_every_feature(tmp_path: Path) -> None:
    declared = _declared()
    # the features' tables, each in its feature's folder (a few, by name)
    assert declared["tienlen_identities"] == "tienlen.web.accounts.rows"
    assert declared["tienlen_friends"] == "tienlen.web.social.rows"
    assert declared["tienlen_bans"] == "tienlen.web.moderation.rows"
    assert declared["tienlen_queue"] == "tienlen.web.quickmatch.rows"
    assert declared["tienlen_log"] == "tienlen.web.tablelog.rows"
    done = subprocess.run([sys.executable, "-c", _OPEN, f"sqlite:///{tmp_path / 'fresh.sqlite3'}"],
                          capture_output=True, text=True, timeout=120, check=True)
    opened = json.loads(done.stdout)
    assert opened["tables"] == sorted(declared)
    assert opened["counts"] == {"tienlen_tables": 0, "tienlen_seats": 0, "tienlen_log": 0,
                                "tienlen_snapshots": 0, "tienlen_records": 0}


def test_the_schema_names_every_module_that_declares_rows() -> None:
    declaring = set(_declared().values())
    assert declaring == {m.__name__ for m in schema.ROWS}
    assert all(name.endswith(".rows") for name in declaring)


def test_only_the_schema_makes_tables() -> None:
    makers = sorted(str(p.relative_to(WEB)) for p in WEB.rglob("*.py")
                    if "create_all(" in p.read_text(encoding="utf-8"))
    assert makers == ["schema.py"]
