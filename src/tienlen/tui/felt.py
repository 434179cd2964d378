"""The table as the terminal draws it: the seats around the trick (each with its count, its
passed mark or place, its units and its last play of the round; who is waited for and whose
play is to beat), the trick in large cards in the middle, you at the bottom. A tall window
draws each other seat's hand as a fan of card backs.

>>> from tienlen import parse_cards
>>> seats = [FeltSeat("You", 2, "", 0, None, True, False),
...          FeltSeat("Bot 1", 3, "", 0, parse_cards("4s 4d"), False, True)]
>>> lines = felt_lines(seats, parse_cards("4s 4d"), "Bot 1 to beat", 30, 8)
>>> [line.plain.rstrip() for line in lines][:2]
['          ★Bot 1 ·3', '           +0 4♠ 4♦']
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from ..cards import Card
from .widgets import card_face, card_style

TURN_MARK = "▶"
LEAD_MARK = "★"
HUGE_CARD = 7  # the columns of a card in a large window (five rows: the rank, the suit, the rank)
BIG_CARD = 5  # the columns of a large card: ╭───╮ │10♥│ ╰───╯
FAN_STEP = 4  # the columns each card of a fan of large cards shows (the next one overlaps it)
TABLE_ROWS = 24  # the most rows the seats spread over: a taller window has blank felt around
BACKS_ROWS = 26  # a felt this tall draws the other seats' hands as fans of card backs
BACKS_TABLE_ROWS = 32  # the most rows a table with fans spreads over
CARD_EDGE = "grey50 on white"  # a card is white on the felt: its edge
BACK_STYLE = "grey85 on blue3"  # the pattern of a card's back
SEAT_ROWS = {False: 2, True: 5}  # the rows a seat takes, without and with its fan of backs


@dataclass(frozen=True)
class FeltSeat:
    """One seat as the felt shows it."""

    name: str
    count: int
    status: str  # "passed", the place of a player out, or ""
    units: int
    last: Sequence[Card] | None  # its last play of the round (empty: a pass), None: none yet
    turn: bool  # the game waits for this seat
    leads: bool  # its play is the one to beat


def slots(opponents: int) -> list[str]:
    """Where each opponent sits, in turn order after you: ``L`` (the left side, bottom up),
    ``T`` (the top, left to right), ``R`` (the right side, top down)."""
    sides = {1: "T", 2: "LR", 3: "LTR", 4: "LTTR", 5: "LTTTR", 6: "LLTTRR", 7: "LLTTTRR"}
    return list(sides.get(opponents, "LLTTTRR"))


class _Grid:
    """Rows of cells, each a character and its style."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells = [[(" ", "")] * width for _ in range(height)]

    def put(self, y: int, x: int, text: str, style: str = "") -> int:
        """Write ``text`` at (x, y), cut at the edge; returns the column after it."""
        if not 0 <= y < len(self.cells):
            return x
        row = self.cells[y]
        for ch in text:
            if 0 <= x < self.width:
                row[x] = (ch, style)
            x += 1
        return x

    def lines(self) -> list[Text]:
        out = []
        for row in self.cells:
            line = Text(no_wrap=True, overflow="crop")
            for ch, style in row:
                line.append(ch, style)
            out.append(line)
        return out


def _cards_width(cards: Sequence[Card]) -> int:
    """The columns :func:`_cards` takes for ``cards``."""
    return sum(max(2, len(card_face(c))) for c in cards) + len(cards) - 1 if cards else 0


def _cards(grid: _Grid, y: int, x: int, cards: Sequence[Card], four: bool) -> int:
    for i, card in enumerate(cards):
        if i:
            x += 1
        x = grid.put(y, x, card_face(card).rjust(3 if len(cards) == 1 else 2),
                     card_style(card, four=four))
    return x


def _seat(grid: _Grid, y: int, x: int, seat: FeltSeat, width: int, four: bool,
          passed_word: str, backs: bool = False) -> None:
    """A seat in two rows: the mark, the name and the count of cards; the units, then the
    place or passed mark, or the seat's last play of the round. ``backs``: its hand face down
    between the two (:data:`SEAT_ROWS` ``[True]`` rows in all)."""
    mark = TURN_MARK if seat.turn else LEAD_MARK if seat.leads else " "
    tail = f" ·{seat.count}"
    room = max(3, width - 1 - len(tail))
    name = seat.name if len(seat.name) <= room else seat.name[:room - 1] + "…"
    style = "bold yellow" if seat.turn else "bold" if seat.leads else ""
    at = grid.put(y, x, mark, "bold yellow")
    at = grid.put(y, at, name, style)
    grid.put(y, at, tail, "dim")
    units = f"{seat.units:+d} "
    cards = _cards_width(seat.last or ())
    if cards > width - 1 - len(units) and not seat.status:
        units = ""  # the play first: the units are in the results too
    if backs:
        _backs(grid, y + 1, x + 1, seat.count, width - 1, dim=bool(seat.status))
        y += SEAT_ROWS[True] - 2
    at = grid.put(y + 1, x + 1, units, "green" if seat.units > 0 else
                  "red" if seat.units < 0 else "dim")
    room = x + width - at
    if seat.status:
        grid.put(y + 1, at, seat.status[:room], "italic")
    elif seat.last is not None:
        if not seat.last:
            grid.put(y + 1, at, passed_word[:room], "dim")
        elif cards <= room:
            _cards(grid, y + 1, at, seat.last, four)
        else:  # the first and the last card, as a run or a row of pairs reads
            first, last = seat.last[0], seat.last[-1]
            at = grid.put(y + 1, at, card_face(first), card_style(first, four=four))
            at = grid.put(y + 1, at, "…", "dim")
            grid.put(y + 1, at, card_face(last), card_style(last, four=four))


def _backs(grid: _Grid, y: int, x: int, count: int, width: int, dim: bool) -> None:
    """A hand of ``count`` cards face down in three rows: each card's edge, the last one
    whole (at most ``width`` columns: fewer edges)."""
    if count <= 0:
        return
    edges = min(count - 1, max(0, width - BIG_CARD))
    edge = "grey50 on grey85" if dim else CARD_EDGE  # a seat out or passed: greyed
    grid.put(y, x, "╭" * edges + "╭───╮", edge)
    grid.put(y + 1, x, "│" * edges + "│", edge)
    grid.put(y + 1, x + edges + 1, "░░░", "grey50 on grey85" if dim else BACK_STYLE)
    grid.put(y + 1, x + edges + 4, "│", edge)
    grid.put(y + 2, x, "╰" * edges + "╰───╯", edge)


def _big_cards(grid: _Grid, y: int, x: int, cards: Sequence[Card], four: bool,
               step: int = BIG_CARD) -> None:
    """Large cards side by side (``step`` < :data:`BIG_CARD`: a fan, each overlapping the one
    before but for its face)."""
    for card in cards:
        style = card_style(card, four=four)
        grid.put(y, x, "╭───╮", CARD_EDGE)
        grid.put(y + 1, x, "│", CARD_EDGE)
        grid.put(y + 1, x + 1, card_face(card).rjust(3), style)
        grid.put(y + 1, x + 4, "│", CARD_EDGE)
        grid.put(y + 2, x, "╰───╯", CARD_EDGE)
        x += step


def _huge_cards(grid: _Grid, y: int, x: int, cards: Sequence[Card], four: bool) -> None:
    """Cards of five rows, for a large window: the rank at the top left and the bottom right,
    the suit in the middle."""
    for card in cards:
        style = card_style(card, four=four)
        face = card_face(card)
        rank, suit = face[:-1], face[-1]
        grid.put(y, x, "╭─────╮", CARD_EDGE)
        for row, text in enumerate((rank.ljust(5), suit.center(5), rank.rjust(5)), start=1):
            grid.put(y + row, x, "│", CARD_EDGE)
            grid.put(y + row, x + 1, text, style)
            grid.put(y + row, x + 6, "│", CARD_EDGE)
        grid.put(y + 4, x, "╰─────╯", CARD_EDGE)
        x += HUGE_CARD


def _rows_of(cards: Sequence[Card], width: int) -> list[list[Card]]:
    """``cards`` as small cards in rows of at most ``width`` columns (a card wider alone: a
    row of its own)."""
    rows: list[list[Card]] = [[]]
    for card in cards:
        if rows[-1] and _cards_width([*rows[-1], card]) > width:
            rows.append([])
        rows[-1].append(card)
    return rows


def trick_size(cards: Sequence[Card], width: int, height: int) -> tuple[str, int]:
    """How the trick is drawn in ``width`` x ``height`` cells, the largest form that fits:
    ``huge``, ``big`` (side by side), ``fan`` (large cards overlapping), ``big rows`` (large
    cards in rows), ``small`` (rows of small cards) or ``words`` (how many, the first and the
    last); and the rows it takes."""
    n = len(cards)
    if not n:
        return "none", 0
    if n * HUGE_CARD <= width and height >= 10:  # a large window (room above and below)
        return "huge", 5
    if n * BIG_CARD <= width and height >= 3:
        return "big", 3
    if FAN_STEP * (n - 1) + BIG_CARD <= width and height >= 3:
        return "fan", 3
    per_row = width // BIG_CARD
    if per_row >= 2 and 3 * -(-n // per_row) <= height:
        return "big rows", 3 * -(-n // per_row)
    rows = _rows_of(cards, width)
    if len(rows) <= height and all(_cards_width(row) <= width for row in rows):
        return "small", len(rows)
    return "words", 1


def _trick(grid: _Grid, y: int, x: int, width: int, cards: Sequence[Card], form: str,
           four: bool) -> None:
    """Draw the trick in ``form`` (:func:`trick_size`) from row ``y``, centred in the ``width``
    columns from ``x``: never past them."""
    n = len(cards)
    if form == "huge":
        _huge_cards(grid, y, x + (width - n * HUGE_CARD) // 2, cards, four)
    elif form == "big":
        _big_cards(grid, y, x + (width - n * BIG_CARD) // 2, cards, four)
    elif form == "fan":
        _big_cards(grid, y, x + (width - FAN_STEP * (n - 1) - BIG_CARD) // 2, cards, four,
                   step=FAN_STEP)
    elif form == "big rows":
        per_row = width // BIG_CARD
        lines = -(-n // per_row)
        per_row = -(-n // lines)  # the rows as even as they come
        for k in range(lines):
            row = cards[k * per_row:(k + 1) * per_row]
            _big_cards(grid, y + 3 * k, x + (width - len(row) * BIG_CARD) // 2, row, four)
    elif form == "small":
        for k, row in enumerate(_rows_of(cards, width)):
            _cards(grid, y + k, x + (width - _cards_width(row)) // 2, row, four)
    elif form == "words":
        first, last = cards[0], cards[-1]
        said = f"{n}× {card_face(first)}…{card_face(last)}"
        if len(said) > width:
            said = f"{n}×"
        grid.put(y, x + max(0, (width - len(said)) // 2), said[:width], "bold")


def felt_lines(seats: Sequence[FeltSeat], trick: Sequence[Card], caption: str, width: int,
               height: int, four: bool = False, passed_word: str = "pass",
               moment: bool = False) -> list[Text]:
    """The felt in ``width`` x ``height`` cells: seat 0 (you) at the bottom, the others
    around, the ``trick`` in the middle under its ``caption`` (large cards where they fit;
    ``moment``: the caption is news, a chop: in colour, on as many lines as it needs).
    A window taller than :data:`TABLE_ROWS` has the table in the middle of it, the seats
    around the trick rather than at the window's edges; from :data:`BACKS_ROWS` each other
    seat shows its hand face down, and the table spreads over :data:`BACKS_TABLE_ROWS`."""
    width, height = max(width, 20), max(height, 6)
    backs = height >= BACKS_ROWS
    table_rows = BACKS_TABLE_ROWS if backs else TABLE_ROWS
    if height > table_rows:
        above = (height - table_rows) // 2
        table = felt_lines(seats, trick, caption, width, table_rows, four, passed_word, moment)
        blank = [Text(" " * width) for _ in range(height)]
        return blank[:above] + table + blank[above + table_rows:]
    grid = _Grid(width, height)
    where = slots(len(seats) - 1)
    top = [i for i, s in zip(range(1, len(seats)), where, strict=False) if s == "T"]
    left = [i for i, s in zip(range(1, len(seats)), where, strict=False) if s == "L"]
    right = [i for i, s in zip(range(1, len(seats)), where, strict=False) if s == "R"]
    longest = max((len(s.name) + len(f" ·{s.count}") + 1 for s in seats[1:]), default=10)
    side = max(10, min(longest, width // 3), min(18, width // 3))  # your seat has the bottom
    seat_rows = SEAT_ROWS[backs]
    cell = width // max(1, len(top))
    for n, seat in enumerate(top):
        x = n * cell + max(0, (cell - side) // 2)
        _seat(grid, 0, x, seats[seat], min(cell, side + 4), four, passed_word, backs)
    band = range(seat_rows, height - 2)  # between the top seats and yours
    for stack, x in ((left[::-1], 0), (right, width - side)):
        spare = len(band) - seat_rows * len(stack)
        gap = 1 if spare >= len(stack) + 1 else 0
        y = band.start + max(0, (spare - gap * (len(stack) - 1)) // 2)
        for seat in stack:
            if y + seat_rows - 1 < band.stop + 1:
                _seat(grid, y, x, seats[seat], side, four, passed_word, backs)
            y += seat_rows + gap
    you = seats[0]
    mine = min(width, max(side + 4, len(you.name) + len(f" ·{you.count}") + 1))
    _seat(grid, height - 2, (width - mine) // 2, you, mine, four, passed_word)
    # the middle: the caption, then the trick, between the side seats
    inner_x = side if left else 0
    inner_w = width - (side if left else 0) - (side if right else 0)
    rows = range(seat_rows, height - 2)
    words = textwrap.wrap(caption, max(inner_w, 8)) or [""]
    form, tall = trick_size(trick, inner_w, len(rows) - min(2, len(words)))
    room = max(1, len(rows) - tall) if moment else 2
    if len(words) > room:  # cut, and said so
        words = words[:room]
        words[-1] = words[-1][:max(0, inner_w - 1)].rstrip() + "…"
    block = len(words) + tall
    y = rows.start + max(0, (len(rows) - block) // 2)
    for line in words:
        grid.put(y, inner_x + max(0, (inner_w - len(line)) // 2), line[:inner_w],
                 "bold yellow" if moment else "bold")
        y += 1
    _trick(grid, y, inner_x, inner_w, trick, form, four)
    return grid.lines()
