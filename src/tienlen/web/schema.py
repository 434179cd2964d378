"""The server's database schema, in one place: every feature's rows module imported here, so
that all of their tables are declared on the one ``Base`` before any is made; the tables made
(:func:`create`), what an older release's database lacks added (:func:`migrate`), and the
database opened for the server, the command line and the tests (:func:`open_repository`).

Above every feature that owns rows (``web-layers`` in ``pyproject.toml``): it knows them all,
and none of them knows it. Nothing else makes tables: whichever modules happen to be imported,
a database opened here gets every table.
"""

from __future__ import annotations

from types import ModuleType

from sqlalchemy import func, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from ..errors import error
from .accounts import rows as accounts_rows
from .moderation import rows as moderation_rows
from .now import REAL_TIME, Time
from .quickmatch import rows as quickmatch_rows
from .ratings import rows as ratings_rows
from .records import rows as records_rows
from .room import rows as room_rows
from .social import rows as social_rows
from .storage import Base, StorageError, add_columns
from .tablelog import rows as tablelog_rows
from .tablelog.repository import Repository

# every module that declares rows on Base (tests/web/test_schema.py checks that none is missed)
ROWS: tuple[ModuleType, ...] = (tablelog_rows, accounts_rows, ratings_rows, records_rows,
                                social_rows, moderation_rows, quickmatch_rows, room_rows)


SCHEMA_LOCK = 0x7469656E6C656E  # PostgreSQL's advisory lock held while the schema is made

def create(engine: Engine) -> None:
    """Make every table of every feature that ``engine``'s database lacks, then :func:`migrate`.
    On PostgreSQL under an advisory lock: the processes of a room started together on a new
    database make it one after another (each ``CREATE TABLE`` of two at once would clash)."""
    if engine.dialect.name != "postgresql":
        Base.metadata.create_all(engine)
        migrate(engine)
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK})
        conn.commit()
        try:
            Base.metadata.create_all(engine)
            migrate(engine)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK})
            conn.commit()


def migrate(engine: Engine) -> None:
    """Add the columns a database made by an older release lacks (tables made before had
    client-given or secret seeds alike: their seed stays fixed, as it was)."""
    add_columns(engine, tablelog_rows.TableRow.__tablename__, tablelog_rows.ADDED_TABLE_COLUMNS)
    with engine.begin() as conn:  # an index added after the first release (made by create_all since)
        conn.execute(text(f"CREATE INDEX IF NOT EXISTS {tablelog_rows.OPEN_BY_CREATOR} "
                          f"ON {tablelog_rows.TableRow.__tablename__} (closed, creator)"))
    add_columns(engine, tablelog_rows.SeatRow.__tablename__, tablelog_rows.ADDED_SEAT_COLUMNS)
    add_columns(engine, accounts_rows.PlayedRow.__tablename__, accounts_rows.ADDED_PLAYED_COLUMNS)
    add_columns(engine, ratings_rows.RatingHistoryRow.__tablename__,
                ratings_rows.ADDED_HISTORY_COLUMNS, then=_mark_private_points)


def _mark_private_points(conn: Connection) -> None:
    """The points of the rating curves stored before the curve said which hands were private:
    a point written with a private table's hand (its ``PlayedRow``: the same player, family and
    transaction, so the same second) is marked private, as it would be now. Here because it
    reads two features' rows (the ratings' curve, the accounts' played hands)."""
    h, p = ratings_rows.RatingHistoryRow, accounts_rows.PlayedRow
    conn.execute(update(h).where(select(p.identity).where(
        p.identity == h.player, p.family == h.family, p.private.is_(True),
        func.abs(p.at - h.at) < 1.0).exists()).values(private=True))


def open_repository(url: str, time: Time = REAL_TIME) -> Repository:
    """The database at ``url`` with every table made and migrated, as the tables' repository
    (whose ``engine`` every other store shares; its rows stamped on ``time``); a database that
    cannot be opened is a :class:`StorageError` naming it."""
    repo = Repository(url, time)
    try:
        create(repo.engine)
    except SQLAlchemyError as exc:
        repo.close()
        raise error(StorageError, "err.storage.cannot_open", url=repr(url),
                    error=f"{exc.__class__.__name__}: {str(exc).splitlines()[0]}") from None
    return repo


def drop_everything(engine: Engine) -> None:
    """Remove every table the server made and make them again, empty (tests use it on a
    shared database)."""
    Base.metadata.drop_all(engine)
    create(engine)
