"""A table's hands, one after another: each dealt from the server's secret randomness (or a
practice table's fixed seed), the tallies of the finished ones, and where each round begins."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .. import Game, Move, Play, Rules
from ..errors import IllegalPlay
from ..session import next_deal
from .snapshot import Snapshot, rng_from, rng_state


@dataclass
class Past:
    """The finished hands no longer held in memory: how many, and their tallies."""

    hands: int
    totals: list[int]
    first_places: list[int]

    def plus(self, games: Sequence[Game]) -> Past:
        """These tallies with ``games`` (finished or not: an unfinished one scores nothing) added."""
        totals, firsts = list(self.totals), list(self.first_places)
        for game in games:
            totals = [a + b for a, b in zip(totals, game.scores, strict=True)]
            if game.is_over and game.winner is not None:
                firsts[game.winner] += 1
        return Past(self.hands + len(games), totals, firsts)


class Hands:
    """The hands of a started table: the current one in memory, the finished ones as tallies.
    Its seeds are the text of the log's ``start`` and ``next`` entries: secret numbers drawn by
    the server, or at a practice table the numbers its fixed seed gives, drawn as
    ``Session(rules, players, seed)`` draws them, so that Session deals the same hands (an older
    log's entries have no text: its table's stored seed deals as that Session would)."""

    def __init__(self, rules: Rules, names: Sequence[str], start: str, table_seed: int,
                 fixed: bool) -> None:
        seed = int(start) if start else table_seed
        rng = random.Random(seed)
        dealer = rng.randrange(len(names))  # as Session draws: the first dealer, then each deal
        self.rules = rules
        self.game = Game.deal(rules, len(names), rng.getrandbits(64), dealer=dealer, names=names)
        self.past = Past(0, [0] * len(names), [0] * len(names))
        self.round_starts: list[int] = []
        self._rng = rng if fixed or not start else None  # the fixed seed's generator

    @staticmethod
    def first_seed(table_seed: int, fixed: bool) -> str:
        """The text of a new ``start`` entry: the fixed seed, or a secret one."""
        return str(table_seed if fixed else secrets.randbits(63))

    @classmethod
    def from_snapshot(cls, rules: Rules, snap: Snapshot) -> Hands:
        hands = cls.__new__(cls)
        hands.rules = rules
        hands.game = snap.hand(rules)
        hands.past = Past(snap.hands_before, list(snap.totals), list(snap.first_places))
        hands.round_starts = list(snap.round_starts)
        hands._rng = rng_from(snap.rng) if snap.rng is not None else None
        return hands

    @property
    def number(self) -> int:
        """The current hand's number (1 for the first)."""
        return self.past.hands + 1

    def tallies(self) -> Past:
        """Every hand's tallies so far, the current one's included once it is over."""
        return self.past.plus([self.game])

    # ------------------------------------------------------------------ dealing
    def next_seed(self) -> str:
        """The text of the next ``next`` entry (nothing changes yet)."""
        if self._rng is None:
            return str(secrets.randbits(64))
        peek = random.Random()
        peek.setstate(self._rng.getstate())
        return str(peek.getrandbits(64))

    def deal_next(self, text: str) -> Game:
        """The hand after the current (finished) one, dealt from ``text`` (nothing changes)."""
        prev = self.game
        if not prev.is_over:
            raise IllegalPlay("the hand is not over yet")
        dealer, leader, exchange = next_deal(self.rules, prev)
        seed = int(text) if text else int(self.next_seed())
        return Game.deal(self.rules, prev.players, seed, dealer=dealer, leader=leader,
                         first_hand=False, names=prev.names, exchange=exchange)

    def install(self, game: Game) -> None:
        """Make ``game`` (from :meth:`deal_next`) the current hand; the finished hands leave
        memory, their tallies stay."""
        if self._rng is not None:
            self._rng.getrandbits(64)
        self.past = self.past.plus([self.game])
        self.game = game
        self.round_starts = []

    # ------------------------------------------------------------------ moves
    def push(self, move: Move, seat: int, check: bool = False) -> None:
        """Make a move on the current hand (``check``: verify it first), noting where a round
        begins: the first play (a pass only if nobody has played since) on an empty table."""
        game = self.game
        table = game.table
        if isinstance(move, Play) and game.phase == "play" and (table is None or not table.keys):
            rounds = self.round_starts
            opened = rounds and all(isinstance(m, Play) and not m.keys
                                    for _, m in game.history[rounds[-1]:])
            if not opened:
                rounds.append(len(game.history))
        if check:
            game.play(move, seat=seat)
        else:
            game.push(move, seat)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self, hand: Game | None = None) -> str:
        """The state as stored beside the log; with ``hand``, as once :meth:`install` made it
        the current hand."""
        if hand is None:
            return Snapshot(self.game.record(), self.past.hands, list(self.past.totals),
                            list(self.past.first_places), list(self.round_starts),
                            rng_state(self._rng) if self._rng is not None else None).dumps()
        past = self.tallies()
        rng: random.Random | None = None
        if self._rng is not None:
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            rng.getrandbits(64)
        return Snapshot(hand.record(), past.hands, past.totals, past.first_places, [],
                        rng_state(rng) if rng is not None else None).dumps()
