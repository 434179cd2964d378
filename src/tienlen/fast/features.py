"""The learned bot's inputs in compiled code (:mod:`tienlen.bots.features`, read from the fast
state array): the state vector and one action vector per legal move, equal to the pure ones
to the bit (``tests/test_fast_features.py``).

What the pure functions take as lists is read here from the state array (the hands, passes,
places and the play to beat) and from ``played``: each seat's played cards per key, then their
sum (the rows :mod:`.selfplay` and :mod:`.vector` keep). The hand plan of the action entries is
:mod:`.split`'s, the twin of :func:`tienlen.bots.split.best_split`.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .layout import (
    PASS,
    QUAD,
    S_BOTTOM,
    S_FINISH,
    S_HI,
    S_LO,
    S_N,
    S_NBOTTOM,
    S_NFINISH,
    S_PASSED,
    S_STACKING,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
)
from .movegen import low_key, size_of, top_key
from .split import packed_counts, plan_of

STATE_SIZE = 496  # tienlen.bots.features' sizes (held equal by the tests)
ACTION_SIZE = 225
INPUT_SIZE = STATE_SIZE + ACTION_SIZE
_PLAN = 195  # where the plan entries begin in an action vector
_LEAD = 8  # the shape entry of a pass (a lead, in the state)


@kernel
def _slot(other: int, seat: int, n: int) -> int:
    """``features.slots_of``: 0 the next seat, 2 the previous, 1 any in between."""
    step = (other - seat) % n
    if step == 1:
        return 0
    if step == n - 1:
        return 2
    return 1


@kernel
def _gone(st: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` holds a place (from the top or from the bottom: ``finish_order``)."""
    for i in range(st[S_NFINISH]):
        if st[S_FINISH + i] == seat:
            return True
    for i in range(st[S_NBOTTOM]):
        if st[S_BOTTOM + i] == seat:
            return True
    return False


@kernel
def _shape_entry(shape: int) -> int:
    """The entry of a fast shape code in ``features.SHAPES`` (a pass last)."""
    return _LEAD if shape == PASS else shape - 1


@kernel
def _by_rank(counts: np.ndarray, at: int, out: np.ndarray, to: int) -> None:
    """``features._by_rank``: per rank, held at least 1, 2, 3, 4 times."""
    for r in range(13):
        held = counts[at + 4 * r] + counts[at + 4 * r + 1] + counts[at + 4 * r + 2] \
            + counts[at + 4 * r + 3]
        for j in range(4):
            out[to + 4 * r + j] = 1.0 if held >= j + 1 else 0.0


@kernel
def state_into(st: np.ndarray, played: np.ndarray, seat: int, packs: int,
               out: np.ndarray) -> None:
    """``features.state_vector`` of ``seat`` into ``out`` (float32, :data:`STATE_SIZE`)."""
    n = st[S_N]
    out[:] = 0.0
    lo = st[S_LO + seat]
    hi = st[S_HI + seat]
    for k in range(52):
        out[k] = ((lo >> k) & 1) + ((hi >> k) & 1)
        out[52 + k] = max(packs - out[k] - played[n, k], 0.0)
    fewest0 = fewest1 = fewest2 = 99  # per slot (a kernel makes no arrays)
    present0 = present1 = present2 = False
    gone0 = gone1 = gone2 = False
    passed0 = passed1 = passed2 = True
    for other in range(n):
        if other == seat:
            continue
        slot = _slot(other, seat, n)
        base = 104 + 52 * slot
        for k in range(52):
            out[base + k] += played[other, k]
        count = size_of(st[S_LO + other], st[S_HI + other])
        gone = _gone(st, other)
        passed = st[S_PASSED + other] != 0
        if slot == 0:
            present0 = True
            fewest0 = min(fewest0, count)
            gone0 = gone0 or gone
            passed0 = passed0 and passed
        elif slot == 1:
            present1 = True
            fewest1 = min(fewest1, count)
            gone1 = gone1 or gone
            passed1 = passed1 and passed
        else:
            present2 = True
            fewest2 = min(fewest2, count)
            gone2 = gone2 or gone
            passed2 = passed2 and passed
    _slot_entries(out, 0, present0, fewest0, gone0, passed0)
    _slot_entries(out, 1, present1, fewest1, gone1, passed1)
    _slot_entries(out, 2, present2, fewest2, gone2, passed2)
    tshape = st[S_TSHAPE]
    if tshape == PASS:
        out[363 + _LEAD] = 1.0
        out[376] = 1.0
    else:
        ta = st[S_TA]
        tb = st[S_TB]
        for k in range(52):
            out[311 + k] = ((ta >> k) & 1) + ((tb >> k) & 1)
        out[363 + _shape_entry(tshape)] = 1.0
        tseat = st[S_TSEAT]
        if tseat >= 0:
            out[372 + (0 if tseat == seat else 1 + _slot(tseat, seat, n))] = 1.0
    out[377] = 1.0 if st[S_STACKING] else 0.0
    out[378 + min(size_of(lo, hi), 13)] = 1.0
    _by_rank(out, 0, out, 392)
    _by_rank(out, 52, out, 444)


@kernel
def _slot_entries(out: np.ndarray, slot: int, present: bool, fewest: int, gone: bool,
                  passed: bool) -> None:
    if present:
        out[260 + 14 * slot + min(fewest, 13)] = 1.0
        out[302 + slot] = 1.0 if gone else 0.0
        out[305 + slot] = 1.0 if passed else 0.0
        out[308 + slot] = 1.0


@kernel
def _group_kind(lo: int, hi: int, cards: int) -> int:
    """A plan row's kind: 0 pair, 1 triple, 2 quad, 3 run, 4 chain (``features._BREAKS``);
    -1 a single (and a set of more: none is made)."""
    if lo == hi:
        return cards - 2 if 2 <= cards <= QUAD else -1
    return 3 if cards == hi - lo + 1 else 4


@kernel
def _add_keys(row: np.ndarray, to: int, keys: int, sign: float) -> None:
    """``sign`` added to ``row[to + k]`` for each key ``k`` of the mask ``keys``."""
    while keys:
        row[to + low_key(keys)] += sign
        keys &= keys - 1


@jit
def actions_into(st: np.ndarray, seat: int, moves: np.ndarray, n: int, run_top: int,
                 chain_top: int, state: np.ndarray, memo: dict, out: np.ndarray,
                 first: int, at: int) -> None:
    """``features.action_matrix`` (with the plan entries) of ``moves[:n]`` (rows of lo, hi,
    shape) for ``seat`` into ``out[first:first + n, at:at + ACTION_SIZE]``; ``state``: the
    seat's state vector (its unseen cards), ``run_top`` and ``chain_top``: ``plan_tops``."""
    lo = st[S_LO + seat]
    hi = st[S_HI + seat]
    size = size_of(lo, hi)
    top_unseen = -1
    for k in range(52):
        if state[52 + k] > 0:
            top_unseen = k
    packed = packed_counts(lo, hi)
    plan0 = np.zeros((13, 3), dtype=np.int64)
    plan = np.zeros((13, 3), dtype=np.int64)
    m0 = plan_of(packed, run_top, chain_top, memo, plan0)
    singles0 = 0
    # each group of the plan before the play, as counts per rank (its pattern) and the ranks it
    # spans (its mask): a play breaks it when it touches it without being the whole of it
    breaks = np.full(m0, -1, dtype=np.int64)
    patterns = np.zeros(m0, dtype=np.int64)
    masks = np.zeros(m0, dtype=np.int64)
    for g in range(m0):
        r0 = plan0[g, 0]
        r1 = plan0[g, 1]
        singles0 += r0 == r1 and plan0[g, 2] == 1
        breaks[g] = _group_kind(r0, r1, plan0[g, 2])
        per = plan0[g, 2] // (r1 - r0 + 1)
        for q in range(r0, r1 + 1):
            patterns[g] |= per << (4 * q)
            masks[g] |= 15 << (4 * q)
    kinds = np.zeros(5, dtype=np.int64)
    for i in range(n):
        row = out[first + i, at:at + ACTION_SIZE]
        row[:] = 0.0
        a = moves[i, 0]
        b = moves[i, 1]
        shape = moves[i, 2]
        cards = size_of(a, b)
        # the play's cards, and the hand's cards less them (a key twice: two packs)
        _add_keys(row, 0, a, 1.0)
        _add_keys(row, 0, b, 1.0)
        _add_keys(row, 89, lo, 1.0)
        _add_keys(row, 89, hi, 1.0)
        _add_keys(row, 89, a, -1.0)
        _add_keys(row, 89, b, -1.0)
        kept_top = -1  # the highest card kept, and how many kept beat every unseen one
        masters = 0
        x = lo | hi
        while x:
            k = low_key(x)
            if row[89 + k] > 0:
                kept_top = k
                masters += k > top_unseen
            x &= x - 1
        row[52 + _shape_entry(shape)] = 1.0
        row[61] = cards / 13.0
        row[62 + min(size - cards, 13)] = 1.0
        if cards:
            row[76 + (top_key(a) >> 2)] = 1.0
        played = packed_counts(a, b)
        left = packed - played
        ones = 0
        held = 0
        for r in range(13):
            count = (left >> (4 * r)) & 15
            for j in range(min(count, 4)):
                row[141 + 4 * r + j] = 1.0
            ones += count == 1
            held += count > 0
        row[193] = ones / 13.0
        row[194] = held / 13.0
        m = plan_of(left, run_top, chain_top, memo, plan)
        singles = low = chops = 0
        high_single = low_single = -1
        kinds[:] = 0
        for g in range(m):
            kind = _group_kind(plan[g, 0], plan[g, 1], plan[g, 2])
            if kind < 0:
                r = plan[g, 0]
                singles += 1
                low += r <= 7
                high_single = max(high_single, r)
                low_single = r if low_single < 0 else min(low_single, r)
            else:
                kinds[kind] += 1
                chops += kind == 2 or (kind == 4 and plan[g, 1] - plan[g, 0] >= 2)
        row[_PLAN] = m / 13.0
        row[_PLAN + 1 + min(m, 7)] = 1.0
        row[_PLAN + 9] = singles / 13.0
        row[_PLAN + 10] = low / 13.0
        row[_PLAN + 11] = (m0 - m) / 4.0
        row[_PLAN + 12] = (singles - singles0) / 4.0
        row[_PLAN + 13] = 1.0 if cards and m == m0 - 1 else 0.0
        if cards:
            for g in range(m0):
                if breaks[g] >= 0 and (played & masks[g]) != 0 and played != patterns[g]:
                    row[_PLAN + 14 + breaks[g]] = 1.0
        for j in range(5):
            row[_PLAN + 19 + j] = kinds[j] / 4.0
        row[_PLAN + 24] = chops / 2.0
        if kept_top >= 0:
            row[_PLAN + 25] = min(masters, 4) / 4.0
            row[_PLAN + 26] = (kept_top + 1) / 52.0
        if high_single >= 0:
            row[_PLAN + 27] = (high_single + 1) / 13.0
            row[_PLAN + 28] = (low_single + 1) / 13.0
        row[_PLAN + 29] = 1.0 if cards and top_key(a) > top_unseen else 0.0
