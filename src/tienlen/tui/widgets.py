"""The terminal game's widgets: cards, the hand, the table, the players and scoreboard."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..cards import SUIT_SYMBOLS, SUITS, Card

# keys that pick a card: every letter the game's own keys (h n p q r s) leave free
CARD_LETTERS = "abcdefgijklmotuvwxyz"
MAX_CARDS = 26
RED = frozenset("dh")
TWO_COLOURS = {"s": "black", "c": "black", "d": "red3", "h": "red3"}
# the four-colour deck, as the web's (style.css): diamonds blue, clubs green
FOUR_COLOURS = {"s": "black", "h": "red3", "d": "blue3", "c": "green4"}
_CARD_WORD = re.compile(r"^([('\"]*)((?:10|[3-9TJQKA2])[scdh])([.,:;!?)'\"]*)$")


def card_face(card: Card, narrow: bool = False) -> str:
    """``10♥``, ``K♠``: the rank (10 for T, unless ``narrow``) and the suit symbol."""
    rank = "10" if card.rank_char == "T" and not narrow else card.rank_char
    return rank + SUIT_SYMBOLS[SUITS[card.suit]]


def card_style(card: Card, background: str = "white", four: bool = False) -> str:
    """A card's colours: red and black, or with ``four`` the four-colour deck's."""
    colour = (FOUR_COLOURS if four else TWO_COLOURS)[card.suit_char]
    return f"bold {colour} on {background}"


def cards_text(cards: Iterable[Card], background: str = "white", width: int = 3,
               four: bool = False) -> Text:
    """Cards side by side with coloured suits, each face right-aligned to ``width``."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card_face(card).rjust(width), style=card_style(card, background, four))
    return text


def move_text(text: str, style: str = "", four: bool = False) -> Text:
    """Text with its card words shown as cards (``9c Td`` -> coloured ``9♣ 10♦``)."""
    out = Text(style=style)
    for i, word in enumerate(text.split(" ")):
        if i:
            out.append(" ")
        match = _CARD_WORD.match(word)
        if match is None:
            out.append(word)
        else:
            card = Card.parse(match.group(2))
            out.append(match.group(1))
            out.append(card_face(card), style=card_style(card, four=four))
            out.append(match.group(3))
    return out


def symbols(text: str) -> str:
    """Text with its card words written with the screen's symbols (``9c Td`` -> ``9♣ 10♦``),
    without colours: for places that take plain text."""
    return move_text(text).plain


HAND_ROWS = 5  # the hand's panel: its border, a row to raise a card, the card, its letter
BIG_HAND_ROWS = 7  # with each card in a box of three rows (a large window)
BIG_HAND_CARD = 6  # the columns of a boxed card in the hand, and the gap after it
BIG_HAND_HEIGHT = 40  # the least window height that draws the hand's cards in boxes


class CardView(Static):
    """One card of the hand: raised when selected, its letter underneath."""

    class Clicked(Message):
        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int) -> None:
        super().__init__(id=f"card-{position}", classes="card")
        self.position = position

    def show(self, card: Card, letter: str, selected: bool, cursor: bool, shade: bool,
             narrow: bool = False, four: bool = False, big: bool = False) -> None:
        """The card raised a row when ``selected``, its letter below (reversed at the cursor);
        ``big``: drawn in a box of three rows, as the felt's large cards (a large window)."""
        background = "grey70" if shade else "white"
        face = Text(f"{card_face(card, narrow):>3}", style=card_style(card, background, four))
        if big:
            edge = "grey70" if shade else "white"
            middle = Text("│", style=edge).append_text(face).append("│", style=edge)
            card_rows = [Text("╭───╮", style=edge), middle, Text("╰───╯", style=edge)]
            blank = Text("     ")
            mark = Text(f"  {letter}  ", style="reverse bold" if cursor else "dim")
        else:
            card_rows = [face]
            blank = Text("   ")
            mark = Text(f" {letter} ", style="reverse bold" if cursor else "dim")
        lines = [*card_rows, blank] if selected else [blank, *card_rows]
        self.update(Text("\n").join([*lines, mark]))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.position))


class HandView(Horizontal):
    """The human's hand: up to MAX_CARDS card widgets, those beyond the hand hidden."""

    def compose(self) -> Iterable[Widget]:
        for i in range(MAX_CARDS):
            yield CardView(i)

    def show(self, cards: Sequence[Card], selected: set[int], cursor: int,
             groups: Sequence[int], letters: Sequence[str] | None = None,
             four: bool = False, big: bool = False) -> None:
        """``cards`` in display order; ``selected`` and ``cursor`` are display positions;
        ``letters``: the letter that picks each card (default a, b, c, … in order); a new
        group (``groups``) starts after a gap where the row has room for the gaps. ``big``
        (a large window): each card in a box (:data:`BIG_HAND_CARD` columns), where the row
        holds them all."""
        room = self.content_size.width or 76
        big = big and len(cards) * BIG_HAND_CARD <= room + 1
        self.styles.height = BIG_HAND_ROWS if big else HAND_ROWS
        narrow = not big and len(cards) * 4 > room + 1  # the last card needs no space after it
        starts = [i for i in range(1, len(cards)) if groups[i] != groups[i - 1]]
        width = BIG_HAND_CARD if big else 3 if narrow else 4
        gaps = len(cards) * width - (0 if narrow else 1) + 2 * len(starts) <= room
        shade = False
        for i, view in enumerate(self.query(CardView)):
            if i < len(cards):
                if i in starts:
                    shade = not shade
                if letters is not None:
                    letter = letters[i]
                else:
                    letter = CARD_LETTERS[i] if i < len(CARD_LETTERS) else " "
                view.show(cards[i], letter, i in selected, i == cursor, shade, narrow, four, big)
                view.styles.width = width
                view.styles.height = 5 if big else 3
                view.styles.margin = (0, 0, 0, 2 if gaps and i in starts else 0)
                view.display = True
            else:
                view.display = False


class InfoPanel(Static):
    """A panel of text lines, each cut to the panel's width."""

    DEFAULT_CSS = "InfoPanel { text-wrap: nowrap; text-overflow: ellipsis; }"

    def show(self, lines: Sequence[Text | str]) -> None:
        text = Text("\n", no_wrap=True, overflow="ellipsis").join(
            Text(x) if isinstance(x, str) else x for x in lines)
        text.no_wrap = True
        text.overflow = "ellipsis"
        self.update(text)


class FeltPanel(InfoPanel):
    """The felt: ``draw(width, height)`` at the panel's own size, drawn again whenever that
    size changes (the hand's panel takes more rows in a tall window once it is laid out). It is
    green, as a card table is; the cards on it are white (``tui.felt``)."""

    DEFAULT_CSS = "FeltPanel { background: #0f3d27; border-title-color: #9fd3b0; }"

    def __init__(self, draw: Callable[[int, int], list[Text]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._draw = draw
        self.drawn_at: tuple[int, int] | None = None  # the size it was last drawn at

    def redraw(self) -> None:
        size = (self.content_size.width or 44, self.content_size.height or 11)
        self.show(self._draw(*size))
        self.drawn_at = size

    @property
    def settled(self) -> bool:
        """Whether it was last drawn at its own size (its resize since then is handled), or is
        not shown (no room: a window too small)."""
        width, height = self.content_size.width, self.content_size.height
        return not (width and height) or self.drawn_at == (width, height)

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()
