"""The environment's observation: a fixed-size int8 vector of what one seat may know.

It is computed from :meth:`tienlen.Game.view` alone -- the seat's :class:`~tienlen.view.View`,
which holds nothing the seat may not know -- so no hidden card can reach it.
Seat-relative: *rel 0* is the observing seat, *rel 1* the next seat in the order of
play, and so on. Cards are counted by *key* (``rank * 4 + strength`` under the rules'
suit order, 0..51; a count can be 2 with two packs). With ``P`` players the vector has
``173 + 55 P + P²`` entries (409 for 4 players):

==================  ==========  ================================================
from                size        entry
==================  ==========  ================================================
0                   52          own hand, count per key
52                  52·P        cards played so far by rel 0 .. P-1 (52 each)
52+52P              52          unseen cards: neither in the hand nor played
104+52P             52          the play to beat, count per key (zero on a lead)
156+52P             9           its shape, one-hot in :data:`SHAPES` (``pass``: a lead)
165+52P             P           who made it, one-hot by rel seat (zero on a lead)
165+53P             P           has passed in this round, by rel seat
165+54P             P           cards held, by rel seat (the counts are public)
165+55P             P·P         finishing place by rel seat: P one-hots (zero: not out)
165+55P+P²          5           phase, one-hot: claim, trade, return, play, over
170+55P+P²          1           the decision is out of turn (a chop window)
171+55P+P²          1           a stacking turn (§5)
172+55P+P²          1           the decision is a lead
==================  ==========  ================================================
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from ..actions import PHASES
from ..bots.features import SHAPES, played_by_seat
from ..game import packs_for

HIGH: Final = 127


def observation_size(players: int) -> int:
    return 173 + 55 * players + players * players


def played_counts(played: list[list[int]]) -> np.ndarray[Any, np.dtype[np.int16]]:
    """The keys each seat has played as counts: one row of 52 per seat."""
    out = np.zeros((len(played), 52), dtype=np.int16)
    for seat, keys in enumerate(played):
        if keys:
            out[seat] = np.bincount(keys, minlength=52)
    return out


def encode(view: Any, played: list[list[int]] | np.ndarray[Any, Any] | None = None,
           ) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The observation of a :class:`~tienlen.view.View` (see the module text). ``played``:
    the keys each seat has played, when the caller has them (they are public: every play
    is shown to every seat), as lists or as :func:`played_counts`; else they are read from
    the view's events."""
    p = view.players
    me = view.seat
    order = view.rules.suit_order
    v = np.zeros(observation_size(p), dtype=np.int16)
    # counts per key, a whole block at a time (bincount: one call, not one write per card)
    keys = getattr(view, "hand_keys", None)  # a view that has its hand's keys ready
    hand = list(keys) if keys is not None else [card.key(order) for card in view.hand]
    if hand:
        v[:52] = np.bincount(hand, minlength=52)
    if played is None:
        played = played_by_seat(view)
    counts = played if isinstance(played, np.ndarray) else played_counts(played)
    at = 52 + 52 * p
    split = 52 + 52 * (p - me)  # rel 0 (this seat) first, then the seats after it
    v[52:split] = counts[me:].ravel()
    v[split:at] = counts[:me].ravel()
    seen = v[:at].reshape(p + 1, 52).sum(axis=0)  # in the hand, or played by anyone
    v[at:at + 52] = np.maximum(packs_for(p) - seen, 0)
    at += 52
    table = view.table
    if table is not None and table.keys:
        v[at:at + 52] = np.bincount(table.keys, minlength=52)
        v[at + 52 + SHAPES.index(table.shape or "pass")] = 1
        if view.table_seat is not None:
            v[at + 61 + (view.table_seat - me) % p] = 1
    else:
        v[at + 52 + SHAPES.index("pass")] = 1
    at += 61 + p
    for rel in range(p):
        seat = (me + rel) % p
        v[at + rel] = int(view.passed[seat])
        v[at + p + rel] = min(view.counts[seat], HIGH)
    at += 2 * p
    for place, seat in enumerate(view.finish_order):
        v[at + p * ((seat - me) % p) + place] = 1
    at += p * p
    v[at + PHASES.index(view.phase)] = 1
    v[at + 5] = int(view.turn is not None and view.turn != me)
    v[at + 6] = int(view.stacking)
    v[at + 7] = int(view.phase == "play" and (table is None or not table.keys))
    return v.astype(np.int8)
