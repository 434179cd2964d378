"""Compiled hand planning (``bots/split.py``): the fewest combinations a hand splits into.

Rank counts are packed 4 bits a rank (two packs hold up to 8 of a rank). Each stretch of
held ranks splits on its own; its best split is memoised in a numba dictionary, keyed by
the packed counts and the two tops, whose value packs (groups, loose singles, first group
of the split) so that the whole plan can be read back from it.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import types  # type: ignore[import-untyped, unused-ignore]
from numba.typed import Dict  # type: ignore[import-untyped, unused-ignore]

from ._jit import jit
from .movegen import rank_count

MEMO_LIMIT = 500_000  # entries (about 40 bytes each)


def new_memo() -> Dict:
    return Dict.empty(key_type=types.int64, value_type=types.int64)


class _Memos(threading.local):
    memo: Dict | None = None


_MEMOS = _Memos()


def shared_memo() -> Dict:
    """The memo the heuristic's playouts share in this thread (renewed when too big): one a
    thread, since the compiled code writes to it without the GIL."""
    memo = _MEMOS.memo
    if memo is None or len(memo) > MEMO_LIMIT:
        memo = _MEMOS.memo = new_memo()
    return memo


@jit
def packed_counts(lo: int, hi: int) -> int:
    p = 0
    for r in range(13):
        p |= rank_count(lo, hi, r) << (4 * r)
    return p


@jit
def _key(packed: int, run_top: int, chain_top: int) -> int:
    """The memo key: the counts, and each top as 0 (ace), 1 (two) or 2 (none: -1)."""
    rt = 2 if run_top < 0 else run_top - 11
    ct = 2 if chain_top < 0 else chain_top - 11
    return packed | (rt << 52) | (ct << 54)


@jit
def stretch(packed: int, run_top: int, chain_top: int, memo: Dict) -> int:
    """The best split of one stretch: ``groups << 40 | singles << 32 | first group``, the first
    group being ``k`` (a set of k cards at the lowest rank) or ``256 * width + last rank``."""
    if packed == 0:
        return 0
    key = _key(packed, run_top, chain_top)
    found = memo.get(key, -1)
    if found >= 0:
        return found
    i = 0
    while (packed >> (4 * i)) & 15 == 0:
        i += 1
    c = (packed >> (4 * i)) & 15
    best = -1
    for k in range(min(c, 4), 0, -1):
        sub = stretch(packed - (k << (4 * i)), run_top, chain_top, memo)
        cand = (((sub >> 40) + 1) << 40) | ((((sub >> 32) & 0xFF) + (1 if k == 1 else 0)) << 32) | k
        if best < 0 or (cand >> 32) < (best >> 32):
            best = cand
    for width in range(1, 3):
        if c < width:
            continue
        top = run_top if width == 1 else chain_top
        end = i
        while end + 1 <= 12 and end + 1 <= top and ((packed >> (4 * (end + 1))) & 15) >= width:
            end += 1
        for last in range(i + 2, end + 1):
            minus = 0
            for q in range(i, last + 1):
                minus += width << (4 * q)
            sub = stretch(packed - minus, run_top, chain_top, memo)
            cand = (((sub >> 40) + 1) << 40) | (((sub >> 32) & 0xFF) << 32) | (256 * width + last)
            if best < 0 or (cand >> 32) < (best >> 32):
                best = cand
    memo[key] = best
    return best


@jit
def groups_of(packed: int, run_top: int, chain_top: int, memo: Dict) -> int:
    """How many groups the best split of the counts has (``best_split(...)[0]``)."""
    total = 0
    r = 0
    while r < 13:
        if (packed >> (4 * r)) & 15 == 0:
            r += 1
            continue
        end = r
        while end < 12 and (packed >> (4 * (end + 1))) & 15:
            end += 1
        mask = (1 << (4 * (end + 1))) - (1 << (4 * r))
        total += stretch(packed & mask, run_top, chain_top, memo) >> 40
        r = end + 1
    return total


@jit
def plan_of(packed: int, run_top: int, chain_top: int, memo: Dict, out: np.ndarray) -> int:
    """The groups of the best split as rows (lowest rank, highest rank, cards) in ``out``;
    returns how many."""
    m = 0
    r = 0
    while r < 13:
        if (packed >> (4 * r)) & 15 == 0:
            r += 1
            continue
        end = r
        while end < 12 and (packed >> (4 * (end + 1))) & 15:
            end += 1
        mask = (1 << (4 * (end + 1))) - (1 << (4 * r))
        p = packed & mask
        while p:
            v = stretch(p, run_top, chain_top, memo)
            first = v & 0xFFFFFFFF
            i = 0
            while (p >> (4 * i)) & 15 == 0:
                i += 1
            if first < 256:
                out[m, 0] = i
                out[m, 1] = i
                out[m, 2] = first
                p -= first << (4 * i)
            else:
                width = first >> 8
                last = first & 255
                out[m, 0] = i
                out[m, 1] = last
                out[m, 2] = (last - i + 1) * width
                for q in range(i, last + 1):
                    p -= width << (4 * q)
            m += 1
        r = end + 1
    return m
