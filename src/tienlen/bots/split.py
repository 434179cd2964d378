"""Hand planning: split a hand (as rank counts) into the fewest combinations.

The split is computed on rank counts alone (suits do not change how a hand
splits), memoised, so bots can ask it for every candidate play cheaply.
"""

from __future__ import annotations

from functools import lru_cache

Counts = tuple[int, ...]
# a group: (shape, lowest rank, number of ranks, cards per rank)
Group = tuple[str, int, int, int]

_SET_NAMES = ("", "single", "pair", "triple", "quad")


def counts_of(keys: list[int] | tuple[int, ...]) -> Counts:
    counts = [0] * 13
    for k in keys:
        counts[k >> 2] += 1
    return tuple(counts)


@lru_cache(maxsize=400_000)
def best_split(counts: Counts, run_top: int, chain_top: int) -> tuple[int, int, tuple[Group, ...]]:
    """(groups, loose singles, the groups) of the best split: fewest groups, then fewest singles.

    ``run_top`` / ``chain_top``: the highest rank a run / chain may reach (11: ace, 12: two).
    """
    r = 0
    while r < 13 and counts[r] == 0:
        r += 1
    if r == 13:
        return (0, 0, ())
    best: tuple[int, int, tuple[Group, ...]] | None = None
    c = counts[r]
    mutable = list(counts)
    # a set at rank r: all of them, or fewer (the rest may join runs)
    for k in range(min(c, 4), 0, -1):
        mutable[r] = c - k
        sub = best_split(tuple(mutable), run_top, chain_top)
        cand = (sub[0] + 1, sub[1] + (k == 1), ((_SET_NAMES[k], r, 1, k), *sub[2]))
        if best is None or cand[:2] < best[:2]:
            best = cand
    mutable[r] = c
    # runs and chains starting at r
    for width, top, shape in ((1, run_top, "run"), (2, chain_top, "chain")):
        if c < width:
            continue
        end = r
        while end + 1 <= top and counts[end + 1] >= width:
            end += 1
        for last in range(r + 2, end + 1):
            for q in range(r, last + 1):
                mutable[q] = counts[q] - width
            sub = best_split(tuple(mutable), run_top, chain_top)
            for q in range(r, last + 1):
                mutable[q] = counts[q]
            cand = (sub[0] + 1, sub[1], ((shape, r, last - r + 1, width), *sub[2]))
            if best is None or cand[:2] < best[:2]:
                best = cand
    assert best is not None
    return best


def groups_after(counts: Counts, keys: tuple[int, ...], run_top: int, chain_top: int) -> int:
    """How many groups the hand splits into once ``keys`` are played."""
    left = list(counts)
    for k in keys:
        left[k >> 2] -= 1
    return best_split(tuple(left), run_top, chain_top)[0]
