"""Between the pure engine and the fast form: rules as arrays, plays as masks, a
:class:`~tienlen.game.Game` in play as a state array and back (numpy only, nothing compiled)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import ACE, TWO
from ..shapes import PASS, SET_SHAPES, Play
from .layout import (
    C_CHAIN_TOP,
    C_CHOP_AFTER_PASS,
    C_FIRST_OUT,
    C_FOUR_TWOS,
    C_LOCKS,
    C_OPENING,
    C_OPENING_MAY_PASS,
    C_OPENING_NO_CHAIN,
    C_OUT_OF_TURN,
    C_QUAD_CHAINS,
    C_RUN_TOP,
    C_SIZE,
    C_STACKING,
    C_TIES,
    C_TRIPLE_CHAINS,
    E_BOMB,
    E_BOMB_MORE,
    E_BOMB_RANKS,
    E_HIGHER,
    E_SIZE,
    E_TARGET,
    E_TARGET_MORE,
    E_TARGET_RANKS,
    E_TARGET_TWOS,
    OPENINGS,
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
    S_SIZE,
    S_STACK_SEQ,
    S_STACKING,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
    S_WINDOW,
    SHAPE_CODES,
    SHAPE_NAMES,
    TIES,
)

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import Rules

Array = Any  # numpy arrays (numpy ships no precise shape types)
Mask = tuple[int, int, int]  # (lo, hi, shape)


class FastRules:
    """A :class:`Rules` as the compiled code reads it: ``cfg`` (options) and ``chops`` (entries)."""

    __slots__ = ("cfg", "chops", "order", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.order = rules.suit_order
        cfg = np.zeros(C_SIZE, dtype=np.int64)
        cfg[C_RUN_TOP] = TWO if rules.twos_in_runs else ACE
        cfg[C_CHAIN_TOP] = TWO if rules.twos_in_chains else ACE
        cfg[C_TRIPLE_CHAINS] = rules.triple_chains
        cfg[C_QUAD_CHAINS] = rules.quad_chains
        cfg[C_TIES] = TIES[rules.double_deck_ties]
        cfg[C_LOCKS] = rules.pass_locks_out
        cfg[C_CHOP_AFTER_PASS] = rules.chop_after_pass
        cfg[C_STACKING] = rules.stacking
        cfg[C_OUT_OF_TURN] = rules.chop_out_of_turn
        cfg[C_FOUR_TWOS] = rules.four_twos_bomb
        cfg[C_FIRST_OUT] = rules.end_at == "first_out"
        cfg[C_OPENING] = OPENINGS[rules.opening]
        cfg[C_OPENING_MAY_PASS] = rules.opening_may_pass
        cfg[C_OPENING_NO_CHAIN] = rules.opening_no_chain
        self.cfg = cfg
        enabled = {"run": True, "chain": True, "triple_chain": rules.triple_chains,
                   "quad_chain": rules.quad_chains}
        # as MoveGenerator: entries whose bomb is a shape these rules do not allow are dropped
        entries = [e for e in rules.chops if e.bomb.shape in SET_SHAPES or enabled[e.bomb.shape]]
        chops = np.zeros((len(entries), E_SIZE), dtype=np.int64)
        for i, e in enumerate(entries):
            chops[i, E_BOMB] = SHAPE_CODES[e.bomb.shape]
            chops[i, E_BOMB_RANKS] = e.bomb.ranks
            chops[i, E_BOMB_MORE] = e.bomb.or_more
            chops[i, E_TARGET] = SHAPE_CODES[e.target.shape]
            chops[i, E_TARGET_RANKS] = e.target.ranks
            chops[i, E_TARGET_MORE] = e.target.or_more
            chops[i, E_TARGET_TWOS] = e.target.twos_only
            chops[i, E_HIGHER] = e.higher
        self.chops = chops


_RULES_CACHE: dict[Rules, FastRules] = {}


def fast_rules(rules: Rules) -> FastRules:
    found = _RULES_CACHE.get(rules)
    if found is None:
        if len(_RULES_CACHE) > 256:
            _RULES_CACHE.clear()
        found = _RULES_CACHE[rules] = FastRules(rules)
    return found


def masks_of(keys: Iterable[int]) -> tuple[int, int]:
    """(lo, hi) of a multiset of keys."""
    lo = hi = 0
    for k in keys:
        bit = 1 << k
        if lo & bit:
            hi |= bit
        else:
            lo |= bit
    return lo, hi


def keys_of(lo: int, hi: int) -> tuple[int, ...]:
    """The sorted keys of (lo, hi)."""
    out: list[int] = []
    x = int(lo)
    hi = int(hi)
    while x:
        low = x & -x
        k = low.bit_length() - 1
        out.append(k)
        if hi & low:
            out.append(k)
        x ^= low
    return tuple(out)


def play_mask(play: Play) -> Mask:
    """A play (a pass included) as (lo, hi, shape)."""
    if not play.keys:
        return 0, 0, 0
    lo, hi = masks_of(play.keys)
    return lo, hi, SHAPE_CODES[play.shape or "pass"]


def mask_play(lo: int, hi: int, shape: int, order: str = "standard") -> Play:
    if not shape:
        return PASS
    return Play(keys_of(lo, hi), SHAPE_NAMES[int(shape)], order)


def state_of(game: Game) -> Array:
    """The fast form of a game in its play phase (or over)."""
    if game.phase not in ("play", "over"):
        raise ValueError(f"only the play phase has a fast form, not {game.phase!r}")
    n = game.players
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_N] = n
    st[S_TURN] = -1 if game._turn is None else game._turn
    table = game._table
    if table is not None:
        st[S_TA], st[S_TB], st[S_TSHAPE] = play_mask(table)
    st[S_TSEAT] = -1 if game._table_seat is None else game._table_seat
    st[S_STACKING] = game._stacking
    st[S_STACK_SEQ] = game._stack_seq
    st[S_OPENING] = game._opening
    st[S_FIRST_PLAY] = game._first_play
    st[S_NO_PASS_LEAD] = game._no_pass_lead
    st[S_WINDOW] = game._window
    st[S_LOWEST] = -1 if game._opening_lowest is None else game._opening_lowest
    st[S_NFINISH] = len(game._finish)
    st[S_OVER] = game.phase == "over"
    for s in range(n):
        st[S_LO + s], st[S_HI + s] = masks_of(game._hands[s])
        st[S_PASSED + s] = game._passed[s]
        st[S_PLAYED + s] = game._played_any[s]
    for i, s in enumerate(game._finish):
        st[S_FINISH + i] = s
    if game._counts_at_first_out is not None:
        for s in range(n):
            st[S_AT_FIRST_OUT + s] = game._counts_at_first_out[s]
    return st


def game_of(st: Array, template: Game) -> Game:
    """A game at the position of ``st``: a copy of ``template`` (the game ``st`` came from, or
    any game of the same hand) with the play state of ``st``. Its history is the template's."""
    from ..payments import end_payments
    from ..scoring import hand_scores

    game = template.copy()
    n = int(st[S_N])
    game._hands = [list(keys_of(st[S_LO + s], st[S_HI + s])) for s in range(n)]
    game._groups = [None] * n
    game._lead_cache = [None] * n
    game._lead_gone = [set() for _ in range(n)]
    over = bool(st[S_OVER])
    game._turn = None if over else int(st[S_TURN])
    game._table = (mask_play(st[S_TA], st[S_TB], st[S_TSHAPE], game._order)
                   if st[S_TSHAPE] else None)
    game._table_seat = None if st[S_TSEAT] < 0 else int(st[S_TSEAT])
    game._stacking = bool(st[S_STACKING])
    game._stack_seq = bool(st[S_STACK_SEQ])
    game._opening = bool(st[S_OPENING])
    game._first_play = bool(st[S_FIRST_PLAY])
    game._no_pass_lead = bool(st[S_NO_PASS_LEAD])
    game._window = bool(st[S_WINDOW])
    game._passed = [bool(st[S_PASSED + s]) for s in range(n)]
    game._played_any = [bool(st[S_PLAYED + s]) for s in range(n)]
    game._finish = [int(st[S_FINISH + i]) for i in range(int(st[S_NFINISH]))]
    # the rules the fast path supports place no one from the bottom (no cong, no_two_last)
    # and make no payment during play (no chop_pay): placed means played out
    game._out = [not game._hands[s] for s in range(n)]
    game._bottom = []
    game._cong = []
    game._payments = []
    game._counts_at_first_out = ([int(st[S_AT_FIRST_OUT + s]) for s in range(n)]
                                 if game._finish else None)
    game._phase = "over" if over else "play"
    if over:
        game._payments.extend(end_payments(game))
    game._scores = hand_scores(game) if over else None
    return game
