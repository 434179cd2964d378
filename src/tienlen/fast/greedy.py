"""The compiled greedy choice (``bots/simple.py``): the cheapest beat, the lowest lead."""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .layout import PASS, S_TSHAPE
from .movegen import low_key, size_of, top_key
from .ranking import best_by_key


@jit
def greedy_choice(st: np.ndarray, buf: np.ndarray, n: int) -> int:
    """The cheapest beat (of the table's shape when there is one), the lowest lead; a pass
    only with nothing else."""
    table = st[S_TSHAPE]
    any_same = False
    if table != PASS:
        for i in range(n):
            if buf[i, 2] == table:
                any_same = True
                break
    keys = np.empty((n, 4), dtype=np.int64)
    for i in range(n):
        a = buf[i, 0]
        shape = buf[i, 2]
        keys[i, 0] = shape != PASS and not (table != PASS and any_same and shape != table)
        size = size_of(a, buf[i, 1])
        if table == PASS:
            keys[i, 1] = low_key(a)
            keys[i, 2] = -size
            keys[i, 3] = top_key(a)
        else:
            keys[i, 1] = top_key(a)
            keys[i, 2] = size
            keys[i, 3] = 0
    best = best_by_key(keys, n, 3, buf, True)
    if best < 0:
        for i in range(n):
            if buf[i, 2] == PASS:
                return i
        return 0
    return best
