"""Compiled play phase on the state array: legal plays, out-of-turn chops, playing and passing,
rounds, going out and the hand's end (the play-phase half of :class:`tienlen.game.Game`)."""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .layout import (
    C_CHOP_AFTER_PASS,
    C_FIRST_OUT,
    C_LOCKS,
    C_OPENING,
    C_OPENING_MAY_PASS,
    C_OPENING_NO_CHAIN,
    C_OUT_OF_TURN,
    C_STACKING,
    PASS,
    S_AT_FIRST_OUT,
    S_FINISH,
    S_FIRST_PLAY,
    S_HI,
    S_LO,
    S_LOWEST,
    S_N,
    S_NFINISH,
    S_NO_PASS_LEAD,
    S_OPENING,
    S_OVER,
    S_PASSED,
    S_PLAYED,
    S_STACK_SEQ,
    S_STACKING,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
    S_WINDOW,
    SINGLE,
)
from .movegen import beats, bombs, is_entry_target, leads, push, same_shape_beats, size_of, without_chains


@jit
def hand_size(st: np.ndarray, seat: int) -> int:
    return size_of(st[S_LO + seat], st[S_HI + seat])


@jit
def locked(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    return st[S_PASSED + seat] != 0 and (cfg[C_LOCKS] != 0 or st[S_STACK_SEQ] != 0)


@jit
def legal_in_turn(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, buf: np.ndarray,
                  ws: np.ndarray) -> int:
    """The legal plays of the seat on turn into ``buf``; their number (more than the buffer
    holds: grow it and ask again)."""
    seat = st[S_TURN]
    if seat < 0:
        return 0
    lo = st[S_LO + seat]
    hi = st[S_HI + seat]
    cap = buf.shape[0]
    n = 0
    tshape = st[S_TSHAPE]
    if tshape == PASS:
        low = st[S_LOWEST]
        if st[S_OPENING] and low >= 0:
            mode = cfg[C_OPENING]
            if mode == 0:
                n = push(buf, n, 1 << low, 0, SINGLE, False)
            else:
                n = leads(lo, hi, cfg, buf, n, ws)
                if n > cap:
                    return n
                if mode == 1:  # contains the lowest card
                    m = 0
                    for i in range(n):
                        if (buf[i, 0] >> low) & 1:
                            buf[m, 0] = buf[i, 0]
                            buf[m, 1] = buf[i, 1]
                            buf[m, 2] = buf[i, 2]
                            m += 1
                    n = m
        else:
            n = leads(lo, hi, cfg, buf, n, ws)
        if n > cap:
            return n
        if st[S_FIRST_PLAY] and cfg[C_OPENING_NO_CHAIN]:
            n = without_chains(buf, 0, n)
        if st[S_OPENING] and low >= 0 and cfg[C_OPENING_MAY_PASS] and not st[S_NO_PASS_LEAD]:
            n = push(buf, n, 0, 0, PASS, False)
        return n
    ta = st[S_TA]
    tb = st[S_TB]
    if st[S_STACKING]:
        n = same_shape_beats(lo, hi, ta, tb, tshape, cfg, buf, n, ws)
    elif locked(st, cfg, seat):
        n = bombs(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
    else:
        n = beats(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
    return push(buf, n, 0, 0, PASS, False)


@jit
def out_of_turn_open(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    if not st[S_WINDOW] or st[S_OVER] or st[S_TSHAPE] == PASS:
        return False
    if seat == st[S_TURN] or seat == st[S_TSEAT] or hand_size(st, seat) == 0:
        return False
    return not (locked(st, cfg, seat) and not cfg[C_CHOP_AFTER_PASS])


@jit
def legal_out_of_turn(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int,
                      buf: np.ndarray, ws: np.ndarray) -> int:
    """The out-of-turn chops ``seat`` may make now (§6)."""
    if not out_of_turn_open(st, cfg, seat):
        return 0
    return bombs(st[S_LO + seat], st[S_HI + seat], st[S_TA], st[S_TB], st[S_TSHAPE], cfg, chops,
                 buf, 0, ws, False)


@jit
def next_with_cards(st: np.ndarray, seat: int) -> int:
    n = st[S_N]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if hand_size(st, s):
            return s
    return seat


@jit
def _end(st: np.ndarray) -> None:
    st[S_OVER] = 1
    st[S_TURN] = -1
    st[S_WINDOW] = 0
    st[S_STACKING] = 0


@jit
def _end_round(st: np.ndarray, last: int) -> None:
    n = st[S_N]
    st[S_TA] = 0
    st[S_TB] = 0
    st[S_TSHAPE] = PASS
    st[S_TSEAT] = -1
    for s in range(n):
        st[S_PASSED + s] = 0
    st[S_STACKING] = 0
    st[S_STACK_SEQ] = 0
    st[S_WINDOW] = 0
    st[S_TURN] = last if hand_size(st, last) else next_with_cards(st, last)


@jit
def _advance(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, after: int) -> None:
    n = st[S_N]
    stop = st[S_TSEAT]
    # §5: a passer keeps a chop-or-pass turn while a chop entry targets the table with
    # chop_after_pass, and after a stacked play when passes do not lock out
    chop_turns = ((cfg[C_CHOP_AFTER_PASS] != 0 or (st[S_STACK_SEQ] != 0 and cfg[C_LOCKS] == 0))
                  and st[S_TSHAPE] != PASS
                  and is_entry_target(st[S_TA], st[S_TB], st[S_TSHAPE], chops))
    s = after
    for _ in range(n):
        s = (s + 1) % n
        if s == stop:
            break
        if hand_size(st, s) == 0:
            continue
        if locked(st, cfg, s) and not chop_turns:
            continue
        st[S_TURN] = s
        return
    last = st[S_TSEAT]
    if cfg[C_STACKING] and hand_size(st, last):
        st[S_TURN] = last
        st[S_STACKING] = 1
        return
    _end_round(st, last)


@jit
def _went_out(st: np.ndarray, cfg: np.ndarray, seat: int) -> None:
    n = st[S_N]
    k = st[S_NFINISH]
    st[S_FINISH + k] = seat
    st[S_NFINISH] = k + 1
    if k == 0:
        for s in range(n):
            st[S_AT_FIRST_OUT + s] = hand_size(st, s)
    if cfg[C_FIRST_OUT]:
        # the others place by cards left (fewest first), ties in turn order after the winner
        placed = 1
        for size in range(0, 200):
            for i in range(1, n):
                s = (seat + i) % n
                if hand_size(st, s) == size:
                    st[S_FINISH + placed] = s
                    placed += 1
            if placed == n:
                break
        st[S_NFINISH] = n
        _end(st)
        return
    holding = 0
    last = -1
    for i in range(n):
        s = (seat + i) % n
        if hand_size(st, s):
            holding += 1
            last = s
    if holding <= 1:
        if holding == 1:
            st[S_FINISH + st[S_NFINISH]] = last
            st[S_NFINISH] += 1
        _end(st)


@jit
def apply(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int, a: int, b: int,
          shape: int) -> None:
    """Make a play (a pass when ``shape`` is 0) for ``seat``, in turn or out of turn; the play
    must be legal (as ``Game.push``, nothing is checked)."""
    n = st[S_N]
    if shape != PASS:
        lo = st[S_LO + seat]
        hi = st[S_HI + seat]
        st[S_LO + seat] = (lo & ~a) | (hi & a & ~b)
        st[S_HI + seat] = hi & ~a
        st[S_PLAYED + seat] = 1
        if st[S_STACKING]:
            st[S_STACK_SEQ] = 1
        st[S_STACKING] = 0
        st[S_TA] = a
        st[S_TB] = b
        st[S_TSHAPE] = shape
        st[S_TSEAT] = seat
        st[S_OPENING] = 0
        st[S_FIRST_PLAY] = 0
        st[S_NO_PASS_LEAD] = 0
        if not cfg[C_LOCKS] and not st[S_STACK_SEQ]:
            for s in range(n):
                st[S_PASSED + s] = 0
        st[S_WINDOW] = 1 if cfg[C_OUT_OF_TURN] and is_entry_target(a, b, shape, chops) else 0
        if st[S_LO + seat] == 0:
            _went_out(st, cfg, seat)
            if st[S_OVER]:
                return
        _advance(st, cfg, chops, seat)
        return
    st[S_WINDOW] = 0
    if st[S_STACKING]:
        _end_round(st, seat)
        return
    if st[S_TSHAPE] == PASS:  # the opener passes (opening_may_pass)
        st[S_PASSED + seat] = 1
        st[S_OPENING] = 0
        st[S_NO_PASS_LEAD] = 1
        st[S_TURN] = next_with_cards(st, seat)
        return
    st[S_PASSED + seat] = 1
    _advance(st, cfg, chops, seat)
