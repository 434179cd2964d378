"""Compiled legal-play generation on bitmask hands (see :mod:`.layout` for the encoding).

Plays are written into ``buf``, an ``(capacity, 3)`` int64 array of rows ``(lo, hi, shape)``;
each generator takes the number of rows already written and returns the new number. When
that passes the capacity the rows past it were not written: the caller grows the buffer and
asks again (:func:`tienlen.fast.engine.legal_in_turn` does). ``ws`` is scratch space
(:func:`workspace`), passed in so that generation allocates nothing.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .layout import (
    C_CHAIN_TOP,
    C_FOUR_TWOS,
    C_QUAD_CHAINS,
    C_RUN_TOP,
    C_TIES,
    C_TRIPLE_CHAINS,
    CHAIN,
    E_BOMB,
    E_BOMB_MORE,
    E_BOMB_RANKS,
    E_HIGHER,
    E_TARGET,
    E_TARGET_MORE,
    E_TARGET_RANKS,
    E_TARGET_TWOS,
    QUAD,
    QUAD_CHAIN,
    RUN,
    SINGLE,
    TRIPLE_CHAIN,
)

TWO = 12
POP4 = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)
# cards per rank of each shape (0 for a set: its size is its card count)
WIDTH = np.array([0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=np.int64)


WS_ROWS = 30  # rows 0-12: subsets per rank (lo), 13-25: (hi), 26: counts, 27: odometer,
#               28-29: one rank's subsets (lo, hi)


def workspace() -> np.ndarray:
    return np.zeros((WS_ROWS, 20), dtype=np.int64)


@kernel
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@kernel
def top_key(x: int) -> int:
    """The highest key of a mask (-1 for none)."""
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return popcount(x) - 1


@kernel
def low_key(x: int) -> int:
    """The lowest key of a non-empty mask."""
    return popcount((x & -x) - 1)


@kernel
def size_of(lo: int, hi: int) -> int:
    return popcount(lo) + popcount(hi)


NIBBLES = 0x1111111111111  # one bit at the foot of each rank's 4 bits (13 ranks)


@kernel
def _nibble_counts(x: int) -> int:
    """Each rank's 4 bits replaced by how many of them are set."""
    x = x - ((x >> 1) & 0x5555555555555)
    return (x & 0x3333333333333) + ((x >> 2) & 0x3333333333333)


@kernel
def width_mask(lo: int, hi: int, w: int) -> int:
    """The ranks holding ``w`` cards or more, as the foot bit of each rank's 4 bits."""
    total = _nibble_counts(lo) + _nibble_counts(hi)  # at most 8 a rank: no carry
    return ((total + (8 - w) * NIBBLES) >> 3) & NIBBLES


@kernel
def rank_count(lo: int, hi: int, r: int) -> int:
    return POP4[(lo >> (4 * r)) & 15] + POP4[(hi >> (4 * r)) & 15]


@kernel
def higher(aa: int, ab: int, ba: int, bb: int, ties: int) -> bool:
    """Whether play a ranks above play b (``shapes.higher`` on masks)."""
    ta = top_key(aa)
    tb = top_key(ba)
    if ta != tb:
        return ta > tb
    if ties == 1:
        return True
    if ties == 2:  # the first differing card from the top decides
        ka = 52
        kb = 52
        ca = 0
        cb = 0
        while True:
            if ca == 0:
                ka -= 1
                while ka >= 0 and not (aa >> ka) & 1:
                    ka -= 1
                if ka < 0:
                    return False
                ca = 1 + ((ab >> ka) & 1)
            if cb == 0:
                kb -= 1
                while kb >= 0 and not (ba >> kb) & 1:
                    kb -= 1
                if kb < 0:
                    return False
                cb = 1 + ((bb >> kb) & 1)
            if ka != kb:
                return ka > kb
            ca -= 1
            cb -= 1
    return False


def _subsets() -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((5, 16, 6), dtype=np.int64)
    count = np.zeros((5, 16), dtype=np.int64)
    for m in range(16):
        for sub in range(16):
            if sub & ~m == 0:
                w = bin(sub).count("1")
                table[w, m, count[w, m]] = sub
                count[w, m] += 1
    return table, count


# one pack: the w-card subsets of each 4-bit rank mask
SUBSETS, N_SUBSETS = _subsets()


@kernel
def rank_sets(lo: int, hi: int, r: int, w: int, out: np.ndarray, rowa: int, rowb: int) -> int:
    """The distinct ``w``-card subsets of rank ``r`` held, as masks at that rank's place, into
    rows ``rowa`` (lo) and ``rowb`` (hi) of ``out``."""
    l4 = (lo >> (4 * r)) & 15
    h4 = (hi >> (4 * r)) & 15
    if h4 == 0:
        m = N_SUBSETS[w, l4]
        for i in range(m):
            out[rowa, i] = SUBSETS[w, l4, i] << (4 * r)
            out[rowb, i] = 0
        return m
    c0 = (l4 & 1) + (h4 & 1)
    c1 = ((l4 >> 1) & 1) + ((h4 >> 1) & 1)
    c2 = ((l4 >> 2) & 1) + ((h4 >> 2) & 1)
    c3 = ((l4 >> 3) & 1) + ((h4 >> 3) & 1)
    n = 0
    shift = 4 * r
    for x0 in range(c0 + 1):
        for x1 in range(c1 + 1):
            for x2 in range(c2 + 1):
                x3 = w - x0 - x1 - x2
                if x3 < 0 or x3 > c3:
                    continue
                a = int(x0 > 0) | (int(x1 > 0) << 1) | (int(x2 > 0) << 2) | (int(x3 > 0) << 3)
                b = int(x0 == 2) | (int(x1 == 2) << 1) | (int(x2 == 2) << 2) | (int(x3 == 2) << 3)
                out[rowa, n] = a << shift
                out[rowb, n] = b << shift
                n += 1
    return n


@kernel
def push(buf: np.ndarray, n: int, a: int, b: int, shape: int, dedup: bool) -> int:
    """Write one play (unless ``dedup`` and it is already listed); return the new count."""
    cap = buf.shape[0]
    if dedup:
        for i in range(min(n, cap)):
            if buf[i, 0] == a and buf[i, 1] == b:
                return n
    if n < cap:
        buf[n, 0] = a
        buf[n, 1] = b
        buf[n, 2] = shape
    return n + 1


@kernel
def _parts(lo: int, hi: int, w: int, top: int, ws: np.ndarray) -> None:
    for r in range(13):
        if r <= top and rank_count(lo, hi, r) >= w:
            ws[26, r] = rank_sets(lo, hi, r, w, ws, r, 13 + r)
        else:
            ws[26, r] = 0


@kernel
def _product(ws: np.ndarray, s: int, e: int, shape: int, buf: np.ndarray, n: int, filt: bool,
             ta: int, tb: int, ties: int, dedup: bool) -> int:
    """Every sequence over ranks s..e (one held subset per rank), optionally only those
    higher than the play (ta, tb)."""
    for r in range(s, e + 1):
        ws[27, r] = 0
    while True:
        a = 0
        b = 0
        for r in range(s, e + 1):
            a |= ws[r, ws[27, r]]
            b |= ws[13 + r, ws[27, r]]
        if not filt or higher(a, b, ta, tb, ties):
            n = push(buf, n, a, b, shape, dedup)
        r = e
        while r >= s:
            ws[27, r] += 1
            if ws[27, r] < ws[26, r]:
                break
            ws[27, r] = 0
            r -= 1
        if r < s:
            return n


@kernel
def sequences(lo: int, hi: int, shape: int, w: int, fewest: int, exact: bool, top: int,
              buf: np.ndarray, n: int, filt: bool, ta: int, tb: int, ties: int,
              dedup: bool, ws: np.ndarray) -> int:
    """Sequences of width ``w``: exactly ``fewest`` ranks, or (not ``exact``) that many or more;
    with ``filt`` only those higher than (ta, tb)."""
    if top < 0:
        return n
    x = width_mask(lo, hi, w) & ((1 << (4 * (top + 1))) - 1)
    for _ in range(fewest - 1):
        x &= x >> 4
    if x == 0:  # no stretch of ``fewest`` ranks: nothing to list
        return n
    _parts(lo, hi, w, top, ws)
    r = 0
    while r <= top:
        if ws[26, r] == 0:
            r += 1
            continue
        end = r
        while end < top and ws[26, end + 1] > 0:
            end += 1
        for start in range(r, end - fewest + 2):
            if exact:
                n = _product(ws, start, start + fewest - 1, shape, buf, n, filt, ta, tb, ties,
                             dedup)
            else:
                for last in range(start + fewest - 1, end + 1):
                    n = _product(ws, start, last, shape, buf, n, filt, ta, tb, ties, dedup)
        r = end + 1
    return n


@kernel
def _sets(lo: int, hi: int, w: int, shape: int, lowest_rank: int, buf: np.ndarray, n: int,
          filt: bool, ta: int, tb: int, ties: int, dedup: bool, ws: np.ndarray) -> int:
    # the ranks from lowest_rank up holding w cards or more
    ranks = width_mask(lo, hi, w) & ~((1 << (4 * lowest_rank)) - 1)
    while ranks:
        r = low_key(ranks) >> 2
        ranks &= ranks - 1
        m = rank_sets(lo, hi, r, w, ws, 28, 29)
        for i in range(m):
            if not filt or higher(ws[28, i], ws[29, i], ta, tb, ties):
                n = push(buf, n, ws[28, i], ws[29, i], shape, dedup)
    return n


@kernel
def leads(lo: int, hi: int, cfg: np.ndarray, buf: np.ndarray, n: int, ws: np.ndarray) -> int:
    """Every combination the hand can lead."""
    x = lo
    while x:
        n = push(buf, n, x & -x, 0, SINGLE, False)
        x &= x - 1
    ranks = width_mask(lo, hi, 2)  # the ranks holding a pair or more
    while ranks:
        r = low_key(ranks) >> 2
        ranks &= ranks - 1
        c = rank_count(lo, hi, r)
        for w in range(2, min(c, 4) + 1):  # pairs, triples, quads
            m = rank_sets(lo, hi, r, w, ws, 28, 29)
            for i in range(m):
                n = push(buf, n, ws[28, i], ws[29, i], w, False)
    n = sequences(lo, hi, RUN, 1, 3, False, cfg[C_RUN_TOP], buf, n, False, 0, 0, 0, False, ws)
    n = sequences(lo, hi, CHAIN, 2, 3, False, cfg[C_CHAIN_TOP], buf, n, False, 0, 0, 0, False, ws)
    if cfg[C_TRIPLE_CHAINS]:
        n = sequences(lo, hi, TRIPLE_CHAIN, 3, 3, False, cfg[C_CHAIN_TOP], buf, n, False, 0, 0,
                      0, False, ws)
    if cfg[C_QUAD_CHAINS]:
        n = sequences(lo, hi, QUAD_CHAIN, 4, 2, False, cfg[C_CHAIN_TOP], buf, n, False, 0, 0,
                      0, False, ws)
    return n


@kernel
def same_shape_beats(lo: int, hi: int, ta: int, tb: int, tshape: int, cfg: np.ndarray,
                     buf: np.ndarray, n: int, ws: np.ndarray) -> int:
    """The plays of the table's shape and size that rank above it."""
    ties = cfg[C_TIES]
    top = top_key(ta)
    if tshape == SINGLE:
        x = lo & ~((1 << (top + 1)) - 1)  # the keys above the table's
        if ties == 1 and (lo >> top) & 1:
            x |= 1 << top
        while x:
            n = push(buf, n, x & -x, 0, SINGLE, False)
            x &= x - 1
        return n
    size = size_of(ta, tb)
    if tshape <= QUAD:
        return _sets(lo, hi, size, tshape, top >> 2, buf, n, True, ta, tb, ties, False, ws)
    w = WIDTH[tshape]
    top_rank = cfg[C_RUN_TOP] if tshape == RUN else cfg[C_CHAIN_TOP]
    return sequences(lo, hi, tshape, w, size // w, True, top_rank, buf, n, True, ta, tb, ties,
                     False, ws)


@kernel
def matches(shape: int, ranks: int, more: int, twos: int, a: int, b: int, pshape: int) -> bool:
    """``Pattern.matches``: whether the play (a, b, pshape) is of this pattern."""
    if pshape != shape:
        return False
    if twos:
        return top_key(a) >> 2 == TWO
    if ranks:
        count = size_of(a, b) // WIDTH[shape]
        return count >= ranks if more else count == ranks
    return True


@kernel
def is_target(ta: int, tb: int, tshape: int, cfg: np.ndarray, chops: np.ndarray) -> bool:
    """Whether any bomb could beat the table play outside the shape rule."""
    if cfg[C_FOUR_TWOS]:
        return True
    return is_entry_target(ta, tb, tshape, chops)


@kernel
def is_entry_target(ta: int, tb: int, tshape: int, chops: np.ndarray) -> bool:
    """Whether a chop entry targets the table play (§6: four twos chop only for the seat on
    turn, so they make no play a target for passers' chop turns or out-of-turn windows)."""
    for i in range(chops.shape[0]):
        if matches(chops[i, E_TARGET], chops[i, E_TARGET_RANKS], chops[i, E_TARGET_MORE],
                   chops[i, E_TARGET_TWOS], ta, tb, tshape):
            return True
    return False


@kernel
def bombs(lo: int, hi: int, ta: int, tb: int, tshape: int, cfg: np.ndarray, chops: np.ndarray,
          buf: np.ndarray, n: int, ws: np.ndarray, four_twos: bool = True) -> int:
    """The bombs in the hand that beat the table through a chop entry or (unless ``four_twos``
    is false: out of turn) four twos, each once and none already listed in ``buf[:n]``."""
    ties = cfg[C_TIES]
    for i in range(chops.shape[0]):
        if not matches(chops[i, E_TARGET], chops[i, E_TARGET_RANKS], chops[i, E_TARGET_MORE],
                       chops[i, E_TARGET_TWOS], ta, tb, tshape):
            continue
        shape = chops[i, E_BOMB]
        filt = chops[i, E_HIGHER] != 0
        if shape == QUAD:
            n = _sets(lo, hi, 4, QUAD, 0, buf, n, filt, ta, tb, ties, True, ws)
        else:
            top_rank = cfg[C_RUN_TOP] if shape == RUN else cfg[C_CHAIN_TOP]
            n = sequences(lo, hi, shape, WIDTH[shape], chops[i, E_BOMB_RANKS],
                          chops[i, E_BOMB_MORE] == 0, top_rank, buf, n, filt, ta, tb, ties, True, ws)
    if four_twos and cfg[C_FOUR_TWOS] and rank_count(lo, hi, TWO) >= 4:
        twos_quad = tshape == QUAD and top_key(ta) >> 2 == TWO
        n = _sets(lo, hi, 4, QUAD, TWO, buf, n, twos_quad, ta, tb, ties, True, ws)
    return n


@kernel
def beats(lo: int, hi: int, ta: int, tb: int, tshape: int, cfg: np.ndarray, chops: np.ndarray,
          buf: np.ndarray, n: int, ws: np.ndarray) -> int:
    """Every play that beats the table: the same shape higher, or a chop."""
    n = same_shape_beats(lo, hi, ta, tb, tshape, cfg, buf, n, ws)
    if is_target(ta, tb, tshape, cfg, chops):
        n = bombs(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
    return n


@kernel
def without_chains(buf: np.ndarray, start: int, n: int) -> int:
    """Drop the chains of pairs from ``buf[start:n]`` (``opening_no_chain``)."""
    m = start
    for i in range(start, min(n, buf.shape[0])):
        if buf[i, 2] != CHAIN:
            buf[m, 0] = buf[i, 0]
            buf[m, 1] = buf[i, 1]
            buf[m, 2] = buf[i, 2]
            m += 1
    return m
