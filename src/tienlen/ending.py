"""Payments as a hand makes them, and its end: chops paid or settled (§11 ``chop_pay``), then,
when the hand is over, the places, the payments of the hand's end and the scores (§8).

Functions over the rules and a hand's :class:`~tienlen.state.PlayState`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from . import places
from .payments import Payment, net, payments_at_end
from .rules import Rules
from .shapes import Play
from .state import PlayState


def pay(st: PlayState, payments: Iterable[Payment]) -> None:
    """Make payments now (each marked with the length of the history so far)."""
    at = len(st.history)
    st.payments.extend(dataclasses.replace(p, at=at) for p in payments)


def chopped(st: PlayState, chopper: int, owner: int, table: Play, bomb: Play) -> None:
    """A chop (§11 chop_pay): paid at once (``each``) or kept for the round's end."""
    paid = st.ledger.chopped(chopper, owner, table, bomb)
    if paid is not None:
        pay(st, [paid])


def settle_chops(st: PlayState) -> None:
    """The round is over: chặt chồng is settled (§11)."""
    paid = st.ledger.settle()
    if paid is not None:
        pay(st, [paid])


def end_hand(rules: Rules, st: PlayState) -> None:
    """The hand is over: its last round ends, the places are final, the hand's payments are
    made and its scores counted."""
    settle_chops(st)  # the end of the hand ends the round
    if st.bottom:
        st.finish = places.order(st.finish, st.bottom)
        st.bottom = []
    st.phase = "over"
    st.turn = None
    st.window = False
    st.stacking = False
    pay(st, payments_at_end(rules, st.finish, st.instant, st))
    st.scores = net(st.payments, len(st.hands))
