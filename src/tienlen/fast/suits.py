"""Compiled ``follow_suit`` (§11): combinations of one suit or colour, beats that keep the suits
(``shapes.suited`` and ``shapes.keeps_suit`` on masks)."""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .layout import CHAIN, PAIR, RUN, SINGLE, TRIPLE
from .movegen import low_key, top_key

TWO = 12
# the keys of each suit strength, over the 13 ranks
SUIT_MASK = np.array([sum(1 << (4 * r + s) for r in range(13)) for s in range(4)], dtype=np.int64)


@kernel
def red_mask(red: int) -> int:
    """The keys whose suit is red, from the red suit strengths (a 4-bit mask)."""
    m = 0
    for s in range(4):
        if (red >> s) & 1:
            m |= SUIT_MASK[s]
    return m


@kernel
def all_twos(a: int) -> bool:
    return low_key(a) >> 2 == TWO


@kernel
def suited(a: int, shape: int, red: int) -> bool:
    """A pair of one colour, a run of one suit, a chain of one colour; twos are exempt."""
    if (shape != PAIR and shape != RUN and shape != CHAIN) or all_twos(a):
        return True
    if shape == RUN:
        return (a & ~int(SUIT_MASK[low_key(a) & 3])) == 0
    r = a & red_mask(red)
    return r == 0 or r == a


@kernel
def keeps_suit(a: int, b: int, ta: int, tb: int, shape: int, red: int) -> bool:
    """Whether a beat of the table's shape keeps its suits: a single or run the same suit, a
    pair or chain the same colour, a triple the same suits; a play of twos beats any."""
    if all_twos(a):
        return True
    if shape == SINGLE or shape == RUN:
        return (low_key(a) & 3) == (low_key(ta) & 3)
    if shape == PAIR or shape == CHAIN:
        return ((red >> (low_key(a) & 3)) & 1) == ((red >> (low_key(ta) & 3)) & 1)
    if shape == TRIPLE:
        ra = 4 * (top_key(a) >> 2)
        rt = 4 * (top_key(ta) >> 2)
        return ((a >> ra) & 15) == ((ta >> rt) & 15) and ((b >> ra) & 15) == ((tb >> rt) & 15)
    return True


@kernel
def keep_suited(buf: np.ndarray, start: int, n: int, red: int, beat: bool, ta: int, tb: int,
                tshape: int) -> int:
    """Drop from ``buf[start:n]`` the plays that are not suited (and with ``beat``, that do not
    keep the table's suits); the new count."""
    if n > buf.shape[0]:
        return n  # not all written: the caller grows the buffer and asks again
    m = start
    for i in range(start, n):
        a = buf[i, 0]
        shape = buf[i, 2]
        if not suited(a, shape, red):
            continue
        if beat and not keeps_suit(a, buf[i, 1], ta, tb, tshape, red):
            continue
        buf[m, 0] = a
        buf[m, 1] = buf[i, 1]
        buf[m, 2] = shape
        m += 1
    return m
