"""The fast form's layout: shape codes, the rules array, the state array (plain ints, no numba).

A hand (or a play) is two bitmasks over the 52 card keys (``rank * 4 + suit strength``):
``lo`` holds every key present, ``hi`` the keys present twice (two packs only).

The state of a hand in play is one ``int64`` array (so a copy is one ``ndarray.copy``):
the ``S_*`` offsets below, then per seat (up to 8) its hand, passes, finish order, whether
it has played, and its card count when the first player went out; then the §11 state:
places from the bottom, cóng seats, whether each seat is placed, chop payments and their log.
"""

from __future__ import annotations

from typing import Final

# shape codes (0: a pass)
PASS: Final = 0
SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
QUAD: Final = 4
RUN: Final = 5
CHAIN: Final = 6
TRIPLE_CHAIN: Final = 7
QUAD_CHAIN: Final = 8
SHAPE_CODES: Final = {"pass": PASS, "single": SINGLE, "pair": PAIR, "triple": TRIPLE, "quad": QUAD,
                      "run": RUN, "chain": CHAIN, "triple_chain": TRIPLE_CHAIN,
                      "quad_chain": QUAD_CHAIN}
SHAPE_NAMES: Final = {code: name for name, code in SHAPE_CODES.items()}

# the rules array
C_RUN_TOP: Final = 0  # highest rank a run may reach (11 ace, 12 two)
C_CHAIN_TOP: Final = 1
C_TRIPLE_CHAINS: Final = 2
C_QUAD_CHAINS: Final = 3
C_TIES: Final = 4  # 0 reject, 1 later_wins, 2 next_distinct
C_LOCKS: Final = 5  # pass_locks_out
C_CHOP_AFTER_PASS: Final = 6
C_STACKING: Final = 7
C_OUT_OF_TURN: Final = 8
C_FOUR_TWOS: Final = 9
C_FIRST_OUT: Final = 10  # end_at == first_out
C_OPENING: Final = 11  # 0 lowest_single, 1 contains_lowest, 2 free
C_OPENING_MAY_PASS: Final = 12
C_OPENING_NO_CHAIN: Final = 13
# §11 options
C_FOLLOW_SUIT: Final = 14
C_RED: Final = 15  # the suit strengths that are red, as a 4-bit mask (follow_suit colours)
C_NO_TWO_LAST: Final = 16
C_CONG: Final = 17
C_CHOP_PAY: Final = 18  # 0 none, 1 each, 2 chain
C_NFREE: Final = 19  # free_chops patterns, rows of (shape, ranks, or_more) from C_FREE
C_FREE: Final = 20  # 4 patterns at most
# scoring (the units a hand pays: search's objective, chop payments)
C_SCORING: Final = 32  # 0 none, 1 loser_pays, 2 cards_left, 3 places
C_STAKE: Final = 33
C_NO_PLAY: Final = 34  # penalty_no_play
C_BOMB_UNITS: Final = 35  # a numeric penalty_bomb, -1: a table (below)
C_PENALISED: Final = 36  # scoring and a two or bomb penalty: the heuristic spends them
C_QUAD_UNITS: Final = 37  # a table's worth of a quad left in hand
C_CHAIN_UNITS: Final = 38  # 13 entries: a table's worth of a chain of N pairs left in hand
C_TWO_UNITS: Final = 51  # 4 entries: a two of each suit strength
C_NPOINTS: Final = 55  # place_points set (their number), 0: the default for the players
C_POINTS: Final = 56  # 8 entries
C_NPEN: Final = 64  # penalty_bomb table rows of (shape, ranks, or_more, units) from C_PEN
C_PEN: Final = 65  # 8 rows at most
C_SIZE: Final = 97
MAX_FREE: Final = 4
MAX_PEN: Final = 8
SCORINGS: Final = {"none": 0, "loser_pays": 1, "cards_left": 2, "places": 3}
CHOP_PAYS: Final = {"none": 0, "each": 1, "chain": 2}
TIES: Final = {"reject": 0, "later_wins": 1, "next_distinct": 2}
OPENINGS: Final = {"lowest_single": 0, "contains_lowest": 1, "free": 2}

# a chop entry's row in the chops array
E_BOMB: Final = 0
E_BOMB_RANKS: Final = 1
E_BOMB_MORE: Final = 2
E_TARGET: Final = 3
E_TARGET_RANKS: Final = 4
E_TARGET_MORE: Final = 5
E_TARGET_TWOS: Final = 6
E_HIGHER: Final = 7
E_SIZE: Final = 8

# the state array
S_N: Final = 0
S_TURN: Final = 1  # -1 once the hand is over
S_TA: Final = 2  # the table play (lo, hi, shape); shape 0: no table
S_TB: Final = 3
S_TSHAPE: Final = 4
S_TSEAT: Final = 5  # -1: none
S_STACKING: Final = 6
S_STACK_SEQ: Final = 7
S_OPENING: Final = 8
S_FIRST_PLAY: Final = 9
S_NO_PASS_LEAD: Final = 10
S_WINDOW: Final = 11
S_LOWEST: Final = 12  # the opening's lowest key, -1: none
S_NFINISH: Final = 13
S_OVER: Final = 14
S_LO: Final = 16
S_HI: Final = 24
S_PASSED: Final = 32
S_FINISH: Final = 40
S_PLAYED: Final = 48
S_AT_FIRST_OUT: Final = 56
# §11: places from the bottom, cóng, chop payments
S_NBOTTOM: Final = 64
S_ROUND: Final = 65  # rounds ended so far (the chop log's round numbers)
S_NCHOPS: Final = 66  # entries in the chop log
S_NCONG: Final = 67
S_LEDGER: Final = 68  # chặt chồng: the worth chopped in the round so far
S_LCHOPPER: Final = 69  # the last chopper of the round (-1: none)
S_LOWNER: Final = 70  # the owner of the last chopped combination
S_OUT: Final = 72  # per seat: placed (played out, cóng, out on twos)
S_BOTTOM: Final = 80  # places taken from the bottom, lowest first
S_CONG: Final = 88  # the cóng seats, in turn order after the winner
S_PAID: Final = 96  # per seat: chop payments so far, net
S_CHOPS: Final = 104  # the chop log: rows of (round, chopper, owner, the chopped play's lo, hi,
# shape, the chopping play's lo, hi, shape)
CHOP_ROW: Final = 9
MAX_CHOPS: Final = 32
S_SIZE: Final = S_CHOPS + CHOP_ROW * MAX_CHOPS
