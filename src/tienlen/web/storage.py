"""The web room's shared bottom of storage: the database opened (SQLAlchemy), one transaction,
the one error, and the declarative base every feature's rows are declared on.

Each feature owns its tables: its rows live in its own folder, beside the store that reads and
writes them (``accounts/rows.py``, ``social/rows.py``, ``tablelog/rows.py``, ...), and
``schema.py``, above every feature, makes all of them on a database (and adds what an older
release's database lacks, with :func:`add_columns`). This module knows no feature's table.
SQLite (a file in the user's data folder, :func:`default_db`) by default, PostgreSQL by URL
(``postgresql+psycopg://…``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import StaticPool

from ..errors import TienLenError, error

DB_FILE = "tienlen.sqlite3"  # the SQLite database's file name, by default

class StorageError(TienLenError):
    """The database cannot be opened or written; the text says which and why."""


class DefaultDb(NamedTuple):
    """The database a server uses when it is given none: its URL, its file, and whether that
    is the one found in the working folder (``here``)."""

    url: str
    path: Path
    here: bool


def default_db(cwd: Path | None = None, environ: Mapping[str, str] | None = None) -> DefaultDb:
    """The database a server (and ``tienlen admin``) uses without ``--db``: ``tienlen.sqlite3``
    in the user's data folder (``$XDG_DATA_HOME/tienlen``, by default
    ``~/.local/share/tienlen``: :func:`tienlen.play.controller.data_dir`), the folder made when
    missing; but one in the working folder ``cwd``, where servers kept it before, is used as it
    is (``here``), so that an existing server keeps its tables and accounts."""
    found = (Path.cwd() if cwd is None else cwd) / DB_FILE
    if found.is_file():
        path = found.resolve()
        return DefaultDb(f"sqlite:///{path}", path, True)
    from ..play.controller import data_dir

    path = data_dir(environ) / DB_FILE
    with suppress(OSError):  # else the database cannot be opened: the error names it
        path.parent.mkdir(parents=True, exist_ok=True)
    return DefaultDb(f"sqlite:///{path}", path, False)


class Base(DeclarativeBase):
    """The one declarative base: every feature's rows are declared on it, and ``schema.py``
    makes its tables (all of them, once every rows module is imported there)."""


# a column added to a table after the first release: (name, SQL type, default) for ALTER TABLE
AddedColumn = tuple[str, str, str]


@contextmanager
def transaction(engine: Engine) -> Iterator[Connection]:
    """One transaction on ``engine`` (committed at the end, rolled back on an error); a
    database error is a :class:`StorageError` that names it. The stores' one way in."""
    try:
        with engine.begin() as conn:
            yield conn
    except SQLAlchemyError as exc:
        raise error(StorageError, "err.storage.refused",
                    error=(str(exc).splitlines() or [exc.__class__.__name__])[0][:200]) from None


def hash_token(token: str) -> str:
    """The SHA-256 of a secret (a seat's token, a share link's): what is stored in its place."""
    return hashlib.sha256(token.encode()).hexdigest()


def make_engine(url: str) -> Engine:
    """An engine for ``url`` (SQLite in WAL mode; PostgreSQL checking its pooled connections);
    a URL that cannot be used is a :class:`StorageError` in the database library's words."""
    try:
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            engine = create_engine(url, connect_args={"check_same_thread": False},
                                   poolclass=StaticPool if memory else None)

            @event.listens_for(engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()

            return engine
        return create_engine(url, pool_pre_ping=True)
    except (ArgumentError, ImportError, SQLAlchemyError) as exc:
        # the database library's own words for what is wrong stay as it wrote them (English)
        raise error(StorageError, "err.storage.cannot_use", url=repr(url), error=str(exc)) \
            from None


def add_columns(engine: Engine, table: str, added: Sequence[AddedColumn],
                then: Callable[[Connection], None] | None = None) -> None:
    """Add to ``table`` those of the ``added`` columns it lacks (a database made by an older
    release), each with its default; when any was added, ``then`` fills them in, in the same
    transaction."""
    have = {c["name"] for c in inspect(engine).get_columns(table)}
    missing = [c for c in added if c[0] not in have]
    if not missing:
        return
    with engine.begin() as conn:
        for name, sql_type, default in missing:
            conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type} DEFAULT {default}"))
        if then is not None:
            then(conn)
