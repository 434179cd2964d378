"""Where the room's open tables are: the one interface (:class:`Directory`) that the routes and
quick match read to list the tables, find one, see who sits where and who is around, whichever
process serves each table; and what a directory knows of one table (:class:`TableFacts`).

Alone (one process), the directory is :class:`LocalDirectory`: this process's lobby, read on
the event loop, as the routes read it before there was a directory. In a room of many processes
it is ``bus/directory.py``'s: this process's tables read here, the others' from the entries
their owners publish.

A directory is asked from a worker thread (a plain ``def`` route handler, in FastAPI's thread
pool, or ``run_in_threadpool``), never on the event loop: the local one reads the tables on the
loop (``anyio.from_thread``), a shared one also waits for its store. What it answers are facts
as they were then: a route that changes a table goes to the table itself (here), or to its
owner (over the bus).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Iterable
from typing import Protocol, TypeVar

import anyio.from_thread
from pydantic import BaseModel, ConfigDict

from ..room.protocol import TableInfo
from ..room.room import Room
from ..storage import hash_token
from ..table.state import TableState
from .lobby import Lobby

LISTED = 200  # the most tables the public listing holds
T = TypeVar("T")


class SeatFacts(BaseModel):
    """One seat as a directory knows it."""

    model_config = ConfigDict(frozen=True)
    kind: str  # empty | human | bot
    owner: str | None = None  # the identity the seat belongs to (a bot playing a seat left too)
    device: str | None = None  # the browser it was taken from
    token: str | None = None  # its token's hash (a script's seat is found by its token)
    connected: bool = False  # a connection plays it now


class Kept(BaseModel):
    """A bot's seat kept for a player by quick match (theirs from the next hand)."""

    model_config = ConfigDict(frozen=True)
    owner: str
    device: str | None = None


class QuickSeats(BaseModel):
    """A quick-match table's bots' seats that no player owns nor was promised, and what quick
    match weighs before giving one (``matchmaker.OpenSeat``)."""

    model_config = ConfigDict(frozen=True)
    family: str  # the rating family
    size: int  # its seats
    free: tuple[int, ...]  # the bots' seats to give
    players: tuple[str, ...]  # the identities seated (or promised a seat) there
    devices: tuple[str, ...]  # the browsers they sit from
    connected: int  # the players connected there now
    in_play: bool  # a hand is in play


class TableFacts(BaseModel):
    """One open table as a directory knows it: what its info says (as ``GET /api/tables/ID``
    answers), the process that serves it, and who sits, kept a seat and is connected there."""

    model_config = ConfigDict(frozen=True)
    info: TableInfo
    process: str = ""  # the process serving it (its leases' owner name)
    version: int = 0  # the length of its log
    seats: tuple[SeatFacts, ...] = ()
    present: tuple[str, ...] = ()  # the identities with a connection open to it
    kept: dict[int, Kept] = {}  # bots' seats kept for players by quick match
    quick: QuickSeats | None = None  # quick match's seats to give (None: none)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def private(self) -> bool:
        return self.info.private

    @property
    def started(self) -> bool:
        return self.info.status == "playing"

    def seat_owned(self, identity: str) -> int | None:
        """The seat a player of ``identity`` holds here (None: none): TableState.seat_owned."""
        for number, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == identity:
                return number
        return None

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` holds here (None: none): TableState.seat_of."""
        digest = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat.token is not None and secrets.compare_digest(seat.token, digest):
                return number
        return None

    def holds(self, identity: str) -> bool:
        """Whether ``identity`` holds a seat here, connected or not (one it left after the
        start, a bot playing it, too): Lobby.seated."""
        return any(seat.owner == identity for seat in self.seats)

    def sits(self, identity: str) -> bool:
        """Whether ``identity`` plays a seat here and is connected now: Lobby.tables_of."""
        return any(s.kind == "human" and s.owner == identity and s.connected for s in self.seats)

    def playing(self) -> set[str]:
        """The identities seated here, if the table has started."""
        if not self.started:
            return set()
        return {s.owner for s in self.seats if s.kind == "human" and s.owner is not None}


def quick_seats(table: TableState) -> QuickSeats | None:
    """The bots' seats a quick-match table may give (None: none, or not such a table)."""
    if not table.settings.quick_match or not table.started or table.rated is None:
        return None
    free = tuple(i for i, s in enumerate(table.seats)
                 if s.kind == "bot" and s.owner is None and i not in table.reserved)
    if not free:
        return None
    owners = [s.owner for s in table.seats if s.kind == "human" and s.owner is not None]
    owners += [r.owner for r in table.reserved.values()]
    devices = [d for d in [s.device for s in table.seats]
               + [r.device for r in table.reserved.values()] if d is not None]
    connected = sum(1 for s in table.seats if s.kind == "human" and s.clients)
    in_play = table.game is not None and not table.game.is_over
    return QuickSeats(family=table.rated, size=table.players, free=free, players=tuple(owners),
                      devices=tuple(devices), connected=connected, in_play=in_play)


def facts_of(room: Room, process: str = "") -> TableFacts:
    """(On the loop.) What a directory knows of ``room``, served by ``process``."""
    table = room.table
    seats = tuple(SeatFacts(kind=s.kind, owner=s.owner, device=s.device, token=s.token_hash,
                            connected=bool(s.clients)) for s in table.seats)
    present = sorted({c.owner for c in room.clients if c.owner is not None})
    return TableFacts(info=room.info(), process=process, version=room.version, seats=seats,
                      present=tuple(present),
                      kept={i: Kept(owner=r.owner, device=r.device)
                            for i, r in table.reserved.items()},
                      quick=quick_seats(table))


def ordered(tables: Iterable[TableFacts], most: int = LISTED) -> list[TableFacts]:
    """The public ones of ``tables`` as the lobby lists them (Lobby.listing): open ones first,
    the most changed first, then the tables being played; at most ``most``. A table paused
    because nobody is there (its players gone) is not listed: nothing happens at it."""
    public = [t for t in tables if not t.private and not t.info.paused]
    return sorted(public, key=lambda t: (t.started, -t.version))[:most]


class Directory(Protocol):
    """The room's open tables, wherever they are served (asked from a worker thread)."""

    def listing(self, most: int = LISTED) -> list[TableFacts]:
        """The public tables: open ones (with an empty seat) first, then those being played."""

    def get(self, table_id: str) -> TableFacts | None:
        """The open table ``table_id`` (None: none such is open)."""

    def known(self, table_id: str) -> bool:
        """Whether ``table_id`` is an open table (its page is a table's)."""

    def seated(self, identity: str) -> list[TableFacts]:
        """The tables where ``identity`` holds a seat, connected or not, private ones too."""

    def tables_of(self, identities: Collection[str]) -> dict[str, list[TableFacts]]:
        """For each of ``identities``, the tables where it plays a seat and is connected."""

    def connected(self) -> set[str]:
        """The identities with a connection open to a table."""

    def playing(self) -> set[str]:
        """The identities seated at a started table."""

    def quick_tables(self, here: bool = True) -> list[TableFacts]:
        """The quick-match tables with bots' seats to give (:attr:`TableFacts.quick`);
        ``here``: this process's too (else only those other processes serve)."""


class LocalDirectory:
    """The tables of this process's lobby: the directory of a process that serves the room alone
    (and the part of a shared directory that this process serves)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    @property
    def process(self) -> str:
        return self.lobby.ownership.owner

    def _on_loop(self, fn: Callable[[], T]) -> T:
        return anyio.from_thread.run_sync(fn)

    def facts(self, rooms: Iterable[Room]) -> list[TableFacts]:
        """(On the loop.) The facts of ``rooms``."""
        return [facts_of(room, self.process) for room in rooms]

    # ------------------------------------------------------------------ on the loop
    def listed_here(self, most: int = LISTED) -> list[TableFacts]:
        return self.facts(self.lobby.listing()[:most])

    def seated_here(self, identity: str) -> list[TableFacts]:
        return self.facts(self.lobby.seated(identity))

    def tables_of_here(self, identities: Collection[str]) -> dict[str, list[TableFacts]]:
        made: dict[str, TableFacts] = {}
        out: dict[str, list[TableFacts]] = {}
        for identity in identities:
            out[identity] = [made.get(room.id) or made.setdefault(room.id, facts_of(room, self.process))
                             for room in self.lobby.tables_of(identity)]
        return out

    def connected_here(self) -> set[str]:
        return {c.owner for room in self.lobby.rooms.values() for c in room.clients
                if c.owner is not None}

    def playing_here(self) -> set[str]:
        return {s.owner for room in self.lobby.rooms.values() if room.started
                for s in room.table.seats if s.kind == "human" and s.owner is not None}

    def quick_here(self) -> list[TableFacts]:
        return self.facts(room for room in self.lobby.rooms.values()
                          if quick_seats(room.table) is not None)

    # ------------------------------------------------------------------ the directory
    def listing(self, most: int = LISTED) -> list[TableFacts]:
        return self._on_loop(lambda: self.listed_here(most))

    def get(self, table_id: str) -> TableFacts | None:
        room = self.lobby.get(table_id)  # one lookup: safe from this thread
        if room is None:
            return None
        return self._on_loop(lambda: facts_of(room, self.process))

    def known(self, table_id: str) -> bool:
        return self.lobby.get(table_id) is not None

    def seated(self, identity: str) -> list[TableFacts]:
        return self._on_loop(lambda: self.seated_here(identity))

    def tables_of(self, identities: Collection[str]) -> dict[str, list[TableFacts]]:
        return self._on_loop(lambda: self.tables_of_here(identities))

    def connected(self) -> set[str]:
        return self._on_loop(self.connected_here)

    def playing(self) -> set[str]:
        return self._on_loop(self.playing_here)

    def quick_tables(self, here: bool = True) -> list[TableFacts]:
        return self._on_loop(self.quick_here) if here else []
