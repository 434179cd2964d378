"""Compiled playouts: random, greedy (:mod:`.greedy`) and heuristic (:mod:`.heuristic`) seats
played to the end of a hand, the search bot's rollouts, replays judged by the heuristic;
random deals and hands for the benchmark."""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .engine import apply, asked_seats, legal_in_turn, legal_out_of_turn
from .free import free_open
from .greedy import greedy_choice
from .heuristic import heuristic_choice
from .layout import (
    C_NFREE,
    C_OUT_OF_TURN,
    PASS,
    S_FINISH,
    S_FIRST_PLAY,
    S_HI,
    S_LO,
    S_LOWEST,
    S_N,
    S_NFINISH,
    S_OPENING,
    S_OVER,
    S_SIZE,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
)
from .movegen import WS_ROWS, low_key, size_of, top_key
from .ranking import best_by_key
from .units import hand_units, is_bomb, is_twos

RANDOM = 0
GREEDY = 1
HEURISTIC = 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
SCRIPTED = 3  # the moves of a script (:func:`traced_playout`)
# the kinds of decision a trace writes down (``tienlen.turns.Kind``: play, chop, free_chop)
ASK_PLAY = 0
ASK_CHOP = 1
ASK_FREE_CHOP = 2


@jit
def _grown(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, n: int, ws: np.ndarray) -> np.ndarray:
    """A buffer big enough for the ``n`` legal plays of ``st``, filled."""
    buf = np.zeros((2 * n, 3), dtype=np.int64)
    legal_in_turn(st, cfg, chops, buf, ws)
    return buf


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
    return playout_seats(st, cfg, chops, seats, total, aside_top, 0, memo, buf, max_steps)


@jit
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
    keys = np.empty((n, 3), dtype=np.int64)
    for i in range(n):
        size = size_of(buf[i, 0], buf[i, 1])
        top = top_key(buf[i, 0])
        keys[i, 0] = policy == HEURISTIC or not (any_same and buf[i, 2] != table)
        keys[i, 1] = size if policy == HEURISTIC else top
        keys[i, 2] = top if policy == HEURISTIC else size
    return best_by_key(keys, n, 2, buf, True)


@jit
def playout_seats(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seats: np.ndarray,
                  total: np.ndarray, aside_top: int, aside_keys: int, memo: dict,
                  buf: np.ndarray, max_steps: int) -> int:
    """:func:`playout` with each seat's own policy (``seats[seat]``), asked as
    :class:`tienlen.turns.Turns` asks: after every move the seats asked out of turn (§6 chop
    windows under ``chop_out_of_turn``, §11 free chops; :func:`~.engine.asked_seats`) answer
    first, in priority order, then the seat on turn."""
    none = np.zeros((0, 3), dtype=np.int64)
    return _play(st, cfg, chops, seats, total, aside_top, aside_keys, memo, buf, max_steps,
                 none, none)[0]


@jit
def traced_playout(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, memo: dict,
                   buf: np.ndarray, script: np.ndarray, trace: np.ndarray) -> tuple:
    """The loop of :func:`playout_seats` with every seat playing the moves of ``script`` (rows
    lo, hi, shape, one per decision in the order asked; ``pass``, all zeros, lets a chop out
    of turn go), writing down each decision it asks into ``trace``: a row (seat, kind, count),
    kind :data:`ASK_PLAY`, :data:`ASK_CHOP` or :data:`ASK_FREE_CHOP`, then the ``count`` moves
    offered (out of turn: the chops, then ``pass``). The differential test's window on the
    compiled order of asking (``tests/test_fast_turns.py``). Stops where the script ends or
    its move is not offered. Returns (decisions made, rows written; -1: ``trace`` is full)."""
    seats = np.full(8, SCRIPTED, dtype=np.int64)
    return _play(st, cfg, chops, seats, unplayed(st), -1, 0, memo, buf, 100_000, script, trace)


@jit
def _offered(trace: np.ndarray, row: int, seat: int, kind: int, buf: np.ndarray, n: int,
             out_of_turn: bool) -> int:
    """Write a decision into ``trace`` from ``row``; the next row (-1: no room)."""
    if row + n + 2 > trace.shape[0]:
        return -1
    trace[row, 0] = seat
    trace[row, 1] = kind
    trace[row, 2] = n + 1 if out_of_turn else n
    for i in range(n):
        trace[row + 1 + i] = buf[i]
    row += n + 1
    if out_of_turn:  # the decline
        trace[row] = 0
        row += 1
    return row


@jit
def _scripted(buf: np.ndarray, n: int, move: np.ndarray) -> int:
    """The index of ``move`` among the plays ``buf[:n]``, -1 when it is not there."""
    for i in range(n):
        if buf[i, 0] == move[0] and buf[i, 1] == move[1] and buf[i, 2] == move[2]:
            return i
    return -1


@jit
def _play(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seats: np.ndarray,
          total: np.ndarray, aside_top: int, aside_keys: int, memo: dict, buf: np.ndarray,
          max_steps: int, script: np.ndarray, trace: np.ndarray) -> tuple:
    """The compiled asking loop (:func:`playout_seats`, :func:`traced_playout`): it keeps its
    own copy of the order of :class:`tienlen.turns.Turns`, held to it by
    ``tests/test_fast_turns.py``. Returns (steps, rows of ``trace`` written, -1: full)."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    asked = np.zeros(8, dtype=np.int64)
    offers = cfg[C_OUT_OF_TURN] != 0 or cfg[C_NFREE] != 0  # else nobody is asked out of turn
    tracing = trace.shape[0] > 0
    rows = 0
    p = 0  # the script's next move
    steps = 0
    while st[S_TURN] >= 0 and steps < max_steps:
        seat = st[S_TURN]
        i = -1
        m = asked_seats(st, cfg, chops, asked) if offers else 0
        for j in range(m):
            other = asked[j]
            k = legal_out_of_turn(st, cfg, chops, other, buf, ws)
            if k > buf.shape[0]:
                buf = np.zeros((2 * k, 3), dtype=np.int64)
                k = legal_out_of_turn(st, cfg, chops, other, buf, ws)
            policy = seats[other]
            if tracing:
                kind = ASK_FREE_CHOP if free_open(st, cfg, chops, other) else ASK_CHOP
                rows = _offered(trace, rows, other, kind, buf, k, True)
                if rows < 0:
                    return steps, rows
            if policy == SCRIPTED:
                if p == script.shape[0]:
                    return steps, rows
                i = _scripted(buf, k, script[p])
                if i < 0 and script[p, 2] != PASS:
                    return steps, rows  # not offered
                p += 1
            else:
                i = out_of_turn_pick(st, buf, k, policy)
            if i >= 0:
                seat = other
                break
        if i < 0:
            n = legal_in_turn(st, cfg, chops, buf, ws)
            if n > buf.shape[0]:
                buf = _grown(st, cfg, chops, n, ws)
            if tracing:
                rows = _offered(trace, rows, seat, ASK_PLAY, buf, n, False)
                if rows < 0:
                    return steps, rows
            policy = seats[seat]
            if policy == RANDOM:
                i = np.random.randint(0, n)
            elif policy == GREEDY:
                i = greedy_choice(st, buf, n)
            elif policy == HEURISTIC:
                i = heuristic_choice(st, cfg, buf, n, total, aside_top, aside_keys, memo)
            else:
                if p == script.shape[0]:
                    return steps, rows
                i = _scripted(buf, n, script[p])
                if i < 0:
                    return steps, rows  # not offered
                p += 1
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
    return steps, rows


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
            i = heuristic_choice(st, cfg, buf, n, total, aside_top, 0, memo)
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
