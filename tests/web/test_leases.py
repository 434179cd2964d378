"""Which process serves a table, and the fence on its writes (web/tablelog/leases.py): two
lobbies on one database are two processes of one room, on one clock the test moves by hand.

A table is served by the process that holds its lease; a process that lost a lease (paused past
it, then woken) writes nothing more for that table: not a move, not a seat, not its closing,
and the other tables of its batch are stored all the same."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from tienlen.web.lobby.lobby import Lobby, NewTable
from tienlen.web.room.protocol import PlayMove
from tienlen.web.room.room import Room
from tienlen.web.schema import open_repository
from tienlen.web.tablelog.leases import LEASE_SECONDS, RENEW_EVERY, Fenced, Ownership
from tienlen.web.tablelog.repository import Repository

from .manual_time import ManualTime
from .test_committer import Page, seated


class Process:
    """One server process's lobby on the shared database."""

    def __init__(self, url: str, time: ManualTime, alone: bool = False) -> None:
        self.repo: Repository = open_repository(url, time)
        self.lobby = Lobby(self.repo, bot_delay=3600.0, time=time, alone=alone)
        self.lobby.committer.budget = 10.0

    def close(self) -> None:
        for room in self.lobby.rooms.values():
            room.stop()
        self.repo.close()


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[Process, Process, ManualTime]]:
    time = ManualTime()
    a, b = Process(db_url, time), Process(db_url, time)
    yield a, b, time
    a.close()
    b.close()


def play_first(room: Room, page: Page) -> None:
    game = room.game
    assert game is not None
    room.handle(page.client, PlayMove(type="play", seq=2, version=room.version,
                                      move=str(game.legal_plays(0)[0])))


def test_a_made_table_is_leased_to_its_maker_and_nobody_else_may_take_it(
        two: tuple[Process, Process, ManualTime]) -> None:
    a, b, time = two
    room, _, _ = a.lobby.create(NewTable(players=2, quick=True, options="stake = 2"))
    assert a.lobby.ownership.held == {room.id: 1}
    assert b.lobby.adopt(room.id) is None  # A serves it: B may not load it
    assert b.lobby.ownership.unserved() == []
    time.now += LEASE_SECONDS - 0.5  # not yet run out
    assert b.lobby.adopt(room.id) is None


def test_a_renewed_lease_is_kept_and_one_left_to_run_out_is_taken_with_a_new_epoch(
        two: tuple[Process, Process, ManualTime]) -> None:
    a, b, time = two
    room, _, _ = a.lobby.create(NewTable(players=2, quick=True, options="stake = 2"))
    a.lobby.start_leases()
    time.advance(LEASE_SECONDS * 3)  # A renews it every RENEW_EVERY seconds
    assert b.lobby.adopt(room.id) is None
    a.lobby.stop_leases()  # ...and hands it over as it stops: at once, not a lease later
    assert [t for t, _ in b.lobby.ownership.unserved()] == [room.id]
    taken = b.lobby.adopt(room.id)
    assert taken is not None and taken.version == room.version
    assert b.lobby.ownership.held == {room.id: 2}
    assert b.lobby.ownership.takeovers == 1


def test_a_process_paused_past_its_lease_writes_nothing_more_and_lets_the_table_go(
        two: tuple[Process, Process, ManualTime]) -> None:
    """A is paused (its renewals stop) past its lease; B takes the table over. Woken, A's move
    is refused by the fence: not stored, not shown; its other table, still its own, is stored
    in the same batch; the player's page is told to connect again (to B)."""
    a, b, time = two
    ann, ann_page = seated(a.lobby, "ann")
    minh, minh_page = seated(a.lobby, "minh")
    time.now += LEASE_SECONDS + 1  # A paused: no renewal ran; B takes Ann's table (only)
    assert b.lobby.adopt(ann.id) is not None
    logged = len(a.repo.log(ann.id))
    moved: list[bool] = []
    ann_page.client.move_on = lambda: moved.append(True)
    stats = a.lobby.committer.stats
    play_first(ann, ann_page)
    play_first(minh, minh_page)
    a.lobby.committer.flush()
    assert len(a.repo.log(ann.id)) == logged  # the fenced move: not stored
    assert stats.fenced == 1 and moved == [True]  # let go, its page sent on
    assert a.lobby.get(ann.id) is None and ann.id not in a.lobby.ownership.held
    assert [e.kind for e in a.repo.log(minh.id)][-1] == "move"  # the other table: stored
    assert a.lobby.get(minh.id) is minh
    assert b.lobby.get(ann.id) is not None  # B serves Ann's table, as stored


def test_a_lost_lease_is_found_at_the_next_renewal_and_the_table_let_go(
        two: tuple[Process, Process, ManualTime]) -> None:
    a, b, time = two
    room, _, _ = a.lobby.create(NewTable(players=2, quick=True, options="stake = 2"))
    moved: list[bool] = []
    page = Page()
    page.client.move_on = lambda: moved.append(True)
    room.attach(page.client)
    time.now += LEASE_SECONDS + 1  # A paused past its lease; B takes the table
    assert b.lobby.adopt(room.id) is not None
    a.lobby.start_leases()
    time.advance(RENEW_EVERY)  # A woken: its first renewal finds the lease B's
    assert a.lobby.get(room.id) is None and moved == [True]
    assert b.lobby.get(room.id) is not None
    a.lobby.stop_leases()


def test_only_the_owner_closes_a_table(two: tuple[Process, Process, ManualTime]) -> None:
    a, b, time = two
    room, _, _ = a.lobby.create(NewTable(players=2, options="stake = 2"))
    time.now += LEASE_SECONDS + 1
    assert b.lobby.adopt(room.id) is not None
    # A's idle sweep runs late: the table is B's now, and A must not close it
    assert a.lobby.expire_idle(time() + 10 ** 6) == []
    assert a.lobby.get(room.id) is None
    assert b.repo.load_table(room.id) is not None  # still open, its log kept
    with pytest.raises(Fenced):
        a.repo.close_table(room.id, time.wall())
    assert b.lobby.expire_idle(time() + 10 ** 6) == [room.id]  # its owner may
    assert b.lobby.ownership.held == {}


def test_a_whole_room_stopped_is_taken_table_by_table_by_whoever_looks_first(
        db_url: str) -> None:
    """Tables left by processes that are all gone have run-out leases (or none, from an older
    release's database): a process serving a part of the room takes them as it finds them."""
    time = ManualTime()
    old = Process(db_url, time)
    made = [old.lobby.create(NewTable(players=2, options="stake = 2"))[0].id for _ in range(3)]
    old.close()  # killed: its leases stay until they run out
    new = Process(db_url, time)
    try:
        new.lobby.start_leases()
        time.advance(RENEW_EVERY)
        assert new.lobby.rooms == {}  # not yet: their owner may be alive
        time.advance(LEASE_SECONDS)
        assert sorted(new.lobby.rooms) == sorted(made)
        assert new.lobby.ownership.takeovers == 3
    finally:
        new.lobby.stop_leases()
        new.close()


def test_one_process_alone_takes_every_table_at_start_whoever_held_them(db_url: str) -> None:
    time = ManualTime()
    old = Process(db_url, time)
    room, _, _ = old.lobby.create(NewTable(players=2, options="stake = 2"))
    old.close()  # a restart: its lease has not run out
    new = Process(db_url, time, alone=True)
    try:
        assert new.lobby.restore() == 1
        assert new.lobby.ownership.held == {room.id: 2}
    finally:
        new.close()


def test_a_lease_is_not_taken_for_a_closed_or_unknown_table(
        two: tuple[Process, Process, ManualTime]) -> None:
    a, b, time = two
    room, _, _ = a.lobby.create(NewTable(players=2, options="stake = 2"))
    assert a.lobby.expire_idle(time() + 10 ** 6) == [room.id]
    assert b.lobby.ownership.take(room.id, force=True) is None
    assert b.lobby.adopt("no-such-table") is None
    assert b.lobby.ownership.unserved() == []


def test_writes_without_a_lease_held_are_refused(
        two: tuple[Process, Process, ManualTime]) -> None:
    """Every write of a table goes through the fence: a snapshot, a hand's players, a move."""
    a, b, _ = two
    room, _, _ = a.lobby.create(NewTable(players=2, quick=True, options="stake = 2"))
    with pytest.raises(Fenced):
        b.repo.put_snapshot(room.id, room.version, room.table.snapshot())
    entry: Any = a.repo.log(room.id)[-1]
    with pytest.raises(Fenced):
        b.repo.append(room.id, entry.__class__(room.version, "ask", 0, ""))
    assert len(a.repo.log(room.id)) == room.version


def test_ownership_alone_names_processes_apart() -> None:
    repo = open_repository("sqlite://")
    try:
        assert Ownership(repo.engine).owner != Ownership(repo.engine).owner
    finally:
        repo.close()


def test_a_batch_staged_before_its_table_was_let_go_and_taken_again_is_fenced(
        two: tuple[Process, Process, ManualTime]) -> None:
    """On a database server a batch is stored on the committer's thread, after the pass that
    staged it. Meanwhile the same process may let the table go (its lease lapsed) and take it
    again from what is stored, under a new epoch: the old room's batch must not be written on
    top of the new room's table, and the new room must not be let go for it."""
    a, _, time = two
    ann, ann_page = seated(a.lobby, "ann")
    play_first(ann, ann_page)  # a move, staged; the pass's batch waits for the database
    a.lobby.committer._due.pop(ann, None)
    staged = ann.step()
    assert staged
    epochs = a.lobby.ownership.epochs({ann.id})  # as the batch was sent
    logged = len(a.repo.log(ann.id))
    a.lobby._lost(ann.id)  # the lease round found it lost...
    time.now += LEASE_SECONDS + 1
    again = a.lobby.adopt(ann.id)  # ...and a page brought it back: a new room, a new epoch
    assert again is not None and again is not ann
    outcome = a.lobby.committer.store([(ann, staged)], epochs)  # the old batch lands
    assert outcome.fenced == {ann.id} and len(a.repo.log(ann.id)) == logged
    a.lobby.committer.publish([(ann, staged)], outcome)
    assert a.lobby.get(ann.id) is again  # the new room stays; the old one is let go
    assert a.lobby.ownership.held.get(ann.id) == 2
