"""The best candidate by sort key, ties to the first in the pure engine's order of plays."""

from __future__ import annotations

import numpy as np

from ._jit import kernel


@kernel
def lex_less(aa: int, ab: int, ba: int, bb: int) -> bool:
    """Whether the sorted keys of play a come before those of play b (as tuples)."""
    if ab == 0 and bb == 0:
        d = aa ^ ba
        return (aa & d & -d) != 0
    ka = -1
    kb = -1
    ca = 0
    cb = 0
    while True:
        if ca == 0:
            ka += 1
            while ka < 52 and not (aa >> ka) & 1:
                ka += 1
            ca = 1 + ((ab >> ka) & 1) if ka < 52 else 0
        if cb == 0:
            kb += 1
            while kb < 52 and not (ba >> kb) & 1:
                kb += 1
            cb = 1 + ((bb >> kb) & 1) if kb < 52 else 0
        if ka >= 52 or kb >= 52:
            return ka >= 52 and kb < 52
        if ka != kb:
            return ka < kb
        ca -= 1
        cb -= 1


@kernel
def before(buf: np.ndarray, i: int, j: int) -> bool:
    """Whether play i comes before play j in the pure engine's order (shapes in the order
    leads are listed, then the lower cards first): ties go to the first, as in ``min``."""
    if buf[i, 2] != buf[j, 2]:
        return buf[i, 2] < buf[j, 2]
    return lex_less(buf[i, 0], buf[i, 1], buf[j, 0], buf[j, 1])


@kernel
def best_by_key(keys: np.ndarray, n: int, width: int, buf: np.ndarray, lower: bool) -> int:
    """The play i < n with ``keys[i, 0]`` set (a candidate) whose sort key
    ``keys[i, 1:1 + width]`` is the lowest (the highest unless ``lower``), compared as a
    tuple, ties to the first in the pure engine's order (``min``/``max`` with a key over
    its list); -1 when there is no candidate."""
    best = -1
    for i in range(n):
        if keys[i, 0] == 0:
            continue
        if best < 0:
            best = i
            continue
        c = 0
        for k in range(1, width + 1):
            if keys[i, k] != keys[best, k]:
                c = -1 if keys[i, k] < keys[best, k] else 1
                break
        if c == 0:
            if before(buf, i, best):
                best = i
        elif (c < 0) == lower:
            best = i
    return best
