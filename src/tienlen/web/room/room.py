"""One authoritative table as its connections see it: who is connected, what each is told, and
the commands they send.

A room joins three parts: the table's state (:class:`~..table.state.TableState`: seats, host, hands,
the log, staging), its clock (:class:`~..table.clock.Clock`: turn timers, away timeouts, the next
hand's countdown, when the bots move) and its connections.

Every input is a message to the room's inbox (:meth:`Room.post`): a connection's command
(:class:`Said`), the clock's tick (:class:`Tick`), the bot pool's answer (:class:`Answer`), a
connection gone (:class:`Gone`); a server job's change comes the same way at once
(:meth:`Room.act`). The :class:`~..table.committer.Committer` has the room read its inbox
(:meth:`Room.step`): people's moves and bots' alike are made by :meth:`TableState.make` or a
command of the table, their writes staged, and what the connections would be sent held; the
committer stores the writes of many tables in one transaction, and only then does the room
publish (:meth:`Room.published`): it sends what it held, and every connection gets what
changed in its own seat's state since the one it was last sent (its first state whole:
deltas.py), each distinct message serialised once. A write the database refuses is undone by
rebuilding the table from what is stored (:meth:`Room.refused`): nobody is told of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TypeVar

from ... import PASS, Game, Move, hints
from ...bots import Bot
from ...errors import TienLenError
from ...i18n import msg, pick_lang, say_error, t
from ...turns import view_for_decision
from ...view import View
from ..accounts.names import account_key
from ..limiter import Limiter
from ..ratings.ratings import family_of
from ..refusal import Refused
from ..storage import StorageError
from ..table.clock import Clock
from ..table.committer import RETRY, Committer
from ..table.hands import Hands
from ..table.staged import Asking, Staged
from ..table.state import Seat, TableState
from ..tablelog.names import title_fields
from ..tablelog.repository import Repository
from ..tablelog.writes import StoredTable, TableSettings, Write
from ..workers.botpool import PooledBot
from . import views
from .chat import BadText, ChatStore, Kind, Line, SqlChatStore, clean_text
from .deltas import update
from .ladder import POOLED, check_level
from .protocol import (
    AddBot,
    Back,
    ChatEvent,
    Command,
    Error,
    Hello,
    Hint,
    HintEvent,
    Join,
    Kick,
    Leave,
    NextHand,
    Ping,
    PlayMove,
    Pong,
    React,
    Removed,
    RemoveSeat,
    Say,
    SeatInfo,
    SeatView,
    Start,
    State,
    Sync,
    TableInfo,
    TableTitle,
    Talk,
    TimedOut,
    Welcome,
    _Event,
    event_body,
    with_seq,
)
from .views import PlayTexts, seat_names, seat_view, worded

__all__ = ["Client", "Room", "error_of"]
log = logging.getLogger("tienlen.web")
T = TypeVar("T")


def error_of(exc: Refused, lang: str, ref: int | None = None) -> Error:
    """A refusal as the WebSocket says it: an error event with its reason in ``lang``, its kind
    and the command it answers (``ref``). The one place a refusal becomes an event."""
    return Error(reason=exc.say(lang), ref=ref, code=exc.code)


class Gate:
    """A table's pass (Room.step): while it is open, what the table's connections are sent
    waits here, in order, until the pass's writes are stored (then sent) or refused (dropped)."""

    __slots__ = ("held",)

    def __init__(self) -> None:
        self.held: list[tuple[Client, str]] | None = None  # None: no pass open


class Client:
    """One connection: its seat (None: a spectator), its sequence numbers and its outbox."""

    def __init__(self, deliver: Callable[[str], None], key: str = "",
                 owner: str | None = None,
                 seated: Callable[[str], None] | None = None, device: str | None = None) -> None:
        self._deliver = deliver
        self.key = key  # who it is counted as (see limits.client_key)
        # the identity of its browser (identity.py; None: a script with no session cookie), and
        # what to do when it takes a seat under a name (make it a guest of that name)
        self.owner = owner
        self.seated = seated
        self.device = device  # the browser (session.device_of): one seat a rated table
        self.account_name: str | None = None  # an account sits under its own name
        self.session: str | None = None  # the digest of the session it was opened under
        self.hang_up: Callable[[], None] = lambda: None  # close it (its session ended)
        # close it, for its page to connect again (its table is served by another process now)
        self.move_on: Callable[[], None] = lambda: None
        self.seat: int | None = None
        self.lang = "en"  # the language its error events are said in (told in hello)
        self.out_seq = 0
        self.in_seq = 0
        self.shown: State | None = None  # the state it holds (sent, or made by the deltas sent)
        # the identities its identity blocked now (Moderation.blocked_by; None: nobody to ask,
        # a script's), and what counts its hints and chat (limiter.py; None: nothing)
        self.blocks: Callable[[], frozenset[str]] | None = None
        self.limiter: Limiter | None = None
        self.gate: Gate | None = None  # its table's (Room.attach): held while a pass is open

    def blocked(self) -> frozenset[str]:
        """The identities this connection's player blocked: their chat is not sent to it."""
        return self.blocks() if self.blocks is not None else frozenset()

    def limit(self, action: str) -> None:
        """Count ``action`` for this connection's player (its identity, else its address) and
        its address: :class:`Refused` (``rate_limited``) past the limits, nothing counted."""
        if self.limiter is not None:
            self.limiter.take(action, self.owner or self.key, self.key)

    def refuse(self, exc: Refused, ref: int | None = None) -> None:
        """Tell this connection of a refusal (of its command ``ref``), in its language."""
        self.send(error_of(exc, self.lang, ref))

    def send(self, event: _Event) -> None:
        self.send_body(event_body(event))

    def deliver_text(self, text: str) -> None:
        """Pass on an event numbered elsewhere (by the table's owner, another process)."""
        self._deliver(text)

    def send_body(self, body: str) -> None:
        """Send an event serialised once (for every connection that gets it) by :func:`event_body`
        (held while its table's pass is open: :class:`Gate`)."""
        gate = self.gate
        if gate is not None and gate.held is not None:
            gate.held.append((self, body))
            return
        self.out_seq += 1
        self._deliver(with_seq(self.out_seq, body))


@dataclass(frozen=True)
class Said:
    """A connection's command, received at ``received`` (Unix seconds)."""

    client: Client
    command: Command
    received: float


@dataclass(frozen=True)
class Tick:
    """The clock's wake: the table, at ``version``, may owe a bot's move or the next hand."""

    version: int


@dataclass(frozen=True)
class Answer:
    """The bot pool's answer to the table's ``asking`` at ``version`` (or its failure)."""

    version: int
    asking: Asking
    move: Move | BaseException


@dataclass(frozen=True)
class Gone:
    """A connection closed (it played ``seat``; None: it watched)."""

    client: Client
    seat: int | None


@dataclass(frozen=True)
class Notice:
    """A refusal for a connection (of its message ``ref``), said in its language then, after
    the answers to what it sent before (a refusal never overtakes an earlier pong or state)."""

    client: Client
    refusal: Refused
    ref: int | None = None


Message = Said | Tick | Answer | Gone | Notice


def _unopened(write: Write) -> None:
    """The store of a table no room has taken yet (Room takes it: TableState.stores_through)."""
    raise RuntimeError(f"table {write.table_id}: a write before its room took the table")


class Room:
    def __init__(self, repo: Repository, settings: TableSettings, bot_delay: float = 0.5,
                 committer: Committer | None = None, table: TableState | None = None) -> None:
        self.repo = repo
        self.committer = committer or Committer(repo)
        self.settings = settings
        self.id = settings.id
        self.name = settings.name
        self.private = settings.private
        self.players = settings.players
        self.seed = settings.seed
        self.fixed_seed = settings.fixed_seed
        self.table = table if table is not None else TableState(settings, self._stage,
                                                                 self.committer.time)
        self.table.stores_through(self._stage)  # its writes go to the committer
        self.time = self.table.time  # the table's, the committer's (:mod:`.now`)
        self._inbox: deque[Message] = deque()
        self._writes: list[Write] | None = None  # staged in the open pass (None: none open)
        self._senders: list[tuple[Client, int]] = []  # whose commands the open pass read
        self._seats_before: dict[Client, int | None] = {}  # each connection's seat as the pass opened
        self._at: float | None = None  # when the pass's first change was due (Unix seconds)
        self._rearm: float | None = 0.0  # at the pass's end: arrange the clock, at least this
        # long from now (None: nothing to arrange)
        self._thinking = False  # the bot pool is making a decision of this table's
        self.moved = False  # another process serves the table now (lost)
        self._table_bot = self.table.make_bot
        self.table.make_bot = self._make_bot
        self.clients: set[Client] = set()
        self.gate = Gate()  # what the connections are sent while a pass is open
        self._hinting: set[int] = set()  # the seats waiting for a hint (one at a time a seat)
        self.clock = Clock(self.table, bot_delay, self._due, lambda: bool(self.clients))
        self.last_active = self.time()  # when a client last came, went or acted
        # the views of the table's version: by seat, then (their payments said) by seat,
        # language and the seats' names; emptied when the version moves on
        self._views: dict[tuple[int | None, str, tuple[str, ...]], SeatView | None] = {}
        self._views_version = -1
        self._plays = PlayTexts()
        self._standing: tuple[int, bool, list[int], list[int]] | None = None
        self._changed_at = self.time.wall()
        self.chat: ChatStore = SqlChatStore(repo.engine)  # what is said, kept for moderation
        # the account name of an identity (None: a guest), for the seats' account marks (the
        # lobby's, cached: Lobby.account_of)
        self.account_of: Callable[[str], str | None] = lambda owner: None
        # told the table's id whenever what a directory knows of it may have changed (its info,
        # its seats, its connections): the room's directory publishes it (bus/directory.py)
        self.on_change: Callable[[str], None] | None = None

    @classmethod
    def restore(cls, repo: Repository, stored: StoredTable, bot_delay: float,
                committer: Committer | None = None) -> Room:
        """Rebuild a table from its stored seats, its snapshot and the log entries after it."""
        committer = committer or Committer(repo)
        table = TableState.restore(stored, _unopened, committer.time)
        return cls(repo, stored.settings, bot_delay, committer, table)

    @property
    def version(self) -> int:
        """The length of the table's log: every change adds one."""
        return self.table.version

    @property
    def started(self) -> bool:
        return self.table.started

    @property
    def game(self) -> Game | None:
        """The current hand, once the game has started."""
        return self.table.game

    def idle(self, now: float, expiry: float) -> bool:
        """Whether nobody is connected and nothing has happened for ``expiry`` seconds."""
        return not self.clients and now - self.last_active >= expiry

    # ------------------------------------------------------------------ the inbox
    def post(self, message: Message) -> None:
        """Put ``message`` in the inbox: read in the committer's next pass."""
        self._inbox.append(message)
        self.committer.due(self)

    def act(self, change: Callable[[], T]) -> T:
        """Make a server job's ``change`` (quick match keeping a seat, an account deleted) at
        once, through the one path: staged, stored and published (Committer.now). Its result,
        or what it raised (the writes it staged before are stored all the same)."""
        out: list[T] = []
        failed: list[Exception] = []

        def run() -> None:
            try:
                out.append(change())
            except Exception as exc:  # raised again once the pass is stored and published
                failed.append(exc)

        self.committer.now(self, run)
        if failed:
            raise failed[0]
        return out[0]

    def step(self, change: Callable[[], None] | None = None) -> list[Write]:
        """Read the inbox (after ``change``): each message decided and made, its writes staged
        and what the connections are sent held until :meth:`published`. The writes to store."""
        self._writes, self._senders, self._at, self._rearm = [], [], None, None
        self._seats_before = {client: client.seat for client in self.clients}
        self.gate.held = []
        if change is not None:
            change()
        while self._inbox:
            self._take(self._inbox.popleft())
        return list(self._writes)

    def _stage(self, write: Write) -> None:
        """The table's store: its writes are staged for the committer (see :meth:`step`)."""
        if self._writes is None:
            raise RuntimeError(f"table {self.id}: a write outside its inbox's pass")
        self._writes.append(write)

    def _take(self, message: Message) -> None:
        if isinstance(message, Said):
            self._said(message)
        elif isinstance(message, Tick):
            self._tick(message.version)
        elif isinstance(message, Answer):
            self._answered(message)
        elif isinstance(message, Gone):
            self._gone(message.client, message.seat)
        elif message.client in self.clients:
            message.client.refuse(message.refusal, message.ref)

    def published(self) -> None:
        """The pass's writes are stored: send what was held, tell a player of the move their
        turn timer made, then everyone what changed (:meth:`changed`), or arrange the clock."""
        writes, self._writes = self._writes or [], None
        held, self.gate.held = self.gate.held or [], None
        for client, body in held:
            if client in self.clients:  # not closed meanwhile
                client.send_body(body)
        for write in writes:
            entry = write.entry
            if entry.kind == "timer" and entry.seat is not None:
                self._tell_timed_out(entry.seat, entry.text)
        if writes:
            self.changed(self._at)
        elif self._rearm is not None:
            self.clock.schedule(self._rearm)

    def refused(self, exc: StorageError) -> bool:
        """The pass's writes were refused: the table is rebuilt from what is stored, nothing of
        the pass is sent, each sender is told, and the table tries again a little later. When
        what is stored cannot be read either (the database is away), the table lets go (as
        :meth:`lost`: its pages connect again, and it is rebuilt once the database answers):
        False then."""
        self._writes = None
        self.gate.held = None  # nothing of the pass is sent
        for client in self.clients:
            client.shown = None  # what it holds may be of the pass: the whole state again
            client.seat = self._seats_before.get(client, client.seat)
        try:
            self._rebuild()
        except Exception:
            log.warning("table %s: refused, and what is stored cannot be read; let go", self.id)
            rebuilt = False
        else:
            rebuilt = True
        for client, seq in self._senders:
            if client in self.clients:
                client.send(Error(reason=t("err.web.server_failed", client.lang,
                                           reason=say_error(exc, client.lang)), ref=seq))
        if not rebuilt:
            self.lost()
            return False
        self.broadcast()
        self.clock.schedule(at_least=RETRY)
        return True

    def lost(self) -> None:
        """Another process serves this table now (its lease was taken): nothing of the pass is
        sent, nothing more is arranged, and every connection is closed for its page to connect
        again (where the table is served now). Once."""
        if self.moved:
            return
        self.moved = True
        self._writes = None
        self.gate.held = None
        self._inbox.clear()
        self.clock.stop()
        for client in list(self.clients):
            client.move_on()

    def _rebuild(self) -> None:
        """Make the table again from what is stored, its connections seated as they were."""
        stored = self.repo.load_table(self.id)
        if stored is None:  # gone from the database: nothing more is arranged here
            self.clock.stop()
            return
        old = self.table
        table = TableState.restore(stored, self._stage, self.time)
        table.make_bot, table.check_owner_name = old.make_bot, old.check_owner_name
        for client in self.clients:
            if client.seat is not None:
                table.seats[client.seat].clients.add(client)
                table.seats[client.seat].away_since = None
        self.table = self.clock.table = table

    def _arrange(self, at_least: float = 0.0) -> None:
        """At the pass's end, arrange the clock, at least ``at_least`` seconds from now."""
        self._rearm = at_least if self._rearm is None else max(self._rearm, at_least)

    def _note_at(self, at: float) -> None:
        self._at = at if self._at is None else min(self._at, at)

    def _tick(self, version: int) -> None:
        """The clock woke the table at ``version``: make the move a bot owes (a chop, a turn,
        a move for a player out of time) or the next hand, or ask the bot pool for it."""
        if version != self.version or self._thinking:  # moved on: arranged again at its end
            self._arrange()
            return
        try:
            owed = self.clock.owed()
        except Exception:  # a failure must not stop the table, nor the others: wait
            log.exception("table %s: the bot's move failed", self.id, extra={"table": self.id})
            self._arrange(RETRY)
            return
        if owed is None:
            self._arrange()
        elif isinstance(owed, Asking):
            self._thinking = True
            self.committer.ask(owed, lambda move: self.post(Answer(version, owed, move)))
        else:
            self._make(owed)

    def _make(self, staged: Staged) -> None:
        self._note_at(staged.at)
        self.table.make(staged)

    def _answered(self, answer: Answer) -> None:
        """The bot pool's answer: the bot's move made now, unless the table moved on meanwhile
        (then it is dropped, and the table asks anew)."""
        self._thinking = False
        if answer.version != self.version:
            self.committer.stats.stale += 1
            self._arrange()
            return
        answer.asking.answered(answer.asking.view, answer.move)
        self._tick(answer.version)

    def _tell_timed_out(self, seat: int, move: str) -> None:
        for client in self.clients:
            if client.seat == seat:
                said = t("web.room.timer_passed", client.lang) if move == str(PASS) else \
                    t("web.room.timer_played", client.lang, cards=move)
                client.send(TimedOut(seat=seat, move=move, reason=said))

    def schedule(self, at_least: float = 0.0) -> None:
        """Arrange the next bot move (or none), replacing any arranged before."""
        self.clock.schedule(at_least)

    def stop(self) -> None:
        """Arrange nothing more (the table is closing)."""
        self.clock.stop()

    def _due(self, version: int) -> None:
        self.post(Tick(version))  # the clock only posts ticks

    def changed(self, at: float | None = None) -> None:
        """After any change (made at ``at``, default now): reset the turn clock, tell everyone,
        arrange the next bot move."""
        if self.table.held:
            self._write_held()
        if self.table.taken:
            self._seat_takers()
        self.clock.restart()
        self.last_active = self.time()
        self._changed_at = self.time.wall() if at is None else at
        self.broadcast()
        self.clock.schedule()

    def _seat_takers(self) -> None:
        """Seats that became players' at this deal (quick match: kept for them from a bot):
        their owners' pages watching the table are seated there now."""
        taken, self.table.taken = self.table.taken, []
        for seat in taken:
            owner = self.table.seats[seat].owner
            for client in self.clients:
                if owner is not None and client.owner == owner and client.seat is None:
                    self._sit(client, seat)
                    client.send(Welcome(table=self.id, seat=seat))

    def _write_held(self) -> None:
        """A new table's first hand ended by its deal: its record was stored with the table,
        what it writes for its players is written now that they are stored (identity.py)."""
        held, self.table.held = self.table.held, []
        for write in held:
            if write.ended is not None:
                try:
                    self.repo.put_ended(self.id, write.ended)
                except StorageError:
                    log.exception("table %s: the first hand's players not written", self.id,
                                  extra={"table": self.id})

    # ------------------------------------------------------------------ seats and moves
    def leave(self, seat: int) -> None:
        """The player at ``seat`` leaves (:meth:`TableState.leave`); their connections watch."""
        clients = [c for c in self.clients if c.seat == seat]
        owner = self.table.seats[seat].owner
        self.table.leave(seat)
        for client in clients:
            client.seat = None
        self._tell_back(owner, clients)

    def forget(self, owner: str, name: str) -> bool:
        """The identity ``owner`` is gone (:meth:`TableState.forget`): its seats here are called
        ``name``, its connections no longer seated. Whether it had a seat here, or one kept."""
        kept = any(r.owner == owner for r in self.table.reserved.values())
        seats = self.table.forget(owner, name)
        for client in self.clients:
            if client.seat in seats:
                client.seat = None
        return kept or bool(seats)

    def _tell_back(self, owner: str | None, told: list[Client] | None = None) -> None:
        """Tell ``told`` (unseated now) and the unseated connections of ``owner`` (None: nobody)
        which seats they may take back."""
        back = self.table.seats_left_by(owner)
        for client in self.clients:
            if client in (told or ()) or \
                    (owner is not None and client.owner == owner and client.seat is None):
                client.send(Welcome(table=self.id, seat=None, back=back,
                                    barred=self._barred(owner)))

    def _barred(self, owner: str | None) -> bool:
        """Whether the host removed or kicked the identity ``owner``: it only watches here."""
        return owner is not None and owner in self.table.barred

    def _make_bot(self, seat: int, level: str, seed: int) -> Bot:
        """A seat's bot: the strongest levels' decisions are made in the bot pool (botpool.py)."""
        if level in POOLED:
            return PooledBot((self.id, seat, level, seed))
        return self._table_bot(seat, level, seed)

    def hint_view(self, seat: int) -> View:
        """What a hint for ``seat`` is chosen from: the view for its decision now (``pass``
        added when it is asked out of turn); refused when it has nothing to play."""
        game = self.game
        if game is None or game.is_over:
            raise Refused(msg("room.nothing_to_play"))
        decision = views.asked(game, seat)
        if decision is None:
            raise Refused(msg("room.not_your_turn"))
        return view_for_decision(game, decision)

    def hint(self, client: Client, seat: int, ref: int) -> None:
        """Send ``client`` a hint for ``seat``, chosen in the bot pool (off the event loop): the
        coach's best move from the seat's view, with its reason in the client's
        language (tienlen.hints); for a state the table has left meanwhile, a stale refusal
        instead. One hint at a time for a seat, however many connections it has: a second ask
        while one is being chosen is refused; and so many in a while per player, over all its
        tables (``Client.limit``)."""
        if seat in self._hinting:
            raise Refused(msg("hint.busy"))
        view = self.hint_view(seat)
        client.limit("hint")
        version = self.version
        loop = asyncio.get_running_loop()
        answer = self.committer.pool.hint(view)
        self._hinting.add(seat)

        def done(answer: Future[hints.Hint]) -> None:
            self._hinting.discard(seat)
            if client not in self.clients:
                return
            if self.version != version or client.seat != seat:
                client.refuse(Refused(msg("room.stale", version=version, now=self.version),
                                      code="stale"), ref)
                return
            exc = answer.exception()
            if exc is not None:
                log.warning("table %s: a hint failed in the bot pool (%r)", self.id, exc,
                            extra={"table": self.id})
                client.send(HintEvent(move=str(view.legal[0]), ref=ref))
                return
            hint = answer.result()
            client.send(HintEvent(move=str(hint.move), reason=hints.reason_words(hint.reason,
                                                                              client.lang),
                                  ref=ref))

        answer.add_done_callback(lambda answer: loop.call_soon_threadsafe(done, answer))

    # ------------------------------------------------------------------ telling
    def info(self) -> TableInfo:
        table, clock, settings = self.table, self.clock, self.settings
        seats = [SeatInfo(seat=i, name=s.name, kind=s.kind, level=s.level,  # type: ignore[arg-type]
                          connected=bool(s.clients), account=self._account(s),
                          bot_playing=s.kind == "human" and table.started
                          and table.bot_controlled(i))
                 for i, s in enumerate(table.seats)]
        finished = 0
        totals = first_places = [0] * self.players
        if table.hands is not None:
            finished = table.hand_no - (0 if table.hands.game.is_over else 1)
            totals, first_places = self._totals(table.hands)
        return TableInfo(
            id=self.id, name=self.name, title=self._title(), private=self.private,
            seed=self.seed if self.fixed_seed else None, bot_level=settings.bot_level,
            host_seat=table.host, turn_deadline=clock.turn_deadline(), paused=clock.paused,
            next_hand_after=settings.next_hand_after, ready=table.ready(),
            next_hand_at=clock.next_hand_at(),
            status="playing" if table.started else "open", rules=table.rules.name,
            options=table.options, players=self.players, seats=seats,
            hand_no=table.hand_no, totals=totals, first_places=first_places,
            records=finished, away_timeout=table.away_timeout,
            turn_timer=settings.turn_timer)

    def _title(self) -> TableTitle | None:
        """What the table's name says, when the room made it (see :class:`TableTitle`)."""
        fields = title_fields(self.name, self.id, family_of(self.table.rules.name))
        return None if fields is None else TableTitle.model_validate(fields)

    def _account(self, seat: Seat) -> bool:
        """Whether a player's seat is an account's, under its name (else a guest's, a script's)."""
        if seat.kind != "human" or seat.owner is None or seat.name is None:
            return False
        account = self.account_of(seat.owner)
        return account is not None and account_key(account) == account_key(seat.name)

    def _totals(self, hands: Hands) -> tuple[list[int], list[int]]:
        """The session's totals and first places, counted again only when a hand ends or starts."""
        key = (hands.number, hands.game.is_over)
        if self._standing is None or self._standing[:2] != key:
            tallies = hands.tallies()
            self._standing = (*key, tallies.totals, tallies.first_places)
        return self._standing[2], self._standing[3]

    def view_for(self, seat: int | None) -> SeatView | None:
        """What ``seat`` may know of the hand (None: a watcher), as facts; None before it starts."""
        return self._view(seat, "", (), self._seat_view)

    def said_view_for(self, seat: int | None, lang: str, info: TableInfo) -> SeatView | None:
        """:meth:`view_for` with its payments said in ``lang`` (views.worded), under the seats'
        names of ``info``."""
        view = self.view_for(seat)
        hands = self.table.hands
        if view is None or hands is None or not view.payments:
            return view
        names = tuple(seat_names(info.seats, lang))
        payments = hands.game.payments
        return self._view(seat, lang, names, lambda _: worded(view, payments, names, lang))

    def _view(self, seat: int | None, lang: str, names: tuple[str, ...],
              make: Callable[[int | None], SeatView | None]) -> SeatView | None:
        """A view made once for the table's version (the one cache of the seats' views)."""
        if self._views_version != self.version:
            self._views = {}
            self._views_version = self.version
        key = (seat, lang, names)
        if key not in self._views:
            self._views[key] = make(seat)
        return self._views[key]

    def _seat_view(self, seat: int | None) -> SeatView | None:
        hands = self.table.hands
        if hands is None:
            return None
        return seat_view(hands.game, seat, self._plays, hands.round_starts,
                         self.table.timer_moves(), self.table.bot_moves())

    def state_for(self, client: Client, info: TableInfo | None = None) -> State:
        info = info or self.info()
        return State(version=self.version, at=self._changed_at, info=info,
                     view=self.said_view_for(client.seat, client.lang, info))

    def broadcast(self) -> None:
        """Tell every connection its seat's state (:meth:`tell`)."""
        if self.on_change is not None:
            self.on_change(self.id)
        self.tell(list(self.clients))

    def tell(self, clients: list[Client]) -> None:
        """Send each of ``clients`` what changed in its seat's state, in its language, since the
        state it holds (deltas.update: the whole state the first time); each distinct message
        is serialised once, for the connections of one seat and language that hold one state."""
        if not clients:
            return
        info = self.info()
        states: dict[tuple[int | None, str], State] = {}
        bodies: dict[tuple[int | None, str, int], tuple[State | None, str]] = {}
        for client in clients:
            said = (client.seat, client.lang)
            state = states.get(said)
            if state is None:
                state = states[said] = self.state_for(client, info)
            shown, client.shown = client.shown, state
            key = (*said, id(shown))  # the entry keeps ``shown``: no other takes its id
            made = bodies.get(key)
            if made is None:
                made = bodies[key] = (shown, event_body(update(shown, state)))
            client.send_body(made[1])

    # ------------------------------------------------------------------ connections
    def attach(self, client: Client) -> None:
        client.gate = self.gate
        self.clients.add(client)
        self.last_active = self.time()
        if self.on_change is not None:
            self.on_change(self.id)

    def detach(self, client: Client) -> None:
        """``client`` closed: it is sent nothing more; its seat learns it in the inbox."""
        self.clients.discard(client)
        self.last_active = self.time()
        if self.on_change is not None:
            self.on_change(self.id)
        self.post(Gone(client, client.seat))

    def _gone(self, client: Client, seat: int | None) -> None:
        if seat is not None:
            s = self.table.seats[seat]
            s.clients.discard(client)
            if not s.clients:
                s.away_since = self.time()
                self.broadcast()
                self._arrange()
        elif not self.clients:
            self._arrange()  # the last watcher of a bots-only table: paused

    def notify(self, client: Client, refusal: Refused, ref: int | None = None) -> None:
        """Tell ``client`` of ``refusal`` (of its message ``ref``) after what its commands posted
        before are answered."""
        self.post(Notice(client, refusal, ref))

    def handle(self, client: Client, cmd: Command) -> None:
        """A validated command of ``client``: posted to the inbox (:meth:`post`)."""
        self.post(Said(client, cmd, self.time.wall()))

    def _said(self, said: Said) -> None:
        """Carry out one command; a refusal is an error event and changes nothing."""
        client, cmd = said.client, said.command
        if client not in self.clients:  # closed since it sent it
            return
        if cmd.seq <= client.in_seq:
            client.refuse(Refused(msg("err.web.stale_seq", seq=cmd.seq, last=client.in_seq),
                                  code="stale"), cmd.seq)
            return
        client.in_seq = cmd.seq
        self._senders.append((client, cmd.seq))
        self.last_active = self.time()
        self._note_at(said.received)
        try:
            self._handle(client, cmd)
        except Refused as exc:
            client.refuse(exc, cmd.seq)
        except TienLenError as exc:  # storage trouble (its chat): nothing changed
            client.send(Error(reason=t("err.web.server_failed", client.lang,
                                       reason=say_error(exc, client.lang)), ref=cmd.seq))

    def _handle(self, client: Client, cmd: Command) -> None:
        if isinstance(cmd, Hello):
            if cmd.lang is not None:
                client.lang = pick_lang(cmd.lang)
            self._hello(client, cmd.token)
            return
        if isinstance(cmd, Ping):
            client.send(Pong(ref=cmd.seq))
            return
        if isinstance(cmd, Sync):  # it lost track of its state: the whole of it again
            client.shown = None
            self.tell([client])
            return
        if isinstance(cmd, Join):
            self._may_sit(client)
            seat, token = self.table.join_seat(client.account_name or cmd.name, cmd.seat,
                                                client.owner, client.device)
            if client.seated is not None:
                client.seated(self.table.seats[seat].name or cmd.name)
            self._sit(client, seat)
            client.send(Welcome(table=self.id, seat=seat, token=token))
            return
        if isinstance(cmd, Back):
            self._may_sit(client)
            seat, token = self.table.come_back(client.owner, cmd.seat, client.device)
            self._sit(client, seat)
            client.send(Welcome(table=self.id, seat=seat, token=token))
            self._tell_back(client.owner)
            return
        if isinstance(cmd, AddBot):
            if cmd.level is not None:
                check_level(self.table.rules.name, cmd.level, self.table.players)
            self.table.add_bot(cmd.seat, cmd.level, by=self._seated(client))
            return
        if isinstance(cmd, RemoveSeat | Kick):
            self._remove(self._seated(client), cmd.seat, isinstance(cmd, Kick))
            return
        if isinstance(cmd, Say):
            self._say(client, "phrase", cmd.phrase)
            return
        if isinstance(cmd, React):
            self._say(client, "emoji", cmd.emoji)
            return
        if isinstance(cmd, Talk):
            self._say(client, "text", cmd.text)
            return
        if isinstance(cmd, Leave):
            self.leave(self._seated(client))
            return
        if isinstance(cmd, Start):
            self.table.start(by=self._seated(client))
            return
        seat = self._seated(client)
        if isinstance(cmd, Hint):
            self.hint(client, seat, cmd.seq)
            return
        if isinstance(cmd, NextHand):
            self.table.ask_next_hand(seat, cmd.version)
            return
        assert isinstance(cmd, PlayMove)
        if cmd.version != self.version:
            raise Refused(msg("room.stale", version=cmd.version, now=self.version), code="stale")
        self.table.apply_move(seat, cmd.move)

    def _remove(self, by: int, seat: int, kick: bool) -> None:
        """The host (seat ``by``) removes the player or bot at ``seat`` before the start, or
        kicks the away player at ``seat`` after it (:meth:`TableState.kick`); a player's own
        connections watch from then on, and everyone is told who it was."""
        was = self.table.seats[seat] if 0 <= seat < self.players else None
        if kick:
            self.table.kick(by, seat)
        else:
            self.table.remove_seat(by, seat)
        assert was is not None
        if was.kind != "human":
            return
        told = [c for c in self.clients if c.seat == seat]
        for client in told:
            client.seat = None
        self._tell_back(was.owner, told)  # they watch; nothing is theirs to take back
        body = event_body(Removed(seat=seat, name=was.name or f"Seat {seat + 1}",
                                  how="kicked" if kick else "removed"))
        for client in list(self.clients):
            client.send_body(body)

    def _say(self, client: Client, kind: Kind, said: str) -> None:
        """The seated ``client`` says a phrase (its key), a reaction (its emoji) or free text
        (at a private table only, cleaned); so many in a while per player, over all its tables
        (``Client.limit``). It is stored, then sent to every connection that hears the table
        (:meth:`_hears`) but those of players who blocked the speaker; a refusal stores and
        sends nothing."""
        seat = self._seated(client)
        if kind == "text":
            if not self.private:
                raise Refused(msg("chat.private_only"))
            try:
                said = clean_text(said)
            except BadText as exc:
                raise Refused(exc.reason) from None
        client.limit("say")
        s = self.table.seats[seat]
        line = Line(self.id, self.table.hand_no, seat, s.owner, kind, said, round(self.time.wall(), 3))
        self.chat.add(line)
        body = event_body(ChatEvent(seat=seat, name=s.name or f"Seat {seat + 1}", kind=kind,
                                    at=line.at, phrase=said if kind == "phrase" else None,
                                    emoji=said if kind == "emoji" else None,
                                    text=said if kind == "text" else None))
        for other in list(self.clients):
            if self._hears(other) and (s.owner is None or s.owner not in other.blocked()):
                other.send_body(body)

    def _hears(self, client: Client) -> bool:
        """Whether ``client`` is sent what is said here: at a public table anyone watching; at
        a private one only those who sit at it (a seat now, or one its identity holds: left, a
        bot playing it), not a watcher who came by the link."""
        if not self.private or client.seat is not None:
            return True
        return client.owner is not None and any(s.owner == client.owner for s in self.table.seats)

    def _seated(self, client: Client) -> int:
        if client.seat is None:
            raise Refused(msg("room.spectator"))
        return client.seat

    def _may_sit(self, client: Client, seat: int | None = None) -> None:
        """The one rule of which seat a connection plays, checked before anything is stored, by
        every way in (a join, a seat taken back, a token's hello, its identity's seat, a seat
        quick match kept for it): one seat at a time at any table (a connection is never sent
        two seats' hands), and at a rated table only a seat of its own identity or browser
        (:meth:`TableState.check_player`; who may be given a seat there at all:
        ``TableState._check_sitter``)."""
        if client.seat is not None and client.seat != seat:
            raise Refused(msg("room.already_seated", seat=client.seat))
        if seat is not None:
            self.table.check_player(seat, client.owner, client.device)

    def _sit(self, client: Client, seat: int) -> None:
        self._may_sit(client, seat)
        client.seat = seat
        self.table.seats[seat].clients.add(client)
        self.table.seats[seat].away_since = None

    def _hello(self, client: Client, token: str | None) -> None:
        if token is not None:
            seat = self.table.seat_of(token)
            try:
                if seat is None:
                    raise Refused(msg("room.bad_token"))
                self._sit(client, seat)
            except Refused:  # it plays what it played before, or watches
                client.send(Welcome(table=self.id, seat=client.seat,
                                    barred=self._barred(client.owner)))
                self.tell([client])
                raise
        elif client.owner is not None and client.seat is None:  # the seat its identity holds
            owned = self.table.seat_owned(client.owner)
            if owned is not None:
                self._sit(client, owned)
        back = self.table.seats_left_by(client.owner) if client.seat is None else []
        client.send(Welcome(table=self.id, seat=client.seat, back=back,
                            barred=self._barred(client.owner)))
        self.broadcast()  # the others see who is connected; this client gets its view
        self._arrange()  # a bots-only table that was paused deals again


