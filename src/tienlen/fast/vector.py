"""The batched environment's compiled loop: N hands stepped in one call, no Python per hand.

For each environment: the learner's action id made (the id's lowest legal card set, an illegal
id replaced as the single environment replaces it), the opponents' decisions asked and
answered in compiled code (``random``: the counter's draw among the legal ids; ``greedy``,
``heuristic``: their compiled choices, the pure bots' own), the hand dealt again from the
counter (:mod:`.draws`) once it is over and the next step comes, the learner's observation and
mask written. The order of asking is that of :class:`tienlen.turns.Turns` (out of turn first,
in priority order; a decline asks the next seat; any move asks again), as in
:func:`.policies.playout_seats`. :mod:`tienlen.rl.vector` is its Python face and the
layouts' reference is :mod:`tienlen.rl.observation` and :mod:`tienlen.rl.actions`: the
differential test holds the two environments equal byte for byte.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._jit import jit, kernel
from .deal import D_PACKS, D_PLAYERS, deal_counter, deal_settings
from .draws import PICK_INDEX, SEAT_INDEX, below
from .engine import apply, asked_seats, legal_in_turn, legal_out_of_turn
from .greedy import greedy_choice
from .heuristic import heuristic_choice
from .layout import (
    C_NFREE,
    C_OUT_OF_TURN,
    CHAIN,
    PASS,
    QUAD_CHAIN,
    S_BOTTOM,
    S_FINISH,
    S_HI,
    S_LO,
    S_NBOTTOM,
    S_NFINISH,
    S_OVER,
    S_PASSED,
    S_STACKING,
    S_TA,
    S_TB,
    S_TSEAT,
    S_TSHAPE,
    S_TURN,
    SHAPE_CODES,
)
from .movegen import WS_ROWS, low_key, size_of, top_key
from .policies import GREEDY, RANDOM, out_of_turn_pick
from .ranking import lex_less

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules import Rules

# the environments' settings (one int64 array): the deal's first (tienlen.fast.deal), then
E_PLAYERS = D_PLAYERS
E_PACKS = D_PACKS
E_SEAT = 6  # the learner's seat, -1: drawn at each deal
E_REWARD = 7  # 0 rank, 1 first
E_OFFERS = 8  # anyone may be asked out of turn
E_OPP = 16  # the opponents' policies, one per other seat in increasing seat order
E_SIZE_ALL = 24
REWARDS = {"rank": 0, "first": 1}

# each environment's own counters (one int64 row)
M_KEY = 0  # the counter's key (its bit pattern)
M_HAND = 1  # the deal's number under the key
M_PICKS = 2  # the random opponents' draws in this hand
M_SEAT = 3  # the learner's seat
M_OOT = 4  # the learner is asked out of turn
M_QLEN = 5  # the seats asked out of turn now (M_Q ..), and how many have declined
M_QPOS = 6
M_DONE = 7  # the hand is over: the next step deals again
M_ASIDE_TOP = 8  # the highest card set aside (-1: none), for the heuristic, and the
M_ASIDE_KEYS = 9  # mask of those set aside (tienlen.fast.deal.deal_deck's aside)
M_ILLEGAL = 10  # the last action id was not legal
M_NLEGAL = 11  # the legal ids of the learner's decision
M_NROWS = 12  # its moves kept (-1: too many to keep)
M_PHASE = 13  # the part of the step to do next (P_*)
M_DEALING = 14  # the step deals a new hand
M_TRIES = 15  # deals tried for it
M_Q = 16  # the queue of seats asked out of turn (8)
M_POL = 24  # each seat's policy (8; -1: the learner)
M_N = 40  # an opponent's decision left to compiled policies: its moves, seat, out of turn
M_ASKED = 41
M_ASKED_OOT = 42
M_SIZE = 48
MAX_TRIES = 1000  # deals tried for one new hand (SingleSeatEnv.reset's bound)
P_START = 0
P_ANSWER = 1
P_SHOW = 2

# the observation's phase one-hot (tienlen.actions.PHASES: claim, trade, return, play, over)
_PLAY = 3
_OVER = 4
HIGH = 127  # tienlen.rl.observation.HIGH: a card count's ceiling


@kernel
def _length(a: int, b: int, shape: int) -> int:
    """The length an action id counts: the ranks of a run or chain, else the cards."""
    cards = size_of(a, b)
    if CHAIN <= shape <= QUAD_CHAIN:  # pairs, triples or fours a rank
        return cards // (shape - CHAIN + 2)
    return cards


@kernel
def id_of(a: int, b: int, shape: int, idt: np.ndarray) -> int:
    """The action id of a play (``tienlen.rl.actions.ActionSpace.id_of``); 0 for ``pass``."""
    if shape == PASS:
        return 0
    return idt[shape, _length(a, b, shape), top_key(a)]


@kernel
def _legal_into(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, seat: int, oot: bool,
                buf: np.ndarray, ws: np.ndarray) -> int:
    """The moves of the decision asked into ``buf`` (out of turn: the chops, then ``pass``);
    their number (more than ``buf`` holds: grow it and ask again)."""
    if not oot:
        return legal_in_turn(st, cfg, chops, buf, ws)
    n = legal_out_of_turn(st, cfg, chops, seat, buf, ws)
    if n < buf.shape[0]:
        buf[n, 0] = 0
        buf[n, 1] = 0
        buf[n, 2] = PASS
    return n + 1


@kernel
def _ids(buf: np.ndarray, n: int, idt: np.ndarray, ids: np.ndarray) -> None:
    for i in range(n):
        ids[i] = id_of(buf[i, 0], buf[i, 1], buf[i, 2], idt)


@kernel
def _lowest_row(buf: np.ndarray, n: int, ids: np.ndarray, pick: int) -> int:
    """The row of id ``pick`` with the lowest card set (-1: none)."""
    best = -1
    for i in range(n):
        if ids[i] == pick and (best < 0 or lex_less(buf[i, 0], buf[i, 1], buf[best, 0],
                                                     buf[best, 1])):
            best = i
    return best


@kernel
def _distinct(ids: np.ndarray, n: int, out: np.ndarray) -> int:
    """The distinct ids of ``ids[:n]`` in increasing order into ``out``; how many."""
    m = 0
    for i in range(n):
        v = ids[i]
        j = m
        while j > 0 and out[j - 1] > v:
            j -= 1
        if j > 0 and out[j - 1] == v:
            continue
        for k in range(m, j, -1):
            out[k] = out[k - 1]
        out[j] = v
        m += 1
    return m


@kernel
def _requeue(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
             meta: np.ndarray) -> None:
    """A move was made: the seats asked out of turn now (:class:`tienlen.turns.Turns`)."""
    meta[M_QLEN] = asked_seats(st, cfg, chops, meta[M_Q:M_Q + 8]) if ec[E_OFFERS] else 0
    meta[M_QPOS] = 0


@kernel
def _make(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray, meta: np.ndarray,
          played: np.ndarray, total: np.ndarray, seat: int, a: int, b: int, shape: int) -> None:
    """Make a move for ``seat`` and count its cards as played."""
    apply(st, cfg, chops, seat, a, b, shape)
    _count_played(a, seat, played, total)
    _count_played(b, seat, played, total)
    _requeue(st, cfg, chops, ec, meta)


@kernel
def _count_played(keys: int, seat: int, played: np.ndarray, total: np.ndarray) -> None:
    """The keys of a mask played by ``seat``: in its row and the sums' (the last), and out of
    the unplayed count of their ranks."""
    every = played.shape[0] - 1
    while keys:
        k = low_key(keys)
        played[seat, k] += 1
        played[every, k] += 1
        total[k >> 2] -= 1
        keys &= keys - 1


@kernel
def _random_row(buf: np.ndarray, n: int, idt: np.ndarray, ids: np.ndarray, seen: np.ndarray,
                meta: np.ndarray) -> int:
    """A ``random`` opponent's move: the counter's draw among the legal ids."""
    _ids(buf, n, idt, ids)
    m = _distinct(ids, n, seen)
    pick = seen[below(meta[M_KEY], meta[M_HAND], PICK_INDEX + meta[M_PICKS], m)]
    meta[M_PICKS] += 1
    return _lowest_row(buf, n, ids, pick)


@kernel
def asked_now(st: np.ndarray, meta: np.ndarray) -> tuple[int, bool]:
    """The seat asked now and whether out of turn (:class:`tienlen.turns.Turns`' order: the
    queue of seats asked out of turn first, then the seat on turn)."""
    qpos = meta[M_QPOS]
    oot = qpos < meta[M_QLEN]
    return (meta[M_Q + qpos] if oot else st[S_TURN]), oot


@kernel
def _made(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray, meta: np.ndarray,
          played: np.ndarray, total: np.ndarray, seat: int, oot: bool, a: int, b: int,
          shape: int) -> None:
    """The answer of the seat asked: out of turn a ``pass`` lets the chop go (the next seat of
    the queue is asked), anything else is made."""
    if oot and shape == PASS:
        meta[M_QPOS] += 1
    else:
        _make(st, cfg, chops, ec, meta, played, total, seat, a, b, shape)


@kernel
def _answer(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
            meta: np.ndarray, played: np.ndarray, total: np.ndarray, idt: np.ndarray,
            buf: np.ndarray, ws: np.ndarray, ids: np.ndarray, seen: np.ndarray) -> int:
    """The opponents answer until the learner is asked or the hand is over: 0. A ``greedy``
    or ``heuristic`` seat asked: -1, its moves in ``buf`` (``meta[M_N]`` of them, the seat
    ``meta[M_ASKED]``, out of turn or not ``meta[M_ASKED_OOT]``) for :func:`_policy_choice`.
    More moves than the buffers hold: their number (grow them and ask again)."""
    agent = meta[M_SEAT]
    while not st[S_OVER]:
        seat, oot = asked_now(st, meta)
        if seat == agent:
            meta[M_OOT] = oot
            return 0
        n = _legal_into(st, cfg, chops, seat, oot, buf, ws)
        if n > buf.shape[0] or n > ids.shape[0]:
            return n
        if meta[M_POL + seat] != RANDOM:
            meta[M_N] = n
            meta[M_ASKED] = seat
            meta[M_ASKED_OOT] = oot
            return -1
        i = _random_row(buf, n, idt, ids, seen, meta)
        _made(st, cfg, chops, ec, meta, played, total, seat, oot, buf[i, 0], buf[i, 1], buf[i, 2])
    return 0


@jit
def _policy_choice(st: np.ndarray, cfg: np.ndarray, meta: np.ndarray, buf: np.ndarray,
                   total: np.ndarray, memo: dict) -> int:
    """The choice of the ``greedy`` or ``heuristic`` seat :func:`_answer` stopped at: a row of
    ``buf``, -1 to let a chop go."""
    n = meta[M_N]
    policy = meta[M_POL + meta[M_ASKED]]
    if meta[M_ASKED_OOT]:
        return out_of_turn_pick(st, buf, n - 1, policy)
    if policy == GREEDY:
        return greedy_choice(st, buf, n)
    return heuristic_choice(st, cfg, buf, n, total, meta[M_ASIDE_TOP], meta[M_ASIDE_KEYS], memo)


@kernel
def _answered(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
              meta: np.ndarray, played: np.ndarray, total: np.ndarray, buf: np.ndarray,
              i: int) -> None:
    """Row ``i`` of ``buf`` (-1: ``pass``) made for the seat :func:`_answer` stopped at."""
    a = buf[i, 0] if i >= 0 else 0
    b = buf[i, 1] if i >= 0 else 0
    shape = buf[i, 2] if i >= 0 else PASS
    _made(st, cfg, chops, ec, meta, played, total, meta[M_ASKED], meta[M_ASKED_OOT] != 0, a, b,
          shape)


@kernel
def _deal_next(st: np.ndarray, ec: np.ndarray, meta: np.ndarray, played: np.ndarray,
               total: np.ndarray, deck: np.ndarray) -> None:
    """The next hand of the key dealt (the learner seated, the opponents' policies set, the
    counters cleared); a deal won at once is followed by the next (``SingleSeatEnv.reset``)."""
    n = ec[E_PLAYERS]
    while meta[M_TRIES] < MAX_TRIES:
        meta[M_TRIES] += 1
        meta[M_HAND] += 1
        key = meta[M_KEY]
        hand = meta[M_HAND]
        agent = ec[E_SEAT]
        if agent < 0:
            agent = below(key, hand, SEAT_INDEX, n)
        meta[M_SEAT] = agent
        j = 0
        for s in range(n):
            if s == agent:
                meta[M_POL + s] = -1
            else:
                meta[M_POL + s] = ec[E_OPP + j]
                j += 1
        meta[M_PICKS] = 0
        meta[M_QLEN] = 0
        meta[M_QPOS] = 0
        meta[M_OOT] = 0
        played[:, :] = 0
        for r in range(13):
            total[r] = 4 * ec[E_PACKS]
        if deal_counter(st, ec, key, hand, deck, meta[M_ASIDE_TOP:M_ASIDE_KEYS + 1]):
            return
        st[S_OVER] = 1  # won at once: no move is ever asked of it


@kernel
def _step_env(e: int, states: np.ndarray, metas: np.ndarray, played: np.ndarray,
              totals: np.ndarray, rows: np.ndarray, rids: np.ndarray, masks: np.ndarray,
              obs: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, actions: np.ndarray,
              cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray, idt: np.ndarray,
              shape_index: np.ndarray, buf: np.ndarray, ws: np.ndarray, ids: np.ndarray,
              seen: np.ndarray, deck: np.ndarray) -> int:
    """One step of environment ``e``, in three parts (``M_PHASE``): the learner's action made,
    or a hand over at the last step dealt again; the opponents' answers; the observation and
    mask. Returns 0 once done, else what it needs before it can go on (called again, it goes
    on from there): -1, a ``greedy`` or ``heuristic`` choice (:func:`_answer`); a number, the
    rows the buffers must hold."""
    st = states[e]
    meta = metas[e]
    if meta[M_PHASE] == P_START:
        rewards[e] = 0.0
        terminated[e] = False
        if meta[M_DONE]:
            meta[M_TRIES] = 0
            meta[M_DEALING] = 1
            meta[M_ILLEGAL] = 0
            _deal_next(st, ec, meta, played[e], totals[e], deck)
        else:
            need = _act(st, cfg, chops, ec, meta, played[e], totals[e], idt, actions[e], buf, ws,
                        ids, rows[e], rids[e])
            if need:
                return need
        meta[M_PHASE] = P_ANSWER
    if meta[M_PHASE] == P_ANSWER:
        while True:
            code = _answer(st, cfg, chops, ec, meta, played[e], totals[e], idt, buf, ws, ids,
                           seen)
            if code:
                return code
            if not (meta[M_DEALING] and st[S_OVER]) or meta[M_TRIES] >= MAX_TRIES:
                break
            _deal_next(st, ec, meta, played[e], totals[e], deck)  # over before the learner acts
        if meta[M_DEALING]:
            meta[M_DEALING] = 0
            meta[M_DONE] = st[S_OVER]
        elif st[S_OVER]:
            meta[M_DONE] = 1
            rewards[e] = reward_of(st, ec, meta[M_SEAT])
            terminated[e] = True
        meta[M_PHASE] = P_SHOW
    observe(st, ec, played[e], meta[M_SEAT], meta[M_OOT] != 0, shape_index, obs[e])
    need = _mask(st, cfg, chops, meta, idt, buf, ws, rows[e], rids[e], masks[e])
    if need:
        return need
    meta[M_PHASE] = P_START
    return 0


@kernel
def _counts(lo: int, hi: int, obs: np.ndarray, at: int) -> None:
    """A card set's count per key into ``obs[at:at + 52]``."""
    for k in range(52):
        obs[at + k] = ((lo >> k) & 1) + ((hi >> k) & 1)


@kernel
def observe(st: np.ndarray, ec: np.ndarray, played: np.ndarray, me: int, oot: bool,
            shape_index: np.ndarray, obs: np.ndarray) -> None:
    """The observation of seat ``me`` (``tienlen.rl.observation.encode`` of its view) into
    ``obs``. ``played`` holds each seat's played keys, then their sum."""
    p = ec[E_PLAYERS]
    packs = ec[E_PACKS]
    _counts(st[S_LO + me], st[S_HI + me], obs, 0)
    for rel in range(p):
        seat = (me + rel) % p
        base = 52 + 52 * rel
        for k in range(52):
            obs[base + k] = played[seat, k]
    at = 52 + 52 * p
    for k in range(52):
        obs[at + k] = max(packs - obs[k] - played[p, k], 0)
    at += 52
    tshape = st[S_TSHAPE]
    _counts(st[S_TA], st[S_TB], obs, at)  # zero on a lead
    obs[at + 52:at + 61 + p] = 0
    if tshape != PASS:
        obs[at + 52 + shape_index[tshape]] = 1
        if st[S_TSEAT] >= 0:
            obs[at + 61 + (st[S_TSEAT] - me) % p] = 1
    else:
        obs[at + 52 + shape_index[PASS]] = 1
    at += 61 + p
    for rel in range(p):
        seat = (me + rel) % p
        obs[at + rel] = st[S_PASSED + seat]
        obs[at + p + rel] = min(size_of(st[S_LO + seat], st[S_HI + seat]), HIGH)
    at += 2 * p
    obs[at:] = 0
    nf = st[S_NFINISH]
    for place in range(nf):
        seat = st[S_FINISH + place]
        obs[at + p * ((seat - me) % p) + place] = 1
    nb = st[S_NBOTTOM]
    for i in range(nb):
        seat = st[S_BOTTOM + nb - 1 - i]
        obs[at + p * ((seat - me) % p) + nf + i] = 1
    at += p * p
    over = st[S_OVER] != 0
    obs[at + (_OVER if over else _PLAY)] = 1
    turn = st[S_TURN]
    obs[at + 5] = (turn >= 0 and turn != me) or (oot and not over)
    obs[at + 6] = st[S_STACKING]
    obs[at + 7] = not over and tshape == PASS


@kernel
def reward_of(st: np.ndarray, ec: np.ndarray, seat: int) -> float:
    """The learner's reward at the hand's end (``tienlen.rl.aec.place_reward``)."""
    p = ec[E_PLAYERS]
    place = 0
    for i in range(p):
        if st[S_FINISH + i] == seat:
            place = i
    if ec[E_REWARD] == 0:
        return (p - 1 - 2 * place) / (p - 1)
    return (p if place == 0 else 0) / (p - 1) - 1 / (p - 1)


@kernel
def _mask(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, meta: np.ndarray,
          idt: np.ndarray, buf: np.ndarray, ws: np.ndarray, rows: np.ndarray, rids: np.ndarray,
          mask: np.ndarray) -> int:
    """The learner's legal ids into ``mask`` (zero when the hand is over), its moves and their
    ids kept in ``rows`` and ``rids`` for the action (when they fit); 0, or the rows ``buf``
    must hold to list them (grow it and ask again). The mask still holds the last decision's
    ids: those are cleared, not the whole row."""
    kept = meta[M_NROWS]
    if kept >= 0:
        for j in range(kept):
            mask[rids[j]] = 0
    else:
        mask[:] = 0
    meta[M_NLEGAL] = 0
    meta[M_NROWS] = 0
    if st[S_OVER]:
        return 0
    n = _legal_into(st, cfg, chops, meta[M_SEAT], meta[M_OOT] != 0, buf, ws)
    if n > buf.shape[0]:
        return n
    fits = n <= rows.shape[0]
    count = 0
    for i in range(n):
        k = id_of(buf[i, 0], buf[i, 1], buf[i, 2], idt)
        if fits:
            rows[i, 0] = buf[i, 0]
            rows[i, 1] = buf[i, 1]
            rows[i, 2] = buf[i, 2]
            rids[i] = k
        if mask[k] == 0:
            mask[k] = 1
            count += 1
    meta[M_NLEGAL] = count
    meta[M_NROWS] = n if fits else -1
    return 0


@kernel
def _choose(rows: np.ndarray, n: int, rids: np.ndarray, action: int, meta: np.ndarray) -> int:
    """The row the learner's action id makes: the id's lowest card set; an illegal id is
    replaced by ``pass``, else by the lowest legal id, and flagged."""
    i = _lowest_row(rows, n, rids, action) if action >= 0 else -1
    meta[M_ILLEGAL] = i < 0
    if i < 0:
        i = _lowest_row(rows, n, rids, 0)
        if i < 0:
            low = rids[0]
            for j in range(n):
                low = min(low, rids[j])
            i = _lowest_row(rows, n, rids, low)
    return i


@kernel
def _act(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray, meta: np.ndarray,
         played: np.ndarray, total: np.ndarray, idt: np.ndarray, action: int,
         buf: np.ndarray, ws: np.ndarray, ids: np.ndarray, rows: np.ndarray,
         rids: np.ndarray) -> int:
    """The learner's action id made (:func:`_choose`), from the moves :func:`_mask` kept, or
    listed again when they did not fit: 0, or the rows ``buf`` and ``ids`` must hold (grow
    them and ask again; nothing was made)."""
    seat = meta[M_SEAT]
    oot = meta[M_OOT] != 0
    n = meta[M_NROWS]
    if n >= 0:
        i = _choose(rows, n, rids, action, meta)
        a, b, shape = rows[i, 0], rows[i, 1], rows[i, 2]
    else:
        n = _legal_into(st, cfg, chops, seat, oot, buf, ws)
        if n > buf.shape[0] or n > ids.shape[0]:
            return n
        _ids(buf, n, idt, ids)
        i = _choose(buf, n, ids, action, meta)
        a, b, shape = buf[i, 0], buf[i, 1], buf[i, 2]
    if oot and shape == PASS:
        meta[M_QPOS] += 1
    else:
        _make(st, cfg, chops, ec, meta, played, total, seat, a, b, shape)
    return 0


@jit
def step_all(states: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
             metas: np.ndarray, played: np.ndarray, totals: np.ndarray, idt: np.ndarray,
             shape_index: np.ndarray, memo: dict, actions: np.ndarray, obs: np.ndarray,
             masks: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, rows: np.ndarray,
             rids: np.ndarray) -> None:
    """One step of every environment (:func:`_step_env`): a hand over at the last step is
    dealt again (the action ignored, Gymnasium's next-step autoreset), else the action is made
    and the opponents answer; observations, masks, rewards and terminations written."""
    buf = np.zeros((1024, 3), dtype=np.int64)
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    ids = np.zeros(1024, dtype=np.int64)
    seen = np.zeros(1024, dtype=np.int64)
    deck = np.zeros(104, dtype=np.int64)
    for e in range(states.shape[0]):
        while True:
            code = _step_env(e, states, metas, played, totals, rows, rids, masks, obs, rewards,
                             terminated, actions, cfg, chops, ec, idt, shape_index, buf, ws, ids,
                             seen, deck)
            if code == 0:
                break
            if code > 0:  # more moves than the buffers hold
                buf = np.zeros((2 * code, 3), dtype=np.int64)
                ids = np.zeros(2 * code, dtype=np.int64)
                seen = np.zeros(2 * code, dtype=np.int64)
                continue
            st = states[e]
            meta = metas[e]
            i = _policy_choice(st, cfg, meta, buf, totals[e], memo)
            _answered(st, cfg, chops, ec, meta, played[e], totals[e], buf, i)


def reset_all(states: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
              metas: np.ndarray, played: np.ndarray, totals: np.ndarray, idt: np.ndarray,
              shape_index: np.ndarray, memo: dict, obs: np.ndarray, masks: np.ndarray,
              rows: np.ndarray, rids: np.ndarray) -> None:
    """Every environment dealt its next hand (``metas[:, M_HAND]`` + 1) and observed."""
    n = states.shape[0]
    metas[:, M_DONE] = 1
    metas[:, M_PHASE] = P_START
    step_all(states, cfg, chops, ec, metas, played, totals, idt, shape_index, memo,
             np.zeros(n, dtype=np.int64), obs, masks, np.zeros(n), np.zeros(n, dtype=np.bool_),
             rows, rids)


def id_table(entries: Sequence[tuple[str, int, int]]) -> np.ndarray:
    """The action ids by (shape code, length, top key), from the action space's entries
    (``tienlen.rl.actions.ActionSpace.entries``: shape, length, top key by id)."""
    idt = np.full((len(SHAPE_CODES), 18, 52), -1, dtype=np.int64)
    for action_id, (shape, length, top) in enumerate(entries):
        if shape != "pass":
            idt[SHAPE_CODES[shape], length, top] = action_id
    idt[SHAPE_CODES["pass"], 0, :] = 0
    return idt


def settings(rules: Rules, players: int, cfg: np.ndarray, seat: int | None,
             policies: list[int], reward: str = "rank") -> np.ndarray:
    """The environments' settings array: the deal's, the learner's seat (None: drawn at each
    deal), the reward, and each other seat's policy in increasing seat order (-1: the learner's
    too, as at a self-play table)."""
    ec = np.zeros(E_SIZE_ALL, dtype=np.int64)
    dealt = deal_settings(rules, players)
    ec[:len(dealt)] = dealt
    ec[E_SEAT] = -1 if seat is None else seat
    ec[E_REWARD] = REWARDS[reward]
    ec[E_OFFERS] = offers(cfg)
    for i, policy in enumerate(policies):
        ec[E_OPP + i] = policy
    return ec


def offers(cfg: np.ndarray) -> bool:
    """Whether these rules ever ask anyone out of turn (§6, §11)."""
    return bool(cfg[C_OUT_OF_TURN] or cfg[C_NFREE])
