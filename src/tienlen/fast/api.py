"""The fast path from Python: legal plays, playing them, out-of-turn and free chops, positions of a
:class:`~tienlen.game.Game` (imported on first use: importing it compiles, or loads from the
on-disk cache, the compiled code)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

import numpy as np

from . import engine
from .deal import deal_deck, deal_settings, dealt_in_play
from .encoding import Array, FastRules, Mask, fast_rules, state_of
from .layout import S_SIZE, S_TSEAT, S_TURN
from .movegen import workspace
from .plays import cached_plays, mask_of, plays_of

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import Rules
    from ..shapes import Play

class _Scratch(threading.local):
    """What the compiled kernels write into: a play buffer (grown when a hand has more plays
    than it holds), the move generator's workspace and a list of seats. One set per thread:
    the kernels release the GIL, so two threads searching at once (a hint in the terminal's
    worker while a bot searches) would otherwise write into the same arrays."""

    def __init__(self) -> None:
        self.buf: Array = np.zeros((1024, 3), dtype=np.int64)
        self.flat: Array = self.buf.reshape(-1)  # the same memory, one row after the other
        self.ws: Array = workspace()
        self.seats: Array = np.zeros(8, dtype=np.int64)
        self.aside: Array = np.zeros(2, dtype=np.int64)  # a deal's cards set aside


_SCRATCH = _Scratch()


def buffer() -> Array:
    """This thread's play buffer."""
    return _SCRATCH.buf


def move_workspace() -> Array:
    """This thread's workspace for the move generator's kernels."""
    return _SCRATCH.ws


def _grow(n: int) -> Array:
    size = _SCRATCH.buf.shape[0]
    while size < n:
        size *= 2
    _SCRATCH.buf = np.zeros((size, 3), dtype=np.int64)
    _SCRATCH.flat = _SCRATCH.buf.reshape(-1)
    return _SCRATCH.buf


def legal_masks(st: Array, fr: FastRules, seat: int | None = None) -> list[Mask]:
    """The legal plays of ``seat`` (default: the seat on turn) as (lo, hi, shape); for a seat
    not on turn its out-of-turn chops."""
    f = legal_flat(st, fr, seat)
    return list(zip(f[0::3], f[1::3], f[2::3], strict=True))


def legal_flat(st: Array, fr: FastRules, seat: int | None = None) -> list[int]:
    """The legal plays of ``seat`` (default: the seat on turn; for a seat not on turn its
    out-of-turn chops) as one flat list: lo, hi, shape of each play in turn."""
    turn = int(st[S_TURN])
    if seat is None:
        seat = turn
    buf = _SCRATCH.buf
    ws = _SCRATCH.ws
    while True:
        if seat == turn:
            n = engine.legal_in_turn(st, fr.cfg, fr.chops, buf, ws)
        else:
            n = engine.legal_out_of_turn(st, fr.cfg, fr.chops, seat, buf, ws)
        if n <= buf.shape[0]:
            flat: list[int] = _SCRATCH.flat[:3 * n].tolist()
            return flat
        buf = _grow(n)


def legal_plays(st: Array, fr: FastRules, seat: int | None = None) -> list[Play]:
    """:func:`legal_masks` as :class:`Play` objects."""
    return plays_of(legal_masks(st, fr, seat), fr.order)


def push(st: Array, fr: FastRules, play: Play | Mask, seat: int | None = None) -> None:
    """Make a legal play (a :class:`Play` or masks) for ``seat`` (default: on turn)."""
    if seat is None:
        seat = int(st[S_TURN])
    a, b, s = mask_of(play)
    engine.apply(st, fr.cfg, fr.chops, seat, a, b, s)


def out_of_turn_seats(st: Array, fr: FastRules) -> list[int]:
    """Seats offered a chop out of turn now (§6 out-of-turn chops, §11 free chops), in the
    order that gives them priority (``Game.out_of_turn_seats``)."""
    if st[S_TSEAT] < 0 or not fr.offers:
        return []
    m = engine.offer_seats(st, fr.cfg, fr.chops, _SCRATCH.seats, _SCRATCH.buf, _SCRATCH.ws)
    return [int(s) for s in _SCRATCH.seats[:m]]


class LegalPlays(Sequence["Play"]):
    """The legal plays of one decision, each made a :class:`Play` only when it is read (as
    python-chess's ``board.legal_moves``): a sequence -- ``len``, indexing, iteration, ``in``
    -- equal to the list of the same plays. A snapshot: later moves do not change it."""

    __slots__ = ("_flat", "_made", "_order")

    def __init__(self, flat: list[int], order: str) -> None:
        self._flat = flat  # lo, hi, shape of each play, one after the other
        self._order = order
        self._made = cached_plays(order)  # the plays already made, by masks

    def __len__(self) -> int:
        return len(self._flat) // 3

    @overload
    def __getitem__(self, index: int) -> Play: ...
    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...
    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal play index out of range")
        f = self._flat
        at = 3 * index
        mask = (f[at], f[at + 1], f[at + 2])
        play = self._made.get(mask)
        return play if play is not None else plays_of((mask,), self._order)[0]

    def __iter__(self) -> Iterator[Play]:
        f = self._flat
        return iter(plays_of(zip(f[0::3], f[1::3], f[2::3], strict=True), self._order))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, LegalPlays)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list: as unhashable

    def __repr__(self) -> str:
        return f"LegalPlays({list(self)!r})"


class FastGame:
    """A hand in play in the fast form, with the pure engine's play-phase reading methods.

    The legal plays of the seat on turn are listed in the same compiled call that makes the
    move before them, and made into :class:`Play` objects only when read
    (:class:`LegalPlays`): a caller stepping one hand at a time crosses into compiled code once
    a decision.

    >>> from tienlen import Game, Rules
    >>> fg = FastGame.of(Game.deal(Rules.preset("pagat"), 4, seed=1))
    >>> fg.turn == Game.deal(Rules.preset("pagat"), 4, seed=1).turn
    True
    """

    __slots__ = ("_flat", "_st", "_turn", "fr")

    def __init__(self, st: Array, rules: Rules | FastRules) -> None:
        self._st = st
        self.fr = rules if isinstance(rules, FastRules) else fast_rules(rules)
        self._flat: list[int] | None = None  # the legal plays on turn, while they are known
        self._turn: int | None = None  # the seat on turn (-1: over), while it is known

    @classmethod
    def of(cls, game: Game) -> FastGame:
        return cls(state_of(game), game.rules)

    @classmethod
    def deal(cls, rules: Rules, players: int = 4, seed: int | None = None) -> FastGame:
        """The hand :meth:`tienlen.Game.deal` deals (the same seed, the same cards, dealer
        and leader), dealt straight into the fast form; rules whose hands begin before the
        play (trading, optional instant wins) are dealt by ``Game`` and converted."""
        from ..game import Game

        if not dealt_in_play(rules):
            return cls.of(Game.deal(rules, players, seed))
        from ..cards import CODE_TO_KEY
        from ..dealing import check_players
        from ..seats import packs_for

        n = check_players(players)
        rng = random.Random(seed)
        dealer = rng.randrange(n)  # as tienlen.dealing.deal_hands draws them
        packs = packs_for(n)
        codes = [c for c in range(52) for _ in range(packs)]
        rng.shuffle(codes)
        to_key = CODE_TO_KEY[rules.suit_order]
        deck = np.array([to_key[c] for c in codes], dtype=np.int64)
        st = np.zeros(S_SIZE, dtype=np.int64)
        if not deal_deck(st, _settings(rules, n), deck, len(codes), dealer, _SCRATCH.aside):
            return cls.of(Game.deal(rules, players, seed))  # won at once: the game says how
        return cls(st, rules)

    @property
    def st(self) -> Array:
        """The state array (read or written by the caller: the legal plays known are let go)."""
        self._flat = self._turn = None
        return self._st

    @property
    def turn(self) -> int | None:
        t = self._turn
        if t is None:
            t = self._turn = int(self._st[S_TURN])
        return None if t < 0 else t

    def legal_plays(self, seat: int | None = None) -> Sequence[Play]:
        """The legal plays of ``seat`` (default: the seat on turn; out of turn, its chops)."""
        st = self._st
        if seat is None or seat == self.turn:  # the turn known since the last move
            flat = self._flat
            if flat is None:
                flat = self._flat = legal_flat(st, self.fr)
            return LegalPlays(flat, self.fr.order)
        return LegalPlays(legal_flat(st, self.fr, seat), self.fr.order)

    def push(self, play: Play | Mask, seat: int | None = None) -> None:
        """Make a legal play (unchecked, as ``Game.push``) for ``seat`` (default: on turn)."""
        st = self._st
        if seat is None:
            seat = self.turn
            if seat is None:
                raise ValueError("the hand is over: no more plays")
        a, b, s = mask_of(play)
        scratch = _SCRATCH
        buf = scratch.buf
        fr = self.fr
        told = engine.apply_and_list(st, fr.cfg, fr.chops, seat, a, b, s, buf, scratch.ws)
        self._turn = (told & 15) - 1
        n = told >> 4
        if n > buf.shape[0]:
            self._flat = legal_flat(st, fr)  # a bigger buffer, the move made once
        else:
            self._flat = scratch.flat[:3 * n].tolist()

    def out_of_turn_seats(self) -> list[int]:
        return out_of_turn_seats(self._st, self.fr)

    def copy(self) -> FastGame:
        other = FastGame(self._st.copy(), self.fr)
        other._flat, other._turn = self._flat, self._turn  # lists never changed in place
        return other

    def to_game(self, template: Game) -> Game:
        from .encoding import game_of

        return game_of(self._st, template)


_SETTINGS: dict[tuple[Rules, int], Array] = {}


def _settings(rules: Rules, players: int) -> Array:
    found = _SETTINGS.get((rules, players))
    if found is None:
        if len(_SETTINGS) > 256:
            _SETTINGS.clear()
        found = _SETTINGS[rules, players] = deal_settings(rules, players)
    return found
