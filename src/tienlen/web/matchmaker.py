"""Quick match's matchmaker: who sits with whom.

:func:`plan` is a pure function of the waiting entries, the blocks, the tables with a bot's
seat to give and the clock: it says which players take a bot's seat at a quick-match table
(from its next hand), which groups make a table now, and with which bots. :func:`match_once`
carries a plan out (claiming each group in the queue first, atomically, so that two processes
never seat a player twice); :func:`matchmaking` runs it every :data:`EVERY` seconds beside the
server's other sweeps. In a room of many processes the bots' seats of every process's tables
are offered (read in the room's directory), and a seat at a table another process serves is
kept there by that process (``Cluster.keep_seat``); the new tables are made here.

The rules, per queue (a rating family and a table size):

- a player who finds a quick-match table of that queue with a bot's seat nobody owns, whose
  players are close in rating (:data:`CLOSE`) and none blocked by them nor blocking them, is
  given that seat (it becomes theirs when the next hand is dealt), but only at a table that
  will deal that hand: one with a hand in play and a player connected (a table nobody is at,
  or between hands, where the next is dealt only when its players ask, is never offered);
- a seat kept at a table that then stops dealing (no player connected there for
  :data:`STRANDED` seconds) is given up and its player waits in the queue again, first in
  line (:func:`give_back_stranded`);
- the others are sorted by rating (mu) and grouped with their neighbours, the group of the
  smallest spread first; a full group makes a table at once;
- once the oldest waiter has waited ``wait`` seconds, it is seated with the closest players
  waiting (none if there is none) and bots fill the empty seats, at the level whose anchor is
  nearest the group's mean rating;
- two players one of whom blocked the other never sit together, nor two entries from one
  browser (a rated table gives one browser one seat).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from .lobby.directory import QuickSeats, TableFacts, quick_seats
from .quickmatch.matchqueue import MATCHED_KEPT, QueueEntry, by_queue
from .ratings.ratings import BETA, MEASURED_PRESET, anchor
from .room.ladder import levels_for

if TYPE_CHECKING:
    from .room.room import Room
    from .services import Services

log = logging.getLogger("tienlen.web")

EVERY = 0.5  # seconds between two looks at the queue
FORGET_EVERY = 120  # looks between two deletions of the matched entries kept long enough
STRANDED = 10.0  # seconds a table with seats kept may sit paused before they are given back
CLOSE = 4 * BETA  # the most a player's rating may differ from a table's mean to take its seat
Blocks = Mapping[str, frozenset[str]]  # identity -> the identities it blocked


@dataclass(frozen=True)
class OpenSeat:
    """A quick-match table's seat a bot plays and no player owns or was promised."""

    table_id: str
    family: str
    size: int
    seat: int
    players: tuple[tuple[str, float], ...]  # the identities seated (or promised) and their mu
    devices: frozenset[str] = frozenset()
    connected: int = 0  # the players connected at the table now
    in_play: bool = False  # a hand is in play (between hands the next waits for its players)

    @property
    def deals_soon(self) -> bool:
        """Whether the table will deal its next hand by itself: a hand is in play, and a
        player is there to play it out and ask for the next one."""
        return self.in_play and self.connected > 0


@dataclass(frozen=True)
class Group:
    """Players to seat together at a new table of ``size`` seats, the rest bots of ``level``."""

    family: str
    size: int
    players: tuple[QueueEntry, ...]
    level: str | None = None  # None: a full table, no bots

    @property
    def bots(self) -> int:
        return self.size - len(self.players)


@dataclass(frozen=True)
class Take:
    """A player given a bot's seat at a quick-match table (theirs from its next hand)."""

    entry: QueueEntry
    table_id: str
    seat: int


@dataclass(frozen=True)
class Plan:
    takes: tuple[Take, ...] = ()
    groups: tuple[Group, ...] = ()


def preset_of(family: str) -> str:
    """The preset a quick-match table of ``family`` plays: the one its ratings are measured in."""
    return MEASURED_PRESET[family]


def bot_level(family: str, mus: Sequence[float], size: int | None = None) -> str:
    """The bot level offered at the family's tables (of ``size`` seats) whose anchor is nearest
    the mean of ``mus``."""
    mean = sum(mus) / len(mus)
    levels = [lv for lv in levels_for(preset_of(family), size) if _anchored(family, lv)]
    return min(levels, key=lambda lv: (abs(anchor(family, lv).mu - mean), -levels.index(lv)))


def _anchored(family: str, level: str) -> bool:
    try:
        anchor(family, level)
    except KeyError:
        return False
    return True


def blocked(blocks: Blocks, a: str, b: str) -> bool:
    """Whether either of ``a`` and ``b`` blocked the other."""
    return b in blocks.get(a, frozenset()) or a in blocks.get(b, frozenset())


def _fits(entry: QueueEntry, group: Sequence[QueueEntry], blocks: Blocks) -> bool:
    return all(not blocked(blocks, entry.identity, other.identity)
               and (entry.device is None or entry.device != other.device) for other in group)


def _full_group(ordered: Sequence[QueueEntry], start: int, size: int,
                blocks: Blocks) -> list[QueueEntry] | None:
    """``ordered[start]`` and the next players by rating that fit with it, ``size`` in all."""
    group = [ordered[start]]
    for entry in ordered[start + 1:]:
        if len(group) == size:
            break
        if _fits(entry, group, blocks):
            group.append(entry)
    return group if len(group) == size else None


def _closest(first: QueueEntry, others: Sequence[QueueEntry], most: int,
             blocks: Blocks) -> list[QueueEntry]:
    """``first`` and up to ``most - 1`` of ``others`` nearest it in rating that fit together."""
    group = [first]
    for entry in sorted(others, key=lambda e: (abs(e.mu - first.mu), e.joined)):
        if len(group) == most:
            break
        if entry is not first and _fits(entry, group, blocks):
            group.append(entry)
    return group


def _takes(entries: list[QueueEntry], seats: Sequence[OpenSeat], blocks: Blocks) -> list[Take]:
    """Bots' seats given to waiting players, the oldest first, each to the table nearest in
    rating among those they may sit at; ``entries`` loses the players placed."""
    taken: list[Take] = []
    free = [s for s in seats if s.deals_soon]  # never a dead table's seat, nor a paused one's
    promised: dict[str, list[tuple[str, float]]] = {}  # table -> the players promised a seat
    for entry in sorted(entries, key=lambda e: e.joined):
        best: tuple[float, OpenSeat] | None = None
        for seat in free:
            players = list(seat.players) + promised.get(seat.table_id, [])
            if not players or any(blocked(blocks, entry.identity, p) or p == entry.identity
                                  for p, _ in players):
                continue
            if entry.device is not None and entry.device in seat.devices:
                continue
            gap = abs(entry.mu - sum(mu for _, mu in players) / len(players))
            if gap <= CLOSE and (best is None or gap < best[0]):
                best = (gap, seat)
        if best is not None:
            seat = best[1]
            free = [s for s in free if (s.table_id, s.seat) != (seat.table_id, seat.seat)]
            promised.setdefault(seat.table_id, []).append((entry.identity, entry.mu))
            taken.append(Take(entry, seat.table_id, seat.seat))
    placed = {t.entry.identity for t in taken}
    entries[:] = [e for e in entries if e.identity not in placed]
    return taken


def plan(waiting: Sequence[QueueEntry], blocks: Blocks, now: float, wait: float,
         seats: Sequence[OpenSeat] = ()) -> Plan:
    """Who sits where (see the module's text): ``waiting`` the queue's waiting entries,
    ``blocks`` who blocked whom, ``now`` and ``wait`` in Unix seconds, ``seats`` the bots'
    seats quick-match tables may give."""
    takes: list[Take] = []
    groups: list[Group] = []
    open_by_queue: dict[tuple[str, int], list[OpenSeat]] = {}
    for seat in seats:
        open_by_queue.setdefault((seat.family, seat.size), []).append(seat)
    for (family, size), entries in by_queue(waiting).items():
        entries = list(entries)
        takes += _takes(entries, open_by_queue.get((family, size), []), blocks)
        ordered = sorted(entries, key=lambda e: (e.mu, e.joined))
        while len(ordered) >= size:  # full tables, the closest group first
            candidates = [g for i in range(len(ordered))
                          if (g := _full_group(ordered, i, size, blocks)) is not None]
            if not candidates:
                break
            best = min(candidates, key=lambda g: (max(e.mu for e in g) - min(e.mu for e in g),
                                                  min(e.joined for e in g)))
            groups.append(Group(family, size, tuple(best)))
            ordered = [e for e in ordered if e not in best]
        while ordered:  # the oldest who waited long enough, with bots
            oldest = min(ordered, key=lambda e: e.joined)
            if now - oldest.joined < wait:
                break
            group = _closest(oldest, ordered, size, blocks)
            level = bot_level(family, [e.mu for e in group], size) if len(group) < size else None
            groups.append(Group(family, size, tuple(group), level))
            ordered = [e for e in ordered if e not in group]
    return Plan(tuple(takes), tuple(groups))


# ---------------------------------------------------------------------- carrying a plan out
def open_seats(services: Services, elsewhere: Sequence[TableFacts] = ()) -> list[OpenSeat]:
    """The bots' seats this process's quick-match tables may give, then those of the tables of
    ``elsewhere`` (the room's directory: :meth:`~.directory.Directory.quick_tables`) that
    other processes serve."""
    rooms = services.lobby.rooms
    found: list[tuple[str, QuickSeats]] = []
    for room in rooms.values():
        quick = quick_seats(room.table)
        if quick is not None:
            found.append((room.id, quick))
    found += [(t.id, t.quick) for t in elsewhere if t.quick is not None and t.id not in rooms]
    out: list[OpenSeat] = []
    for table_id, quick in found:
        players = tuple((o, _mu(services, o, quick.family)) for o in quick.players)
        out += [OpenSeat(table_id, quick.family, quick.size, i, players,
                         frozenset(quick.devices), quick.connected, quick.in_play)
                for i in quick.free]
    return out


def stranded(room: Room, now: float, grace: float) -> bool:
    """Whether ``room`` keeps seats for players but will not deal them in: no new hand is
    dealt there because nobody is there (:attr:`Clock.paused`: no player connected, or a
    bots-only table nobody watches), and nothing happened there for ``grace`` seconds
    (``now``: monotonic; a page reloading is not gone)."""
    return bool(room.table.reserved) and room.started and room.clock.paused \
        and now - room.last_active >= grace


def give_back_stranded(services: Services, grace: float | None = None) -> list[str]:
    """The seats kept at tables that stopped dealing (:func:`stranded`) are given up, and their
    players wait in the queue again with the time they joined (so first in line); the
    identities given back."""
    grace = STRANDED if grace is None else grace
    now = services.clock()
    back: list[str] = []
    for room in list(services.lobby.rooms.values()):
        if not stranded(room, now, grace):
            continue
        owners = [kept.owner for kept in room.table.reserved.values()]
        room.act(functools.partial(_release, room, owners))
        back += [owner for owner in owners if services.queue.unmatch(owner, room.id)]
    return back


def _release(room: Room, owners: list[str]) -> None:
    for owner in owners:
        room.table.release(owner)


def _mu(services: Services, identity: str, family: str) -> float:
    rating = services.ratings.get(identity, family)
    return rating.mu if rating is not None else 25.0


def match_once(services: Services, now: float, elsewhere: Sequence[TableFacts] = ()) -> Plan:
    """Look at the queue once and seat whom it can, at this process's tables and at those of
    ``elsewhere`` (the quick-match tables other processes serve, as the directory lists them);
    the plan made."""
    queue = services.queue
    give_back_stranded(services)
    mod = services.moderation  # a player banned while waiting only watches: not seated
    waiting = [e for e in queue.waiting() if mod.ban_for(e.identity) is None]
    if not waiting:
        return Plan()
    store = services.moderation.store
    seats = open_seats(services, elsewhere)
    # the blocks of everyone who might sit together: the waiting, and the players at the tables
    # whose bots' seats may be given (a block either way keeps two apart)
    who = {e.identity for e in waiting} | {p for s in seats for p, _ in s.players}
    blocks = {identity: frozenset(store.blocked_by(identity)) for identity in who}
    made = plan(waiting, blocks, now, services.limits.match_wait, seats)
    lobby = services.lobby
    served = {t.id: t.process for t in elsewhere}
    for take in made.takes:
        room = lobby.get(take.table_id)
        if room is None and take.table_id in served and services.cluster is not None:
            if queue.claim({take.entry.identity: (take.table_id, take.seat)}):
                _keep_there(services, served[take.table_id], take)
            continue
        if room is None or not queue.claim({take.entry.identity: (take.table_id, take.seat)}):
            continue
        try:
            room.act(functools.partial(room.table.reserve, take.seat, take.entry.identity,
                                       take.entry.name, take.entry.device))
        except Exception:
            log.exception("quick match: seat %d of table %s not kept", take.seat, take.table_id)
            queue.release([take.entry.identity])
    for group in made.groups:
        table_id = lobby.new_id()
        if not queue.claim({e.identity: (table_id, i) for i, e in enumerate(group.players)}):
            continue  # another process seated one of them: the others wait for the next look
        try:
            room = lobby.create_match(table_id, preset_of(group.family), group.size,
                                      [(e.name, e.identity, e.device) for e in group.players],
                                      group.level)
        except Exception:
            log.exception("quick match: a table could not be made")
            queue.release([e.identity for e in group.players])
            continue
        room.changed()
    return made


def _keep_there(services: Services, process: str, take: Take) -> None:
    """Have ``process``, which serves the table of ``take``, keep its seat for the player
    claimed; if it does not, the claim is let go (the player waits again)."""
    cluster = services.cluster
    assert cluster is not None
    entry = take.entry

    def then(kept: bool) -> None:
        if kept:
            return
        log.info("quick match: seat %d of table %s not kept by %s", take.seat, take.table_id,
                 process)
        try:
            services.queue.release([entry.identity])
        except Exception:
            log.exception("quick match: %s's claim not let go", entry.identity)

    cluster.keep_seat(process, take.table_id, take.seat, entry.identity, entry.name,
                      entry.device, then)


async def matchmaking(services: Services) -> None:
    """Match the queue every :data:`EVERY` seconds; forget the matched entries kept long enough.
    In a room of many processes, the other processes' quick-match tables are read from the
    directory first (in a thread: it waits for Redis)."""
    looks = 0
    while True:
        await asyncio.sleep(EVERY)
        if not services.leads():  # another process of the room matches
            continue
        looks += 1
        try:
            elsewhere: Sequence[TableFacts] = ()
            if services.cluster is not None:
                elsewhere = await run_in_threadpool(services.directory.quick_tables, False)
            match_once(services, services.clock.wall(), elsewhere)
            if looks % FORGET_EVERY == 0:
                services.queue.forget_matched(services.clock.wall() - MATCHED_KEPT)
        except Exception:  # the next look tries again; serving goes on
            log.exception("quick match failed")

