"""The fast form's layout: shape codes, the rules array, the state array (plain ints, no numba).

A hand (or a play) is two bitmasks over the 52 card keys (``rank * 4 + suit strength``):
``lo`` holds every key present, ``hi`` the keys present twice (two packs only).

The state of a hand in play is one ``int64`` array (so a copy is one ``ndarray.copy``):
the ``S_*`` offsets below, then per seat (up to 8) its hand, passes, finish order, whether
it has played, and its card count when the first player went out.
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
C_SIZE: Final = 16
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
S_SIZE: Final = 64
