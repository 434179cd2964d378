"""One authoritative table: seats, its hands, bots, timers, and what each connection is told.

Every change is stored (the table's log) before it is applied to what anyone
sees; every connection then gets its own seat's view. A move is tried on a copy
of the game first, so the record of a hand it ends is stored in the same
transaction. Bot moves are stored in batches across tables by the
:class:`~.driver.Driver`. Bots play their seats,
and a bot plays for a player who has been away longer than the table's
``away_timeout``, until they return. An optional ``turn_timer`` lets a bot
make one move for a player who takes too long.

The host (the creator, or the first player to sit at a table made without a
name) alone starts the table, seats bots and removes seats. At the end of a
hand each player asks for the next one; it is dealt once every player a bot
does not play for has asked, or ``next_hand_after`` seconds after the first
ask (0: only once everyone has). The asks are stored in the log, so a restart
keeps them and the countdown.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import PASS, Action, Game, Play, Rules, TienLenError, parse_move
from ..bots import Bot, get_bot
from ..errors import reason_of
from ..i18n import Msg, Said, bot_name, msg, pick_lang, render, t
from .driver import Driver, Staged
from .hands import Hands
from .names import BOT_NUMBERS, BadName, bot_number, clean_name, confusable_key, name_key, shown_keys
from .protocol import (
    AddBot,
    Command,
    Error,
    Hello,
    Hint,
    HintEvent,
    Join,
    Leave,
    NextHand,
    Ping,
    PlayMove,
    Pong,
    RemoveSeat,
    SeatInfo,
    SeatView,
    Start,
    State,
    TableInfo,
    Welcome,
    _Event,
    event_body,
    with_seq,
)
from .snapshot import Snapshot
from .storage import (
    Entry,
    Repository,
    SeatChange,
    StoredTable,
    TableSettings,
    Write,
    hash_token,
)
from .views import PlayTexts, seat_view

AWAY_BOT = "heuristic"
JITTER = 0.25  # a bot's wait varies by this share of the bot delay either way
_jitter = random.Random()


class Refused(TienLenError):
    """A command that cannot be carried out now; the text is the reason in English (``code``:
    its kind); ``reason`` the same as a message to say in the connection's language."""

    def __init__(self, reason: str | Msg | Said, code: str | None = None) -> None:
        super().__init__(render(reason))
        self.reason = reason
        self.code = code

    def say(self, lang: str) -> str:
        return render(self.reason, lang)


class Client:
    """One connection: its seat (None: a spectator), its sequence numbers and its outbox."""

    def __init__(self, deliver: Callable[[str], None], key: str = "") -> None:
        self._deliver = deliver
        self.key = key  # who it is counted as (see limits.client_key)
        self.seat: int | None = None
        self.lang = "en"  # the language its error events are said in (told in hello)
        self.out_seq = 0
        self.in_seq = 0

    def send(self, event: _Event) -> None:
        self.send_body(event_body(event))

    def send_body(self, body: str) -> None:
        """Send an event serialised once (for every connection that gets it) by :func:`event_body`."""
        self.out_seq += 1
        self._deliver(with_seq(self.out_seq, body))


@dataclass
class Seat:
    kind: str = "empty"  # empty | human | bot
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    clients: set[Client] = field(default_factory=set)
    away_since: float | None = None


def check_name(name: str) -> str:
    """A player's name, normalised (NFC, single spaces), or :class:`Refused` saying why not."""
    try:
        return clean_name(name, "a name")
    except BadName as exc:
        raise Refused(exc.reason) from None


class Room:
    def __init__(self, repo: Repository, settings: TableSettings, bot_delay: float = 0.5,
                 driver: Driver | None = None) -> None:
        self.repo = repo
        self.driver = driver or Driver(repo)
        self.settings = settings
        self.id = settings.id
        self.name = settings.name
        self.private = settings.private
        self.bot_level = settings.bot_level
        self.host_seat = settings.host_seat
        self.creator = settings.creator
        self.rules, self._options = _rules_of(settings.rules_toml)
        self.players = settings.players
        self.seed = settings.seed
        self.fixed_seed = settings.fixed_seed
        self.away_timeout = settings.away_timeout
        self.turn_timer = settings.turn_timer
        self.next_hand_after = settings.next_hand_after
        self.bot_delay = bot_delay
        self.seats = [Seat() for _ in range(self.players)]
        self.hands: Hands | None = None  # once the game has started
        self.version = 0
        self.clients: set[Client] = set()
        self.last_active = time.monotonic()  # when a client last came, went or acted
        self._bots: dict[int, Bot] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._turn_since = time.monotonic()
        self._views: dict[int | None, SeatView | None] = {}
        self._views_version = -1
        self._plays = PlayTexts()
        self._standing: tuple[int, bool, list[int], list[int]] | None = None
        self._changed_at = time.time()
        self._due_at = 0.0  # when the bot move arranged by schedule() is due (Unix seconds)
        self._pending: list[tuple[Entry, SeatChange | None]] | None = None  # see hold_writes
        # the finished hand's asks for the next one: seat -> when it asked (Unix seconds)
        self._asked: dict[int, float] = {}
        self._over: tuple[int, int] | None = None  # (hand number, version first showing it over)
        self.closed = False  # expired: nothing more is made here

    # ------------------------------------------------------------------ building
    @classmethod
    def restore(cls, repo: Repository, stored: StoredTable, bot_delay: float,
                driver: Driver | None = None) -> Room:
        """Rebuild a table from its stored seats, its snapshot and the log entries after it."""
        room = cls(repo, stored.settings, bot_delay, driver)
        now = time.monotonic()
        for number, change in stored.seats.items():
            room.seats[number] = Seat(change.kind, change.name, change.level, change.token_hash,
                                      away_since=now if change.kind == "human" else None)
        if stored.snapshot is not None:
            room.version, data = stored.snapshot
            room.hands = Hands.from_snapshot(room.rules, Snapshot.loads(data))
            room._note_over()
        for entry in stored.log:
            room._replay(entry)
            room.version = entry.idx + 1
            room._note_over()
        return room

    def _replay(self, entry: Entry) -> None:
        if entry.kind == "start":
            self.hands = Hands(self.rules, self._names(), entry.text, self.seed, self.fixed_seed)
        elif entry.kind == "move":  # checked when it was made, before it was stored
            assert self.hands is not None and entry.seat is not None
            self.hands.push(parse_move(entry.text, self.rules), entry.seat)
        elif entry.kind == "ask":
            assert entry.seat is not None
            self._asked[entry.seat] = float(entry.text)
        elif entry.kind == "next":
            assert self.hands is not None
            self.hands.install(self.hands.deal_next(entry.text))
            self._asked = {}

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

    def snapshot(self) -> str:
        """The table's state as stored beside its log."""
        assert self.hands is not None
        return self.hands.snapshot()

    def hold_writes(self) -> None:
        """Keep this new table's writes until :meth:`take_writes` (stored with the table)."""
        self._pending = []

    def take_writes(self) -> tuple[list[Entry], list[SeatChange]]:
        """The log entries and seats held since :meth:`hold_writes`; writes are made again."""
        pending, self._pending = self._pending or [], None
        seats: dict[int, SeatChange] = {}
        for _, change in pending:
            if change is not None:
                seats[change.seat] = change
        return [e for e, _ in pending], [c for c in seats.values() if c.kind != "empty"]

    def _store(self, kind: str, seat: int | None = None, text: str = "",
               change: SeatChange | None = None, record: tuple[int, str] | None = None,
               snapshot: str | None = None, host: tuple[int | None] | None = None) -> None:
        entry = Entry(self.version, kind, seat, text)
        if self._pending is not None:
            self._pending.append((entry, change))
        else:
            self.repo.append(self.id, entry, change, record, snapshot, host)
        self.version += 1

    # ------------------------------------------------------------------ seats
    @property
    def started(self) -> bool:
        return self.hands is not None

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

    def join_seat(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Give an empty seat to a player; returns the seat and its secret token."""
        name = check_name(name)
        if self.started:
            raise Refused(msg("room.started_watch"))
        self._refuse_lookalike(name)
        seat = self._empty_seat(seat)
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        host = (seat,) if self.host is None else None  # the first to sit at a hostless table
        self._store("join", seat, name, SeatChange(seat, "human", name, None, digest), host=host)
        self.seats[seat] = Seat("human", name, None, digest, away_since=time.monotonic())
        if host is not None:  # the creator (who did not sit) no longer runs it: its slot frees
            self.host_seat = seat
            self.creator = ""
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
        self._store("bot", seat, level, SeatChange(seat, "bot", name, level))
        self.seats[seat] = Seat("bot", name, level)
        return seat

    def remove_seat(self, by: int, seat: int) -> None:
        """The host (seat ``by``) empties ``seat`` before the start: a bot's or an absent player's."""
        if self.started:
            raise Refused(msg("room.started_remove"))
        self._check_host(by, "room.host_only")
        if not 0 <= seat < self.players:
            raise Refused(msg("room.no_seat", last=self.players - 1, seat=seat))
        s = self.seats[seat]
        if s.kind == "empty":
            raise Refused(msg("room.already_empty", seat=seat))
        if seat == by:
            raise Refused(msg("room.own_seat"))
        if s.kind == "human" and s.clients:
            raise Refused(msg("room.is_here", name=s.name, seat=seat))
        self._store("remove", seat, "", SeatChange(seat, "empty", ""))
        self.seats[seat] = Seat()

    def leave(self, seat: int) -> None:
        """The player at ``seat`` leaves: before the start the seat is emptied (its token stops
        working); after, a bot of the table's level plays it for the rest of the table."""
        s = self.seats[seat]
        clients = list(s.clients)
        host: tuple[int | None] | None = None
        if self.started:
            change = SeatChange(seat, "bot", s.name or f"Seat {seat + 1}", self.bot_level)
            if seat == self.host_seat:
                host = (None,)
            self._store("leave", seat, "", change, host=host)
            self.seats[seat] = Seat("bot", change.name, self.bot_level)
            self._bots.pop(seat, None)
        else:
            if seat == self.host:  # the host's role passes to the first player still seated
                others = [i for i, o in enumerate(self.seats) if o.kind == "human" and i != seat]
                host = (others[0] if others else None,)
            self._store("leave", seat, "", SeatChange(seat, "empty", ""), host=host)
            self.seats[seat] = Seat()
        if host is not None:  # the host (the creator, while it is there) left: its slot frees
            self.host_seat = host[0]
            self.creator = ""
        for client in clients:
            client.seat = None
            client.send(Welcome(table=self.id, seat=None))

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

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return number
        return None

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
        self._store("start", text=seed, snapshot=hands.snapshot())
        self.hands = hands
        self._note_over()

    # ------------------------------------------------------------------ moves
    def apply_move(self, seat: int, text: str) -> None:
        """Check, store, then make one move for a seat."""
        game = self.game
        if game is None:
            raise Refused(msg("room.not_started"))
        try:
            move = parse_move(text, self.rules)
            trial = game.copy()
            trial.play(move, seat=seat)
        except TienLenError as exc:  # a refused play, or text that is no card (CardError)
            raise Refused(reason_of(exc)) from None
        self._store("move", seat, str(move), record=self._record_if_over(trial))
        assert self.hands is not None
        self.hands.push(move, seat)
        self._note_over()

    @property
    def hand_no(self) -> int:
        """The number of the current hand (0 before the start)."""
        return self.hands.number if self.hands is not None else 0

    def _record_if_over(self, game: Game) -> tuple[int, str] | None:
        """(hand number, record) when ``game`` (the current hand after a move) is over."""
        return (self.hand_no, game.record()) if game.is_over else None

    def ask_next_hand(self, seat: int, version: int) -> None:
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
        if seat in self._asked:
            raise Refused(msg("room.already_asked"))
        if all(s in self._asked for s in self._players() if s != seat):
            self.next_hand()
            return
        at = round(time.time(), 3)
        self._store("ask", seat, f"{at:.3f}")
        self._asked[seat] = at

    def next_hand(self) -> None:
        """Deal the next hand now (stored first); the asks for it are done with."""
        hands = self.hands
        if hands is None:
            raise Refused(msg("room.not_started"))
        if not hands.game.is_over:
            raise Refused(msg("room.not_over"))
        seed = hands.next_seed()
        hand = hands.deal_next(seed)
        self._store("next", text=seed, snapshot=hands.snapshot(hand))
        hands.install(hand)
        self._asked = {}
        self._note_over()

    def _players(self, now: float | None = None) -> list[int]:
        """The seats the next hand waits for: every player's that no bot plays for (connected or
        not: a player reloading the page is waited for; one away longer than the table's
        ``away_timeout`` is not)."""
        now = time.monotonic() if now is None else now
        return [i for i, s in enumerate(self.seats)
                if s.kind == "human" and not self.bot_controlled(i, now)]

    def _ready(self, now: float | None = None) -> list[int]:
        """The players (see :meth:`_players`) who have asked for the next hand."""
        return [s for s in self._players(now) if s in self._asked]

    def _next_hand_at(self, now: float | None = None) -> float | None:
        """When (Unix seconds) the countdown deals the next hand: ``next_hand_after`` seconds
        after the first ask of a player still waited for (None: no countdown runs)."""
        game = self.game
        if game is None or not game.is_over or self.next_hand_after <= 0 or self.paused:
            return None
        asks = [self._asked[s] for s in self._ready(now)]
        return round(min(asks) + self.next_hand_after, 3) if asks else None

    def _deal_wait(self, now: float) -> float | None:
        """Seconds until the next hand of a finished hand is due (None: not until someone acts):
        at once when every player has asked, else at the countdown's end or when a player who
        has not asked has been away long enough to be played by a bot."""
        if self.paused:
            return None
        players = self._players(now)
        ready = [s for s in players if s in self._asked]
        if not ready:
            return None
        if len(ready) == len(players):
            return 0.0
        waits: list[float] = []
        at = self._next_hand_at(now)
        if at is not None:
            waits.append(at - time.time())
        for seat in players:
            s = self.seats[seat]
            if seat not in self._asked and not s.clients and s.away_since is not None:
                waits.append(s.away_since + self.away_timeout - now)
        return max(0.0, min(waits)) if waits else None

    def bot_controlled(self, seat: int, now: float | None = None) -> bool:
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        if s.kind != "human" or s.clients or s.away_since is None:
            return False
        return (now if now is not None else time.monotonic()) - s.away_since >= self.away_timeout

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.seats[seat].level or AWAY_BOT
            # a practice table's bots follow its seed; elsewhere only the server knows theirs
            seed = self.seed + 7919 * seat if self.fixed_seed else secrets.randbits(64)
            bot = self._bots[seat] = get_bot(level, seed=seed)
        return bot

    def _choose(self, seat: int, with_pass: bool = False) -> Play | Action:
        """The bot's move for ``seat``: one of its legal moves (PASS: no out-of-turn chop)."""
        assert self.game is not None
        view = self.game.view(seat)
        if with_pass:
            view = dataclasses.replace(view, legal=(*view.legal, PASS))
        try:
            move = self._bot(seat).choose(view)
        except Exception:  # a bot's failure must not stop the table
            return view.legal[0]
        return move if move in view.legal else view.legal[0]

    def hint(self, seat: int) -> str:
        game = self.game
        if game is None or game.is_over:
            raise Refused(msg("room.nothing_to_play"))
        if game.turn != seat:
            if game.legal_plays(seat):
                return self._choose_hint(seat, with_pass=True)
            raise Refused(msg("room.not_your_turn"))
        return self._choose_hint(seat)

    def _choose_hint(self, seat: int, with_pass: bool = False) -> str:
        assert self.game is not None
        view = self.game.view(seat)
        if with_pass:
            view = dataclasses.replace(view, legal=(*view.legal, PASS))
        return str(get_bot(AWAY_BOT, seed=secrets.randbits(64)).choose(view))

    # ------------------------------------------------------------------ the driver
    def bot_action(self) -> Staged | None:
        """The move a bot owes now (a chop, a turn, the next hand of a watched bots-only table, a
        move for a player out of time), decided and checked but not made; None when none is owed."""
        game = self.game
        if game is None or self.closed:
            return None
        now = time.monotonic()
        if game.is_over:
            # a bots-only table deals while watched; another once its players asked (or the
            # countdown ran out): due now
            due = bool(self.clients) if self._bots_only() else self._deal_wait(now) == 0.0
            return self._stage_deal() if due else None
        for seat in game.out_of_turn_seats():
            if self.bot_controlled(seat, now):
                move = self._choose(seat, with_pass=True)
                if str(move) != "pass":  # PASS here: no chop
                    return self._stage(game, seat, move)
        turn = game.turn
        if turn is None:
            return None
        if self.bot_controlled(turn, now) or self._out_of_time(turn, now):
            return self._stage(game, turn, self._choose(turn))
        return None

    def _stage_deal(self) -> Staged:
        """The next hand, dealt (its seed drawn) but not installed."""
        assert self.hands is not None
        seed = self.hands.next_seed()
        hand = self.hands.deal_next(seed)
        write = Write(self.id, Entry(self.version, "next", None, seed),
                      snapshot=self.hands.snapshot(hand))
        return Staged(write, None, None, self._since(), hand)

    def _stage(self, game: Game, seat: int, move: Play | Action) -> Staged:
        """A legal move (one of ``game.legal_plays(seat)``) tried on a copy of the game."""
        trial = game.copy()
        trial.push(move, seat)
        entry = Entry(self.version, "move", seat, str(move))
        return Staged(Write(self.id, entry, None, self._record_if_over(trial)), seat, move,
                      self._since())

    def _since(self) -> float:
        """When the bot move made now was due: its event's latency counts from then."""
        return min(time.time(), self._due_at)

    def install(self, staged: Staged) -> None:
        """Make a staged move once it is stored (the same move, on the same state, as its trial)."""
        assert self.hands is not None and staged.write.entry.idx == self.version
        if staged.move is None:
            assert staged.hand is not None
            self.hands.install(staged.hand)
            self._asked = {}
        else:
            assert staged.seat is not None
            self.hands.push(staged.move, staged.seat)
        self.version += 1
        self._note_over()

    def _bots_only(self) -> bool:
        """Whether every seat is a bot's (such a table deals its next hand by itself)."""
        return all(s.kind == "bot" for s in self.seats)

    @property
    def paused(self) -> bool:
        """Whether no new hand is dealt because nobody is there: a bots-only table nobody watches,
        or a table none of whose players is connected."""
        if not self.started:
            return False
        if self._bots_only():
            return not self.clients
        return not any(s.clients for s in self.seats if s.kind == "human")

    def idle(self, now: float, expiry: float) -> bool:
        """Whether nobody is connected and nothing has happened for ``expiry`` seconds."""
        return not self.clients and now - self.last_active >= expiry

    def _timed(self, seat: int) -> bool:
        """Whether the turn timer runs for this seat (a player's seat at a timed table)."""
        return self.turn_timer > 0 and self.seats[seat].kind == "human"

    def _out_of_time(self, seat: int, now: float) -> bool:
        return self._timed(seat) and now - self._turn_since >= self.turn_timer

    def _turn_deadline(self) -> float | None:
        """When (Unix seconds) the turn timer runs out for the seat on turn (None: no timer)."""
        game = self.game
        if game is None or game.is_over or game.turn is None or not self._timed(game.turn) \
                or self.bot_controlled(game.turn):
            return None
        return round(time.time() + self._turn_since + self.turn_timer - time.monotonic(), 3)

    def _next_wake(self) -> float | None:
        """Seconds until the driver has something to do (None: nothing until someone acts)."""
        game = self.game
        if game is None:
            return None
        now = time.monotonic()
        if game.is_over:
            if self._bots_only():
                return self._bot_wait() if self.clients else None
            return self._deal_wait(now)
        seats = [*game.out_of_turn_seats(), *([game.turn] if game.turn is not None else [])]
        waits: list[float] = []
        for seat in seats:
            s = self.seats[seat]
            if self.bot_controlled(seat, now):
                waits.append(self._bot_wait())
            elif s.kind == "human" and not s.clients and s.away_since is not None:
                waits.append(s.away_since + self.away_timeout - now)
        if game.turn is not None and self._timed(game.turn):
            waits.append(self._turn_since + self.turn_timer - now)
        return max(0.0, min(waits)) if waits else None

    def _bot_wait(self) -> float:
        """How long a bot waits before it plays: the table's bot delay, give or take a quarter,
        so that tables started together do not stay in step (and due all at once)."""
        return self.bot_delay * (1 + JITTER * (2 * _jitter.random() - 1))

    def schedule(self, at_least: float = 0.0) -> None:
        """Arrange the next bot move (or none), replacing any arranged before."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        wait = None if self.closed else self._next_wake()
        if wait is None:
            return
        loop = asyncio.get_running_loop()
        version = self.version
        wait = max(wait, at_least)
        self._due_at = time.time() + wait
        self._timer = loop.call_later(wait, self._wake, version)

    def stop(self) -> None:
        """Arrange nothing more (the table is closing)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self, version: int) -> None:
        self._timer = None
        if version != self.version:
            self.schedule()
            return
        self.driver.due(self, version)  # the driver stores it with other tables' moves

    def changed(self, at: float | None = None) -> None:
        """After any change (made at ``at``, default now): reset the turn clock, tell everyone,
        arrange the next bot move."""
        self._turn_since = self.last_active = time.monotonic()
        self._changed_at = time.time() if at is None else at
        self.broadcast()
        self.schedule()

    # ------------------------------------------------------------------ telling
    def info(self) -> TableInfo:
        seats = [SeatInfo(seat=i, name=s.name, kind=s.kind, level=s.level,  # type: ignore[arg-type]
                          connected=bool(s.clients),
                          bot_playing=s.kind == "human" and self.started and self.bot_controlled(i))
                 for i, s in enumerate(self.seats)]
        finished = 0
        totals = first_places = [0] * self.players
        if self.hands is not None:
            finished = self.hand_no - (0 if self.hands.game.is_over else 1)
            totals, first_places = self._totals(self.hands)
        return TableInfo(
            id=self.id, name=self.name, private=self.private,
            seed=self.seed if self.fixed_seed else None, bot_level=self.bot_level,
            host_seat=self.host, turn_deadline=self._turn_deadline(), paused=self.paused,
            next_hand_after=self.next_hand_after, ready=self._ready(),
            next_hand_at=self._next_hand_at(),
            status="playing" if self.started else "open", rules=self.rules.name,
            options=self._options, players=self.players, seats=seats,
            hand_no=self.hand_no, totals=totals, first_places=first_places,
            records=finished, away_timeout=self.away_timeout, turn_timer=self.turn_timer)

    def _totals(self, hands: Hands) -> tuple[list[int], list[int]]:
        """The session's totals and first places, counted again only when a hand ends or starts."""
        key = (hands.number, hands.game.is_over)
        if self._standing is None or self._standing[:2] != key:
            tallies = hands.tallies()
            self._standing = (*key, tallies.totals, tallies.first_places)
        return self._standing[2], self._standing[3]

    def view_for(self, seat: int | None) -> SeatView | None:
        if self._views_version != self.version:
            self._views = {}
            self._views_version = self.version
        if seat not in self._views:
            hands = self.hands
            self._views[seat] = seat_view(hands.game, seat, self._plays, hands.round_starts) \
                if hands is not None else None
        return self._views[seat]

    def state_for(self, client: Client, info: TableInfo | None = None) -> State:
        return State(version=self.version, at=self._changed_at, info=info or self.info(),
                     view=self.view_for(client.seat))

    def broadcast(self) -> None:
        """Send every connection its seat's state; each distinct state is serialised once."""
        if not self.clients:
            return
        info = self.info()
        bodies: dict[int | None, str] = {}
        for client in list(self.clients):
            body = bodies.get(client.seat)
            if body is None:
                body = bodies[client.seat] = event_body(self.state_for(client, info))
            client.send_body(body)

    # ------------------------------------------------------------------ connections
    def attach(self, client: Client) -> None:
        self.clients.add(client)
        self.last_active = time.monotonic()

    def detach(self, client: Client) -> None:
        self.clients.discard(client)
        self.last_active = time.monotonic()
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.clients.discard(client)
            if not seat.clients:
                seat.away_since = time.monotonic()
                self.broadcast()
                self.schedule()
        elif not self.clients:
            self.schedule()  # the last watcher of a bots-only table went: it pauses

    def handle(self, client: Client, cmd: Command) -> None:
        """Carry out one validated command; a refusal is an error event and changes nothing."""
        if cmd.seq <= client.in_seq:
            client.send(Error(reason=t("err.web.stale_seq", client.lang, seq=cmd.seq,
                                       last=client.in_seq), ref=cmd.seq, code="stale"))
            return
        client.in_seq = cmd.seq
        self.last_active = time.monotonic()
        received = time.time()
        try:
            changed = self._handle(client, cmd)
        except Refused as exc:
            client.send(Error(reason=exc.say(client.lang), ref=cmd.seq, code=exc.code))
            return
        if changed:
            self.changed(received)

    def _handle(self, client: Client, cmd: Command) -> bool:
        if isinstance(cmd, Hello):
            if cmd.lang is not None:
                client.lang = pick_lang(cmd.lang)
            self._hello(client, cmd.token)
            return False
        if isinstance(cmd, Ping):
            client.send(Pong(ref=cmd.seq))
            return False
        if isinstance(cmd, Join):
            if client.seat is not None:
                raise Refused(msg("room.already_seated", seat=client.seat))
            seat, token = self.join_seat(cmd.name, cmd.seat)
            self._sit(client, seat)
            client.send(Welcome(table=self.id, seat=seat, token=token))
            return True
        if isinstance(cmd, AddBot):
            self.add_bot(cmd.seat, cmd.level, by=self._seated(client))
            return True
        if isinstance(cmd, RemoveSeat):
            self.remove_seat(self._seated(client), cmd.seat)
            return True
        if isinstance(cmd, Leave):
            self.leave(self._seated(client))
            return True
        if isinstance(cmd, Start):
            self.start(by=self._seated(client))
            return True
        seat = self._seated(client)
        if isinstance(cmd, Hint):
            client.send(HintEvent(move=self.hint(seat), ref=cmd.seq))
            return False
        if isinstance(cmd, NextHand):
            self.ask_next_hand(seat, cmd.version)
            return True
        assert isinstance(cmd, PlayMove)
        if cmd.version != self.version:
            raise Refused(msg("room.stale", version=cmd.version, now=self.version), code="stale")
        self.apply_move(seat, cmd.move)
        return True

    def _seated(self, client: Client) -> int:
        if client.seat is None:
            raise Refused(msg("room.spectator"))
        return client.seat

    def _sit(self, client: Client, seat: int) -> None:
        if client.seat is not None:
            self.seats[client.seat].clients.discard(client)
        client.seat = seat
        self.seats[seat].clients.add(client)
        self.seats[seat].away_since = None

    def _hello(self, client: Client, token: str | None) -> None:
        if token is not None:
            seat = self.seat_of(token)
            if seat is None:
                client.send(Welcome(table=self.id, seat=None))
                client.send(self.state_for(client))
                raise Refused(msg("room.bad_token"))
            self._sit(client, seat)
        client.send(Welcome(table=self.id, seat=client.seat))
        self.broadcast()  # the others see who is connected; this client gets its view
        self.schedule()  # a bots-only table that was paused deals again


@functools.lru_cache(maxsize=256)
def _rules_of(rules_toml: str) -> tuple[Rules, dict[str, Any]]:
    """A table's rules read from its stored TOML, and the options in which they differ from
    their preset (shown in its info); read once for all the tables that share them (rules are
    immutable)."""
    rules = Rules.from_toml(rules_toml)
    return rules, rules.differences()
