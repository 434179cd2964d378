"""The rating stores behind one interface: the SQL store (SQLite and PostgreSQL) keeps what
the memory store keeps, across a restart, and two hands ending at once lose no update."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping

import pytest

pytest.importorskip("openskill", reason="ratings need the web extra")

from tienlen.web.ratings.ratings import Bot, Rating, rate_hand
from tienlen.web.ratings.store import (
    MemoryRatingStore,
    RatingStore,
    SqlRatingStore,
    record_hand,
)
from tienlen.web.schema import open_repository
from tienlen.web.tablelog.repository import Repository

FAMILY = "published"


@pytest.fixture
def repo(db_url: str) -> Iterator[Repository]:
    r = open_repository(db_url)
    yield r
    r.close()


def play(store: RatingStore, hands: int) -> None:
    """Hands of three players and a bot, the finish order turning round."""
    for k in range(hands):
        seats = ["ann", "bob", "cam", Bot(("random", "greedy", "heuristic")[k % 3])]
        record_hand(store, FAMILY, seats, [(k + i) % 4 for i in range(4)],
                    left={1} if k % 7 == 6 else ())


def test_the_sql_store_keeps_what_the_memory_store_keeps(repo: Repository) -> None:
    memory, sql = MemoryRatingStore(), SqlRatingStore(repo.engine)
    play(memory, 24)
    play(sql, 24)
    for player in ("ann", "bob", "cam"):
        mine, theirs = memory.get(player, FAMILY), sql.get(player, FAMILY)
        assert mine is not None and theirs is not None
        assert theirs.hands == mine.hands == 24 and theirs.firsts == mine.firsts
        assert theirs.mu == pytest.approx(mine.mu) and theirs.sigma == pytest.approx(mine.sigma)
        assert [p.hands for p in sql.history(player, FAMILY)] == list(range(1, 25))
        assert [p.conservative for p in sql.history(player, FAMILY)] == pytest.approx(
            [p.conservative for p in memory.history(player, FAMILY)])
    assert [(s.player, s.rating.hands, s.rating.firsts) for s in sql.leaderboard(FAMILY)] == \
        [(s.player, s.rating.hands, s.rating.firsts) for s in memory.leaderboard(FAMILY)]
    assert [s.trend for s in sql.leaderboard(FAMILY)] == pytest.approx(
        [s.trend for s in memory.leaderboard(FAMILY)])
    assert sql.get("ann", "southern") is None and sql.get("nobody", FAMILY) is None


def test_ratings_survive_a_restart(db_url: str) -> None:
    first = open_repository(db_url)
    SqlRatingStore(first.engine).put("ann", FAMILY, Rating(31.5, 2.25, 21, 8))
    first.close()
    again = open_repository(db_url)
    store = SqlRatingStore(again.engine)
    assert store.get("ann", FAMILY) == Rating(31.5, 2.25, 21, 8)
    (line,) = store.leaderboard(FAMILY)
    assert line.player == "ann" and line.trend is None  # no point ten hands back
    store.put("ann", FAMILY, Rating(30.0, 2.0, 22, 8))  # put replaces
    assert store.get("ann", FAMILY) == Rating(30.0, 2.0, 22, 8)
    assert [p.hands for p in store.history("ann", FAMILY)] == [21, 22]
    again.close()


@pytest.mark.parametrize("bob_new", [False, True], ids=["both-rated", "one-new"])
def test_two_hands_ending_at_once_lose_no_update(repo: Repository, bob_new: bool) -> None:
    """Both hands read the ratings before either writes (a barrier between the reading and
    the writing): the second to write finds its version gone (or its new player's row made),
    reads again and rates on top of the first, so both hands count for both players."""
    store = SqlRatingStore(repo.engine)
    store.put("ann", FAMILY, Rating(26.0, 7.0, 5, 1))
    bob_before = 0 if bob_new else 3
    if not bob_new:
        store.put("bob", FAMILY, Rating(24.0, 7.5, 3, 0))
    barrier = threading.Barrier(2, timeout=10)
    calls: list[str] = []
    errors: list[BaseException] = []

    def hand(name: str, order: list[int]) -> None:
        seats = ["ann", "bob", Bot("greedy"), Bot("heuristic")]
        first = True

        def change(before: Mapping[str, Rating]) -> dict[str, Rating]:
            nonlocal first
            calls.append(name)
            if first:
                first = False
                barrier.wait()  # both have read
            return rate_hand(FAMILY, seats, order, before)

        try:
            store.update(FAMILY, ["ann", "bob"], change)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=hand, args=("one", [0, 1, 2, 3])),
               threading.Thread(target=hand, args=("two", [1, 0, 2, 3]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors
    assert len(calls) >= 3  # one of them computed again on the other's ratings
    ann, bob = store.get("ann", FAMILY), store.get("bob", FAMILY)
    assert ann is not None and bob is not None
    assert (ann.hands, ann.firsts) == (7, 2)
    assert (bob.hands, bob.firsts) == (bob_before + 2, 1)
    assert [p.hands for p in store.history("ann", FAMILY)] == [5, 6, 7]
    assert [p.hands for p in store.history("bob", FAMILY)][-2:] == [bob_before + 1, bob_before + 2]
