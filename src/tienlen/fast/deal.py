"""A first hand dealt straight into the fast form: the state of ``tienlen.Game`` just dealt
(``tienlen.fast.encoding.state_of`` of it), from a shuffled deck of keys, with no ``Game`` made.

:func:`deal_deck` deals a deck as :func:`tienlen.dealing.distribute` does (one card at a time
from the seat after the dealer, the odd card to the leader or the rest set aside), finds the
leader (the lowest card; ties to the first in dealing order) and tells a deal won at once by an
automatic instant win (§7). :func:`deal_counter` shuffles with the environments' counter
(:mod:`.draws`). :func:`deal_settings` is what they read of the rules, one ``int64`` array.
Rules that trade, or ask whether to claim an instant win, begin before the play: not here
(:func:`dealt_in_play`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._jit import kernel
from .draws import below, shuffle_into
from .layout import (
    S_FIRST_PLAY,
    S_HI,
    S_LCHOPPER,
    S_LO,
    S_LOWEST,
    S_N,
    S_OPENING,
    S_TSEAT,
    S_TURN,
)
from .movegen import low_key, rank_count, size_of

if TYPE_CHECKING:
    from ..rules import Rules

# the deal's settings (the first entries of the batched environment's settings too)
D_PLAYERS = 0
D_SIZE = 1  # cards dealt to each seat
D_PACKS = 2
D_ODD = 3  # odd_card_to_leader
D_WINS = 4  # the automatic instant wins, a bit each (WIN_BITS)
D_COLOUR = 5  # the suit strengths whose suit is red, a bit each (same_colour)
D_SIZE_ALL = 6
WIN_BITS = {"four_twos": 0, "dragon": 1, "six_pairs": 2, "all_sets": 3, "five_pair_chain": 4,
            "same_colour": 5, "four_threes": 6}


def dealt_in_play(rules: Rules) -> bool:
    """Whether a first hand under these rules begins with the play (no trading, no instant win
    to claim or decline): the hands :func:`deal_deck` deals."""
    return rules.trading == "none" and not (rules.instant_wins and rules.instant_win_optional)


def deal_settings(rules: Rules, players: int) -> np.ndarray:
    """What the deal reads of the rules for ``players`` seats."""
    from ..cards import KEY_TO_CODE
    from ..dealing import hand_size
    from ..seats import packs_for

    ds = np.zeros(D_SIZE_ALL, dtype=np.int64)
    ds[D_PLAYERS] = players
    ds[D_SIZE] = hand_size(rules, players)
    ds[D_PACKS] = packs_for(players)
    ds[D_ODD] = rules.odd_card_to_leader
    ds[D_WINS] = sum(1 << WIN_BITS[w] for w in rules.instant_wins)
    to_code = KEY_TO_CODE[rules.suit_order]
    ds[D_COLOUR] = sum(1 << s for s in range(4) if (to_code[s] & 3) >> 1)
    return ds


@kernel
def _lowest_holder(st: np.ndarray, n: int, dealer: int) -> int:
    """``tienlen.dealing.lowest_holder_of``: ties to the first in dealing order."""
    best = 99
    seat = -1
    for i in range(n):
        s = (dealer + 1 + i) % n
        lo = st[S_LO + s]
        if lo:
            k = low_key(lo)
            if k < best:
                best = k
                seat = s
    return seat


@kernel
def _add_card(st: np.ndarray, seat: int, k: int) -> None:
    bit = 1 << k
    if st[S_LO + seat] & bit:
        st[S_HI + seat] |= bit
    else:
        st[S_LO + seat] |= bit


@kernel
def _holds_win(lo: int, wins: int, colour: int) -> bool:
    """Whether a 13-card hand of one pack (its keys ``lo``) holds one of the instant wins
    ``wins`` (``tienlen.instant.holds``)."""
    if wins & 1 and rank_count(lo, 0, 12) >= 4:  # four_twos
        return True
    if wins & 2:  # dragon: every rank 3 .. A
        every = True
        for r in range(12):
            if rank_count(lo, 0, r) == 0:
                every = False
        if every:
            return True
    if wins & 4:  # six_pairs
        pairs = 0
        for r in range(13):
            pairs += rank_count(lo, 0, r) // 2
        if pairs >= 6:
            return True
    if wins & 8:  # all_sets: no rank held once
        sets = True
        for r in range(13):
            if rank_count(lo, 0, r) == 1:
                sets = False
        if sets:
            return True
    if wins & 16:  # five_pair_chain below the two
        for r in range(8):
            five = True
            for i in range(5):
                if rank_count(lo, 0, r + i) < 2:
                    five = False
            if five:
                return True
    if wins & 32:  # same_colour
        reds = 0
        for k in range(52):
            if (lo >> k) & 1 and (colour >> (k & 3)) & 1:
                reds += 1
        if reds == 0 or reds == 13:
            return True
    return bool(wins & 64 and rank_count(lo, 0, 0) >= 4)  # four_threes


@kernel
def _over_at_once(st: np.ndarray, ds: np.ndarray) -> bool:
    """Whether the deal is won at once by an automatic instant win (§7: one pack, a seat dealt
    exactly 13 cards; with none the hand is dealt again)."""
    wins = ds[D_WINS]
    if wins == 0 or ds[D_PACKS] != 1:
        return False
    for s in range(ds[D_PLAYERS]):
        if size_of(st[S_LO + s], st[S_HI + s]) == 13 and \
                _holds_win(st[S_LO + s], wins, ds[D_COLOUR]):
            return True
    return False


@kernel
def deal_deck(st: np.ndarray, ds: np.ndarray, deck: np.ndarray, m: int, dealer: int,
              aside: np.ndarray) -> bool:
    """Deal the first ``m`` keys of ``deck`` from the seat after ``dealer`` into ``st``; the
    highest card set aside and the mask of those set aside into ``aside`` (-1 and 0: none).
    False when the deal is won at once (an automatic instant win)."""
    n = ds[D_PLAYERS]
    size = ds[D_SIZE]
    st[:] = 0
    st[S_N] = n
    for i in range(size * n):
        _add_card(st, (dealer + 1 + i) % n, deck[i])
    aside[0] = -1
    aside[1] = 0
    if ds[D_ODD] and m - size * n == 1:
        _add_card(st, _lowest_holder(st, n, dealer), deck[size * n])
    else:
        for i in range(size * n, m):
            aside[0] = max(aside[0], deck[i])
            aside[1] |= 1 << deck[i]
    leader = _lowest_holder(st, n, dealer)
    st[S_TURN] = leader
    st[S_TSEAT] = -1
    st[S_LCHOPPER] = -1
    st[S_LOWEST] = low_key(st[S_LO + leader])
    st[S_OPENING] = 1
    st[S_FIRST_PLAY] = 1
    return not _over_at_once(st, ds)


@kernel
def deal_counter(st: np.ndarray, ds: np.ndarray, key: int, hand: int, deck: np.ndarray,
                 aside: np.ndarray) -> bool:
    """:func:`deal_deck` of the counter's deal ``hand`` under ``key`` (``tienlen.rl.draws.deal``)."""
    m = shuffle_into(deck, key, hand, ds[D_PACKS])
    return deal_deck(st, ds, deck, m, below(key, hand, 0, ds[D_PLAYERS]), aside)
