"""The suite runs in parallel (pytest-xdist, scripts/test.sh): each worker has a PostgreSQL
database of its own on the one test server, so that one worker emptying its database for a
test never takes another's tables away mid-test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine, make_url, text

from tienlen.web.schema import drop_everything, open_repository

from .conftest import PG_URL, running, worker_database
from .waiting import stored

pytestmark = pytest.mark.skipif(not PG_URL, reason="no PostgreSQL: scripts/test.sh starts one")


@pytest.fixture
def two_workers() -> Iterator[tuple[str, str]]:
    """The databases of two workers (made for the test, dropped after it)."""
    assert PG_URL is not None
    urls = (worker_database(PG_URL, "gwtest1"), worker_database(PG_URL, "gwtest2"))
    yield urls
    engine = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        for url in urls:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    engine.dispose()


def test_each_worker_has_a_database_of_its_own(two_workers: tuple[str, str]) -> None:
    one, two = two_workers
    assert len({PG_URL, one, two}) == 3
    assert make_url(one).database == f"{make_url(PG_URL or '').database}_gwtest1"
    assert worker_database(PG_URL or "", None) == PG_URL  # one process: the database given
    for server in running(one):
        server.post("/api/tables", {"quick": True, "players": 2})
        other = open_repository(two)
        drop_everything(other.engine)  # another worker's next test empties its database (db_url)
        other.close()
        assert stored(server)["tienlen_tables"] == 1  # this worker's table is still there
    assert worker_database(PG_URL or "", "gwtest1") == one  # made once, found again
