"""Between the pure engine and the fast form: rules as arrays, plays as masks, a
:class:`~tienlen.game.Game` in play as a state array and back (numpy only, nothing compiled)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import ACE, KEY_TO_CODE, TWO
from ..shapes import PASS, SET_SHAPES, Play
from .layout import (
    C_BOMB_UNITS,
    C_CHAIN_TOP,
    C_CHAIN_UNITS,
    C_CHOP_AFTER_PASS,
    C_CHOP_PAY,
    C_CONG,
    C_FIRST_OUT,
    C_FOLLOW_SUIT,
    C_FOUR_TWOS,
    C_FREE,
    C_LOCKS,
    C_NFREE,
    C_NO_PLAY,
    C_NO_TWO_LAST,
    C_NPEN,
    C_NPOINTS,
    C_OPENING,
    C_OPENING_MAY_PASS,
    C_OPENING_NO_CHAIN,
    C_OUT_OF_TURN,
    C_PEN,
    C_PENALISED,
    C_POINTS,
    C_QUAD_CHAINS,
    C_QUAD_UNITS,
    C_RED,
    C_RUN_TOP,
    C_SCORING,
    C_SIZE,
    C_STACKING,
    C_STAKE,
    C_TIES,
    C_TRIPLE_CHAINS,
    C_TWO_UNITS,
    CHOP_PAYS,
    CHOP_ROW,
    E_BOMB,
    E_BOMB_MORE,
    E_BOMB_RANKS,
    E_HIGHER,
    E_SIZE,
    E_TARGET,
    E_TARGET_MORE,
    E_TARGET_RANKS,
    E_TARGET_TWOS,
    MAX_FREE,
    MAX_PEN,
    OPENINGS,
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
    S_SIZE,
    S_STACK_SEQ,
    S_STACKING,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
    S_WINDOW,
    SCORINGS,
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

    __slots__ = ("cfg", "chops", "offers", "order", "rules")

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
        enabled = {"run": True, "chain": True, "triple_chain": rules.triple_chains,
                   "quad_chain": rules.quad_chains}
        _section_11(cfg, rules, enabled)
        self.cfg = cfg
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
        # whether a seat can ever be offered a chop out of turn (§6 or §11 free chops)
        self.offers = bool(cfg[C_OUT_OF_TURN] or cfg[C_NFREE])


def _section_11(cfg: Array, rules: Rules, enabled: dict[str, bool]) -> None:
    """The §11 options and the scoring (what a hand pays) into ``cfg``."""
    back = KEY_TO_CODE[rules.suit_order]
    cfg[C_FOLLOW_SUIT] = rules.follow_suit
    cfg[C_RED] = sum(1 << s for s in range(4) if back[s] & 2)  # diamonds, hearts
    cfg[C_NO_TWO_LAST] = rules.no_two_last
    cfg[C_CONG] = rules.cong
    cfg[C_CHOP_PAY] = CHOP_PAYS[rules.chop_pay]
    # as MoveGenerator: free patterns of a shape these rules do not allow are dropped
    free = [p for p in rules.free_chops if p.shape in SET_SHAPES or enabled[p.shape]]
    cfg[C_NFREE] = len(free)
    for i, p in enumerate(free[:MAX_FREE]):
        cfg[C_FREE + 3 * i] = SHAPE_CODES[p.shape]
        cfg[C_FREE + 3 * i + 1] = p.ranks
        cfg[C_FREE + 3 * i + 2] = p.or_more
    cfg[C_SCORING] = SCORINGS[rules.scoring]
    cfg[C_STAKE] = rules.stake
    cfg[C_NO_PLAY] = rules.penalty_no_play
    cfg[C_PENALISED] = rules.scoring != "none" and bool(rules.penalty_two or rules.penalty_bomb)
    from ..payments import _pattern_units, two_units

    for s in range(4):
        cfg[C_TWO_UNITS + s] = two_units(TWO * 4 + s, rules) if rules.penalty_two else 0
    for i, points in enumerate(rules.place_points):
        cfg[C_POINTS + i] = points
    cfg[C_NPOINTS] = len(rules.place_points)
    table = rules.penalty_bomb
    if isinstance(table, int):
        cfg[C_BOMB_UNITS] = table
        return
    cfg[C_BOMB_UNITS] = -1
    cfg[C_QUAD_UNITS] = _pattern_units(table, "quad", 1)
    for n in range(3, TWO + 1):
        cfg[C_CHAIN_UNITS + n] = _pattern_units(table, "chain", n)
    cfg[C_NPEN] = len(table)
    for i, (pattern, units) in enumerate(table[:MAX_PEN]):
        row = C_PEN + 4 * i
        cfg[row] = SHAPE_CODES[pattern.shape]
        cfg[row + 1] = pattern.ranks
        cfg[row + 2] = pattern.or_more
        cfg[row + 3] = units


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
    st[S_TURN] = -1 if game.state.turn is None else game.state.turn
    table = game.state.table
    if table is not None:
        st[S_TA], st[S_TB], st[S_TSHAPE] = play_mask(table)
    st[S_TSEAT] = -1 if game.state.table_seat is None else game.state.table_seat
    st[S_STACKING] = game.state.stacking
    st[S_STACK_SEQ] = game.state.stack_seq
    st[S_OPENING] = game.state.opening
    st[S_FIRST_PLAY] = game.state.first_play
    st[S_NO_PASS_LEAD] = game.state.no_pass_lead
    st[S_WINDOW] = game.state.window
    st[S_LOWEST] = -1 if game.state.opening_lowest is None else game.state.opening_lowest
    st[S_NFINISH] = len(game.state.finish)
    st[S_OVER] = game.phase == "over"
    for s in range(n):
        st[S_LO + s], st[S_HI + s] = masks_of(game.state.hands[s])
        st[S_PASSED + s] = game.state.passed[s]
        st[S_PLAYED + s] = game.state.played_any[s]
    for i, s in enumerate(game.state.finish):
        st[S_FINISH + i] = s
    if game.state.counts_at_first_out is not None:
        for s in range(n):
            st[S_AT_FIRST_OUT + s] = game.state.counts_at_first_out[s]
    _state_11(st, game)
    return st


def _state_11(st: Array, game: Game) -> None:
    """The §11 part of the state: places from the bottom, cóng, chop payments so far (the
    chop log starts empty: :func:`game_of` adds its payments to those of the template)."""
    from ..payments import net

    n = game.players
    for s in range(n):
        st[S_OUT + s] = game.state.out[s]
    st[S_NBOTTOM] = len(game.state.bottom)
    for i, s in enumerate(game.state.bottom):
        st[S_BOTTOM + i] = s
    st[S_NCONG] = len(game.state.cong)
    for i, s in enumerate(game.state.cong):
        st[S_CONG + i] = s
    paid = net([p for p in game.state.payments if p.kind == "chop"], n)
    for s in range(n):
        st[S_PAID + s] = paid[s]
    st[S_LCHOPPER] = -1
    for chop in game.state.ledger.chops:
        st[S_LEDGER] += chop.units
        st[S_LCHOPPER] = chop.chopper
        st[S_LOWNER] = chop.owner


def game_of(st: Array, template: Game) -> Game:
    """A game at the position of ``st``: a copy of ``template`` (the game ``st`` came from;
    without chop payments any game of the same hand) with the play state of ``st``. Its
    history is the template's; its payments are the template's and those of the chops made
    since (the state's chop log)."""
    from ..payments import end_payments
    from ..scoring import hand_scores

    game = template.copy()
    n = int(st[S_N])
    game.state.hands = [list(keys_of(st[S_LO + s], st[S_HI + s])) for s in range(n)]
    game.state.groups = [None] * n
    game.state.lead_cache = [None] * n
    game.state.lead_gone = [set() for _ in range(n)]
    over = bool(st[S_OVER])
    game.state.turn = None if over else int(st[S_TURN])
    game.state.table = (mask_play(st[S_TA], st[S_TB], st[S_TSHAPE], game.state.order)
                   if st[S_TSHAPE] else None)
    game.state.table_seat = None if st[S_TSEAT] < 0 else int(st[S_TSEAT])
    game.state.stacking = bool(st[S_STACKING])
    game.state.stack_seq = bool(st[S_STACK_SEQ])
    game.state.opening = bool(st[S_OPENING])
    game.state.first_play = bool(st[S_FIRST_PLAY])
    game.state.no_pass_lead = bool(st[S_NO_PASS_LEAD])
    game.state.window = bool(st[S_WINDOW])
    game.state.passed = [bool(st[S_PASSED + s]) for s in range(n)]
    game.state.played_any = [bool(st[S_PLAYED + s]) for s in range(n)]
    game.state.finish = [int(st[S_FINISH + i]) for i in range(int(st[S_NFINISH]))]
    game.state.out = [bool(st[S_OUT + s]) for s in range(n)]
    game.state.bottom = [int(st[S_BOTTOM + i]) for i in range(int(st[S_NBOTTOM]))]
    game.state.cong = [int(st[S_CONG + i]) for i in range(int(st[S_NCONG]))]
    _chop_payments(st, game)
    game.state.counts_at_first_out = ([int(st[S_AT_FIRST_OUT + s]) for s in range(n)]
                                 if game.state.finish else None)
    game.state.phase = "over" if over else "play"
    if over:
        game.state.payments.extend(end_payments(game))
    game.state.scores = hand_scores(game) if over else None
    return game


def _chop_payments(st: Array, game: Game) -> None:
    """The chop payments of the state's chop log added to the game's (§11 chop_pay), and the
    round's ledger as it stands."""
    ledger = game.state.ledger = game.state.ledger.copy()
    payments = game.state.payments = [p for p in game.state.payments if p.kind == "chop"]
    current = 0
    for i in range(int(st[S_NCHOPS])):
        row = S_CHOPS + CHOP_ROW * i
        if st[row] > current:
            paid = ledger.settle()
            if paid is not None:
                payments.append(paid)
            current = int(st[row])
        table = mask_play(st[row + 3], st[row + 4], st[row + 5], game.state.order)
        bomb = mask_play(st[row + 6], st[row + 7], st[row + 8], game.state.order)
        paid = ledger.chopped(int(st[row + 1]), int(st[row + 2]), table, bomb)
        if paid is not None:
            payments.append(paid)
    if st[S_ROUND] > current:
        paid = ledger.settle()
        if paid is not None:
            payments.append(paid)
