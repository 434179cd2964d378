"""Compiled policies and playouts: random, greedy (``bots/simple.py``) and the heuristic
(``bots/heuristic.py``'s ``decide``, the search bot's rollout policy), played to the end of a
hand; random deals and hands for the benchmark."""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .engine import apply, hand_size, legal_in_turn, legal_out_of_turn, offer_seats
from .free import is_free_target
from .layout import (
    C_CHAIN_TOP,
    C_CONG,
    C_FOLLOW_SUIT,
    C_NFREE,
    C_NO_TWO_LAST,
    C_PENALISED,
    C_RED,
    C_RUN_TOP,
    CHAIN,
    PAIR,
    PASS,
    QUAD,
    QUAD_CHAIN,
    S_FINISH,
    S_FIRST_PLAY,
    S_HI,
    S_LO,
    S_LOWEST,
    S_N,
    S_NFINISH,
    S_OPENING,
    S_OVER,
    S_PLAYED,
    S_SIZE,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
    SINGLE,
    TRIPLE,
    TRIPLE_CHAIN,
)
from .movegen import WS_ROWS, low_key, size_of, top_key
from .split import groups_of, packed_counts, plan_of
from .suits import SUIT_MASK, red_mask
from .units import hand_units, is_bomb, is_twos

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
TWO = 12


@jit
def _grown(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, n: int, ws: np.ndarray) -> np.ndarray:
    """A buffer big enough for the ``n`` legal plays of ``st``, filled."""
    buf = np.zeros((2 * n, 3), dtype=np.int64)
    legal_in_turn(st, cfg, chops, buf, ws)
    return buf


@kernel
def greedy_choice(st: np.ndarray, buf: np.ndarray, n: int) -> int:
    """The cheapest beat, the lowest lead; a pass only with nothing else."""
    best = -1
    table = st[S_TSHAPE]
    any_same = False
    if table != PASS:
        for i in range(n):
            if buf[i, 2] == table:
                any_same = True
                break
    bk0 = 0
    bk1 = 0
    bk2 = 0
    for i in range(n):
        if buf[i, 2] == PASS:
            continue
        a = buf[i, 0]
        size = size_of(a, buf[i, 1])
        if table == PASS:
            k0 = low_key(a)
            k1 = -size
            k2 = top_key(a)
        else:
            if any_same and buf[i, 2] != table:
                continue
            k0 = top_key(a)
            k1 = size
            k2 = 0
        if _wins(best, (k0, k1, k2), (bk0, bk1, bk2), buf, i, True):
            best = i
            bk0 = k0
            bk1 = k1
            bk2 = k2
    if best < 0:
        for i in range(n):
            if buf[i, 2] == PASS:
                return i
        return 0
    return best


@kernel
def _before(buf: np.ndarray, i: int, j: int) -> bool:
    """Whether play i comes before play j in the pure engine's order (shapes in the order
    leads are listed, then the lower cards first): ties go to the first, as in ``min``."""
    if buf[i, 2] != buf[j, 2]:
        return buf[i, 2] < buf[j, 2]
    return _lex_less(buf[i, 0], buf[i, 1], buf[j, 0], buf[j, 1])


@kernel
def _lex_less(aa: int, ab: int, ba: int, bb: int) -> bool:
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
def _wins(best: int, key: object, best_key: object, buf: np.ndarray, i: int, lower: bool) -> bool:
    """Whether play i, of sort key ``key``, replaces the best so far (the lowest key when
    ``lower``, else the highest; the first in the pure engine's order on ties)."""
    if best < 0:
        return True
    if key == best_key:
        return _before(buf, i, best)
    return key < best_key if lower else key > best_key  # type: ignore[operator, unused-ignore]


@kernel
def _precious(a: int, b: int, shape: int) -> bool:
    if top_key(a) >> 2 == TWO:
        return True
    return shape == QUAD or (shape == CHAIN and size_of(a, b) >= 6) or shape == TRIPLE_CHAIN or \
        shape == QUAD_CHAIN


@kernel
def _is_boss(a: int, b: int, shape: int, unseen: np.ndarray, unseen_top: int) -> bool:
    top = top_key(a)
    if shape == SINGLE:
        return unseen_top < top
    size = size_of(a, b)
    if shape == PAIR or shape == TRIPLE or shape == QUAD:
        for r in range((top >> 2) + 1, 13):
            if unseen[r] >= size:
                return False
        return True
    return False


@kernel
def _minus(packed: int, a: int, b: int) -> int:
    x = a
    while x:
        k = low_key(x)
        packed -= 1 << (4 * (k >> 2))
        x &= x - 1
    x = b
    while x:
        k = low_key(x)
        packed -= 1 << (4 * (k >> 2))
        x &= x - 1
    return packed


@kernel
def _colour_counts(lo: int, hi: int, red: int) -> tuple:
    """The packed rank counts of the black cards and of the red cards."""
    rm = red_mask(red)
    return packed_counts(lo & ~rm, hi & ~rm), packed_counts(lo & rm, hi & rm)


@jit
def _after(counts: int, black: int, red: int, a: int, b: int, cfg: np.ndarray,
           memo: dict) -> int:
    """How many groups the hand splits into once play (a, b) is made: on rank counts, or under
    ``follow_suit`` each colour on its own, without runs (``heuristic._colour_plan``)."""
    if not cfg[C_FOLLOW_SUIT]:
        return groups_of(_minus(counts, a, b), cfg[C_RUN_TOP], cfg[C_CHAIN_TOP], memo)
    rm = red_mask(cfg[C_RED])
    chain_top = cfg[C_CHAIN_TOP]
    return groups_of(_minus(black, a & ~rm, b & ~rm), -1, chain_top, memo) + \
        groups_of(_minus(red, a & rm, b & rm), -1, chain_top, memo)


@kernel
def _suited_boss(a: int, unseen_keys: int) -> bool:
    """``follow_suit``: no unseen card of the single's suit, nor a two, is higher."""
    top = top_key(a)
    if top >> 2 == TWO:
        return False  # not this test's: the plain one decides
    higher = unseen_keys & ~((1 << (top + 1)) - 1)
    return (higher & (SUIT_MASK[top & 3] | (15 << (4 * TWO)))) == 0


@jit
def heuristic_choice(st: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int, total: np.ndarray,
                     aside_top: int, memo: dict) -> int:
    """The heuristic's choice (``bots.heuristic.decide``) for the seat on turn, which counts
    as unseen the cards of each rank in ``total`` (unplayed) less its own (and under
    ``follow_suit`` the cards the other seats hold)."""
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
        black, red = _colour_counts(lo, hi, cfg[C_RED])
        base = groups_of(black, -1, chain_top, memo) + groups_of(red, -1, chain_top, memo)
    else:
        base = groups_of(counts, run_top, chain_top, memo)
    danger = 99
    unseen_top = aside_top
    unseen_keys = 0
    for s in range(players):
        if s != seat:
            size = hand_size(st, s)
            if size > 0:
                danger = min(danger, size)
                unseen_top = max(unseen_top, top_key(st[S_LO + s]))
                unseen_keys |= st[S_LO + s]
    # twos and bombs left cost penalties: spend them when a player is about to go out
    spend = cfg[C_PENALISED] != 0 and danger <= 2
    table = st[S_TSHAPE]
    if table == PASS:
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
                        _after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo) - (base - 1) == 0:
                    clean[i] = True
                    n_clean += 1
        if base <= 2 and n_clean:
            unseen = np.empty(13, dtype=np.int64)
            for r in range(13):
                unseen[r] = total[r] - ((counts >> (4 * r)) & 15)
            best = -1
            best_size = 0
            for i in range(n):
                boss = (_suited_boss(buf[i, 0], unseen_keys)
                        if follow and buf[i, 2] == SINGLE and top_key(buf[i, 0]) >> 2 != TWO
                        else _is_boss(buf[i, 0], buf[i, 1], buf[i, 2], unseen, unseen_top))
                if clean[i] and boss:
                    size = size_of(buf[i, 0], buf[i, 1])
                    if _wins(best, size, best_size, buf, i, False):
                        best = i
                        best_size = size
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
                best = -1
                bk0 = 0
                bk1 = 0
                for i in range(n):
                    if buf[i, 2] == PASS:
                        continue
                    k0 = 1 if size_of(buf[i, 0], buf[i, 1]) == 1 else 0
                    k1 = top_key(buf[i, 0])
                    if _wins(best, (k0, k1), (bk0, bk1), buf, i, False):
                        best = i
                        bk0 = k0
                        bk1 = k1
                return best
        best = -1
        bk0 = 0
        bk1 = 0
        bk2 = 0
        bk3 = 0
        for i in range(n):
            if not clean[i]:
                continue
            a = buf[i, 0]
            size = size_of(a, buf[i, 1])
            top = top_key(a)
            k0 = 1 if _precious(a, buf[i, 1], buf[i, 2]) and nh > size + 2 and not spend else 0
            if _wins(best, (k0, top >> 2, -size, top), (bk0, bk1, bk2, bk3), buf, i, True):
                best = i
                bk0 = k0
                bk1 = top >> 2
                bk2 = -size
                bk3 = top
        return best

    # following
    ta = st[S_TA]
    tsize = size_of(ta, st[S_TB])
    table_rank = top_key(ta) >> 2
    n_bombs = 0
    for i in range(n):
        if buf[i, 2] != PASS and (buf[i, 2] != table or size_of(buf[i, 0], buf[i, 1]) != tsize):
            n_bombs += 1
    if n_bombs and table_rank == TWO:
        best = -1
        bk0 = 0
        bk1 = 0
        bk2 = 0
        for i in range(n):
            if buf[i, 2] == PASS:
                continue
            size = size_of(buf[i, 0], buf[i, 1])
            if buf[i, 2] == table and size == tsize:
                continue
            k0 = _after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo)
            k2 = top_key(buf[i, 0])
            if _wins(best, (k0, size, k2), (bk0, bk1, bk2), buf, i, True):
                best = i
                bk0 = k0
                bk1 = size
                bk2 = k2
        return best
    # cóng (§11): a seat that has put down no card is placed last when the first goes out
    cong_risk = cfg[C_CONG] != 0 and st[S_PLAYED + seat] == 0 and danger <= 4
    urgent = danger <= tsize or base <= 2 or cong_risk or spend
    if follow and not urgent:
        # a beat must keep the suit: take the chance with the cheapest card that is no two
        best = -1
        bk0 = 0
        bk1 = 0
        for i in range(n):
            if buf[i, 2] == PASS:
                continue
            a = buf[i, 0]
            if n_bombs and (buf[i, 2] != table or size_of(a, buf[i, 1]) != tsize):
                continue
            if top_key(a) >> 2 == TWO:
                continue
            k0 = _after(counts, black, red, a, buf[i, 1], cfg, memo) - (base - 1)
            k1 = top_key(a)
            if _wins(best, (k0, k1), (bk0, bk1), buf, i, True):
                best = i
                bk0 = k0
                bk1 = k1
        if best >= 0:
            return best
    best = -1
    bk0 = 0
    bk1 = 0
    bk2 = 0
    for i in range(n):
        if buf[i, 2] == PASS:
            continue
        a = buf[i, 0]
        size = size_of(a, buf[i, 1])
        if n_bombs and (buf[i, 2] != table or size != tsize):
            continue
        brk = _after(counts, black, red, a, buf[i, 1], cfg, memo) - (base - 1)
        top_rank = top_key(a) >> 2
        precious = _precious(a, buf[i, 1], buf[i, 2])
        if not urgent:
            if brk > (1 if base <= 4 else 0):
                continue
            if precious and top_rank == TWO:
                if table_rank < 9 and base > 3 and size == 1:
                    continue
                if size > 1 and base > 3:
                    continue
            elif precious:
                continue
            if top_rank - table_rank > 6 and base > 4:
                continue
        k1 = 1 if precious else 0
        if _wins(best, (brk, k1, top_rank), (bk0, bk1, bk2), buf, i, True):
            best = i
            bk0 = brk
            bk1 = k1
            bk2 = top_rank
    if best < 0:
        if urgent and not can_pass:
            return _extreme(buf, n, False)
        if urgent:
            return _extreme(buf, n, True)  # block
        if can_pass:
            return pass_at
        return _extreme(buf, n, False)
    if urgent and danger <= tsize:
        # block: the highest beat of the same shape
        best = -1
        bk0 = 0
        bk1 = 0
        for i in range(n):
            if buf[i, 2] == PASS:
                continue
            if n_bombs and (buf[i, 2] != table or size_of(buf[i, 0], buf[i, 1]) != tsize):
                continue
            brk = _after(counts, black, red, buf[i, 0], buf[i, 1], cfg, memo) - (base - 1)
            k0 = 1 if brk <= 1 else 0
            k1 = top_key(buf[i, 0])
            if _wins(best, (k0, k1), (bk0, bk1), buf, i, False):
                best = i
                bk0 = k0
                bk1 = k1
        return best
    return best


@kernel
def _extreme(buf: np.ndarray, n: int, highest: bool) -> int:
    """The real play with the lowest (or highest) top card."""
    best = -1
    bk = 0
    for i in range(n):
        if buf[i, 2] == PASS:
            continue
        k = top_key(buf[i, 0])
        if _wins(best, k, bk, buf, i, not highest):
            best = i
            bk = k
    return best


@jit
def unplayed(st: np.ndarray) -> np.ndarray:
    """How many cards of each rank the seats hold."""
    total = np.zeros(13, dtype=np.int64)
    for s in range(st[S_N]):
        lo = st[S_LO + s]
        hi = st[S_HI + s]
        x = lo
        while x:
            total[low_key(x) >> 2] += 1
            x &= x - 1
        x = hi
        while x:
            total[low_key(x) >> 2] += 1
            x &= x - 1
    return total


@jit
def playout(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, policy: int, total: np.ndarray,
            aside_top: int, memo: dict, buf: np.ndarray, max_steps: int) -> int:
    """Play the hand to its end (or ``max_steps``) with ``policy`` at every seat, in turn only;
    ``total`` (updated) counts the unplayed cards of each rank, set-aside ones included.
    Returns the steps."""
    seats = np.full(8, policy, dtype=np.int64)
    return playout_seats(st, cfg, chops, seats, total, aside_top, memo, buf, max_steps)


@kernel
def out_of_turn_pick(st: np.ndarray, buf: np.ndarray, n: int, policy: int) -> int:
    """A seat's answer to a free-chop offer (plays ``buf[:n]``), -1 to decline: the heuristic's
    ``out_of_turn_choice`` (the smallest chop, against twos or a bomb only), greedy's choice
    (any chop, the lowest, of the table's shape first); the random policy declines."""
    if n == 0 or policy == RANDOM:
        return -1
    ta = st[S_TA]
    table = st[S_TSHAPE]
    if policy == HEURISTIC and not (is_twos(ta) or is_bomb(ta, st[S_TB], table)):
        return -1
    any_same = False
    for i in range(n):
        if buf[i, 2] == table:
            any_same = True
    best = -1
    bk0 = 0
    bk1 = 0
    for i in range(n):
        size = size_of(buf[i, 0], buf[i, 1])
        top = top_key(buf[i, 0])
        if policy == HEURISTIC:
            k0 = size
            k1 = top
        else:
            if any_same and buf[i, 2] != table:
                continue
            k0 = top
            k1 = size
        if _wins(best, (k0, k1), (bk0, bk1), buf, i, True):
            best = i
            bk0 = k0
            bk1 = k1
    return best


@jit
def playout_seats(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seats: np.ndarray,
                  total: np.ndarray, aside_top: int, memo: dict, buf: np.ndarray,
                  max_steps: int) -> int:
    """:func:`playout` with each seat's own policy (``seats[seat]``). While the table is a free
    chop's target (§11) each seat offered one answers first, in the order of the offers."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    offered = np.zeros(8, dtype=np.int64)
    steps = 0
    while st[S_TURN] >= 0 and steps < max_steps:
        seat = st[S_TURN]
        i = -1
        if cfg[C_NFREE] and is_free_target(st[S_TA], st[S_TB], st[S_TSHAPE], cfg, chops):
            m = offer_seats(st, cfg, chops, offered, buf, ws)
            for j in range(m):
                other = offered[j]
                k = legal_out_of_turn(st, cfg, chops, other, buf, ws)
                if k > buf.shape[0]:
                    buf = np.zeros((2 * k, 3), dtype=np.int64)
                    k = legal_out_of_turn(st, cfg, chops, other, buf, ws)
                i = out_of_turn_pick(st, buf, k, seats[other])
                if i >= 0:
                    seat = other
                    break
        if i < 0:
            n = legal_in_turn(st, cfg, chops, buf, ws)
            if n > buf.shape[0]:
                buf = _grown(st, cfg, chops, n, ws)
            policy = seats[seat]
            if policy == RANDOM:
                i = np.random.randint(0, n)
            elif policy == GREEDY:
                i = greedy_choice(st, buf, n)
            else:
                i = heuristic_choice(st, cfg, buf, n, total, aside_top, memo)
        a = buf[i, 0]
        b = buf[i, 1]
        apply(st, cfg, chops, seat, a, b, buf[i, 2])
        x = a
        while x:
            total[low_key(x) >> 2] -= 1
            x &= x - 1
        x = b
        while x:
            total[low_key(x) >> 2] -= 1
            x &= x - 1
        steps += 1
    return steps


@jit
def rollouts(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int, moves: np.ndarray,
             total: np.ndarray, aside_top: int, memo: dict, buf: np.ndarray, policy: int,
             places: np.ndarray, units: np.ndarray) -> int:
    """Play each of ``moves`` (rows lo, hi, shape) for ``seat`` and the hand out with the
    policy; ``places[i]``: the seat's place after move i (-1: never out), ``units[i]`` the
    units it wins or pays in the hand (0 when it never ended). Returns the steps."""
    steps = 0
    for i in range(moves.shape[0]):
        trial = st.copy()
        left = total.copy()
        apply(trial, cfg, chops, seat, moves[i, 0], moves[i, 1], moves[i, 2])
        x = moves[i, 0]
        while x:
            left[low_key(x) >> 2] -= 1
            x &= x - 1
        x = moves[i, 1]
        while x:
            left[low_key(x) >> 2] -= 1
            x &= x - 1
        steps += playout(trial, cfg, chops, policy, left, aside_top, memo, buf, 2000) + 1
        places[i] = -1
        for p in range(trial[S_NFINISH]):
            if trial[S_FINISH + p] == seat:
                places[i] = p
        units[i] = hand_units(trial, cfg, seat) if trial[S_OVER] else 0
    return steps


@jit
def seed(value: int) -> None:
    np.random.seed(value)


@jit
def deal(players: int, size: int, packs: int, dealer: int) -> np.ndarray:
    """A shuffled deal of ``size`` cards each, first hand, the holder of the lowest card
    leading (set-aside cards dropped)."""
    deck = np.empty(52 * packs, dtype=np.int64)
    for i in range(52 * packs):
        deck[i] = i % 52
    np.random.shuffle(deck)
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_N] = players
    for i in range(size * players):
        s = (dealer + 1 + i) % players
        bit = 1 << deck[i]
        if st[S_LO + s] & bit:
            st[S_HI + s] |= bit
        else:
            st[S_LO + s] |= bit
    leader = -1
    low = 99
    for i in range(players):
        s = (dealer + 1 + i) % players
        k = low_key(st[S_LO + s])
        if k < low:
            low = k
            leader = s
    st[S_TURN] = leader
    st[S_TSEAT] = -1
    st[S_LOWEST] = low
    st[S_OPENING] = 1
    st[S_FIRST_PLAY] = 1
    return st


@jit
def play_hands(cfg: np.ndarray, chops: np.ndarray, players: int, size: int, packs: int,
               hands: int, policy: int, memo: dict) -> int:
    """Deal and play ``hands`` hands with ``policy`` at every seat; returns the decisions."""
    buf = np.zeros((1024, 3), dtype=np.int64)
    decisions = 0
    for h in range(hands):
        st = deal(players, size, packs, h % players)
        total = unplayed(st)
        decisions += playout(st, cfg, chops, policy, total, -1, memo, buf, 100_000)
    return decisions


@jit
def positions(cfg: np.ndarray, chops: np.ndarray, players: int, size: int, packs: int,
              hands: int) -> np.ndarray:
    """The states met in ``hands`` random hands, one row each (for timing generation)."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    buf = np.zeros((1024, 3), dtype=np.int64)
    out = np.zeros((hands * 120, S_SIZE), dtype=np.int64)
    m = 0
    for h in range(hands):
        st = deal(players, size, packs, h % players)
        while st[S_TURN] >= 0 and m < out.shape[0]:
            out[m] = st
            m += 1
            n = legal_in_turn(st, cfg, chops, buf, ws)
            if n > buf.shape[0]:
                buf = _grown(st, cfg, chops, n, ws)
            i = np.random.randint(0, n)
            apply(st, cfg, chops, st[S_TURN], buf[i, 0], buf[i, 1], buf[i, 2])
    return out[:m]


@jit
def generate_all(states: np.ndarray, cfg: np.ndarray, chops: np.ndarray) -> int:
    """Legal-play generation at every state (for timing); the plays listed in all."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    buf = np.zeros((1024, 3), dtype=np.int64)
    total = 0
    for i in range(states.shape[0]):
        n = legal_in_turn(states[i], cfg, chops, buf, ws)
        if n > buf.shape[0]:
            buf = _grown(states[i], cfg, chops, n, ws)
        total += n
    return total


@jit
def replay(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, moves: np.ndarray, start: int,
           me: int, total: np.ndarray, aside_top: int, memo: dict, buf: np.ndarray,
           misfits: int, cap: int, judge: bool) -> tuple:
    """Replay ``moves[start:]`` (rows seat, lo, hi, shape) on ``st``, counting as misfits the
    decisions of seats other than ``me``, in turn, that the heuristic would not have made
    (with ``judge``; ``total`` counts the unplayed cards of each rank and is updated).
    Returns (misfits, moves replayed); misfits is -1 once they pass ``cap``."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    work = 0
    for j in range(start, moves.shape[0]):
        work += 1
        seat = moves[j, 0]
        a = moves[j, 1]
        b = moves[j, 2]
        if st[S_TURN] < 0:
            return -1, work
        if judge and seat != me and st[S_TURN] == seat:
            n = legal_in_turn(st, cfg, chops, buf, ws)
            if n > buf.shape[0]:
                buf = _grown(st, cfg, chops, n, ws)
            i = heuristic_choice(st, cfg, buf, n, total, aside_top, memo)
            if buf[i, 0] != a or buf[i, 1] != b:
                misfits += 1
                if misfits > cap:
                    return -1, work
        apply(st, cfg, chops, seat, a, b, moves[j, 3])
        x = a
        while x:
            total[low_key(x) >> 2] -= 1
            x &= x - 1
        x = b
        while x:
            total[low_key(x) >> 2] -= 1
            x &= x - 1
    return misfits, work
