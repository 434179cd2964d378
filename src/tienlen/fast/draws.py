"""The environments' counter-based draws in compiled code: the twin of :mod:`tienlen.rl.draws`
(the same numbers for the same key, hand and index; ``tests/test_rl_vector.py`` holds them
equal). Keys travel in ``int64`` arrays as their bit pattern."""

from __future__ import annotations

import numpy as np

from ._jit import kernel

SEAT_INDEX = 120  # the learner's seat (the indices of tienlen.rl.draws)
PICK_INDEX = 256  # the first choice of a random opponent
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STEP = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@kernel
def mix64(x: np.uint64) -> np.uint64:
    x = (x ^ (x >> _S30)) * _M1
    x = (x ^ (x >> _S27)) * _M2
    return x ^ (x >> _S31)


@kernel
def draw(key: int, hand: int, index: int) -> np.uint64:
    """:func:`tienlen.rl.draws.draw`: ``key`` is the bit pattern of the 64-bit key."""
    return mix64(np.uint64(key) + np.uint64(hand) * _GOLDEN + np.uint64(index) * _STEP)


@kernel
def below(key: int, hand: int, index: int, n: int) -> int:
    """:func:`tienlen.rl.draws.below`."""
    return np.int64(draw(key, hand, index) % np.uint64(n))  # type: ignore[return-value]


@kernel
def shuffle_into(deck: np.ndarray, key: int, hand: int, packs: int) -> int:
    """:func:`tienlen.rl.draws.shuffled` into ``deck``; the number of cards."""
    m = 52 * packs
    for j in range(m):
        deck[j] = j // packs
    for j in range(m - 1, 0, -1):
        r = below(key, hand, j, j + 1)
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t
    return m
