"""What a table writes and what it is rebuilt from, as plain values: a log entry, a seat's
change, a finished hand's players, one write (an entry with what it changes), a table's
settings, and a stored table as it is read back. The table (``table/``) makes them, the
repository stores them; no row and no query here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.engine import Connection

NEXT_HAND_AFTER = 15.0  # a table's default countdown to the next hand, once someone asked


@dataclass(frozen=True)
class Entry:
    """One row of a table's log."""

    idx: int
    kind: str
    seat: int | None = None
    text: str = ""


@dataclass(frozen=True)
class SeatChange:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    owner: str | None = None  # the identity the seat belongs to
    device: str | None = None  # the browser it was taken from (session.device_of)


@dataclass(frozen=True)
class HandEnd:
    """A finished hand's seats, for what it writes for its players (``played.py``): who held
    each seat when the hand began (``owners``: an identity, or None: a bot's seat, or a person
    held by a token only) and the bots' levels (``levels``: None for a person's seat)."""

    hand_no: int
    family: str | None  # the rating family (None: the table is not rated)
    private: bool
    owners: tuple[str | None, ...]
    levels: tuple[str | None, ...]
    finish_order: tuple[int, ...]
    # the seats whose players are gone as it ends, rated last (TableState.absent_at_end)
    left: frozenset[int] = frozenset()


# what the server writes for a finished hand's players, in the transaction of its record
HandWriter = Callable[[Connection, str, HandEnd, float], None]


@dataclass(frozen=True)
class Write:
    """One entry for a table's log, with the seat it changes and the record of the hand it ends."""

    table_id: str
    entry: Entry
    seat: SeatChange | None = None
    record: tuple[int, str] | None = None  # (hand number, the finished hand's record)
    snapshot: str | None = None  # the table's state after this entry (see snapshot.py)
    # the table's new host seat, when it changes: the creator no longer runs the table, and it
    # stops counting against the creator's limits (the creator column is cleared)
    host: tuple[int | None] | None = None
    ended: HandEnd | None = None  # the hand's players, when it ends one that people sat in


@dataclass(frozen=True)
class TableSettings:
    """What a table is made with, stored once when it is created."""

    id: str
    rules_toml: str
    players: int
    seed: int
    away_timeout: float
    turn_timer: float
    name: str = ""
    private: bool = False
    bot_level: str = "heuristic"
    host_seat: int | None = None
    fixed_seed: bool = False
    creator: str = ""
    next_hand_after: float = NEXT_HAND_AFTER
    quick_match: bool = False  # made by quick match: a bot's seat may be taken at a next hand


@dataclass(frozen=True)
class StoredTable:
    settings: TableSettings
    seats: dict[int, SeatChange]
    log: list[Entry]  # the entries after the snapshot (every entry when there is none)
    snapshot: tuple[int, str] | None = None  # (entries it covers, its data)
    last_at: float | None = None  # when its newest log entry was stored (the turn timer's start)
    # the removals and kicks before the snapshot, which it does not hold: who is barred
    earlier: list[Entry] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.settings.id


