"""Compiled play phase on the state array: legal plays, out-of-turn and free chops, playing and
passing, rounds, chop payments, going out, cóng and the hand's end (the play-phase half of
:class:`tienlen.game.Game`)."""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .free import free_chops, free_open, free_pattern, is_free_target
from .layout import (
    C_CHOP_AFTER_PASS,
    C_CHOP_PAY,
    C_CONG,
    C_FIRST_OUT,
    C_FOLLOW_SUIT,
    C_LOCKS,
    C_NFREE,
    C_NO_TWO_LAST,
    C_OPENING,
    C_OPENING_MAY_PASS,
    C_OPENING_NO_CHAIN,
    C_OUT_OF_TURN,
    C_RED,
    C_SCORING,
    C_STACKING,
    CHOP_ROW,
    MAX_CHOPS,
    PASS,
    S_AT_FIRST_OUT,
    S_BOTTOM,
    S_CHOPS,
    S_CONG,
    S_FINISH,
    S_FIRST_PLAY,
    S_HI,
    S_LCHOPPER,
    S_LEDGER,
    S_LO,
    S_LOWEST,
    S_LOWNER,
    S_N,
    S_NBOTTOM,
    S_NCHOPS,
    S_NCONG,
    S_NFINISH,
    S_NO_PASS_LEAD,
    S_OPENING,
    S_OUT,
    S_OVER,
    S_PAID,
    S_PASSED,
    S_PLAYED,
    S_ROUND,
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
from .movegen import (
    bombs,
    is_entry_target,
    is_target,
    leads,
    push,
    same_shape_beats,
    size_of,
    without_chains,
)
from .suits import keep_suited
from .units import is_chop, is_twos, worth


@kernel
def hand_size(st: np.ndarray, seat: int) -> int:
    return size_of(st[S_LO + seat], st[S_HI + seat])


@kernel
def locked(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    return st[S_PASSED + seat] != 0 and (cfg[C_LOCKS] != 0 or st[S_STACK_SEQ] != 0)


@kernel
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
                if cfg[C_FOLLOW_SUIT]:
                    n = keep_suited(buf, 0, n, cfg[C_RED], False, 0, 0, 0)
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
        if cfg[C_FOLLOW_SUIT]:
            n = keep_suited(buf, 0, n, cfg[C_RED], False, 0, 0, 0)
        if st[S_FIRST_PLAY] and cfg[C_OPENING_NO_CHAIN]:
            n = without_chains(buf, 0, n)
        if st[S_OPENING] and low >= 0 and cfg[C_OPENING_MAY_PASS] and not st[S_NO_PASS_LEAD]:
            n = push(buf, n, 0, 0, PASS, False)
        return n
    ta = st[S_TA]
    tb = st[S_TB]
    if locked(st, cfg, seat) and not st[S_STACKING]:
        n = bombs(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
        return push(buf, n, 0, 0, PASS, False)
    n = same_shape_beats(lo, hi, ta, tb, tshape, cfg, buf, n, ws)
    if cfg[C_FOLLOW_SUIT]:
        n = keep_suited(buf, 0, n, cfg[C_RED], True, ta, tb, tshape)
    if not st[S_STACKING] and is_target(ta, tb, tshape, cfg, chops):
        n = bombs(lo, hi, ta, tb, tshape, cfg, chops, buf, n, ws)
    return push(buf, n, 0, 0, PASS, False)


@kernel
def out_of_turn_open(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    if not st[S_WINDOW] or st[S_OVER] or st[S_TSHAPE] == PASS:
        return False
    if seat == st[S_TURN] or seat == st[S_TSEAT] or st[S_OUT + seat]:
        return False
    return not (locked(st, cfg, seat) and not cfg[C_CHOP_AFTER_PASS])


@kernel
def legal_out_of_turn(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int,
                      buf: np.ndarray, ws: np.ndarray) -> int:
    """The out-of-turn chops (§6) and free chops (§11) ``seat`` may make now."""
    n = 0
    lo = st[S_LO + seat]
    hi = st[S_HI + seat]
    if out_of_turn_open(st, cfg, seat):
        n = bombs(lo, hi, st[S_TA], st[S_TB], st[S_TSHAPE], cfg, chops, buf, 0, ws, False)
    if free_open(st, cfg, chops, seat):
        n = free_chops(lo, hi, st[S_TA], st[S_TB], st[S_TSHAPE], cfg, chops, buf, n, ws)
    return n


@kernel
def asked_seats(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, out: np.ndarray) -> int:
    """The seats asked out of turn now, before the seat on turn, in priority order, into
    ``out``; how many (``Game.out_of_turn_asked``, the queue of :class:`tienlen.turns.Turns`):
    on a free chop's target (§11) every seat offered one or let chop out of turn, from the seat
    to act; in a chop window (§6) every seat the rules let chop, whatever it holds, from the
    player of the target."""
    tseat = st[S_TSEAT]
    if st[S_OVER] or tseat < 0:
        return 0
    n = st[S_N]
    m = 0
    turn = st[S_TURN]
    if cfg[C_NFREE] and turn >= 0 and is_free_target(st[S_TA], st[S_TB], st[S_TSHAPE], cfg,
                                                      chops):
        for i in range(1, n):
            s = (turn + i) % n
            if free_open(st, cfg, chops, s) or out_of_turn_open(st, cfg, s):
                out[m] = s
                m += 1
        return m
    if not st[S_WINDOW]:
        return 0
    for i in range(1, n):
        s = (tseat + i) % n
        if out_of_turn_open(st, cfg, s):
            out[m] = s
            m += 1
    return m


@kernel
def offer_seats(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, out: np.ndarray,
                buf: np.ndarray, ws: np.ndarray) -> int:
    """The seats offered a chop out of turn now, in priority order, into ``out``; how many
    (``Game.out_of_turn_seats``: of the seats asked, :func:`asked_seats`, those offered a free
    chop and those that hold an out-of-turn chop)."""
    m = 0
    for i in range(asked_seats(st, cfg, chops, out)):
        s = out[i]
        if free_open(st, cfg, chops, s) or legal_out_of_turn(st, cfg, chops, s, buf, ws):
            out[m] = s
            m += 1
    return m


@kernel
def next_with_cards(st: np.ndarray, seat: int) -> int:
    n = st[S_N]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if not st[S_OUT + s]:
            return s
    return seat


@kernel
def _settle(st: np.ndarray, cfg: np.ndarray) -> None:
    """The round is over (§11 chặt chồng): the owner of the last chopped combination pays the
    last chopper the worth of all the round's chops."""
    units = st[S_LEDGER]
    if units and cfg[C_SCORING]:
        st[S_PAID + st[S_LOWNER]] -= units
        st[S_PAID + st[S_LCHOPPER]] += units
    st[S_LEDGER] = 0
    st[S_ROUND] += 1


@kernel
def _chopped(st: np.ndarray, cfg: np.ndarray, seat: int, a: int, b: int, shape: int) -> None:
    """``seat`` chops the table with the play ``a, b, shape`` (§11 chop_pay): logged, paid at
    once or kept for the round."""
    owner = st[S_TSEAT]
    ta = st[S_TA]
    tb = st[S_TB]
    tshape = st[S_TSHAPE]
    units = worth(ta, tb, tshape, cfg)
    k = st[S_NCHOPS]
    if k < MAX_CHOPS:
        row = S_CHOPS + CHOP_ROW * k
        st[row] = st[S_ROUND]
        st[row + 1] = seat
        st[row + 2] = owner
        st[row + 3] = ta
        st[row + 4] = tb
        st[row + 5] = tshape
        st[row + 6] = a
        st[row + 7] = b
        st[row + 8] = shape
        st[S_NCHOPS] = k + 1
    if cfg[C_CHOP_PAY] == 1:
        if units and cfg[C_SCORING]:
            st[S_PAID + owner] -= units
            st[S_PAID + seat] += units
        return
    st[S_LEDGER] += units
    st[S_LCHOPPER] = seat
    st[S_LOWNER] = owner


@kernel
def _end(st: np.ndarray, cfg: np.ndarray) -> None:
    _settle(st, cfg)  # the end of the hand ends the round
    nb = st[S_NBOTTOM]
    k = st[S_NFINISH]
    for i in range(nb):
        st[S_FINISH + k + i] = st[S_BOTTOM + nb - 1 - i]
    st[S_NFINISH] = k + nb
    st[S_NBOTTOM] = 0
    st[S_OVER] = 1
    st[S_TURN] = -1
    st[S_WINDOW] = 0
    st[S_STACKING] = 0


@kernel
def _end_round(st: np.ndarray, cfg: np.ndarray, last: int) -> None:
    _settle(st, cfg)
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
    st[S_TURN] = next_with_cards(st, last) if st[S_OUT + last] else last


@kernel
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
        if st[S_OUT + s]:
            continue
        if locked(st, cfg, s) and not chop_turns:
            continue
        st[S_TURN] = s
        return
    last = st[S_TSEAT]
    if cfg[C_STACKING] and not st[S_OUT + last]:
        st[S_TURN] = last
        st[S_STACKING] = 1
        return
    _end_round(st, cfg, last)


@kernel
def _went_out(st: np.ndarray, cfg: np.ndarray, seat: int, a: int) -> None:
    n = st[S_N]
    st[S_OUT + seat] = 1
    if cfg[C_NO_TWO_LAST] and is_twos(a):  # §11: out on twos takes the lowest free place
        st[S_BOTTOM + st[S_NBOTTOM]] = seat
        st[S_NBOTTOM] += 1
    else:
        k = st[S_NFINISH]
        st[S_FINISH + k] = seat
        st[S_NFINISH] = k + 1
        if k == 0:
            for s in range(n):
                st[S_AT_FIRST_OUT + s] = hand_size(st, s)
            if cfg[C_FIRST_OUT]:
                # the others place by cards left (fewest first), ties in turn order after
                # the winner
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
                _end(st, cfg)
                return
            if cfg[C_CONG]:
                _place_cong(st, seat)
    holding = 0
    last = -1
    for i in range(n):
        s = (seat + i) % n
        if not st[S_OUT + s]:
            holding += 1
            last = s
    if holding <= 1:
        if holding == 1:
            st[S_FINISH + st[S_NFINISH]] = last
            st[S_NFINISH] += 1
        _end(st, cfg)


@kernel
def _place_cong(st: np.ndarray, winner: int) -> None:
    """§11 cóng: every seat still in that has put down no card takes the lowest free place
    (several: the first in turn order after the winner takes the higher)."""
    n = st[S_N]
    for i in range(1, n):
        s = (winner + i) % n
        if not st[S_OUT + s] and not st[S_PLAYED + s]:
            st[S_CONG + st[S_NCONG]] = s
            st[S_NCONG] += 1
    for i in range(st[S_NCONG] - 1, -1, -1):
        s = st[S_CONG + i]
        st[S_BOTTOM + st[S_NBOTTOM]] = s
        st[S_NBOTTOM] += 1
        st[S_OUT + s] = 1


@kernel
def apply(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int, a: int, b: int,
          shape: int) -> None:
    """Make a play (a pass when ``shape`` is 0) for ``seat``, in turn or out of turn; the play
    must be legal (as ``Game.push``, nothing is checked)."""
    n = st[S_N]
    if shape != PASS:
        free = seat != st[S_TURN] and free_open(st, cfg, chops, seat) and \
            free_pattern(cfg, a, b, shape)
        tseat = st[S_TSEAT]
        if cfg[C_CHOP_PAY] and tseat >= 0 and tseat != seat and \
                is_chop(a, b, shape, st[S_TA], st[S_TB], st[S_TSHAPE]):
            _chopped(st, cfg, seat, a, b, shape)
        if free:  # §11: after a free chop every pass mark clears
            for s in range(n):
                st[S_PASSED + s] = 0
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
            _went_out(st, cfg, seat, a)
            if st[S_OVER]:
                return
        _advance(st, cfg, chops, seat)
        return
    st[S_WINDOW] = 0
    if st[S_STACKING]:
        _end_round(st, cfg, seat)
        return
    if st[S_TSHAPE] == PASS:  # the opener passes (opening_may_pass)
        st[S_PASSED + seat] = 1
        st[S_OPENING] = 0
        st[S_NO_PASS_LEAD] = 1
        st[S_TURN] = next_with_cards(st, seat)
        return
    st[S_PASSED + seat] = 1
    _advance(st, cfg, chops, seat)


@kernel
def apply_and_list(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int, a: int, b: int,
                   shape: int, buf: np.ndarray, ws: np.ndarray) -> int:
    """:func:`apply`, then :func:`legal_in_turn` of the seat on turn after it, in one call from
    Python: ``plays * 16 + turn + 1`` (the number of legal plays, 0 once the hand is over; the
    seat on turn after the move, -1 once over)."""
    apply(st, cfg, chops, seat, a, b, shape)
    turn = st[S_TURN]
    if turn < 0:
        return 0
    return legal_in_turn(st, cfg, chops, buf, ws) * 16 + turn + 1
