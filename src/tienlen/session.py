"""Session: hands in a row, with the dealer, the leader and the president exchange by the rules."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .errors import ArgumentError, IllegalPlay
from .game import Exchange, Game, _check_names, check_players
from .rules import Rules


def next_deal(rules: Rules, prev: Game) -> tuple[int, int | None, list[Exchange]]:
    """Dealer, leader (None: the holder of the lowest card) and exchange for the hand after ``prev``."""
    n = prev.players
    finish = prev.finish_order
    if prev.instant_win is not None:
        dealer = (prev.instant_win[0] + 1) % n
    elif rules.next_dealer == "loser":
        dealer = finish[-1]
    else:
        dealer = (prev.dealer + 1) % n
    leader: int | None
    if rules.next_leader == "winner":
        leader = finish[0]
    elif rules.next_leader == "loser":
        leader = finish[-1]
    else:
        leader = None
    exchange: list[Exchange] = []
    if rules.trading == "president":
        exchange.append((finish[-1], finish[0], 2))
        if n >= 4:
            exchange.append((finish[-2], finish[1], 1))
    return dealer, leader, exchange


class Session:
    """Hands in a row.

    >>> from tienlen import Rules, Session
    >>> s = Session(Rules.preset("pagat"), players=4, seed=1)
    >>> s.game.is_over
    False
    """

    def __init__(self, rules: Rules, players: int = 4, seed: int | None = None, *,
                 names: Sequence[str] | None = None, _first: Game | None = None) -> None:
        if not isinstance(rules, Rules):
            raise ArgumentError(f"rules must be a Rules, such as Rules.preset('pagat'), "
                                f"not {rules!r}")
        self.rules = rules
        self.players = check_players(players)
        self.names = _check_names(names, self.players)
        self._given_names = None if names is None else self.names
        self.seed = seed
        self._rng = random.Random(seed)
        self.games: list[Game] = []
        if _first is None:
            dealer = self._rng.randrange(self.players)
            _first = Game.deal(rules, self.players, self._rng.getrandbits(64), dealer=dealer,
                               names=self._given_names)
        self.games.append(_first)

    @property
    def game(self) -> Game:
        """The current hand."""
        return self.games[-1]

    @property
    def dealer(self) -> int:
        """The seat that dealt the current hand."""
        return self.game.dealer

    def next_hand(self) -> Game:
        """Deal the next hand (the current one must be over) and return it."""
        if not self.game.is_over:
            raise IllegalPlay("the current hand is not over yet")
        dealer, leader, exchange = next_deal(self.rules, self.game)
        game = Game.deal(self.rules, self.players, self._rng.getrandbits(64), dealer=dealer,
                         leader=leader, first_hand=False, names=self._given_names,
                         exchange=exchange)
        self.games.append(game)
        return game

    @property
    def totals(self) -> list[int]:
        """Units per seat over the finished hands."""
        totals = [0] * self.players
        for game in self.games:
            for seat, units in enumerate(game.scores):
                totals[seat] += units
        return totals

    @property
    def first_places(self) -> list[int]:
        """Hands won per seat."""
        wins = [0] * self.players
        for game in self.games:
            if game.is_over and game.winner is not None:
                wins[game.winner] += 1
        return wins

    @property
    def result(self) -> list[int]:
        """The session result per seat: units, or first places (``session_result``)."""
        return self.first_places if self.rules.session_result == "first_places" else self.totals

    def record(self) -> str:
        """Every hand so far as one TOML record."""
        from .record import session_record

        return session_record(self)

    @classmethod
    def from_record(cls, text: str) -> Session:
        """Replay a session record, checking every hand and action."""
        from .record import load_session

        return load_session(text)
