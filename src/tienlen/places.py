"""Places (§8, §11): who takes which place as players go out, are cóng, or go out on twos.

Places fill from the top as players go out and from the bottom for players placed by
``cong`` or ``no_two_last``; the last player holding cards takes the place left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .payments import is_twos

if TYPE_CHECKING:
    from .rules import Rules


def takes_bottom_place(rules: Rules, keys: Sequence[int]) -> bool:
    """§11 ``no_two_last``: going out on a play of twos takes the lowest free place."""
    return rules.no_two_last and is_twos(keys)


def cong_seats(after_winner: Sequence[int], out: Sequence[bool],
               played_any: Sequence[bool]) -> list[int]:
    """§11 cóng: when the first place is taken, every player still in who has put down no
    card (passes do not count), in turn order after the winner: the first takes the higher
    of the places left at the bottom."""
    return [s for s in after_winner if not out[s] and not played_any[s]]


def order(top: Sequence[int], bottom: Sequence[int]) -> list[int]:
    """Seats by place: the places taken from the top, then those taken from the bottom
    (``bottom`` lists them lowest first)."""
    return [*top, *reversed(bottom)]
