"""Actions other than plays (instant-win claims, trading) and the parsing of any action text.

Text forms, as in records (``"SEAT TEXT"``, the seat first):

- ``claim dragon`` / ``decline``: answer to an optional instant win (§7);
- ``offer 2 5s 6d``: offer seat 2 these cards for as many of theirs (mutual trading, §9);
- ``answer 0 9h Tc``: accept seat 0's offer, naming the cards given back;
- ``accept 2`` / ``refuse 2``: take or turn down the trade now on the table with seat 2;
- ``done``: make no more trade offers this hand;
- ``give 0 2h 2s``: a president exchange gift (made automatically);
- ``return 3 4c 5d``: the cards a president-exchange receiver sends back to seat 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .cards import Card, cards_text, parse_cards, split_card_text
from .errors import CardError
from .rules import INSTANT_WINS
from .shapes import Play, ShapeRules

if TYPE_CHECKING:
    from collections.abc import Sequence

ACTION_KINDS: Final = ("claim", "decline", "offer", "answer", "accept", "refuse", "done", "give",
                       "return")
_WITH_SEAT: Final = ("offer", "answer", "accept", "refuse", "give", "return")
_WITH_CARDS: Final = ("offer", "answer", "give", "return")


@dataclass(frozen=True, slots=True)
class Action:
    """A decision that is not a play: see the module text for the forms."""

    kind: str
    other: int | None = None  # the other seat in a trade or exchange
    cards: tuple[Card, ...] = ()
    win: str | None = None  # the instant win claimed

    @property
    def shape(self) -> None:
        """Actions have no shape (so code that reads ``move.shape`` works on any move)."""
        return None

    @property
    def is_pass(self) -> bool:
        return False

    @classmethod
    def parse(cls, text: str) -> Action:
        words = text.split()
        if not words or words[0].lower() not in ACTION_KINDS:
            raise CardError(f"{text!r} is not an action: actions begin with one of "
                            f"{', '.join(ACTION_KINDS)}")
        kind = words[0].lower()
        rest = words[1:]
        other: int | None = None
        win: str | None = None
        if kind == "claim":
            if len(rest) != 1 or rest[0] not in INSTANT_WINS:
                raise CardError(f"{text!r}: write 'claim' and one of {', '.join(INSTANT_WINS)}")
            win = rest[0]
            rest = []
        if kind in _WITH_SEAT:
            if not rest or not rest[0].isdigit():
                raise CardError(f"{text!r}: {kind!r} needs the other seat's number, "
                                f"such as '{kind} 2'")
            other = int(rest[0])
            rest = rest[1:]
        cards: tuple[Card, ...] = ()
        if kind in _WITH_CARDS:
            if not rest:
                raise CardError(f"{text!r}: {kind!r} needs the cards, such as '{kind} 5s 6d'")
            cards = tuple(sorted(parse_cards(" ".join(rest))))
        elif rest:
            raise CardError(f"{text!r}: unexpected {' '.join(rest)!r} after {kind!r}")
        return cls(kind, other, cards, win)

    def __str__(self) -> str:
        parts = [self.kind]
        if self.win is not None:
            parts.append(self.win)
        if self.other is not None:
            parts.append(str(self.other))
        if self.cards:
            parts.append(cards_text(self.cards))
        return " ".join(parts)

    def hidden(self) -> str:
        """The text a seat outside the trade sees: the cards replaced by their number."""
        if self.kind == "claim" or self.kind == "decline":
            return "answered"
        parts = [self.kind]
        if self.other is not None:
            parts.append(str(self.other))
        if self.cards:
            parts.append(f"({len(self.cards)} card{'s' if len(self.cards) != 1 else ''})")
        return " ".join(parts)


Move = Play | Action


def parse_move(text: str, rules: ShapeRules | None = None) -> Move:
    """Read any action text: a play (``"5s 5h"``), ``pass``, or a phase action."""
    if not isinstance(text, str):
        raise CardError(f"an action is text such as '5s 5h', 'pass' or 'done', not {text!r}")
    words = split_card_text(text)
    if words and words[0].lower() in ACTION_KINDS:
        return Action.parse(text)
    return Play.parse(text, rules)


def moves_text(moves: Sequence[Move]) -> list[str]:
    return [str(m) for m in moves]
