"""A table's hands, one after another: a :class:`~tienlen.session.Session` that keeps only the
tallies of finished hands, each hand dealt from the server's secret randomness (or a practice
table's fixed seed); and what is the web's own: the seeds as the log's text, where each round
begins, and the snapshot stored beside the log."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from ... import Game, Move, Play, Rules
from ...session import Session, Tally
from .snapshot import Snapshot, rng_from, rng_state


class Hands:
    """The hands of a started table: the current one in memory, the finished ones as tallies.
    Its seeds are the text of the log's ``start`` and ``next`` entries: secret numbers drawn by
    the server, or at a practice table the numbers its fixed seed gives, drawn as
    ``Session(rules, players, seed)`` draws them, so that Session deals the same hands (an older
    log's entries have no text: its table's stored seed deals as that Session would)."""

    def __init__(self, rules: Rules, names: Sequence[str], start: str, table_seed: int,
                 fixed: bool) -> None:
        seed = int(start) if start else table_seed
        self.session = Session(rules, len(names), seed, names=names, keep_hands=False)
        self.round_starts: list[int] = []
        self._drawn = fixed or not start  # the session's sequence deals (the fixed seed's)

    @staticmethod
    def first_seed(table_seed: int, fixed: bool) -> str:
        """The text of a new ``start`` entry: the fixed seed, or a secret one."""
        return str(table_seed if fixed else secrets.randbits(63))

    @classmethod
    def from_snapshot(cls, rules: Rules, snap: Snapshot) -> Hands:
        hands = cls.__new__(cls)
        past = Tally(snap.hands_before, list(snap.totals), list(snap.first_places))
        hands.session = Session.resume(rules, snap.hand(rules), past=past, rng_state=(
            rng_from(snap.rng) if snap.rng is not None else None))
        hands.round_starts = list(snap.round_starts)
        hands._drawn = snap.rng is not None
        return hands

    @property
    def rules(self) -> Rules:
        return self.session.rules

    @property
    def game(self) -> Game:
        """The current hand."""
        return self.session.game

    @property
    def past(self) -> Tally:
        """The finished hands no longer held in memory: how many, and their tallies."""
        return self.session.past

    @property
    def number(self) -> int:
        """The current hand's number (1 for the first)."""
        return self.session.number

    def tallies(self) -> Tally:
        """Every hand's tallies so far, the current one's included once it is over."""
        return self.session.tally()

    # ------------------------------------------------------------------ dealing
    def next_seed(self) -> str:
        """The text of the next ``next`` entry (nothing changes yet)."""
        return str(self.session.next_seed() if self._drawn else secrets.randbits(64))

    def deal_next(self, text: str) -> Game:
        """The hand after the current (finished) one, dealt from ``text`` (nothing changes)."""
        return self.session.deal_next(int(text) if text else None)

    def install(self, game: Game) -> None:
        """Make ``game`` (from :meth:`deal_next`) the current hand; the finished hands leave
        memory, their tallies stay."""
        self.session.add_hand(game)
        self.round_starts = []

    # ------------------------------------------------------------------ moves
    def push(self, move: Move, seat: int, check: bool = False, after: Game | None = None) -> None:
        """Make a move on the current hand (``check``: verify it first; ``after``: the hand it
        leads to, made already on a copy, which becomes the current one), noting where a round
        begins: the first play (a pass only if nobody has played since) on an empty table."""
        game = self.game
        table = game.table
        if isinstance(move, Play) and game.phase == "play" and (table is None or not table.keys):
            rounds = self.round_starts
            opened = rounds and all(isinstance(m, Play) and not m.keys
                                    for _, m in game.history[rounds[-1]:])
            if not opened:
                rounds.append(len(game.history))
        if after is not None:  # the same hand, now in the state its trial reached
            game.state = after.state
        elif check:
            game.play(move, seat=seat)
        else:
            game.push(move, seat)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self, hand: Game | None = None) -> str:
        """The state as stored beside the log; with ``hand``, as once :meth:`install` made it
        the current hand."""
        session = self.session
        if hand is None:
            past, rounds, hand = session.past, list(self.round_starts), session.game
            state = session.rng_state()
        else:
            ahead = Session.resume(session.rules, session.game, past=session.past,
                                   rng_state=session.rng_state())
            ahead.add_hand(hand)
            past, rounds, state = ahead.past, [], ahead.rng_state()
        return Snapshot(hand.record(), past.hands, list(past.totals), list(past.first_places),
                        rounds, rng_state(state) if self._drawn else None).dumps()
