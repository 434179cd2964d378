"""When a table's bots move: the turn timer, the away timeout, the next hand's countdown, and
the one wake of the event loop arranged for the next of them.

After every change the table's clock works out when a bot next has something to do
(:meth:`Clock.next_wake`) and arranges one wake then (``call_later`` of the table's time,
:mod:`.now`: the event loop's, or a test's); at the wake it only posts a tick to the table's
inbox (room.py), and the table, reading it, asks :meth:`Clock.owed` for the move, staged. A bot
waits the table's bot delay (give or take a quarter) before it answers, in or out of turn; the
bots asked out of turn at one moment all answer at the same wake, so a bot that lets a chop go
adds no wait that a bot without one would not (the time a table takes reveals no card). A person
asked out of turn is not waited for (see :mod:`.table`).

An optional ``turn_timer`` lets a bot make one move for a player who takes too long; a player
away longer than ``away_timeout`` is played by a bot until they return. The turn timer of a
restored table runs from the time its newest log entry was stored (every change starts the
timer again, and every change is logged): a restart gives the player on turn no new time. At the end of a hand
the next one is dealt once every player a bot does not play for has asked, or
``next_hand_after`` seconds after the first ask (0: only once everyone has).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..now import Timer
from .staged import Asking, Staged
from .state import TableState

JITTER = 0.25  # a bot's wait varies by this share of the bot delay either way
# a bot's wake falls on a step of this many seconds of the server's clock (within its jitter):
# the tables whose bots wake in one step are read in one pass and stored in one transaction
# (committer.py), where waking each at its own instant made a transaction of each move
WAKE_STEP = 0.02
_jitter = random.Random()


class Clock:
    """The timers of one table (see the module's text). ``due`` posts a tick to the table's inbox: it may owe
    a move at its version; ``watched`` says whether anyone is connected to the table. It reads
    the time, and arranges its wake, by the table's ``time`` (:mod:`.now`)."""

    def __init__(self, table: TableState, bot_delay: float, due: Callable[[int], None],
                 watched: Callable[[], bool]) -> None:
        self.table = table
        self.bot_delay = bot_delay
        self.next_hand_after = table.settings.next_hand_after
        self.closed = False  # the table is closing: nothing more is arranged
        self._due = due
        self._watched = watched
        self.time = table.time
        self._timer: Timer | None = None
        self._turn_since = self.time()
        if table.last_change is not None:  # restored: the turn began when the last change was
            self._turn_since -= max(0.0, self.time.wall() - table.last_change)
        self._due_at = 0.0  # when the bot move arranged by schedule() is due (Unix seconds)

    @property
    def armed(self) -> bool:
        """Whether a wake is arranged."""
        return self._timer is not None

    @property
    def paused(self) -> bool:
        """Whether no new hand is dealt because nobody is there (:meth:`TableState.paused`)."""
        return self.table.paused(self._watched())

    def restart(self) -> None:
        """Something changed: the turn timer starts again."""
        self._turn_since = self.time()

    # ------------------------------------------------------------------ what is owed
    def owed(self) -> Staged | Asking | None:
        """The move a bot owes now (a chop, a turn, the next hand of a watched bots-only table, a
        move for a player out of time), decided and checked but not made (:class:`Asking`: to be
        decided in the bot pool first); None when none is."""
        table = self.table
        game = table.game
        if game is None or self.closed:
            return None
        now = self.time()
        at = min(self.time.wall(), self._due_at)  # when it was due: its event's latency counts from then
        if game.is_over:
            # a bots-only table deals while watched; another once its players asked (or the
            # countdown ran out): due now
            due = self._watched() if table.bots_only() else self.deal_wait(now) == 0.0
            return table.stage_deal(at) if due else None
        turn = game.turn
        return table.bot_move(at, now, turn is not None and self._out_of_time(turn, now))

    def _out_of_time(self, seat: int, now: float) -> bool:
        return self.table.timed(seat) and now - self._turn_since >= self.table.turn_timer

    def turn_deadline(self) -> float | None:
        """When (Unix seconds) the turn timer runs out for the seat on turn (None: no timer)."""
        table = self.table
        game = table.game
        if game is None or game.is_over or game.turn is None or not table.timed(game.turn) \
                or table.bot_controlled(game.turn):
            return None
        return round(self.time.wall() + self._turn_since + table.turn_timer - self.time(), 3)

    def next_hand_at(self, now: float | None = None) -> float | None:
        """When (Unix seconds) the countdown deals the next hand: ``next_hand_after`` seconds
        after the first ask of a player still waited for (None: no countdown runs)."""
        game = self.table.game
        if game is None or not game.is_over or self.next_hand_after <= 0 or self.paused:
            return None
        asks = [self.table.asks[s] for s in self.table.ready(now)]
        return round(min(asks) + self.next_hand_after, 3) if asks else None

    def deal_wait(self, now: float) -> float | None:
        """Seconds until the next hand of a finished hand is due (None: not until someone acts):
        at once when every player has asked, else at the countdown's end or when a player who
        has not asked has been away long enough to be played by a bot."""
        if self.paused:
            return None
        table = self.table
        players = table.waited_for(now)
        ready = [s for s in players if s in table.asks]
        if not ready:
            return None
        if len(ready) == len(players):
            return 0.0
        waits: list[float] = []
        at = self.next_hand_at(now)
        if at is not None:
            waits.append(at - self.time.wall())
        for seat in players:
            s = table.seats[seat]
            if seat not in table.asks and not s.clients and s.away_since is not None:
                waits.append(s.away_since + table.away_timeout - now)
        return max(0.0, min(waits)) if waits else None

    # ------------------------------------------------------------------ waking
    def next_wake(self) -> float | None:
        """Seconds until a bot has something to do (None: nothing until someone acts): the
        bot delay when a bot is asked (out of turn or on turn), else the away timeout of the
        player on turn, or their turn timer."""
        table = self.table
        game = table.game
        if game is None:
            return None
        now = self.time()
        if game.is_over:
            if table.bots_only():
                return self.bot_wait() if self._watched() else None
            return self.deal_wait(now)
        asked = table.asked(now)
        if asked is None:
            return None
        waits: list[float] = []
        s = table.seats[asked.seat]
        if table.bot_controlled(asked.seat, now):
            waits.append(self.bot_wait())
        elif s.kind == "human" and not s.clients and s.away_since is not None:
            waits.append(s.away_since + table.away_timeout - now)
        if game.turn is not None and table.timed(game.turn):
            waits.append(self._turn_since + table.turn_timer - now)
        return max(0.0, min(waits)) if waits else None

    def bot_wait(self) -> float:
        """How long a bot waits before it plays: the table's bot delay, give or take a quarter,
        so that tables started together do not stay in step (and due all at once), its wake on
        the nearest :data:`WAKE_STEP` of the clock within that (the bots of many tables due
        in one step play in one pass)."""
        wait = self.bot_delay * (1 + JITTER * (2 * _jitter.random() - 1))
        low, high = self.bot_delay * (1 - JITTER), self.bot_delay * (1 + JITTER)
        if high - low < WAKE_STEP:
            return wait
        now = self.time()
        stepped = round((now + wait) / WAKE_STEP) * WAKE_STEP - now
        if stepped < low:  # the step within the window (it is a step wide at least)
            stepped += WAKE_STEP
        elif stepped > high:
            stepped -= WAKE_STEP
        return stepped

    def schedule(self, at_least: float = 0.0) -> None:
        """Arrange the next bot move (or none), replacing any arranged before."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        wait = None if self.closed else self.next_wake()
        if wait is None:
            return
        wait = max(wait, at_least)
        self._due_at = self.time.wall() + wait
        self._timer = self.time.call_later(wait, self._wake, self.table.version)

    def stop(self) -> None:
        """Arrange nothing more (the table is closing)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _wake(self, version: int) -> None:
        self._timer = None
        if version != self.table.version:
            self.schedule()
            return
        self._due(version)  # a tick, posted to the table's inbox
