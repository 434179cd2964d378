"""Cards: ranks, suits, parsing and printing, and the integer keys the engine computes with.

A card's *code* is ``rank * 4 + suit`` with the suits in standard order
(spades, clubs, diamonds, hearts), so integer order is card order under the
standard suit order. Under another suit order the engine works with *keys*:
``rank * 4 + strength``, where strength is the suit's place in that order.
Both are ints from 0 (3 of the lowest suit) to 51 (2 of the highest suit).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from .errors import CardError, error

RANKS: Final = "3456789TJQKA2"
SUITS: Final = "scdh"
SUIT_SYMBOLS: Final = {"s": "♠", "c": "♣", "d": "♦", "h": "♥"}
TWO: Final = 12  # rank index of the two, the highest rank
ACE: Final = 11

SUIT_ORDERS: Final = ("standard", "alphabetical")
# strength of each standard suit index (s, c, d, h) under each suit order
_STRENGTH: Final = {"standard": (0, 1, 2, 3), "alphabetical": (3, 0, 1, 2)}

_SYMBOL_TO_SUIT: Final = {"♠": "s", "♣": "c", "♦": "d", "♥": "h", "♤": "s", "♧": "c", "♢": "d", "♡": "h"}
_CARD_RE: Final = re.compile(r"^(10|[2-9TJQKA])([SCDH])$")


class Card:
    """One playing card; immutable, interned (``Card.parse("Th") is Card.parse("10♥")``-style).

    >>> Card.parse("10♥")
    Card('Th')
    >>> Card("Th") is Card.parse("10♥")
    True
    >>> str(Card.parse("qs"))
    'Qs'
    """

    __slots__ = ("code", "rank", "suit")
    code: int
    rank: int
    suit: int

    def __new__(cls, code: int | str) -> Card:
        if not isinstance(code, int) or not 0 <= code < 52:
            if isinstance(code, str):  # Card("Th"), as the repr writes it
                return cls.parse(code)
            raise error(CardError, "err.card.code", code=repr(code))
        return _CARDS[code] if _CARDS else super().__new__(cls)

    @classmethod
    def _make(cls, code: int) -> Card:
        card = super().__new__(cls)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "rank", code >> 2)
        object.__setattr__(card, "suit", code & 3)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.code,))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: rank then suit, ``10`` for ``T``, any case, suit letters or symbols."""
        if not isinstance(text, str):
            raise error(CardError, "err.card.not_text", text=repr(text))
        raw = text.strip()
        norm = "".join(_SYMBOL_TO_SUIT.get(ch, ch) for ch in raw).upper()
        m = _CARD_RE.match(norm)
        if m is None:
            raise _bad_card(raw)
        rank_text = "T" if m.group(1) == "10" else m.group(1)
        return _CARDS[RANKS.index(rank_text) * 4 + SUITS.index(m.group(2).lower())]

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def key(self, suit_order: str = "standard") -> int:
        """The card's place in card order under ``suit_order`` (0 lowest, 51 highest)."""
        return self.rank * 4 + _STRENGTH[suit_order][self.suit]

    def __str__(self) -> str:
        return _TEXT[self.code]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self.code]!r})"

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code < other.code

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code <= other.code

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code > other.code

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code >= other.code


def _bad_card(raw: str) -> CardError:
    """The error for a card that cannot be read, naming the part that is wrong."""
    if not raw:
        return error(CardError, "err.card.empty")
    norm = "".join(_SYMBOL_TO_SUIT.get(ch, ch) for ch in raw).upper()
    if norm in RANKS or norm == "10":
        return error(CardError, "err.card.no_suit", text=repr(raw))
    rank_part, suit_part = norm[:-1], norm[-1:]
    # name the bad part as it was written (upper() may change the length of odd characters)
    shown = raw if len(raw) == len(norm) else norm
    if rank_part not in RANKS and rank_part != "10":
        return error(CardError, "err.card.bad_rank", text=repr(raw), rank=repr(shown[:-1] or raw))
    if suit_part.lower() not in SUITS:
        return error(CardError, "err.card.bad_suit", text=repr(raw), suit=repr(shown[-1:]))
    return error(CardError, "err.card.bad", text=repr(raw))


_TEXT: Final = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(52))
_CARDS: list[Card] = []
_CARDS.extend(Card._make(c) for c in range(52))
ALL_CARDS: Final = tuple(_CARDS)

# key <-> code tables for each suit order
CODE_TO_KEY: Final = {
    order: tuple((c >> 2) * 4 + _STRENGTH[order][c & 3] for c in range(52)) for order in SUIT_ORDERS
}
def _inverse(table: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * 52
    for code, key in enumerate(table):
        out[key] = code
    return tuple(out)


KEY_TO_CODE: Final = {order: _inverse(CODE_TO_KEY[order]) for order in SUIT_ORDERS}
KEY_TEXT: Final = {order: tuple(_TEXT[KEY_TO_CODE[order][k]] for k in range(52)) for order in SUIT_ORDERS}


def split_card_text(text: str) -> list[str]:
    """Split a list of cards written with spaces or commas into the separate card words."""
    return [w for w in re.split(r"[\s,]+", text.strip()) if w]


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read cards from text (``"3s 4h 10♥"``) or from an iterable of cards or card texts."""
    if isinstance(text, str):
        return [Card.parse(w) for w in split_card_text(text)]
    out: list[Card] = []
    for item in text:
        out.append(item if isinstance(item, Card) else Card.parse(item))
    return out


def full_deck(packs: int = 1) -> list[Card]:
    """Every card of ``packs`` standard 52-card packs, lowest first."""
    return [card for card in ALL_CARDS for _ in range(packs)]


def cards_text(cards: Iterable[Card], suit_order: str = "standard") -> str:
    """Cards in canonical text: low to high under ``suit_order``, separated by spaces."""
    keys = sorted(CODE_TO_KEY[suit_order][c.code] for c in cards)
    return " ".join(KEY_TEXT[suit_order][k] for k in keys)
