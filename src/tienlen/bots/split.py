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


@lru_cache(maxsize=200_000)
def best_split(counts: Counts, run_top: int, chain_top: int) -> tuple[int, int, tuple[Group, ...]]:
    """(groups, loose singles, the groups) of the best split: fewest groups, then fewest singles.

    ``run_top`` / ``chain_top``: the highest rank a run / chain may reach (11: ace, 12: two).
    No combination spans a rank the hand lacks, so each stretch of held ranks splits on its
    own (and stretches repeat from hand to hand, so their splits are cached).
    """
    groups = 0
    singles = 0
    plan: tuple[Group, ...] = ()
    r = 0
    while r < 13:
        if counts[r] == 0:
            r += 1
            continue
        end = r
        while end < 12 and counts[end + 1]:
            end += 1
        g, s, part = _stretch(r, counts[r:end + 1], run_top, chain_top)
        groups += g
        singles += s
        plan += part
        r = end + 1
    return groups, singles, plan


@lru_cache(maxsize=200_000)
def _stretch(start: int, counts: Counts, run_top: int,
             chain_top: int) -> tuple[int, int, tuple[Group, ...]]:
    """The best split of ranks ``start``.. holding ``counts`` (the first count is not 0)."""
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return (0, 0, ())
    r = start + i
    best: tuple[int, int, tuple[Group, ...]] | None = None
    c = counts[i]
    mutable = list(counts)
    # a set at rank r: all of them, or fewer (the rest may join runs)
    for k in range(min(c, 4), 0, -1):
        mutable[i] = c - k
        sub = _stretch(start, tuple(mutable), run_top, chain_top)
        cand = (sub[0] + 1, sub[1] + (k == 1), ((_SET_NAMES[k], r, 1, k), *sub[2]))
        if best is None or cand[:2] < best[:2]:
            best = cand
    mutable[i] = c
    # runs and chains starting at r
    for width, top, shape in ((1, run_top, "run"), (2, chain_top, "chain")):
        if c < width:
            continue
        end = i
        while end + 1 < n and start + end + 1 <= top and counts[end + 1] >= width:
            end += 1
        for last in range(i + 2, end + 1):
            for q in range(i, last + 1):
                mutable[q] = counts[q] - width
            sub = _stretch(start, tuple(mutable), run_top, chain_top)
            for q in range(i, last + 1):
                mutable[q] = counts[q]
            cand = (sub[0] + 1, sub[1], ((shape, r, last - i + 1, width), *sub[2]))
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
