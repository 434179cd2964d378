"""Every table the server holds: creating them, finding them, closing idle ones, rebuilding them."""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel, ConfigDict, Field

from ... import Rules, TienLenError
from ...errors import reason_of
from ...i18n import Num, msg, toml_reason
from ...tomltext import TOMLDecodeError
from ...tomltext import loads as toml_loads
from ..accounts.names import (
    MAX_NAME,
    MAX_TABLE_NAME,
    RAW_FACTOR,
    AccountNames,
    BadName,
    check_not_account,
    clean_name,
)
from ..limits import Limits
from ..now import REAL_TIME, Time, Timer
from ..refusal import Refused
from ..room.ladder import check_level
from ..room.protocol import BotLevel
from ..room.room import Room
from ..storage import StorageError
from ..table.committer import Committer, Table
from ..table.state import AWAY_BOT, MIN_GRACE, TableState
from ..tablelog.leases import RENEW_EVERY, Fenced, Ownership
from ..tablelog.names import named_for, quick_match_name, unnamed
from ..tablelog.repository import Repository
from ..tablelog.writes import NEXT_HAND_AFTER, StoredTable, TableSettings
from ..workers.botpool import BotPool

if TYPE_CHECKING:
    from ..accounts.identity import IdentityStore

log = logging.getLogger("tienlen.web")

QUICK_AWAY = MIN_GRACE  # a quick-match table's away_timeout (a rated table's least)
QUICK_TURN_TIMER = 60.0  # and its turn timer: strangers do not wait for one another for ever
MAX_KNOWN = 10_000  # identities whose account name the lobby keeps (Lobby.account_of)
KNOWN_SECONDS = 60.0  # and for how long it trusts one it read (a claim in another process)
# the rules the room offers first, Vietnam's own (the published accounts come after, as
# "other rule books"); the first is what the lobby's page deals by default
HOME_PRESETS: Final = ("mien-nam", "mien-bac")
MAX_OPTION = 1_000_000  # the largest number a table's rule changes may hold (a stake, a penalty)


class NewTable(BaseModel):
    """A table as the lobby's form (or a script) asks for it."""

    model_config = ConfigDict(extra="forbid", strict=True)  # JSON numbers and booleans only
    rules: str = Field(default="pagat", max_length=40)
    options: str = Field(default="", max_length=4000)  # TOML lines that change the preset
    players: int = Field(default=4, ge=2, le=8)
    # seconds a player may be away before a bot plays for them; a rated table gives at least
    # table.MIN_GRACE (40 s: a reload is not absence), and its info says what it gives
    away_timeout: float = Field(default=30.0, ge=0, le=3600, description=(
        "seconds a player may be away (every connection closed) before a bot plays for them; "
        "a rated table gives at least 40 (a reload is not absence), and a kick waits 40 at "
        "any table: the answer's info.away_timeout is the table's"))
    turn_timer: float = Field(default=0.0, ge=0, le=600)
    # once a player asks for the next hand, it is dealt when every player has asked or after
    # this many seconds (0: only when every player has asked)
    next_hand_after: float = Field(default=NEXT_HAND_AFTER, ge=0, le=600)
    # a fixed deal: only at a practice table (quick, no second human can sit); shown and kept
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    quick: bool = False  # fill every empty seat with bots and start at once
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME * RAW_FACTOR)
    level: BotLevel = "heuristic"  # every bot's at this table (one of ladder.levels_for(rules))
    table_name: str | None = Field(default=None, min_length=1,
                                   max_length=MAX_TABLE_NAME * RAW_FACTOR)
    private: bool = False  # unlisted: joinable by its link only


def make_rules(preset: str, options: str) -> Rules:
    """The preset with the options a table changes (TOML lines such as ``stake = 5``)."""
    try:
        changes = toml_loads(options)
    except TOMLDecodeError as exc:
        raise Refused(msg("lobby.bad_toml", error=toml_reason(exc))) from None
    if "preset" in changes or "rules" in changes:
        raise Refused(msg("lobby.preset_in_list"))
    _check_numbers(changes)
    try:
        return Rules.from_mapping({"preset": preset, **changes})
    except TienLenError as exc:  # a RulesError: said in the page's language
        raise Refused(reason_of(exc)) from None


def _check_numbers(value: Any, where: str = "") -> None:
    """Refuse a number out of range anywhere in the rule changes."""
    if isinstance(value, dict):
        for key, item in value.items():
            _check_numbers(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for item in value:
            _check_numbers(item, where)
    elif isinstance(value, int | float) and not isinstance(value, bool) \
            and not -MAX_OPTION <= value <= MAX_OPTION:
        raise Refused(msg("lobby.out_of_range", option=where, value=value, most=Num(MAX_OPTION)))


def _clean(raw: str, what: str, limit: int) -> str:
    try:
        return clean_name(raw, what, limit)
    except BadName as exc:
        raise Refused(exc.reason) from None


class Lobby:
    def __init__(self, repo: Repository, bot_delay: float = 0.5,
                 limits: Limits | None = None, identities: IdentityStore | None = None,
                 time: Time = REAL_TIME, alone: bool = True) -> None:
        self.repo = repo
        # the leases of the tables served here (tablelog/leases.py): every write of a table is
        # checked against its lease in its own transaction. ``alone``: this process serves the
        # whole room (it takes every open table at start, whoever held it); else it takes the
        # tables nobody serves (their owner died, or stopped) as it finds them
        self.ownership = Ownership(repo.engine, time=time)
        repo.ownership = self.ownership
        self.alone = alone
        # take the tables nobody serves at each renewal (a room of many processes takes them
        # itself, once it knows their owners are gone: bus/cluster.py)
        self.scan_unserved = True
        self._renewal: Timer | None = None
        self.time = time  # the one time of every table here (its committer's: :mod:`.now`)
        # who holds the accounts' names (None: nobody's name is refused, no seat is an account)
        self.identities = identities
        # identity -> its account's name (None: a guest) and when it was read (monotonic)
        self._accounts: dict[str, tuple[str | None, float]] = {}
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        # every table's bot moves, stored in group commits; the strongest decided in a pool
        # a database server's writes are stored on the committer's thread (committer.py)
        self.committer = Committer(repo, pool=BotPool(self.limits.bot_workers), time=time,
                                   offload=repo.dialect != "sqlite")
        self.committer.on_lost = self._fenced
        self.rooms: dict[str, Room] = {}
        # the open tables each creator (player key) and each address made: a table counts while
        # its creator still hosts it (TableState.creator is cleared when the creator leaves)
        self._by_creator: dict[str, set[str]] = {}
        self._by_address: dict[str, set[str]] = {}
        self._made_by: dict[str, tuple[str, str]] = {}  # table id -> (creator, address)
        # told the id of a table whenever what a directory knows of it may have changed: made,
        # changed (Room.on_change), gone (None: nobody asks; :meth:`watch`)
        self._watch: Callable[[str], None] | None = None

    def restore(self) -> int:
        """Rebuild every open stored table, taking each one's lease whoever held it (this
        process serves the whole room); returns how many."""
        for stored in self.repo.load_all():
            if self.ownership.take(stored.id, force=True) is not None:
                self._rebuilt(stored)
        return len(self.rooms)

    def adopt(self, table_id: str) -> Room | None:
        """Serve the open table ``table_id`` here if nobody serves it (its lease ran out, or it
        never had one): its lease taken, the table rebuilt from its snapshot and log, its clock
        arranged (a turn timer resumes where it stood). None: another process serves it, or
        there is no such open table."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if self.ownership.take(table_id) is None:
            return None
        stored = self.repo.load_table(table_id)
        if stored is None:  # closed as it was taken
            self.ownership.drop(table_id)
            return None
        room = self._rebuilt(stored)
        room.schedule()
        return room

    def find(self, table_id: str) -> Room | None:
        """The open table ``table_id`` served here: held, or taken now if nobody serves it
        (one this process let go when the database was away, say). None: no such open table
        here. A database away: :class:`~..storage.StorageError`."""
        return self.rooms.get(table_id) or self.adopt(table_id)

    def _rebuilt(self, stored: StoredTable) -> Room:
        room = Room.restore(self.repo, stored, self.bot_delay, self.committer)
        self._add(room)
        if room.started and stored.snapshot is None:  # made before snapshots: one now
            self.repo.put_snapshot(room.id, room.version, room.table.snapshot())
        return room

    # ------------------------------------------------------------------ leases
    def start_leases(self) -> None:
        """In a room of many processes, renew the leases held every
        :data:`~.leases.RENEW_EVERY` seconds (letting go of the tables lost meanwhile) and take
        the tables nobody serves (:attr:`scan_unserved`: a dead process's). A process alone
        renews nothing: nobody takes its tables (it took each at start, whoever held it), and a
        table it let go while the database was away is taken again when its page comes back
        (:meth:`find`); its writes are fenced all the same."""
        if self.alone:
            return
        self._renewal = self.time.call_later(RENEW_EVERY, self._renew)

    def _renew(self) -> None:
        try:
            for table_id in self.ownership.renew():
                self._lost(table_id)
            if self.scan_unserved:
                for table_id, _ in self.ownership.unserved():
                    self.adopt(table_id)
        except Exception as exc:  # the database away (a read unwrapped too): the next round
            log.warning("the tables' leases could not be renewed: %s", exc)
        finally:
            self.start_leases()

    def stop_leases(self) -> None:
        """Renew nothing more and hand every table served here over (a process that stops):
        another process may take each at once."""
        if self._renewal is not None:
            self._renewal.cancel()
            self._renewal = None
        self.committer.settle()  # the batch on its way is stored before its leases go
        for room in list(self.rooms.values()):
            room.stop()
        try:
            self.ownership.release(list(self.rooms))
        except StorageError as exc:  # they run out on their own
            log.warning("the tables' leases could not be handed over: %s", exc)

    def _fenced(self, table: Table) -> None:
        """A room's writes were fenced (committer.py): let it go, unless the table is served
        here by another room now (taken again since that batch was staged)."""
        if self.rooms.get(table.id) is table:
            self._lost(table.id)

    def _lost(self, table_id: str) -> None:
        """Another process serves ``table_id`` now: forgotten here (its connections go to
        connect again, Room.lost)."""
        self.ownership.drop(table_id)
        room = self.rooms.get(table_id)
        if room is not None:
            log.warning("table %s: another process serves it now; let go", table_id)
            room.lost()
            self._forget(room)

    def _guard(self, room: Room) -> Room:
        """``room`` checks its players' names against the accounts' and marks accounts' seats."""
        room.table.check_owner_name = self.check_name
        room.account_of = self.account_of
        return room

    def check_name(self, name: str, owner: str | None) -> None:
        """Refuse (:class:`Refused`) ``name`` to ``owner`` (None: a script without a cookie)
        when it is, or looks like, the name of an account but ``owner``'s
        (:func:`~.names.check_not_account`: the one check, wherever a name is taken)."""
        if self.identities is None:
            return
        accounts: AccountNames = self.identities
        try:
            check_not_account(accounts, name, owner)
        except BadName as exc:
            raise Refused(exc.reason) from None

    def account_of(self, identity_id: str) -> str | None:
        """The name of the account ``identity_id`` (None: a guest, or nobody known), read again
        after :data:`KNOWN_SECONDS`, or at once when a session of its ends here
        (:meth:`end_sessions`: a guest that claims its name) or it is forgotten."""
        now = self.time()
        known = self._accounts.get(identity_id)
        if known is None or now - known[1] >= KNOWN_SECONDS:
            if len(self._accounts) >= MAX_KNOWN:
                self._accounts.clear()
            found = self.identities.get(identity_id) if self.identities is not None else None
            name = found.name if found is not None and found.account and not found.deleted \
                else None
            known = self._accounts[identity_id] = (name, now)
        return known[0]

    def forget_identity(self, identity_id: str, name: str) -> int:
        """The identity ``identity_id`` is gone (its account deleted): at every open table its
        seat is left and called ``name`` from the hand in play on, a seat kept for it is given
        up (:meth:`Room.forget`). How many tables it was at."""
        self._accounts.pop(identity_id, None)
        changed = [room for room in list(self.rooms.values())
                   if room.act(functools.partial(room.forget, identity_id, name))]
        return len(changed)

    def watch(self, told: Callable[[str], None]) -> None:
        """Tell ``told`` the id of each table made, changed or gone from now on (and of every
        table held now): what publishes this process's tables to the room's directory."""
        self._watch = told
        for room in self.rooms.values():
            room.on_change = told
            told(room.id)

    def _add(self, room: Room, address: str = "") -> None:
        self._guard(room)
        self.rooms[room.id] = room
        room.on_change = self._watch
        if self._watch is not None:
            self._watch(room.id)
        self._made_by[room.id] = (room.table.creator, address)
        for index, key in ((self._by_creator, room.table.creator), (self._by_address, address)):
            if key:
                index.setdefault(key, set()).add(room.id)

    def _forget(self, room: Room) -> None:
        del self.rooms[room.id]
        room.on_change = None
        if self._watch is not None:
            self._watch(room.id)
        creator, address = self._made_by.pop(room.id)
        for index, key in ((self._by_creator, creator), (self._by_address, address)):
            ids = index.get(key)
            if ids is not None:
                ids.discard(room.id)
                if not ids:
                    del index[key]

    def _held(self, index: dict[str, set[str]], key: str) -> int:
        """Open tables made under ``key`` whose creator still hosts them."""
        return sum(1 for i in index.get(key, ()) if self.rooms[i].table.creator)

    def get(self, table_id: str) -> Room | None:
        return self.rooms.get(table_id)

    def check_room_for(self, creator: str, address: str = "") -> None:
        """Refuse (:class:`Refused`, 429) a new table the limits do not allow ``creator`` (a player
        key) or everyone at ``address`` together. In a room of many processes the tables, and a
        creator's, are counted across them (in the database); an address's on this process."""
        limits = self.limits
        # alone, the tables are all here; a room of many processes counts them in the database
        total = len(self.rooms) if self.alone else self.repo.open_count()
        if total >= limits.max_tables:
            raise Refused.too_many(msg("err.web.server_full", n=limits.max_tables),
                                   retry_after=limits.sweep_every)
        held = (self._held(self._by_creator, creator) if self.alone
                else self.repo.open_count(creator)) if creator else 0
        if creator and limits.tables_per_client and held >= limits.tables_per_client:
            raise Refused.too_many(msg("err.web.tables_held", n=held))
        shared = self._held(self._by_address, address) if address else 0
        if address and limits.tables_per_address and shared >= limits.tables_per_address:
            raise Refused.too_many(msg("err.web.tables_address", n=shared))

    def create(self, spec: NewTable, creator: str = "", address: str = "",
               owner: str | None = None,
               device: str | None = None) -> tuple[Room, int | None, str | None]:
        """Make a table; with a name, take seat 0 (returns the seat and its token). Everything
        is checked first and stored in one transaction: a refused table leaves nothing.
        ``creator`` (a player key) and ``address`` are who it counts against while its creator
        hosts it; ``owner`` the identity seat 0 belongs to, ``device`` its browser."""
        self.check_room_for(creator, address)
        rules = make_rules(spec.rules, spec.options)
        check_level(rules.name, spec.level, spec.players)
        if spec.seed is not None and not spec.quick:
            raise Refused(msg("lobby.seed_practice"))
        name = _clean(spec.name, "the player's name", MAX_NAME) if spec.name is not None else None
        table_id = self.new_id()
        if spec.table_name is not None:
            table_name = _clean(spec.table_name, "the table's name", MAX_TABLE_NAME)
        else:  # a name each reader says in their words (tablelog/names.py)
            table_name = named_for(name, table_id, MAX_TABLE_NAME) if name else unnamed(table_id)
        fixed = spec.seed is not None
        seed = spec.seed if spec.seed is not None else secrets.randbits(62)
        settings = TableSettings(
            table_id, rules.to_toml(), spec.players, seed,
            spec.away_timeout, spec.turn_timer, table_name, spec.private, spec.level,
            0 if name is not None else None, fixed, creator, spec.next_hand_after)
        seat: int | None = None
        token: str | None = None

        def seat_them(table: TableState) -> None:
            nonlocal seat, token
            if name is not None:
                seat, token = table.join_seat(name, 0, owner, device)
            if spec.quick:
                while any(s.kind == "empty" for s in table.seats):
                    table.add_bot(None)
                table.start()

        room = self._make(settings, seat_them, address)
        return room, seat, token

    def new_id(self) -> str:
        """An id no table has had here."""
        table_id = secrets.token_urlsafe(6)
        while table_id in self.rooms or self.repo.table_exists(table_id):
            table_id = secrets.token_urlsafe(6)
        return table_id

    def _make(self, settings: TableSettings, seat_them: Callable[[TableState], None],
              address: str = "") -> Room:
        """A new table whose first seats ``seat_them`` takes (and which it may start), stored
        in one transaction with them: all of it, or nothing if one is refused."""
        room = self._guard(Room(self.repo, settings, self.bot_delay, self.committer))
        table = room.table
        table.hold_writes()
        seat_them(table)
        entries, seats = table.take_writes()
        snapshot = (table.version, table.snapshot()) if table.started else None
        records = [w.record for w in table.held if w.record is not None]
        self.repo.create_table(settings, seats, entries, snapshot, records)
        self._add(room, address)
        return room

    def create_match(self, table_id: str, preset: str, size: int,
                     players: Sequence[tuple[str, str, str | None]],
                     level: str | None = None) -> Room:
        """A quick-match table (``table_id``, from :meth:`new_id`): a rated table of ``preset``
        with ``size`` seats, each of ``players`` (name, identity, browser) seated in turn, bots
        of ``level`` in the seats left, started at once; one transaction. A name that looks
        like one seated before it is told apart by a number ("Lan 2")."""
        self.check_room_for("")
        level = level or AWAY_BOT
        check_level(preset, level, size)
        settings = TableSettings(
            table_id, Rules.preset(preset).to_toml(), size, secrets.randbits(62),
            QUICK_AWAY, QUICK_TURN_TIMER, quick_match_name(table_id), False, level, None, False,
            "", NEXT_HAND_AFTER, quick_match=True)

        def seat_them(table: TableState) -> None:
            for number, (name, owner, device) in enumerate(players):
                table.join_seat(table.name_apart(name, owner), number, owner, device)
            while any(s.kind == "empty" for s in table.seats):
                table.add_bot(None)
            table.start()

        return self._make(settings, seat_them)

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Close every table idle longer than the limits allow (its records stay); their ids."""
        now = self.time() if now is None else now
        gone = [room for room in self.rooms.values() if room.idle(now, self.limits.idle_expiry)]
        closed: list[str] = []
        for room in gone:
            try:
                self.repo.close_table(room.id, self.time.wall())
            except Fenced:  # another process serves it now: not this one's to close
                self._lost(room.id)
                continue
            except TienLenError as exc:
                log.warning("table %s could not be closed: %s", room.id, exc, extra={"table": room.id})
                continue
            room.stop()
            self._forget(room)
            closed.append(room.id)
        return closed

    def end_sessions(self, identity_id: str | None = None, session: str | None = None,
                     keep: str | None = None) -> int:
        """Close the connections opened under sessions that ended: ``session``'s, or every one
        of ``identity_id``'s but ``keep``'s. Their pages connect again as whoever their browser
        is now (signed out, or someone else). Returns how many were closed. Whether they are
        accounts is read again (a guest that claims its name ends its session)."""
        if identity_id is not None:
            self._accounts.pop(identity_id, None)
        closed = 0
        for room in self.rooms.values():
            for client in list(room.clients):
                ended = (client.session == session) if session is not None else (
                    identity_id is not None and client.owner == identity_id
                    and (keep is None or client.session != keep))
                if ended and client.session is not None:
                    if client.owner is not None:
                        self._accounts.pop(client.owner, None)
                    client.hang_up()
                    closed += 1
        return closed

    def tables_of(self, identity_id: str) -> list[Room]:
        """The open tables where ``identity_id`` holds a seat and is connected now."""
        return [room for room in self.rooms.values()
                if any(s.kind == "human" and s.owner == identity_id and s.clients
                       for s in room.table.seats)]

    def seated(self, identity_id: str) -> list[Room]:
        """The open tables where ``identity_id`` holds a seat, connected or not (a seat it left
        after the start, a bot playing it, included: its to take back), private ones too."""
        return [room for room in self.rooms.values()
                if any(s.owner == identity_id for s in room.table.seats)]

    def listing(self) -> list[Room]:
        """Public tables: open ones (with an empty seat) first, then the tables being played;
        not those paused because nobody is there (directory.ordered: the same for another
        process's tables)."""
        rooms = [r for r in self.rooms.values() if not r.private and not r.clock.paused]
        return sorted(rooms, key=lambda r: (r.started, -r.version))
