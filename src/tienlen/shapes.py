"""Plays: what a set of cards is (its shape), canonical text, and what beats what.

A :class:`Play` holds its cards as *keys* (see :mod:`tienlen.cards`) sorted low
to high under the suit order it was made with. The engine builds plays with
the fast internal constructor; people and programs write ``Play("9c Td Jh")`` (as the repr
does) or :meth:`Play.parse`, which also judges the play under a set of rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol, overload

from .cards import CODE_TO_KEY, KEY_TEXT, KEY_TO_CODE, TWO, Card, parse_cards
from .errors import CardError, error

SHAPES: Final = ("single", "pair", "triple", "quad", "run", "chain", "triple_chain", "quad_chain")
SET_SHAPES: Final = ("single", "pair", "triple", "quad")
SHAPE_WORDS: Final = {
    "single": "a single card", "pair": "a pair", "triple": "a triple", "quad": "a four of a kind",
    "run": "a run", "chain": "a chain of pairs", "triple_chain": "a chain of triples",
    "quad_chain": "a chain of fours of a kind",
}
# (cards per rank, fewest ranks) of each sequence shape
SEQUENCES: Final = {"run": (1, 3), "chain": (2, 3), "triple_chain": (3, 3), "quad_chain": (4, 2)}


class ShapeRules(Protocol):
    """The options that decide which card sets are combinations (a :class:`Rules` has them)."""

    @property
    def suit_order(self) -> str: ...
    @property
    def twos_in_runs(self) -> bool: ...
    @property
    def twos_in_chains(self) -> bool: ...
    @property
    def triple_chains(self) -> bool: ...
    @property
    def quad_chains(self) -> bool: ...


def classify(
    keys: tuple[int, ...] | list[int],
    twos_in_runs: bool = True,
    twos_in_chains: bool = True,
    triple_chains: bool = True,
    quad_chains: bool = True,
) -> str | None:
    """The shape of sorted keys, or None when they form no combination under these options."""
    n = len(keys)
    if n == 0:
        return "pass"
    lo = keys[0] >> 2
    hi = keys[-1] >> 2
    if lo == hi:
        return SET_SHAPES[n - 1] if n <= 4 else None
    if hi - lo == n - 1:  # possibly a run: one card of each rank
        for i in range(1, n):
            if keys[i] >> 2 != lo + i:
                return None
        if n < 3 or (hi == TWO and not twos_in_runs):
            return None
        return "run"
    for width, name, fewest, allowed in (
        (2, "chain", 3, True), (3, "triple_chain", 3, triple_chains), (4, "quad_chain", 2, quad_chains),
    ):
        if n % width or hi - lo != n // width - 1:
            continue
        for i in range(n):
            if keys[i] >> 2 != lo + i // width:
                return None
        if n // width < fewest or not allowed or (hi == TWO and not twos_in_chains):
            return None
        return name
    return None


def classify_under(keys: tuple[int, ...] | list[int], rules: ShapeRules | None) -> str | None:
    if rules is None:
        return classify(keys)
    shape = classify(keys, rules.twos_in_runs, rules.twos_in_chains, rules.triple_chains,
                     rules.quad_chains)
    if shape is not None and getattr(rules, "follow_suit", False) and \
            not suited(keys, shape, rules.suit_order):
        return None
    return shape


# ---------------------------------------------------------------------- follow_suit (§11)
def _suit(key: int, order: str) -> int:
    return KEY_TO_CODE[order][key] & 3  # 0 spades, 1 clubs, 2 diamonds, 3 hearts


def _colour(key: int, order: str) -> int:
    return (KEY_TO_CODE[order][key] & 3) >> 1  # 0 black, 1 red


def _all_twos(keys: tuple[int, ...] | list[int]) -> bool:
    return all(k >> 2 == TWO for k in keys)


def suited(keys: tuple[int, ...] | list[int], shape: str, order: str) -> bool:
    """Whether a combination keeps suit as ``follow_suit`` asks: a pair of one colour, a run
    of one suit, a chain of one colour; plays made only of twos are exempt."""
    if shape not in ("pair", "run", "chain") or _all_twos(keys):
        return True
    if shape == "run":
        return len({_suit(k, order) for k in keys}) == 1
    return len({_colour(k, order) for k in keys}) == 1


def keeps_suit(play: tuple[int, ...], table: tuple[int, ...], shape: str, order: str) -> bool:
    """Whether a beat of the same shape keeps the table's suits (``follow_suit``): a single the
    same suit, a pair or chain the same colour, a triple the same three suits, a run the same
    suit. A play made only of twos beats any lower play of its shape."""
    if _all_twos(play):
        return True
    if shape in ("single", "run"):
        return _suit(play[0], order) == _suit(table[0], order)
    if shape in ("pair", "chain"):
        return _colour(play[0], order) == _colour(table[0], order)
    if shape == "triple":
        return sorted(_suit(k, order) for k in play) == sorted(_suit(k, order) for k in table)
    return True


_TEXT: Final = object()  # Play's second argument when it was given none: read the first as text


class Play:
    """A play: some cards put down together, or a pass.

    ``Play(text)`` reads a play as :meth:`parse` does without rules, so the repr is a call
    that makes the play again:

    >>> p = Play("Jh 9c 10d")
    >>> p, p.shape
    (Play('9c Td Jh'), 'run')
    >>> Play.parse("pass").shape
    'pass'
    >>> Play.parse("3s 5d").shape is None
    True
    """

    __slots__ = ("keys", "order", "shape")
    keys: tuple[int, ...]
    order: str
    shape: str | None

    @overload
    def __init__(self, keys: str) -> None: ...
    @overload
    def __init__(self, keys: tuple[int, ...], shape: str | None, order: str = "standard") -> None: ...

    def __init__(self, keys: tuple[int, ...] | str, shape: object = _TEXT,
                 order: str = "standard") -> None:
        # the engine's constructor: keys already sorted and shape already known (one identity
        # test more than plain assignments: plays are made in the move generator's loop)
        if shape is _TEXT:  # Play("9c Td Jh")
            read = Play.parse(keys)  # type: ignore[arg-type]
            keys, shape, order = read.keys, read.shape, read.order
        self.keys = keys  # type: ignore[assignment]
        self.shape = shape  # type: ignore[assignment]
        self.order = order

    @classmethod
    def parse(cls, text: str, rules: ShapeRules | None = None) -> Play:
        """Read a play (``"9c Td Jh"``, ``"10♥ J♥"``, ``"pass"``).

        With ``rules`` the shape is judged under those rules' options (twos in runs
        and chains, chains of triples and quads, suits under ``follow_suit``) and the
        canonical order uses their suit order. **Without rules the play is not judged
        against any preset**: its shape is only its structure, with every shape allowed
        (``J Q K A 2`` is a run even though most presets forbid it) in the standard suit
        order. Pass the rules (or use ``rules.play(text)``) to judge a play for a game;
        ``Game.play`` always judges under its own rules.
        """
        if not isinstance(text, str):
            raise error(CardError, "err.play.not_text", text=repr(text))
        if text.strip().lower() == "pass":
            return PASS
        if not text.strip():
            raise error(CardError, "err.play.empty")
        return cls.from_cards(parse_cards(text), rules)

    @classmethod
    def from_cards(cls, cards: Iterable[Card | str], rules: ShapeRules | None = None) -> Play:
        """The play of these cards (an empty list is a pass)."""
        order = rules.suit_order if rules is not None else "standard"
        table = CODE_TO_KEY[order]
        keys = tuple(sorted(table[c.code] for c in parse_cards(cards)))
        if not keys:
            return PASS
        return cls(keys, classify_under(keys, rules), order)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, low to high in the play's suit order."""
        back = KEY_TO_CODE[self.order]
        return tuple(Card(back[k]) for k in self.keys)

    @property
    def is_pass(self) -> bool:
        return not self.keys

    @property
    def top(self) -> Card | None:
        """The highest card, which decides what the play beats."""
        return Card(KEY_TO_CODE[self.order][self.keys[-1]]) if self.keys else None

    @property
    def length(self) -> int:
        """How many ranks a sequence spans (pairs in a chain, cards in a run); 1 for sets."""
        if self.shape in SEQUENCES:
            return len(self.keys) // SEQUENCES[self.shape][0]
        return 1

    def __len__(self) -> int:
        return len(self.keys)

    def _codes(self) -> tuple[int, ...]:
        if self.order == "standard":
            return self.keys
        back = KEY_TO_CODE[self.order]
        return tuple(sorted(back[k] for k in self.keys))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        if self.order == other.order:
            return self.keys == other.keys
        return self._codes() == other._codes()

    def __hash__(self) -> int:
        return hash(self._codes())

    def __str__(self) -> str:
        if not self.keys:
            return "pass"
        text = KEY_TEXT[self.order]
        return " ".join([text[k] for k in self.keys])

    def __repr__(self) -> str:
        return f"Play({str(self)!r})"

    def describe(self) -> str:
        """The play in a few words, for messages: ``'a pair of twos'``."""
        if not self.keys:
            return "a pass"
        if self.shape is None:
            return f"{self} (no combination)"
        top_rank = self.keys[-1] >> 2
        if self.shape in SET_SHAPES:
            if top_rank == TWO:
                return {"single": "a two", "pair": "a pair of twos", "triple": "three twos",
                        "quad": "four twos"}[self.shape]
            return f"{SHAPE_WORDS[self.shape]} ({self})"
        width = SEQUENCES[self.shape][0]
        unit = ("cards", "pairs", "triples", "fours of a kind")[width - 1]
        noun = "run" if self.shape == "run" else "chain"
        return f"a {noun} of {self.length} {unit} ({self})"


PASS: Final = Play((), "pass")


def higher(a: tuple[int, ...], b: tuple[int, ...], ties: str) -> bool:
    """Whether keys ``a`` rank above keys ``b`` of the same shape, under ``double_deck_ties``."""
    ta = a[-1]
    tb = b[-1]
    if ta != tb:
        return ta > tb
    if ties == "later_wins":
        return True
    if ties == "next_distinct":  # the first differing card from the top decides
        m = min(len(a), len(b))
        return a[::-1][:m] > b[::-1][:m]
    return False
