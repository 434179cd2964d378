"""Compiled payments (``payments.py``): chops and their worth (§11 ``chop_pay``), penalties for
cards left, and the units each seat wins or pays when a hand ends (search's objective)."""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .layout import (
    C_BOMB_UNITS,
    C_CHAIN_TOP,
    C_CHAIN_UNITS,
    C_NO_PLAY,
    C_NPEN,
    C_NPOINTS,
    C_PEN,
    C_POINTS,
    C_QUAD_UNITS,
    C_SCORING,
    C_STAKE,
    C_TWO_UNITS,
    CHAIN,
    PASS,
    QUAD,
    QUAD_CHAIN,
    S_AT_FIRST_OUT,
    S_FINISH,
    S_HI,
    S_LO,
    S_N,
    S_NFINISH,
    S_PAID,
    S_PLAYED,
    TRIPLE_CHAIN,
)
from .movegen import low_key, matches, rank_count, size_of

TWO = 12


@kernel
def is_twos(a: int) -> bool:
    return a != 0 and low_key(a) >> 2 == TWO


@kernel
def is_bomb(a: int, b: int, shape: int) -> bool:
    """A quad, a chain of three or more pairs, a chain of triples or quads (never twos)."""
    if a == 0 or is_twos(a):
        return False
    return shape == QUAD or shape == TRIPLE_CHAIN or shape == QUAD_CHAIN or (
        shape == CHAIN and size_of(a, b) >= 6)


@kernel
def is_chop(a: int, b: int, shape: int, ta: int, tb: int, tshape: int) -> bool:
    """Whether a play, a legal beat of the table, chops it (§11): a bomb over twos or a bomb."""
    if tshape == PASS or not is_bomb(a, b, shape):
        return False
    return is_twos(ta) or is_bomb(ta, tb, tshape)


@kernel
def two_units(a: int, b: int, cfg: np.ndarray) -> int:
    """The twos among the keys, each at its ``penalty_two`` worth."""
    units = 0
    for s in range(4):
        k = 4 * TWO + s
        units += (((a >> k) & 1) + ((b >> k) & 1)) * cfg[C_TWO_UNITS + s]
    return units


@kernel
def bomb_units(a: int, b: int, shape: int, cfg: np.ndarray) -> int:
    """A bomb's worth: a numeric ``penalty_bomb``, or the first pattern of its table it matches."""
    if cfg[C_BOMB_UNITS] >= 0:
        return int(cfg[C_BOMB_UNITS])
    for i in range(cfg[C_NPEN]):
        row = C_PEN + 4 * i
        if matches(cfg[row], cfg[row + 1], cfg[row + 2], 0, a, b, shape):
            return int(cfg[row + 3])
    return 0


@kernel
def worth(a: int, b: int, shape: int, cfg: np.ndarray) -> int:
    """What a chopped combination is worth: its twos, or its bomb value."""
    if is_twos(a):
        return two_units(a, b, cfg)
    return bomb_units(a, b, shape, cfg) if is_bomb(a, b, shape) else 0


@kernel
def bombs_in(lo: int, hi: int, chain_top: int) -> int:
    """Quads plus maximal chains of three or more pairs (``payments.bombs_in``)."""
    quads = 0
    chains = 0
    run = 0
    for r in range(13):
        c = rank_count(lo, hi, r)
        if c >= 4:
            quads += 1
        if r <= chain_top:
            if c >= 2:
                run += 1
            else:
                if run >= 3:
                    chains += 1
                run = 0
    if run >= 3:
        chains += 1
    return quads + chains


@jit
def best_bombs(left: np.ndarray, cfg: np.ndarray) -> int:
    """The greatest total worth of disjoint bombs in rank counts ``left`` (twos left out), as
    ``payments.best_bombs`` finds it: its recursion run on an explicit stack (a recursive
    function breaks numba's on-disk cache). ``left`` is restored."""
    quad = cfg[C_QUAD_UNITS]
    fr = np.empty(64, dtype=np.int64)  # the frame's rank
    stage = np.empty(64, dtype=np.int64)
    length = np.empty(64, dtype=np.int64)
    best = np.empty(64, dtype=np.int64)
    fr[0] = 0
    stage[0] = 0
    top = 1
    ret = 0
    while top:
        f = top - 1
        r = fr[f]
        if stage[f] == 0:  # best(r): first, skip rank r
            if r >= TWO:
                ret = 0
                top -= 1
                continue
            stage[f] = 1
            fr[top] = r + 1
            stage[top] = 0
            top += 1
        elif stage[f] == 1:  # then a quad at r
            best[f] = ret
            length[f] = 0
            if left[r] >= 4 and quad:
                left[r] -= 4
                stage[f] = 2
                fr[top] = r + 1
                stage[top] = 0
                top += 1
            else:
                stage[f] = 3
        elif stage[f] == 2:
            best[f] = max(best[f], quad + ret)
            left[r] += 4
            stage[f] = 3
        elif stage[f] == 3:  # then chains from r, each longer by a pair
            n = length[f]
            if r + n < TWO and left[r + n] >= 2:
                left[r + n] -= 2
                n += 1
                length[f] = n
                if n >= 3 and cfg[C_CHAIN_UNITS + n]:
                    stage[f] = 4
                    fr[top] = r
                    stage[top] = 0
                    top += 1
            else:
                for q in range(n):
                    left[r + q] += 2
                ret = best[f]
                top -= 1
        else:
            best[f] = max(best[f], cfg[C_CHAIN_UNITS + length[f]] + ret)
            stage[f] = 3
    return ret


@jit
def penalty(lo: int, hi: int, played: bool, cfg: np.ndarray) -> int:
    """Units a player left with these cards pays the winner (§8, §11)."""
    units = two_units(lo, hi, cfg)
    if cfg[C_BOMB_UNITS] > 0:
        units += cfg[C_BOMB_UNITS] * bombs_in(lo, hi, cfg[C_CHAIN_TOP])
    elif cfg[C_BOMB_UNITS] < 0:
        left = np.zeros(13, dtype=np.int64)
        for q in range(TWO):
            left[q] = rank_count(lo, hi, q)
        units += best_bombs(left, cfg)
    if not played:
        units += cfg[C_NO_PLAY]
    return units


@kernel
def place_points(n: int, place: int, cfg: np.ndarray) -> int:
    """``place_points`` (or §11's default for ``n`` players) of a place."""
    if cfg[C_NPOINTS]:
        return int(cfg[C_POINTS + place])
    if place == 0:
        return 2
    if place == n - 1:
        return -2
    if n >= 4 and place == 1:
        return 1
    if n >= 4 and place == n - 2:
        return -1
    return 0


@jit
def hand_units(st: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    """The units ``seat`` wins (+) or pays (-) in a finished hand: chop payments, the scheme
    of ``scoring`` and the penalties (``Game.scores``; no instant wins in play)."""
    scoring = cfg[C_SCORING]
    if scoring == 0 or st[S_NFINISH] == 0:
        return 0
    n = st[S_N]
    stake = cfg[C_STAKE]
    units: int = st[S_PAID + seat]
    winner = st[S_FINISH]
    place = -1
    for p in range(st[S_NFINISH]):
        if st[S_FINISH + p] == seat:
            place = p
    if scoring == 1:
        units += -stake * (n - 1) if place == n - 1 else stake
    elif scoring == 2:
        if seat == winner:
            for s in range(n):
                if s != winner:
                    units += stake * st[S_AT_FIRST_OUT + s]
        else:
            units -= stake * st[S_AT_FIRST_OUT + seat]
    elif scoring == 3:
        units += place_points(n, place, cfg) * stake
    if seat == winner:
        for s in range(n):
            if s != winner:
                units += penalty(st[S_LO + s], st[S_HI + s], st[S_PLAYED + s] != 0, cfg)
    else:
        units -= penalty(st[S_LO + seat], st[S_HI + seat], st[S_PLAYED + seat] != 0, cfg)
    return units


