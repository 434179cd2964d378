"""What the compiled heuristic reads of a play: precious, boss, the groups left after it."""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .layout import (
    C_CHAIN_TOP,
    C_FOLLOW_SUIT,
    C_RED,
    C_RUN_TOP,
    CHAIN,
    PAIR,
    QUAD,
    QUAD_CHAIN,
    SINGLE,
    TRIPLE,
    TRIPLE_CHAIN,
)
from .movegen import low_key, size_of, top_key
from .split import groups_of, packed_counts
from .suits import SUIT_MASK, red_mask

TWO = 12


@kernel
def precious(a: int, b: int, shape: int) -> bool:
    """Twos and bombs (``heuristic._precious``)."""
    if top_key(a) >> 2 == TWO:
        return True
    return shape == QUAD or (shape == CHAIN and size_of(a, b) >= 6) or shape == TRIPLE_CHAIN or \
        shape == QUAD_CHAIN


@kernel
def is_boss(a: int, b: int, shape: int, unseen: np.ndarray, unseen_top: int) -> bool:
    """Whether no unseen cards could beat the play (``heuristic._is_boss``)."""
    top = top_key(a)
    if shape == SINGLE:
        return unseen_top < top
    size = size_of(a, b)
    if shape == PAIR or shape == TRIPLE or shape == QUAD:
        for r in range((top >> 2) + 1, 13):
            if unseen[r] >= size:
                return False
        return True
    return False


@kernel
def suited_boss(a: int, unseen_keys: int) -> bool:
    """``follow_suit``: no unseen card of the single's suit, nor a two, is higher."""
    top = top_key(a)
    if top >> 2 == TWO:
        return False  # not this test's: the plain one decides
    higher = unseen_keys & ~((1 << (top + 1)) - 1)
    return (higher & (SUIT_MASK[top & 3] | (15 << (4 * TWO)))) == 0


@kernel
def minus(packed: int, a: int, b: int) -> int:
    """Packed rank counts less the cards of a play."""
    x = a
    while x:
        k = low_key(x)
        packed -= 1 << (4 * (k >> 2))
        x &= x - 1
    x = b
    while x:
        k = low_key(x)
        packed -= 1 << (4 * (k >> 2))
        x &= x - 1
    return packed


@kernel
def colour_counts(lo: int, hi: int, red: int) -> tuple:
    """The packed rank counts of the black cards and of the red cards."""
    rm = red_mask(red)
    return packed_counts(lo & ~rm, hi & ~rm), packed_counts(lo & rm, hi & rm)


@jit
def after(counts: int, black: int, red: int, a: int, b: int, cfg: np.ndarray,
          memo: dict) -> int:
    """How many groups the hand splits into once play (a, b) is made: on rank counts, or under
    ``follow_suit`` each colour on its own, without runs (``heuristic._colour_plan``)."""
    if not cfg[C_FOLLOW_SUIT]:
        return groups_of(minus(counts, a, b), cfg[C_RUN_TOP], cfg[C_CHAIN_TOP], memo)
    rm = red_mask(cfg[C_RED])
    chain_top = cfg[C_CHAIN_TOP]
    return groups_of(minus(black, a & ~rm, b & ~rm), -1, chain_top, memo) + \
        groups_of(minus(red, a & rm, b & rm), -1, chain_top, memo)
