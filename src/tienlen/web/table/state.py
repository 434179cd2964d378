"""One table's state, apart from its connections and its clock: the seats and the host, its
hands, the log they are stored in and the snapshot beside it, and who is asked now.

Every change is stored (the table's log, through ``store``) before it is made, and it is made
by :meth:`TableState.apply`, the one place each kind of log entry changes the table, live and
when a table is rebuilt from what is stored (:meth:`TableState.restore`). A move is tried on a
copy of the game first, so the record of a hand it ends is stored in the same write. A bot's
move is *staged* (decided and checked, its write made, nothing changed yet) for the
table's room to make (:meth:`TableState.make`), stored with other tables' writes by the
committer (committer.py).
The time is the table's ``time`` (:mod:`.now`).

The hand's decisions are asked in the order of one :class:`~tienlen.turns.Turns` per hand
(kept in memory, not stored: after a restart every seat has a new chance to chop). Out of turn
(a chop, §6; a free chop, §11) a bot is asked whatever it holds, and a bot that lets the chop
go is not asked again until someone moves. A person asked out of turn is passed over at once,
in the same way whatever they hold: the hand opens no chop window for people (they may send a
chop whenever the game allows one). A bot plays for a player who has been away longer than
the table's ``away_timeout``, until they return.

A player who leaves after the start may come back (:meth:`TableState.come_back`): the seat a
bot holds because its owner left is the owner's to take back, until the table closes ("back"
in the log). A move the turn timer made for a player is logged as "timer", and a bot's move
(a bot's seat's, or a bot's for a player who is away) as "bot_move", not "move", so that the history
marks them after a restart too (:meth:`TableState.timer_moves`, :meth:`TableState.bot_moves`).

At a quick-match table a bot's seat that nobody owns may be kept for a later player
(:meth:`TableState.reserve`, "reserve" in the log): the hand in play stays the bot's, and the
seat becomes the player's as the next hand is dealt ("take", stored before the deal).

The host (the creator, or the first player to sit at a table made without a name) alone starts
the table, seats bots and removes seats (a player's too, before the start), and kicks a player
who is away after it (the seat a bot's, as a leave makes it); a removed or kicked identity never
sits at the table again, nor takes the seat back ("remove" and "kick" in the log name it). At
the end of a hand each player asks for the next one (the asks are stored in the log, so a
restart keeps them); when it is dealt is the clock's (:mod:`.clock`). Nothing here runs on the event loop.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ... import PASS, Action, Game, Move, Play, Rules, TienLenError, parse_move
from ...bots import Bot
from ...errors import reason_of
from ...i18n import bot_name, msg
from ...turns import Decision, OutOfTurn, Turns, bot_answers, view_for_decision
from ...turns import asked as asked_now
from ..accounts.names import (
    BOT_NUMBERS,
    MAX_NAME,
    BadName,
    bot_number,
    clean_name,
    confusable_key,
    name_key,
    shown_keys,
)
from ..now import REAL_TIME, Time
from ..ratings.ratings import rated_family
from ..refusal import Refused
from ..storage import hash_token
from ..tablelog.writes import Entry, HandEnd, SeatChange, StoredTable, TableSettings, Write
from ..workers.botpool import PooledBot
from .agent import bot_of
from .hands import Hands
from .snapshot import Snapshot
from .staged import Asking, Staged

AWAY_BOT = "heuristic"
# what a command already made from its log entry, handed to TableState.apply_entry: the dealt
# hands of a "start", the dealt hand of a "next", a move with the hand it leads to (its trial)
Made = Hands | Game | tuple[Move, Game] | None
# the least grace a player has, away, before a bot plays for them at a rated table, and before
# the host may kick them at any table (seconds since their last connection closed): a reload,
# a closed laptop lid or a train tunnel is not absence (lichess gives about 40 s too)
MIN_GRACE = 40.0


def away_grace(settings: TableSettings) -> float:
    """The seconds a player may be away before a bot plays for them: the table's
    ``away_timeout``, and at least :data:`MIN_GRACE` at a rated table."""
    if rated_family(settings) is None:
        return settings.away_timeout
    return max(settings.away_timeout, MIN_GRACE)


@dataclass
class Seat:
    kind: str = "empty"  # empty | human | bot
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    owner: str | None = None  # the identity the seat belongs to (None: held by its token only)
    device: str | None = None  # the browser it was taken from (session.device_of)
    clients: set[object] = field(default_factory=set)  # the room's connections seated here
    away_since: float | None = None  # monotonic seconds: since when a player is not connected


@dataclass(frozen=True)
class Reservation:
    """A bot's seat kept for a player from quick match: theirs when the next hand is dealt."""

    owner: str
    name: str
    device: str | None = None


def check_name(name: str) -> str:
    """A player's name, normalised (NFC, single spaces), or :class:`Refused` saying why not."""
    try:
        return clean_name(name, "a name")
    except BadName as exc:
        raise Refused(exc.reason) from None


class TableState:
    """The seats, the host, the hands and the log of one table (see the module's text).

    ``store`` stores one write (a log entry, with the seat it changes, the record of the hand
    it ends, the snapshot after it and the new host) and raises if it cannot; ``time`` is what
    the table reads the time from (:mod:`.now`).

    Each command checks, builds its write, stores it and then makes it with :meth:`apply`, the
    one place where a write changes the table; a table rebuilt from what is stored
    (:meth:`restore`) is made by the same :meth:`apply_entry`, entry after entry."""

    def __init__(self, settings: TableSettings, store: Callable[[Write], None],
                 time: Time = REAL_TIME) -> None:
        self.settings = settings
        self.id = settings.id
        self.bot_level = settings.bot_level
        self.host_seat = settings.host_seat
        self.creator = settings.creator
        self.rules, self.options = _rules_of(settings.rules_toml)
        self.players = settings.players
        self.seed = settings.seed
        self.fixed_seed = settings.fixed_seed
        self.away_timeout = away_grace(settings)
        self.turn_timer = settings.turn_timer
        self.time = time
        self.seats = [Seat() for _ in range(self.players)]
        # a seat's bot of a level, with a seed (the room's bot pool makes the strongest ones)
        self.make_bot: Callable[[int, str, int], Bot] = lambda seat, level, seed: bot_of(
            level, seed)
        self.rated = rated_family(settings)  # the rating family of its hands (None: unrated)
        self.hands: Hands | None = None  # once the game has started
        self.version = 0  # the length of the log
        # the finished hand's asks for the next one: seat -> when it asked (Unix seconds)
        self.asks: dict[int, float] = {}
        self._store = store
        self._pending: list[Write] | None = None  # see hold_writes
        # a new table's held writes that end a hand (its first deal's instant win): the room
        # stores what they write for the players once those are (see Room.changed)
        self.held: list[Write] = []
        self._over: tuple[int, int] | None = None  # (hand number, version first showing it over)
        self._left: dict[int, int] = {}  # seat -> the hand its player left during (see ended)
        # the identities the host removed or kicked: they never sit here again, nor take back
        # the seat they were kicked from ("remove"/"kick" entries of the log name them)
        self.barred: set[str] = set()
        # the current hand's moves (indices into its history) made by the turn timer ("timer")
        # and by a bot ("bot_move"): (hand number, kind -> moves)
        self._made: tuple[int, dict[str, set[int]]] = (0, {})
        # when (Unix seconds) the newest log entry was stored, for a restored table: its turn
        # timer runs from then (None: a new table, its timer from now)
        self.last_change: float | None = None
        self._bots: dict[int, Bot] = {}
        self._turns: Turns | None = None
        self.reserved: dict[int, Reservation] = {}  # bots' seats kept for players (quick match)
        self.taken: list[int] = []  # seats taken from their bots since the room last looked
        # refuses (Refused) a name that is an account's, or looks like one, to anyone but that
        # account (the identity given; the lobby's: names.check_not_account)
        self.check_owner_name: Callable[[str, str | None], None] = lambda name, owner: None

    # ------------------------------------------------------------------ building
    @classmethod
    def restore(cls, stored: StoredTable, store: Callable[[Write], None],
                time: Time = REAL_TIME) -> TableState:
        """Rebuild a table from its stored seats, its snapshot and the log entries after it:
        each seat's row put as :meth:`apply` puts it, each entry made by :meth:`apply_entry`
        (the entries before the snapshot are in it, but for who is barred: :meth:`_bar`)."""
        table = cls(stored.settings, store, time)
        table.last_change = stored.last_at
        for change in stored.seats.values():
            table._put_seat(change)
        for entry in stored.earlier:
            table._bar(entry)
        if stored.snapshot is not None:
            table.version, data = stored.snapshot
            table.hands = Hands.from_snapshot(table.rules, Snapshot.loads(data))
            table._note_over()
        for entry in stored.log:
            table.apply_entry(entry)
        return table

    # ------------------------------------------------------------------ applying the log
    def apply(self, write: Write, made: Made = None) -> None:
        """Make one stored write: the seat's row it puts and the new host (what a restart reads
        from the seats' rows and the table's), then its log entry (:meth:`apply_entry`).
        ``made``: what the command already made from the entry (see :meth:`apply_entry`)."""
        if write.seat is not None:
            self._put_seat(write.seat)
        if write.host is not None:  # the creator no longer runs the table: its slot frees
            self.host_seat = write.host[0]
            self.creator = ""
        self.apply_entry(write.entry, made)

    def apply_entry(self, entry: Entry, made: Made = None) -> None:
        """Make one log entry's change (beyond its seat's row), live and when the table is
        rebuilt alike: each kind of entry is made here and nowhere else. ``made``: what the
        command already made from it, so as not to make it twice (the dealt :class:`Hands` of a
        "start", the dealt hand of a "next", the move of a "move"); None: made from the text.
        An entry of a kind this release does not know changes nothing but the version."""
        how = _APPLY.get(entry.kind)
        if how is not None:
            how(self, entry, made)
        self.version = entry.idx + 1
        self._note_over()

    def _put_seat(self, change: SeatChange) -> None:
        """Make a seat as its stored row says: the same holder (a renamed seat) keeps its
        connections and its bot; a new player is away until a connection plays the seat."""
        old = self.seats[change.seat]
        new = Seat() if change.kind == "empty" else Seat(
            change.kind, change.name, change.level, change.token_hash, change.owner, change.device)
        if (old.kind, old.token_hash, old.owner, old.level) == \
                (new.kind, new.token_hash, new.owner, new.level):
            new.clients, new.away_since = old.clients, old.away_since
        else:
            self._bots.pop(change.seat, None)
            if new.kind == "human":
                new.away_since = self.time()
        self.seats[change.seat] = new

    def _start(self, entry: Entry, made: Made) -> None:
        self.hands = made if isinstance(made, Hands) else Hands(
            self.rules, self._names(), entry.text, self.seed, self.fixed_seed)

    def _next(self, entry: Entry, made: Made) -> None:
        assert self.hands is not None
        self.hands.install(made if isinstance(made, Game) else self.hands.deal_next(entry.text))
        # what was noted of the hands before goes (a table rebuilt from this deal's snapshot
        # has none of it): the asks, who left them, who made their moves, when one ended
        self.asks, self._left, self._made, self._over = {}, {}, (0, {}), None

    def _move(self, entry: Entry, made: Made) -> None:
        """A move ("move": a person's; "timer", "bot_move": see :meth:`timer_moves`), checked
        before it was stored. Made live, the hand its check led to becomes the current one (the
        move is made once); rebuilt from the log, the move is made from its text."""
        assert self.hands is not None and entry.seat is not None
        if isinstance(made, tuple):
            self.hands.push(made[0], entry.seat, after=made[1])
        else:
            self.hands.push(parse_move(entry.text, self.rules), entry.seat)
        self._note_made(entry.kind)

    def _ask(self, entry: Entry, made: Made) -> None:
        assert entry.seat is not None
        self.asks[entry.seat] = float(entry.text)

    def _leave(self, entry: Entry, made: Made) -> None:
        if entry.seat is not None:
            self._note_left(entry.seat)

    def _bar(self, entry: Entry, made: Made = None) -> None:
        """A "remove" or "kick" names the identity that never sits here again (an older
        release's removals name nobody)."""
        if entry.text:
            self.barred.add(entry.text)

    def _kick(self, entry: Entry, made: Made) -> None:
        self._bar(entry)
        self._leave(entry, made)

    def _back(self, entry: Entry, made: Made) -> None:
        if entry.seat is not None:
            self._left.pop(entry.seat, None)

    def _reserve(self, entry: Entry, made: Made) -> None:
        if entry.seat is not None:
            self.reserved[entry.seat] = Reservation(**json.loads(entry.text))

    def _release(self, entry: Entry, made: Made) -> None:
        if entry.seat is not None:
            self.reserved.pop(entry.seat, None)

    def _renamed(self, entry: Entry, made: Made) -> None:
        if entry.seat is not None:
            self._rename(entry.seat, entry.text)

    def _take(self, entry: Entry, made: Made) -> None:
        """A seat kept for a player is theirs (its row says so): the next hands' records name
        them, not the bot."""
        kept = self.reserved.pop(entry.seat, None) if entry.seat is not None else None
        if kept is not None and entry.seat is not None and self.hands is not None:
            self.hands.session.rename(entry.seat, kept.name)

    def _note_over(self) -> None:
        """Remember the version at which the current hand was first seen over (a player who has
        seen that may ask for the next hand, whatever asks came after)."""
        hands = self.hands
        if hands is not None and hands.game.is_over and \
                (self._over is None or self._over[0] != hands.number):
            self._over = (hands.number, self.version)

    def _names(self) -> list[str]:
        return [seat.name or f"Seat {i + 1}" for i, seat in enumerate(self.seats)]

    @property
    def game(self) -> Game | None:
        """The current hand, once the game has started."""
        return self.hands.game if self.hands is not None else None

    @property
    def started(self) -> bool:
        return self.hands is not None

    @property
    def hand_no(self) -> int:
        """The number of the current hand (0 before the start)."""
        return self.hands.number if self.hands is not None else 0

    def snapshot(self) -> str:
        """The table's state as stored beside its log."""
        assert self.hands is not None
        return self.hands.snapshot()

    # ------------------------------------------------------------------ the log
    def hold_writes(self) -> None:
        """Keep this new table's writes until :meth:`take_writes` (stored with the table)."""
        self._pending = []

    def take_writes(self) -> tuple[list[Entry], list[SeatChange]]:
        """The log entries and seats held since :meth:`hold_writes`; writes are made again."""
        pending, self._pending = self._pending or [], None
        self.held = [w for w in pending if w.record is not None or w.ended is not None]
        seats: dict[int, SeatChange] = {}
        for write in pending:
            if write.seat is not None:
                seats[write.seat.seat] = write.seat
        return [w.entry for w in pending], [c for c in seats.values() if c.kind != "empty"]

    def _entry(self, kind: str, seat: int | None = None, text: str = "",
               change: SeatChange | None = None, record: tuple[int, str] | None = None,
               snapshot: str | None = None, host: tuple[int | None] | None = None,
               ended: HandEnd | None = None) -> Write:
        """The write of the table's next log entry (nothing stored, nothing changed)."""
        return Write(self.id, Entry(self.version, kind, seat, text), change, record, snapshot,
                     host, ended)

    def stores_through(self, store: Callable[[Write], None]) -> None:
        """Store the table's writes through ``store`` from now on (its room's staging)."""
        self._store = store

    def _commit(self, write: Write, made: Made = None) -> None:
        """Store ``write`` (or hold it: :meth:`hold_writes`), then make it (:meth:`apply`)."""
        if self._pending is not None:
            self._pending.append(write)
        else:
            self._store(write)
        self.apply(write, made)

    # ------------------------------------------------------------------ seats
    @property
    def host(self) -> int | None:
        """The seat that runs the table (starts it, seats bots, removes seats): the creator's, or
        the player's it passed to. A table made without a name has none until a player sits:
        the first to sit is its host (a table stored without one, by an older release: before
        the start, the first player seated). None after the start once the host has left."""
        if self.host_seat is None and not self.started:
            return next((i for i, s in enumerate(self.seats) if s.kind == "human"), None)
        return self.host_seat

    def _check_host(self, by: int | None, key: str) -> None:
        """Refuse (with the catalogue's ``key``) what only the host may do, asked by seat ``by``
        (None: the server itself, making a quick table)."""
        if by is None:
            return
        host = self.host
        if by != host:
            raise Refused(msg(key, seat=host) if host is not None else msg("room.host_only_nobody"))

    def join_seat(self, name: str, seat: int | None = None, owner: str | None = None,
                  device: str | None = None) -> tuple[int, str]:
        """Give an empty seat to a player (the identity ``owner``'s, from the browser
        ``device``, when known); returns the seat and its secret token. At a rated table one
        identity, and one browser, holds one seat at most."""
        name = check_name(name)
        if self.started:
            raise Refused(msg("room.started_watch"))
        if owner is not None and owner in self.barred:
            raise Refused(msg("room.barred"))
        self._refuse_lookalike(name)
        self.check_owner_name(name, owner)
        self._check_sitter(owner, device)
        seat = self._empty_seat(seat)
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        host = (seat,) if self.host is None else None  # the first to sit at a hostless table
        self._commit(self._entry("join", seat, name, SeatChange(
            seat, "human", name, None, digest, owner, device), host=host))
        return seat, token

    def add_bot(self, seat: int | None = None, level: str | None = None,
                by: int | None = None) -> int:
        """The host (seat ``by``; None: the server) seats a bot of ``level`` (None: the table's
        bot level)."""
        if self.started:
            raise Refused(msg("room.started_bots"))
        self._check_host(by, "room.host_only_bot")
        level = level or self.bot_level
        seat = self._empty_seat(seat)
        taken = frozenset().union(*self._keys_shown())
        name = next(bot_name(k) for k in BOT_NUMBERS if not shown_keys(bot_name(k), True) & taken)
        self._commit(self._entry("bot", seat, level, SeatChange(seat, "bot", name, level)))
        return seat

    def remove_seat(self, by: int, seat: int) -> None:
        """The host (seat ``by``) empties ``seat`` before the start: a bot's, or a player's
        (here or not), who then cannot sit at this table again (the log's entry names them)."""
        if self.started:
            raise Refused(msg("room.started_remove"))
        self._check_host(by, "room.host_only")
        s = self._other_seat(by, seat)
        if s.kind == "empty":
            raise Refused(msg("room.already_empty", seat=seat))
        barred = s.owner if s.kind == "human" and s.owner is not None else ""
        self._commit(self._entry("remove", seat, barred, SeatChange(seat, "empty", "")))

    def kick(self, by: int, seat: int, now: float | None = None) -> None:
        """The host (seat ``by``) gives the seat of a player who is away (a bot plays for them:
        :meth:`bot_controlled`, and gone :data:`MIN_GRACE` seconds at least, at any table; at
        ``now``, monotonic seconds) to a bot for the rest of the table, as a leave does; but the
        kicked identity may not take it back (:meth:`come_back`) nor sit here again. Kicked
        during a hand, the player is rated as its leaver."""
        if not self.started:
            raise Refused(msg("room.kick_not_started"))
        self._check_host(by, "room.host_only_kick")
        s = self._other_seat(by, seat)
        if s.kind != "human":
            raise Refused(msg("room.kick_no_player", seat=seat))
        if s.clients:
            raise Refused(msg("room.kick_here", name=s.name, seat=seat))
        grace = max(self.away_timeout, MIN_GRACE)
        if self.away_for(seat, now) < grace:
            raise Refused(msg("room.kick_not_away", name=s.name, seat=seat, s=f"{grace:g}"))
        name = s.name or f"Seat {seat + 1}"
        self._commit(self._entry("kick", seat, s.owner or "",
                                 SeatChange(seat, "bot", name, self.bot_level, owner=s.owner)))

    def _other_seat(self, by: int, seat: int) -> Seat:
        """Another seat than the host's own (``by``), which the host acts on."""
        if not 0 <= seat < self.players:
            raise Refused(msg("room.no_seat", last=self.players - 1, seat=seat))
        if seat == by:
            raise Refused(msg("room.own_seat"))
        return self.seats[seat]

    def leave(self, seat: int) -> None:
        """The player at ``seat`` leaves: before the start the seat is emptied (its token stops
        working); after, a bot of the table's level plays it for the rest of the table. The
        seat's connections are no longer seated (the room tells them)."""
        s = self.seats[seat]
        host: tuple[int | None] | None = None
        if self.started:
            # the seat stays the leaver's (owner): the hand it left is still theirs to be rated
            change = SeatChange(seat, "bot", s.name or f"Seat {seat + 1}", self.bot_level,
                                owner=s.owner)
            if seat == self.host_seat:
                host = (None,)
        else:
            change = SeatChange(seat, "empty", "")
            if seat == self.host:  # the host's role passes to the first player still seated
                others = [i for i, o in enumerate(self.seats) if o.kind == "human" and i != seat]
                host = (others[0] if others else None,)
        self._commit(self._entry("leave", seat, "", change, host=host))

    def _check_sitter(self, owner: str | None, device: str | None,
                      taking: int | None = None) -> None:
        """Who may be given a seat (a join, a table's first seat, quick match's seating and its
        kept seats, a seat taken back: ``taking``): anyone at an unrated table; at a rated
        table only an identity (a browser's session: a script with no cookie, known by a token
        alone, is refused) that has no other seat here (none it sits at, none it left for a bot
        to play and may take back, none kept for it for the next hand), from a browser that has
        none either. Which connections then play the seat: :meth:`check_player`."""
        if self.rated is None:
            return
        if owner is None:
            raise Refused(msg("room.rated_identity"))
        held = [(i, s.owner, s.device) for i, s in enumerate(self.seats)
                if i != taking and s.kind != "empty"]
        held += [(i, kept.owner, kept.device) for i, kept in self.reserved.items()]
        mine = [i for i, who, _ in held if who == owner]
        if mine:
            raise Refused(msg("room.one_seat_rated", seat=min(mine)))
        same = [i for i, _, browser in held if device is not None and browser == device]
        if same:
            raise Refused(msg("room.one_browser_rated", seat=min(same)))

    def check_player(self, seat: int, owner: str | None, device: str | None) -> None:
        """Refuse a connection (of the identity ``owner``, from the browser ``device``; None:
        none) that asks to play ``seat`` by its token, unless it may: anyone holding the token
        at an unrated table; at a rated table the seat's own identity, its own browser, or a
        script with neither (the seat is still its identity's: a rated table seats no script,
        :meth:`_check_sitter`), never another identity or browser (a second seat of theirs)."""
        if self.rated is None:
            return
        s = self.seats[seat]
        script = owner is None and device is None
        if not script and owner != s.owner and (device is None or device != s.device):
            raise Refused(msg("room.rated_token"))

    def _note_left(self, seat: int) -> None:
        """The player at ``seat`` left after the start: during the current hand (rated last in
        it), unless it is over (then the next hand is a bot's)."""
        if self.hands is not None and not self.hands.game.is_over:
            self._left[seat] = self.hands.number

    def seats_left_by(self, owner: str | None) -> list[int]:
        """The seats a bot plays because the identity ``owner`` left them after the start: the
        owner's to take back while the table is open (a seat held by a token alone is nobody's)."""
        if owner is None or not self.started or owner in self.barred:
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" and s.owner == owner]

    def come_back(self, owner: str | None, seat: int | None = None,
                  device: str | None = None) -> tuple[int, str]:
        """The identity ``owner`` (from the browser ``device``) takes back a seat it left after
        the start (``seat`` None: the first such seat) from the bot that played it on; returns
        the seat and its new secret token. Back during the hand it left, the player is no
        longer its leaver: the hand is rated as theirs, as if they had never gone."""
        left = self.seats_left_by(owner)
        if seat is None and left:
            seat = left[0]
        if owner is not None and owner in self.barred:
            raise Refused(msg("room.kicked_back"))
        if seat is None:
            raise Refused(msg("room.back_none"))
        if seat not in left:
            raise Refused(msg("room.back_not_yours", seat=seat))
        self._check_sitter(owner, device, taking=seat)
        s = self.seats[seat]
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        name = s.name or f"Seat {seat + 1}"
        self._commit(self._entry("back", seat, "", SeatChange(seat, "human", name, None, digest,
                                                              owner, device)))
        return seat, token

    def reserve(self, seat: int, owner: str, name: str, device: str | None = None) -> None:
        """Keep the bot's ``seat`` (no player's: not a leaver's) for the identity ``owner``
        from quick match: the hand in play stays the bot's (its record and ratings as they
        would be), the seat becomes the player's, named ``name``, when the next hand is dealt
        ("reserve" in the log; "take" when it is dealt)."""
        s = self.seats[seat] if 0 <= seat < self.players else None
        if not self.started or s is None or s.kind != "bot" or s.owner is not None \
                or seat in self.reserved:
            raise Refused(msg("room.seat_taken", seat=seat))
        self._check_sitter(owner, device)
        kept = Reservation(owner, self.name_apart(name, owner), device)
        self._commit(self._entry("reserve", seat,
                                 json.dumps(dataclasses.asdict(kept), ensure_ascii=False)))

    def name_apart(self, name: str, owner: str | None = None) -> str:
        """``name`` (cleaned), or with a number after it ("Lan 2") when it looks like a name
        seated here, or is an account's but ``owner``'s (an account claimed the name after
        its guest joined the queue)."""
        name = check_name(name)
        for shown in [name, *(f"{name[:MAX_NAME - 2]} {n}" for n in range(2, 10))]:
            try:
                self._refuse_lookalike(shown)
                self.check_owner_name(shown, owner)
            except Refused:
                continue
            return shown
        return name

    def release(self, owner: str) -> list[int]:
        """Give up the bots' seats kept for ``owner`` (the table will not deal them in, or
        ``owner`` is gone): they stay the bots' ("release" in the log). The seats given up."""
        seats = [i for i, kept in self.reserved.items() if kept.owner == owner]
        for seat in seats:
            self._commit(self._entry("release", seat, owner))
        return seats

    def forget(self, owner: str, name: str) -> list[int]:
        """The identity ``owner`` is gone for good (its account deleted): a seat it holds is
        left as a leave leaves it (emptied before the start; after it a bot plays on, the hand
        in play rated as left), a seat kept for it is given up, and each seat still its is
        called ``name`` ("rename" in the log), in the hand in play's record and every later
        one. The seats it had here."""
        self.release(owner)
        mine = [i for i, s in enumerate(self.seats) if s.owner == owner]
        for seat in mine:
            if self.seats[seat].kind == "human":
                self.leave(seat)
            s = self.seats[seat]
            if s.kind != "empty" and s.name != name:
                self._commit(self._entry("rename", seat, name, SeatChange(
                    seat, s.kind, name, s.level, s.token_hash, s.owner, s.device)))
        return mine

    def _rename(self, seat: int, name: str) -> None:
        """Call ``seat`` ``name`` in the hand in play (its record) and the hands after it."""
        if self.hands is not None:
            self.hands.session.rename(seat, name)
            game = self.hands.game
            game.names = tuple(name if i == seat else n for i, n in enumerate(game.names))

    def _take_reserved(self) -> None:
        """Before a deal: each seat kept for a player becomes theirs ("take", stored first)."""
        for seat, kept in sorted(self.reserved.items()):
            digest = hash_token(secrets.token_urlsafe(24))  # found by its owner, not a token
            self._commit(self._entry("take", seat, "", SeatChange(
                seat, "human", kept.name, None, digest, kept.owner, kept.device)))
            self.taken.append(seat)

    def timer_moves(self) -> frozenset[int]:
        """The moves of the current hand (indices into its history) the turn timer made."""
        return self._moves_made("timer")

    def bot_moves(self) -> frozenset[int]:
        """The moves of the current hand a bot made (for a bot's seat, or an away player's)."""
        return self._moves_made("bot_move")

    def _moves_made(self, kind: str) -> frozenset[int]:
        number, made = self._made
        return frozenset(made.get(kind, ())) if number == self.hand_no else frozenset()

    def _note_made(self, kind: str) -> None:
        """The current hand's last move was made by ``kind`` (its log entry's: "move" is a
        person's, noted nowhere)."""
        assert self.hands is not None
        if kind == "move":
            return
        number = self.hands.number
        made = self._made[1] if self._made[0] == number else {}
        made.setdefault(kind, set()).add(len(self.hands.game.history) - 1)
        self._made = (number, made)

    def _keys_shown(self) -> list[frozenset[str]]:
        """Each seated name's keys as any reader sees it (a bot's "Bot 1" is also "Máy 1")."""
        return [shown_keys(s.name, s.kind == "bot") for s in self.seats if s.name is not None]

    def _refuse_lookalike(self, name: str) -> None:
        """Refuse a player's name that looks like a bot's or like a name seated here."""
        number = bot_number(name)
        if number is not None:
            raise Refused(msg("name.bot", name=repr(name), bot=msg("tui.bot_name", n=number)))
        key = confusable_key(name)
        for s in self.seats:
            if s.name is not None and key in shown_keys(s.name, s.kind == "bot"):
                if name_key(name) == name_key(s.name):
                    raise Refused(msg("room.name_taken", name=repr(name)))
                raise Refused(msg("name.looks_like", name=repr(name), seated=repr(s.name)))

    def _empty_seat(self, seat: int | None) -> int:
        if seat is None:
            for number, s in enumerate(self.seats):
                if s.kind == "empty":
                    return number
            raise Refused(msg("room.full"))
        if not 0 <= seat < self.players:
            raise Refused(msg("room.no_seat", last=self.players - 1, seat=seat))
        if self.seats[seat].kind != "empty":
            raise Refused(msg("room.seat_taken", seat=seat))
        return seat

    def seat_owned(self, owner: str) -> int | None:
        """The seat a player of identity ``owner`` holds here (None: none)."""
        for number, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.owner == owner:
                return number
        return None

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return number
        return None

    def bot_controlled(self, seat: int, now: float | None = None) -> bool:
        """Whether a bot plays ``seat`` now (monotonic seconds): a bot's seat, or a player's who
        has been away for the table's ``away_timeout`` (:func:`away_grace`)."""
        if self.seats[seat].kind == "bot":
            return True
        return self.away_for(seat, now) >= self.away_timeout

    def away_for(self, seat: int, now: float | None = None) -> float:
        """Seconds since the last connection of the player at ``seat`` closed, at ``now``
        (monotonic seconds; -1: here, or no player's seat)."""
        s = self.seats[seat]
        if s.kind != "human" or s.clients or s.away_since is None:
            return -1.0
        return (now if now is not None else self.time()) - s.away_since

    def bots_only(self) -> bool:
        """Whether every seat is a bot's (such a table deals its next hand by itself)."""
        return all(s.kind == "bot" for s in self.seats)

    def paused(self, watched: bool) -> bool:
        """Whether no new hand is dealt because nobody is there: a bots-only table nobody watches
        (``watched``: whether anyone is connected), or a table none of whose players is."""
        if not self.started:
            return False
        if self.bots_only():
            return not watched
        return not any(s.clients for s in self.seats if s.kind == "human")

    def timed(self, seat: int) -> bool:
        """Whether the turn timer runs for this seat (a player's seat at a timed table)."""
        return self.turn_timer > 0 and self.seats[seat].kind == "human"

    # ------------------------------------------------------------------ hands
    def start(self, by: int | None = None) -> None:
        """The host (seat ``by``; None: the server) starts the table once every seat is taken."""
        if self.started:
            raise Refused(msg("room.already_started"))
        self._check_host(by, "room.host_only_start")
        empty = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
        if empty:
            raise Refused(msg("room.seat_empty", seat=empty[0]))
        keys = self._keys_shown()
        if len(frozenset().union(*keys)) < sum(len(k) for k in keys):
            raise Refused(msg("room.same_name"))
        seed = Hands.first_seed(self.seed, self.fixed_seed)
        hands = Hands(self.rules, self._names(), seed, self.seed, self.fixed_seed)
        self._commit(self._entry("start", text=seed, snapshot=hands.snapshot(),
                                 record=self._record_if_over(hands.game, 1),
                                 ended=self._ended(hands.game, 1)), hands)

    def apply_move(self, seat: int, text: str) -> None:
        """Check, store, then make one move for a seat (a person's: on turn, or a chop out of
        turn whenever the game allows one)."""
        game = self.game
        if game is None:
            raise Refused(msg("room.not_started"))
        try:
            move = parse_move(text, self.rules)
            trial = game.copy()
            trial.play(move, seat=seat)
        except TienLenError as exc:  # a refused play, or text that is no card (CardError)
            raise Refused(reason_of(exc)) from None
        self._commit(self._entry("move", seat, str(move), record=self._record_if_over(trial),
                                 ended=self._ended(trial)), (move, trial))

    def _record_if_over(self, game: Game, number: int | None = None) -> tuple[int, str] | None:
        """(hand number, record) when ``game`` (the current hand after a move; with ``number``:
        a hand just dealt, which an instant win may end at once) is over."""
        return (number or self.hand_no, game.record()) if game.is_over else None

    def _ended(self, game: Game, number: int | None = None,
               now: float | None = None) -> HandEnd | None:
        """What ``game`` (the current hand after a move) writes for its players when it is
        over: who held each seat when it began (a player who left during it still holds it;
        one who left before it began does not), None when no identity did (bots only, or
        players known by their tokens alone: nothing is written for them). Its leavers, rated
        last: see :meth:`absent_at_end` (at ``now``, monotonic seconds)."""
        if not game.is_over:
            return None
        number = number or self.hand_no
        left = self.absent_at_end(number, now)
        person = [s.kind == "human" or i in left for i, s in enumerate(self.seats)]
        owners = tuple(s.owner if p else None for s, p in zip(self.seats, person, strict=True))
        if not any(owners):
            return None
        levels = tuple(None if p else s.level or self.bot_level
                       for s, p in zip(self.seats, person, strict=True))
        return HandEnd(number, self.rated, self.settings.private, owners, levels,
                       tuple(game.finish_order), left)

    def absent_at_end(self, number: int, now: float | None = None) -> frozenset[int]:
        """The seats whose players are gone as hand ``number`` ends (at ``now``, monotonic
        seconds), each rated as its leaver (last), whichever way they went: those who left
        during it by Leave or a kick and did not take the seat back, and those whose
        connections closed (a closed tab, a lost line) long enough ago that a bot plays for
        them (:meth:`bot_controlled`: the grace ran out) and who are not back. A player back
        in time plays on and is rated by the seat's place."""
        gone = {seat for seat, hand in self._left.items() if hand == number}
        gone.update(i for i, s in enumerate(self.seats)
                    if s.kind == "human" and self.bot_controlled(i, now))
        return frozenset(gone)

    def ask_next_hand(self, seat: int, version: int, now: float | None = None) -> None:
        """The player at ``seat``, having seen the table at ``version``, asks for the next hand:
        dealt now when every other player has asked too, else the ask is stored (the first one
        starts the countdown). A version from before the hand ended is stale; one from after,
        whatever asks came since, is not (two players may ask at once)."""
        hands = self.hands
        if hands is None:
            raise Refused(msg("room.not_started"))
        over = hands.game.is_over
        seen_end = over and self._over is not None and self._over[1] <= version <= self.version
        if version != self.version and not seen_end:
            raise Refused(msg("room.stale", version=version, now=self.version), code="stale")
        if not over:
            raise Refused(msg("room.not_over"))
        if seat in self.asks:
            raise Refused(msg("room.already_asked"))
        if all(s in self.asks for s in self.waited_for(now) if s != seat):
            self.next_hand()
            return
        self._commit(self._entry("ask", seat, f"{self.time.wall():.3f}"))

    def next_hand(self) -> None:
        """Deal the next hand now (stored first); the asks for it are done with."""
        hands = self.hands
        if hands is None:
            raise Refused(msg("room.not_started"))
        if not hands.game.is_over:
            raise Refused(msg("room.not_over"))
        self._take_reserved()
        seed = hands.next_seed()
        hand = hands.deal_next(seed)
        number = hands.number + 1
        self._commit(self._entry("next", text=seed, snapshot=hands.snapshot(hand),
                                 record=self._record_if_over(hand, number),
                                 ended=self._ended(hand, number)), hand)

    def waited_for(self, now: float | None = None) -> list[int]:
        """The seats the next hand waits for: every player's that no bot plays for (connected or
        not: a player reloading the page is waited for; one away longer than the table's
        ``away_timeout`` is not)."""
        now = self.time() if now is None else now
        return [i for i, s in enumerate(self.seats)
                if s.kind == "human" and not self.bot_controlled(i, now)]

    def ready(self, now: float | None = None) -> list[int]:
        """The players (see :meth:`waited_for`) who have asked for the next hand."""
        return [s for s in self.waited_for(now) if s in self.asks]

    # ------------------------------------------------------------------ who is asked
    @property
    def turns(self) -> Turns:
        """The decisions of the current hand (made again for each hand, and after a restart)."""
        game = self.game
        assert game is not None
        turns = self._turns
        if turns is None or turns.game is not game:
            turns = self._turns = Turns(game)
        return turns

    def asked(self, now: float | None = None) -> Decision | None:
        """The decision the hand waits for now (None: not started, or over): in the order of
        the hand's :class:`~tienlen.turns.Turns`, each person asked out of turn passed over at
        once (a decline, whatever they hold); a bot asked out of turn, or the seat on turn."""
        if self.game is None:
            return None
        return asked_now(self.turns, person=lambda seat: not self.bot_controlled(seat, now),
                         policy=OutOfTurn.ANY_TIME)

    def bot_move(self, at: float, now: float | None = None,
                 out_of_time: bool = False) -> Staged | Asking | None:
        """The move a bot owes now in the hand, staged (``at``: when it was due, Unix seconds):
        the bots asked out of turn answer one after another (a bot's ``pass`` is a decline, not
        asked again until someone moves), then a bot plays the seat on turn if it plays for it
        (or ``out_of_time``: for a player whose turn timer ran out). :class:`Asking`: a pooled
        bot's decision, to be made in the bot pool first. None: the hand waits for a person (or
        is over)."""
        def person(seat: int) -> bool:
            return not self.bot_controlled(seat, now)

        def by_bot(asked: Decision) -> bool:  # not a player's turn in time: they are waited for
            return asked.out_of_turn or out_of_time or not person(asked.seat)

        def answer(asked: Decision) -> Move | Asking:
            return self.choose(asked.seat, asked)

        for step in bot_answers(self.turns, answer, by_bot=by_bot, person=person,
                                policy=OutOfTurn.ANY_TIME):
            asked, move = step
            if isinstance(move, Asking):
                return move
            if not step.declined:  # the timer's move is logged as such: the page marks it
                made = "bot_move" if asked.out_of_turn or not person(asked.seat) else "timer"
                return self._stage(asked.seat, move, at, made, now)
        return None

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.seats[seat].level or AWAY_BOT
            # a practice table's bots follow its seed; elsewhere only the server knows theirs
            seed = self.seed + 7919 * seat if self.fixed_seed else secrets.randbits(64)
            bot = self._bots[seat] = self.make_bot(seat, level, seed)
        return bot

    def choose(self, seat: int, asked: Decision | None = None) -> Move | Asking:
        """The bot's move for ``seat``: one of the moves of its decision ``asked`` (out of turn:
        its chops and ``pass``, its decline); without one, of its legal moves now.
        :class:`Asking` when the bot's decisions are made in the bot pool and the pool has not
        answered this one yet."""
        assert self.game is not None
        view = self.game.view(seat) if asked is None else view_for_decision(self.game, asked)
        # a bot that fails, or answers what it may not, lets a chop out of turn go (its pass)
        # and otherwise makes the first legal move: a bot's failure must not stop the table
        fallback = PASS if asked is not None and asked.out_of_turn else view.legal[0]
        bot = self._bot(seat)
        try:
            if isinstance(bot, PooledBot):
                answer = bot.answer(view)
                if answer is None:
                    return Asking(bot.key, view, bot.answered)
                move = answer
            else:
                move = bot.choose(view)
        except Exception:
            return fallback
        return move if move in view.legal else fallback

    # ------------------------------------------------------------------ staging
    def stage_deal(self, at: float) -> Staged:
        """The next hand, dealt (its seed drawn) but not installed."""
        assert self.hands is not None
        self._take_reserved()  # made with the deal, in the same pass
        seed = self.hands.next_seed()
        hand = self.hands.deal_next(seed)
        number = self.hands.number + 1
        write = self._entry("next", text=seed, snapshot=self.hands.snapshot(hand),
                            record=self._record_if_over(hand, number),
                            ended=self._ended(hand, number))
        return Staged(write, None, None, at, hand)

    def _stage(self, seat: int, move: Play | Action, at: float, made: str,
               now: float | None = None) -> Staged:
        """A legal move (one of ``legal_plays(seat)``, or ``pass`` out of turn) tried on a copy
        of the game; ``made``: by a bot ("bot_move"), or the "timer" for a player out of time."""
        assert self.game is not None
        trial = self.game.copy()
        trial.push(move, seat)
        write = self._entry(made, seat, str(move), record=self._record_if_over(trial),
                            ended=self._ended(trial, now=now))
        return Staged(write, seat, move, at, trial)

    def install(self, staged: Staged) -> None:
        """Make a staged move once it is stored: its trial becomes the hand (the move is made
        once; the hand's turns notice it: a new chance for every seat)."""
        assert self.hands is not None and staged.write.entry.idx == self.version
        self.apply(staged.write, staged.made)

    def make(self, staged: Staged) -> None:
        """Store (through the table's ``store``) and make a staged move, as a person's move is
        made: the one way every move reaches the table."""
        assert staged.write.entry.idx == self.version
        self._commit(staged.write, staged.made)


# each kind of log entry, made (TableState.apply_entry); "join" and "bot": the seat's row alone
_APPLY: dict[str, Callable[[TableState, Entry, Made], None]] = {
    "join": lambda table, entry, made: None,
    "bot": lambda table, entry, made: None,
    "leave": TableState._leave,
    "remove": TableState._bar,
    "kick": TableState._kick,
    "back": TableState._back,
    "reserve": TableState._reserve,
    "release": TableState._release,
    "rename": TableState._renamed,
    "take": TableState._take,
    "start": TableState._start,
    "move": TableState._move,
    "timer": TableState._move,
    "bot_move": TableState._move,
    "ask": TableState._ask,
    "next": TableState._next,
}


@functools.lru_cache(maxsize=256)
def _rules_of(rules_toml: str) -> tuple[Rules, dict[str, Any]]:
    """A table's rules read from its stored TOML, and the options in which they differ from
    their preset (shown in its info); read once for all the tables that share them (rules are
    immutable)."""
    rules = Rules.from_toml(rules_toml)
    return rules, rules.differences()
