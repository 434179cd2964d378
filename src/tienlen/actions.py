"""Actions other than plays (instant-win claims, trading) and the parsing of any action text.

Text forms, as in records (``"SEAT TEXT"``, the seat first):

- ``claim dragon`` / ``decline``: answer to an optional instant win (§7);
- ``offer 2 5s 6d``: offer seat 2 these cards for as many of theirs (mutual trading, §9);
- ``answer 0 9h Tc``: accept seat 0's offer, naming the cards given back;
- ``accept 2`` / ``refuse 2``: take or turn down the trade now on the table with seat 2;
- ``done``: make no more trade offers this hand;
- ``give 0 2h 2s``: a president exchange gift (made automatically);
- ``return 3 4c 5d``: the cards a president-exchange receiver sends back to seat 3.

The kinds of action (:data:`ActionKind`) and the phases of a hand (:data:`Phase`) are
``Literal`` types of their texts, so the values stay plain strings (in records, JSON and
text) and mypy checks every comparison with them; :data:`ACTION_KINDS` and :data:`PHASES`
list them in order. A view's history shows other seats' trades as :class:`Hidden` actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeGuard, get_args, overload

from .cards import Card, cards_text, parse_cards, split_card_text
from .errors import CardError, error
from .rules import INSTANT_WINS
from .shapes import Play, ShapeRules

ActionKind = Literal["claim", "decline", "offer", "answer", "accept", "refuse", "done", "give",
                     "return"]
ACTION_KINDS: Final[tuple[ActionKind, ...]] = get_args(ActionKind)
# answers to an instant-win call (§7)
CLAIM_KINDS: Final[frozenset[ActionKind]] = frozenset(("claim", "decline"))
# mutual trading (§9) and the president's exchange: actions that move cards between hands
TRADE_KINDS: Final[frozenset[ActionKind]] = frozenset(
    ("offer", "answer", "accept", "refuse", "done", "give", "return"))
# the actions that carry cards, which a seat outside them sees only as a count
CARD_KINDS: Final[frozenset[ActionKind]] = frozenset(("offer", "answer", "give", "return"))
_WITH_SEAT: Final[frozenset[ActionKind]] = frozenset(
    ("offer", "answer", "accept", "refuse", "give", "return"))

# the phases of a hand, in their order (the president's exchange is the "return" phase)
Phase = Literal["claim", "trade", "return", "play", "over"]
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)


def is_action_kind(word: str) -> TypeGuard[ActionKind]:
    """Whether ``word`` is the first word of an action that is not a play."""
    return word in ACTION_KINDS


@dataclass(frozen=True, slots=True)
class Action:
    """A decision that is not a play: see the module text for the forms."""

    kind: ActionKind
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
        kind = words[0].lower() if words else ""
        if not is_action_kind(kind):
            raise error(CardError, "err.action.kind", text=repr(text), kinds=", ".join(ACTION_KINDS))
        rest = words[1:]
        other: int | None = None
        win: str | None = None
        if kind == "claim":
            if len(rest) != 1 or rest[0] not in INSTANT_WINS:
                raise error(CardError, "err.action.claim", text=repr(text),
                            wins=", ".join(INSTANT_WINS))
            win = rest[0]
            rest = []
        if kind in _WITH_SEAT:
            if not rest or not rest[0].isdigit():
                raise error(CardError, "err.action.seat", text=repr(text), kind=repr(kind),
                            example=f"{kind} 2")
            other = int(rest[0])
            rest = rest[1:]
        cards: tuple[Card, ...] = ()
        if kind in CARD_KINDS:
            if not rest:
                raise error(CardError, "err.action.cards", text=repr(text), kind=repr(kind),
                            example=f"{kind} 5s 6d")
            cards = tuple(sorted(parse_cards(" ".join(rest))))
        elif rest:
            raise error(CardError, "err.action.extra", text=repr(text), rest=repr(" ".join(rest)),
                        kind=repr(kind))
        return cls(kind, other, cards, win)

    def __str__(self) -> str:
        parts: list[str] = [self.kind]
        if self.win is not None:
            parts.append(self.win)
        if self.other is not None:
            parts.append(str(self.other))
        if self.cards:
            parts.append(cards_text(self.cards))
        return " ".join(parts)

    def hidden(self) -> str:
        """The text a seat outside the trade sees: the cards replaced by their number."""
        return str(self.concealed())

    def concealed(self) -> Hidden:
        """The action as a seat outside it sees it: an answer to an instant-win call without
        its kind, a trade or exchange with its cards replaced by their number."""
        if self.kind in CLAIM_KINDS:
            return Hidden(None)
        return Hidden(self.kind, self.other, len(self.cards))


@dataclass(frozen=True, slots=True)
class Hidden:
    """Another seat's action as this seat sees it in a view's history, without what it may
    not see: an answer to an instant-win call (``kind`` None: whether it claimed or declined
    is hidden until everyone has answered), or a trade or exchange between other seats with
    only the number of cards (``count``). ``str`` gives the history's text:
    ``answered``, ``offer 2 (2 cards)``."""

    kind: ActionKind | None
    other: int | None = None
    count: int = 0

    def __str__(self) -> str:
        if self.kind is None:
            return "answered"
        parts: list[str] = [self.kind]
        if self.other is not None:
            parts.append(str(self.other))
        if self.count:
            parts.append(f"({self.count} card{'s' if self.count != 1 else ''})")
        return " ".join(parts)


Move = Play | Action


def parse_move(text: str, rules: ShapeRules | None = None) -> Move:
    """Read any action text: a play (``"5s 5h"``), ``pass``, or a phase action."""
    if not isinstance(text, str):
        raise error(CardError, "err.action.not_text", text=repr(text))
    words = split_card_text(text)
    if words and words[0].lower() in ACTION_KINDS:
        return Action.parse(text)
    return Play.parse(text, rules)


class TradeOffers(Sequence[Move]):
    """The offers of a mutual-trading turn, plus ``done``: a lazy sequence.

    A 13-card hand can offer any of its 8,191 card sets to each other seat, so the
    list has tens of thousands of entries. This sequence has them all (``len``,
    iteration, indexing and ``in`` work as on a list) but builds none until asked:
    ``in`` is answered directly, iteration and slices build only what they reach.
    :meth:`tienlen.Game.trade_decision` gives the same choice as a small structure
    (partners, cards, sizes) for a person or a program to fill in.
    """

    def __init__(self, partners: tuple[int, ...], hand: tuple[Card, ...]) -> None:
        self.partners = partners
        self.hand = hand
        self._sets = _count_sets(hand)
        self._built: list[Move] = []
        self._iter: Iterator[Move] | None = None

    def _generate(self) -> Iterator[Move]:
        from itertools import combinations

        for other in self.partners:
            for size in range(1, len(self.hand) + 1):
                for cards in dict.fromkeys(combinations(self.hand, size)):
                    yield Action("offer", other, cards)
        yield Action("done")

    def _build_to(self, index: int) -> None:
        if self._iter is None:
            self._iter = self._generate()
        while len(self._built) <= index:
            try:
                self._built.append(next(self._iter))
            except StopIteration:
                break

    def __len__(self) -> int:
        return len(self.partners) * self._sets + 1

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if stop > start:
                self._build_to(stop - 1)
            return self._built[start:stop:step]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("trade offer index out of range")
        if index == len(self) - 1:
            return Action("done")
        self._build_to(index)
        return self._built[index]

    def __iter__(self) -> Iterator[Move]:
        i = 0
        while i < len(self):
            self._build_to(i)
            yield self._built[i]
            i += 1

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Action):
            return False
        if move.kind == "done":
            return True
        if move.kind != "offer" or move.other not in self.partners or not move.cards:
            return False
        left = list(self.hand)
        for card in move.cards:
            if card not in left:
                return False
            left.remove(card)
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, TradeOffers)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<TradeOffers: {len(self)} actions to seats {list(self.partners)}>"


def _count_sets(hand: Sequence[Card]) -> int:
    """How many distinct non-empty sub-multisets the cards have."""
    from collections import Counter

    total = 1
    for count in Counter(hand).values():
        total *= count + 1
    return total - 1


@dataclass(frozen=True, slots=True)
class TradeDecision:
    """A mutual-trading decision as a small structure (instead of listing every action).

    ``kind``: ``offer`` (offer ``cards`` from ``hand`` to one of ``partners``, or ``done``),
    ``answer`` (answer ``other``'s offer with ``count`` of your cards, or ``refuse``),
    ``settle`` (``accept`` or ``refuse`` the answer of ``other``). ``make`` builds the action.
    """

    kind: Literal["offer", "answer", "settle"]
    hand: tuple[Card, ...]
    partners: tuple[int, ...] = ()
    other: int | None = None
    count: int | None = None
    offered: tuple[Card, ...] = ()  # in an answer: the cards offered to you

    def make(self, choice: ActionKind, other: int | None = None,
             cards: Sequence[Card | str] = ()) -> Action:
        """The action for a choice: ``make("offer", 2, ["5s", "6d"])``, ``make("done")``,
        ``make("answer", cards=[...])``, ``make("accept")``, ``make("refuse")``."""
        picked = tuple(sorted(parse_cards(cards))) if cards else ()
        if choice in ("answer", "accept", "refuse") and other is None:
            other = self.other
        return Action(choice, other, picked)
