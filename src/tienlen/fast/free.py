"""Compiled free chops (§11 ``free_chops``): which tables a free chop may beat, who is offered
one, and the free chops a hand holds (``MoveGenerator.free_chops``, ``legal.free_open``)."""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .layout import (
    C_CHAIN_TOP,
    C_FREE,
    C_NFREE,
    C_RUN_TOP,
    C_TIES,
    E_BOMB,
    E_BOMB_MORE,
    E_BOMB_RANKS,
    E_TARGET,
    E_TARGET_MORE,
    E_TARGET_RANKS,
    E_TARGET_TWOS,
    PASS,
    QUAD,
    RUN,
    S_OUT,
    S_OVER,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
)
from .movegen import WIDTH, bombs, higher, matches, push, rank_count, rank_sets, sequences, size_of


@kernel
def free_pattern(cfg: np.ndarray, a: int, b: int, shape: int) -> bool:
    """Whether a play is of a ``free_chops`` pattern (§11)."""
    for i in range(cfg[C_NFREE]):
        row = C_FREE + 3 * i
        if matches(cfg[row], cfg[row + 1], cfg[row + 2], 0, a, b, shape):
            return True
    return False


@kernel
def _covers(fshape: int, franks: int, fmore: int, bshape: int, branks: int, bmore: int) -> bool:
    """Whether some bomb of pattern b is also of the free pattern f."""
    if fshape != bshape:
        return False
    if not franks:
        return True
    hi_f = 99 if fmore else franks
    hi_b = 99 if bmore else branks
    return max(franks, branks) <= min(hi_f, hi_b)


@kernel
def is_free_target(ta: int, tb: int, tshape: int, cfg: np.ndarray, chops: np.ndarray) -> bool:
    """Whether a bomb of a free pattern could beat the table: through a chop entry, or as a
    higher bomb of its own pattern (``MoveGenerator.is_free_target``)."""
    if cfg[C_NFREE] == 0 or tshape == PASS:
        return False
    if free_pattern(cfg, ta, tb, tshape):
        return True
    for e in range(chops.shape[0]):
        if not matches(chops[e, E_TARGET], chops[e, E_TARGET_RANKS], chops[e, E_TARGET_MORE],
                       chops[e, E_TARGET_TWOS], ta, tb, tshape):
            continue
        for i in range(cfg[C_NFREE]):
            row = C_FREE + 3 * i
            if _covers(cfg[row], cfg[row + 1], cfg[row + 2], chops[e, E_BOMB],
                       chops[e, E_BOMB_RANKS], chops[e, E_BOMB_MORE]):
                return True
    return False


@kernel
def free_open(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int) -> bool:
    """§11 free chops: whether ``seat`` is offered one now (whatever it holds)."""
    if cfg[C_NFREE] == 0 or st[S_OVER] or st[S_TSHAPE] == PASS:
        return False
    if seat == st[S_TURN] or seat == st[S_TSEAT] or st[S_OUT + seat]:
        return False
    return is_free_target(st[S_TA], st[S_TB], st[S_TSHAPE], cfg, chops)


@kernel
def free_chops(lo: int, hi: int, ta: int, tb: int, tshape: int, cfg: np.ndarray,
               chops: np.ndarray, buf: np.ndarray, n: int, ws: np.ndarray) -> int:
    """The bombs of free patterns in the hand that beat the table, none already in ``buf[:n]``
    (``MoveGenerator.free_chops``)."""
    start = n
    n = bombs(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
    if n > buf.shape[0]:
        return n
    m = start
    for i in range(start, n):
        if free_pattern(cfg, buf[i, 0], buf[i, 1], buf[i, 2]):
            buf[m, 0] = buf[i, 0]
            buf[m, 1] = buf[i, 1]
            buf[m, 2] = buf[i, 2]
            m += 1
    n = m
    if not free_pattern(cfg, ta, tb, tshape):
        return n
    ties = cfg[C_TIES]
    if tshape == QUAD:  # a higher bomb of its own pattern, by the ordinary rule
        for r in range(13):
            if rank_count(lo, hi, r) >= 4:
                m = rank_sets(lo, hi, r, 4, ws, 28, 29)
                for i in range(m):
                    if higher(ws[28, i], ws[29, i], ta, tb, ties):
                        n = push(buf, n, ws[28, i], ws[29, i], QUAD, True)
        return n
    w = WIDTH[tshape]
    top_rank = cfg[C_RUN_TOP] if tshape == RUN else cfg[C_CHAIN_TOP]
    return sequences(lo, hi, tshape, w, size_of(ta, tb) // w, True, top_rank, buf, n, True, ta,
                     tb, ties, True, ws)
