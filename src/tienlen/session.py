"""Session: hands in a row, with the dealer, the leader and the president exchange by the rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .dealing import check_players
from .dealing import next_deal as next_deal
from .errors import ArgumentError, IllegalPlay
from .game import Game
from .record import load_hands, session_record
from .rules import Rules
from .seats import check_names as _check_names
from .seats import check_seat


@dataclass(frozen=True)
class Tally:
    """The tallies of finished hands: how many, units per seat, hands won per seat."""

    hands: int
    totals: list[int]
    first_places: list[int]

    @classmethod
    def zero(cls, players: int) -> Tally:
        return cls(0, [0] * players, [0] * players)

    def plus(self, games: Sequence[Game]) -> Tally:
        """These tallies with ``games`` added (an unfinished one scores nothing, wins nothing)."""
        totals, firsts = list(self.totals), list(self.first_places)
        for game in games:
            for seat, units in enumerate(game.scores):
                totals[seat] += units
            if game.is_over and game.winner is not None:
                firsts[game.winner] += 1
        return Tally(self.hands + len(games), totals, firsts)


class Session:
    """Hands in a row.

    Each hand is dealt from the next number of the session's own sequence (drawn from
    ``seed``), or from a seed given to :meth:`next_hand`; either way the sequence moves on one
    number a hand, so the hands after a given one are those the sequence would have dealt.
    ``keep_hands=False``: a finished hand leaves :attr:`games` when the next is dealt, and only
    its tallies stay (:attr:`past`), for sessions that go on and on (a web table).

    >>> from tienlen import Rules, Session
    >>> s = Session(Rules.preset("pagat"), players=4, seed=1)
    >>> s.game.is_over
    False
    """

    def __init__(self, rules: Rules, players: int = 4, seed: int | None = None, *,
                 names: Sequence[str] | None = None, keep_hands: bool = True,
                 _first: Game | None = None) -> None:
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be a Rules, such as Rules.preset('pagat'), "
                                f"not {rules!r}")
        self.rules = rules
        self.players = check_players(players)
        self.names = _check_names(names, self.players)
        self._given_names = None if names is None else self.names
        self.seed = seed
        self.keep_hands = keep_hands
        self._rng = random.Random(seed)
        self.past = Tally.zero(self.players)  # the hands no longer in games (keep_hands=False)
        self.games: list[Game] = []
        if _first is None:
            dealer = self._rng.randrange(self.players)
            _first = Game.deal(rules, self.players, self._rng.getrandbits(64), dealer=dealer,
                               names=self._given_names)
        self.games.append(_first)

    @classmethod
    def resume(cls, rules: Rules, game: Game, *, past: Tally | None = None,
               rng_state: Any = None, keep_hands: bool = False) -> Session:
        """A session whose current hand is ``game``, after finished hands tallied as ``past``
        (none: the first), its sequence where :meth:`rng_state` found it (None: a fresh,
        unseeded one)."""
        session = cls(rules, game.players, names=game.names, keep_hands=keep_hands, _first=game)
        if past is not None:
            if len(past.totals) != game.players or len(past.first_places) != game.players:
                raise ArgumentError(f"the tallies are for {len(past.totals)} players, "
                                    f"the hand for {game.players}")
            session.past = past
        if rng_state is not None:
            session._rng.setstate(rng_state)
        return session

    def rng_state(self) -> Any:
        """The state of the session's sequence (``random.Random.getstate()``), for
        :meth:`resume`."""
        return self._rng.getstate()

    @property
    def game(self) -> Game:
        """The current hand."""
        return self.games[-1]

    @property
    def dealer(self) -> int:
        """The seat that dealt the current hand."""
        return self.game.dealer

    @property
    def number(self) -> int:
        """The current hand's number (1 for the first)."""
        return self.past.hands + len(self.games)

    def next_seed(self) -> int:
        """The number the session's sequence deals the next hand from (nothing changes)."""
        peek = random.Random()
        peek.setstate(self._rng.getstate())
        return peek.getrandbits(64)

    def deal_next(self, seed: int | None = None) -> Game:
        """The hand :meth:`next_hand` would deal (from ``seed``, else from :meth:`next_seed`);
        nothing changes until :meth:`add_hand` adds it."""
        if not self.game.is_over:
            raise IllegalPlay("the current hand is not over yet")
        dealer, leader, exchange = next_deal(self.rules, self.game)
        return Game.deal(self.rules, self.players, self.next_seed() if seed is None else seed,
                         dealer=dealer, leader=leader, first_hand=False,
                         names=self._given_names, exchange=exchange)

    def rename(self, seat: int, name: str) -> None:
        """Call the player at ``seat`` ``name`` from the next hand dealt on (another player
        took the seat between two hands); the hands dealt already keep the names they had, and
        :meth:`record` names each seat as it is called now."""
        seat = check_seat(seat, self.players, "seat")
        names = list(self.names)
        names[seat] = name
        self.names = _check_names(names, self.players)
        self._given_names = self.names

    def add_hand(self, game: Game) -> Game:
        """Make ``game`` (from :meth:`deal_next`) the current hand; the sequence moves on one
        number, and without ``keep_hands`` the finished hand leaves :attr:`games`."""
        if not self.game.is_over:
            raise IllegalPlay("the current hand is not over yet")
        if game.players != self.players:
            raise ArgumentError(f"a hand of {game.players} players, in a session of {self.players}")
        self._rng.getrandbits(64)
        if not self.keep_hands:
            self.past = self.past.plus(self.games)
            self.games = []
        self.games.append(game)
        return game

    def next_hand(self, seed: int | None = None) -> Game:
        """Deal the next hand (the current one must be over) and return it; ``seed``: deal it
        from this number instead of the next of the session's sequence."""
        return self.add_hand(self.deal_next(seed))

    def tally(self) -> Tally:
        """Every hand's tallies so far, the current one's included (it scores once it is over)."""
        return self.past.plus(self.games)

    @property
    def totals(self) -> list[int]:
        """Units per seat over the finished hands."""
        return self.tally().totals

    @property
    def first_places(self) -> list[int]:
        """Hands won per seat."""
        return self.tally().first_places

    @property
    def result(self) -> list[int]:
        """The session result per seat: units, or first places (``session_result``)."""
        return self.first_places if self.rules.session_result == "first_places" else self.totals

    def record(self) -> str:
        """Every hand so far as one TOML record."""
        return session_record(self.rules, self.names, self.games)

    @classmethod
    def from_record(cls, text: str) -> Session:
        """Replay a session record, checking every hand and action."""
        loaded = load_hands(text, Game)
        session = cls(loaded.rules, len(loaded.names), seed=loaded.seed, names=loaded.names,
                      _first=loaded.games[0])
        session.games = loaded.games
        return session
