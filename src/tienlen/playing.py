"""The play phase's moves applied: a play or a pass on the table, the turn passed on, rounds
won and stacked (§5), chops paid (§11), players going out and their places (§8, §11 cóng).

Functions over the rules and a hand's :class:`~tienlen.state.PlayState`; the move is one the
rules allow now (``Game.play`` checks it, ``Game.push`` trusts its caller).
"""

from __future__ import annotations

from . import places
from .ending import chopped, end_hand, settle_chops
from .legal import free_open
from .payments import is_chop
from .rules import Rules
from .scoring import finish_order_first_out
from .seats import seats_from
from .shapes import Play
from .state import PlayState


def apply_play(rules: Rules, st: PlayState, seat: int, play: Play) -> None:
    """``seat`` makes ``play`` (cards, or a pass)."""
    st.history.append((seat, play))
    if play.keys:
        free = (seat != st.turn and bool(rules.free_chops) and free_open(rules, st, seat)
                and any(p.matches(play) for p in rules.free_chops))
        if rules.chop_pay != "none" and st.table_seat is not None \
                and st.table_seat != seat and is_chop(play, st.table):
            chopped(st, seat, st.table_seat, st.table, play)  # type: ignore[arg-type]
        if free:  # §11: after a free chop every pass mark clears
            st.passed = [False] * len(st.hands)
        hand = st.hands[seat]
        groups = st.groups[seat]
        st.lead_gone[seat].update(play.keys)
        for k in play.keys:
            hand.remove(k)
            if groups is not None:
                g = list(groups[k >> 2])
                g.remove(k)
                groups[k >> 2] = tuple(g)
        st.played_any[seat] = True
        if st.stacking:
            st.stack_seq = True
        st.stacking = False
        st.table = play
        st.table_seat = seat
        st.opening = False
        st.first_play = False
        st.no_pass_lead = False
        if not rules.pass_locks_out and not st.stack_seq:
            st.passed = [False] * len(st.passed)
        st.window = rules.chop_out_of_turn and st.mg.is_entry_target(play)
        if not hand:
            went_out(rules, st, seat, play)
            if st.phase == "over":
                return
        advance(rules, st, seat)
        return
    # a pass
    st.window = False
    if st.stacking:
        end_round(st, seat)
        return
    if st.table is None:  # the opener passes (opening_may_pass)
        st.passed[seat] = True
        st.opening = False
        st.no_pass_lead = True
        st.turn = next_with_cards(st, seat)
        return
    st.passed[seat] = True
    advance(rules, st, seat)


def advance(rules: Rules, st: PlayState, after: int) -> None:
    """Give the turn to the next seat that may act, or end the round."""
    n = len(st.hands)
    stop = st.table_seat
    # §5: a passer keeps a chop-or-pass turn while a chop target is on the table with
    # chop_after_pass, and (the resolution for stacks) after a stacked play when passes
    # do not lock out
    chop_turns = (rules.chop_after_pass or (st.stack_seq and not rules.pass_locks_out)) \
        and st.table is not None and st.mg.is_entry_target(st.table)
    out, passed = st.out, st.passed
    locks = not chop_turns and (rules.pass_locks_out or st.stack_seq)
    s = after
    for _ in range(n):
        s = (s + 1) % n
        if s == stop:
            break
        if out[s] or (locks and passed[s]):
            continue
        st.turn = s
        return
    round_over(rules, st)


def round_over(rules: Rules, st: PlayState) -> None:
    """Everyone else passed: the player of the table stacks (§5) or wins the round."""
    last = st.table_seat
    assert last is not None
    if rules.stacking and not st.out[last]:
        st.turn = last
        st.stacking = True
        return
    end_round(st, last)


def end_round(st: PlayState, last: int) -> None:
    """The round is over: the chops are settled, the table cleared, and ``last`` (or the next
    seat holding cards) leads."""
    settle_chops(st)
    st.table = None
    st.table_seat = None
    st.passed = [False] * len(st.hands)
    st.stacking = False
    st.stack_seq = False
    st.window = False
    st.turn = last if not st.out[last] else next_with_cards(st, last)


def next_with_cards(st: PlayState, seat: int) -> int:
    """The first seat after ``seat`` that has not taken its place."""
    n = len(st.hands)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if not st.out[s]:
            return s
    return seat


def went_out(rules: Rules, st: PlayState, seat: int, play: Play) -> None:
    """``seat`` played its last cards (with ``play``): it takes its place, and the hand may end."""
    n = len(st.hands)
    st.out[seat] = True
    if places.takes_bottom_place(rules, play.keys):
        st.bottom.append(seat)  # §11: out on twos takes the lowest free place
    else:
        st.finish.append(seat)
        if len(st.finish) == 1:
            st.counts_at_first_out = [len(h) for h in st.hands]
            if rules.end_at == "first_out":
                st.finish = finish_order_first_out(seat, st.hands, n)
                end_hand(rules, st)
                return
            if rules.cong:
                place_cong(st, seat)
    holding = [s for s in seats_from(seat, n) if not st.out[s]]
    if len(holding) <= 1:
        st.finish.extend(holding)
        end_hand(rules, st)


def place_cong(st: PlayState, winner: int) -> None:
    """§11 cóng: every player who has put down no card takes the lowest free place at once
    (several: the first in turn order after the winner takes the higher)."""
    cong = places.cong_seats(seats_from(winner, len(st.hands))[1:], st.out, st.played_any)
    for s in reversed(cong):
        st.bottom.append(s)
        st.out[s] = True
    st.cong = cong
