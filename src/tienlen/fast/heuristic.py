"""The compiled heuristic's choice (``bots.heuristic.decide``), the search bot's rollout policy."""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .appraise import after, colour_counts, is_boss, precious, suited_boss
from .engine import hand_size
from .layout import (
    C_CHAIN_TOP,
    C_CONG,
    C_FOLLOW_SUIT,
    C_NO_TWO_LAST,
    C_PENALISED,
    C_RED,
    C_RUN_TOP,
    PASS,
    S_HI,
    S_LO,
    S_N,
    S_PLAYED,
    S_TA,
    S_TB,
    S_TSHAPE,
    S_TURN,
    SINGLE,
)
from .movegen import low_key, size_of, top_key
from .ranking import best_by_key
from .split import groups_of, packed_counts, plan_of
from .units import is_twos

TWO = 12


@kernel
def _extreme(keys: np.ndarray, buf: np.ndarray, n: int, highest: bool) -> int:
    """The real play with the lowest (or highest) top card."""
    for i in range(n):
        keys[i, 0] = buf[i, 2] != PASS
        keys[i, 1] = top_key(buf[i, 0])
    return best_by_key(keys, n, 1, buf, not highest)


@jit
def heuristic_choice(st: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int, total: np.ndarray,
                     aside_top: int, aside_keys: int, memo: dict) -> int:
    """The heuristic's choice (``bots.heuristic.decide``) for the seat on turn, which counts
    as unseen the cards of each rank in ``total`` (unplayed) less its own, the highest being
    the other seats' or ``aside_top`` (and under ``follow_suit`` the cards the other seats
    hold and the keys of ``aside_keys``)."""
    seat = st[S_TURN]
    players = st[S_N]
    can_pass = False
    n_real = 0
    pass_at = 0
    for i in range(n):
        if buf[i, 2] == PASS:
            can_pass = True
            pass_at = i
        else:
            n_real += 1
    if n_real == 0:
        return pass_at
    lo = st[S_LO + seat]
    hi = st[S_HI + seat]
    nh = size_of(lo, hi)
    n_others = 0
    for s in range(players):
        if s != seat and hand_size(st, s) > 0:
            n_others += 1
    for i in range(n):
        if buf[i, 2] != PASS and size_of(buf[i, 0], buf[i, 1]) == nh and not (
                cfg[C_NO_TWO_LAST] and is_twos(buf[i, 0]) and n_others > 1):
            return i  # going out (on twos only when that is not the last place)
    follow = cfg[C_FOLLOW_SUIT] != 0
    run_top = cfg[C_RUN_TOP]
    chain_top = cfg[C_CHAIN_TOP]
    counts = packed_counts(lo, hi)
    black = 0
    red = 0
    if follow:
        black, red = colour_counts(lo, hi, cfg[C_RED])
        base = groups_of(black, -1, chain_top, memo) + groups_of(red, -1, chain_top, memo)
    else:
        base = groups_of(counts, run_top, chain_top, memo)
    danger = 99
    unseen_top = aside_top
    unseen_keys = aside_keys
    for s in range(players):
        if s != seat:
            size = hand_size(st, s)
            if size > 0:
                danger = min(danger, size)
                unseen_top = max(unseen_top, top_key(st[S_LO + s]))
                unseen_keys |= st[S_LO + s]
    # twos and bombs left cost penalties: spend them when a player is about to go out
    spend = cfg[C_PENALISED] != 0 and danger <= 2
    keys = np.empty((n, 5), dtype=np.int64)  # per play: a candidate?, then its sort key
    if st[S_TSHAPE] == PASS:
        return _lead(st, cfg, buf, n, total, keys, counts, black, red, base, nh, danger, spend,
                     unseen_top, unseen_keys, memo)
    return _follow(st, cfg, buf, n, keys, counts, black, red, base, danger, spend, can_pass,
                   pass_at, seat, memo)


@jit
def _lead(st: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int, total: np.ndarray,
          keys: np.ndarray, counts: int, black: int, red: int, base: int, nh: int, danger: int,
          spend: bool, unseen_top: int, unseen_keys: int, memo: dict) -> int:
    """The heuristic's lead: a clean group, a boss to finish, a block, the lowest."""
    follow = cfg[C_FOLLOW_SUIT] != 0
    run_top = cfg[C_RUN_TOP]
    chain_top = cfg[C_CHAIN_TOP]
    plan = np.empty((28, 3), dtype=np.int64)
    if follow:
        m = plan_of(black, -1, chain_top, memo, plan)
        m += plan_of(red, -1, chain_top, memo, plan[m:])
    else:
        m = plan_of(counts, run_top, chain_top, memo, plan)
    clean = np.zeros(n, dtype=np.bool_)
    n_clean = 0
    for i in range(n):
        if buf[i, 2] == PASS:
            continue
        a = buf[i, 0]
        lr = low_key(a) >> 2
        hr = top_key(a) >> 2
        size = size_of(a, buf[i, 1])
        for g in range(m):
            if plan[g, 0] == lr and plan[g, 1] == hr and plan[g, 2] == size:
                clean[i] = True
                n_clean += 1
                break
    if n_clean == 0:
        for i in range(n):
            if buf[i, 2] != PASS and \
                    after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo) - (base - 1) == 0:
                clean[i] = True
                n_clean += 1
    if base <= 2 and n_clean:
        unseen = np.empty(13, dtype=np.int64)
        for r in range(13):
            unseen[r] = total[r] - ((counts >> (4 * r)) & 15)
        for i in range(n):
            boss = (suited_boss(buf[i, 0], unseen_keys)
                    if follow and buf[i, 2] == SINGLE and top_key(buf[i, 0]) >> 2 != TWO
                    else is_boss(buf[i, 0], buf[i, 1], buf[i, 2], unseen, unseen_top))
            keys[i, 0] = clean[i] and boss
            keys[i, 1] = size_of(buf[i, 0], buf[i, 1])
        best = best_by_key(keys, n, 1, buf, False)  # the biggest boss
        if best >= 0:
            return best
    if n_clean == 0:
        for i in range(n):
            clean[i] = buf[i, 2] != PASS
    if danger == 1:
        multi = 0
        for i in range(n):
            if clean[i] and size_of(buf[i, 0], buf[i, 1]) > 1:
                multi += 1
        if multi:
            for i in range(n):
                if clean[i] and size_of(buf[i, 0], buf[i, 1]) == 1:
                    clean[i] = False
        else:  # block with the highest single
            for i in range(n):
                keys[i, 0] = buf[i, 2] != PASS
                keys[i, 1] = 1 if size_of(buf[i, 0], buf[i, 1]) == 1 else 0
                keys[i, 2] = top_key(buf[i, 0])
            return best_by_key(keys, n, 2, buf, False)
    for i in range(n):
        a = buf[i, 0]
        size = size_of(a, buf[i, 1])
        top = top_key(a)
        keys[i, 0] = clean[i]
        keys[i, 1] = 1 if precious(a, buf[i, 1], buf[i, 2]) and nh > size + 2 and not spend \
            else 0
        keys[i, 2] = top >> 2
        keys[i, 3] = -size
        keys[i, 4] = top
    return best_by_key(keys, n, 4, buf, True)


@jit
def _follow(st: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int, keys: np.ndarray,
            counts: int, black: int, red: int, base: int, danger: int, spend: bool,
            can_pass: bool, pass_at: int, seat: int, memo: dict) -> int:
    """The heuristic's answer to the table: a bomb on twos, a cheap beat, a block, a pass."""
    follow = cfg[C_FOLLOW_SUIT] != 0
    table = st[S_TSHAPE]
    ta = st[S_TA]
    tsize = size_of(ta, st[S_TB])
    table_rank = top_key(ta) >> 2
    n_bombs = 0
    for i in range(n):
        if buf[i, 2] != PASS and (buf[i, 2] != table or size_of(buf[i, 0], buf[i, 1]) != tsize):
            n_bombs += 1
    if n_bombs and table_rank == TWO:  # the bomb that breaks the hand least, then the smallest
        for i in range(n):
            size = size_of(buf[i, 0], buf[i, 1])
            keys[i, 0] = buf[i, 2] != PASS and not (buf[i, 2] == table and size == tsize)
            if keys[i, 0]:
                keys[i, 1] = after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo)
                keys[i, 2] = size
                keys[i, 3] = top_key(buf[i, 0])
        return best_by_key(keys, n, 3, buf, True)
    # cóng (§11): a seat that has put down no card is placed last when the first goes out
    cong_risk = cfg[C_CONG] != 0 and st[S_PLAYED + seat] == 0 and danger <= 4
    urgent = danger <= tsize or base <= 2 or cong_risk or spend
    if follow and not urgent:
        # a beat must keep the suit: take the chance with the cheapest card that is no two
        for i in range(n):
            a = buf[i, 0]
            keys[i, 0] = buf[i, 2] != PASS and top_key(a) >> 2 != TWO and not (
                n_bombs > 0 and (buf[i, 2] != table or size_of(a, buf[i, 1]) != tsize))
            if keys[i, 0]:
                keys[i, 1] = after(counts, black, red, a, buf[i, 1], cfg, memo) - (base - 1)
                keys[i, 2] = top_key(a)
        best = best_by_key(keys, n, 2, buf, True)
        if best >= 0:
            return best
    for i in range(n):
        keys[i, 0] = 0
        if buf[i, 2] == PASS:
            continue
        a = buf[i, 0]
        size = size_of(a, buf[i, 1])
        if n_bombs and (buf[i, 2] != table or size != tsize):
            continue
        brk = after(counts, black, red, a, buf[i, 1], cfg, memo) - (base - 1)
        top_rank = top_key(a) >> 2
        dear = precious(a, buf[i, 1], buf[i, 2])
        if not urgent:
            if brk > (1 if base <= 4 else 0):
                continue
            if dear and top_rank == TWO:
                if table_rank < 9 and base > 3 and size == 1:
                    continue
                if size > 1 and base > 3:
                    continue
            elif dear:
                continue
            if top_rank - table_rank > 6 and base > 4:
                continue
        keys[i, 0] = 1
        keys[i, 1] = brk
        keys[i, 2] = 1 if dear else 0
        keys[i, 3] = top_rank
    best = best_by_key(keys, n, 3, buf, True)
    if best < 0:
        if urgent and not can_pass:
            return _extreme(keys, buf, n, False)
        if urgent:
            return _extreme(keys, buf, n, True)  # block
        if can_pass:
            return pass_at
        return _extreme(keys, buf, n, False)
    if urgent and danger <= tsize:
        # block: the highest beat of the same shape
        for i in range(n):
            keys[i, 0] = buf[i, 2] != PASS and not (
                n_bombs > 0 and (buf[i, 2] != table or size_of(buf[i, 0], buf[i, 1]) != tsize))
            if keys[i, 0]:
                brk = after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo) - (base - 1)
                keys[i, 1] = 1 if brk <= 1 else 0
                keys[i, 2] = top_key(buf[i, 0])
        return best_by_key(keys, n, 2, buf, False)
    return best
