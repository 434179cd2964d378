"""Self-play's actors in compiled code: N hands moved on at once until the network is asked.

:func:`move_all` moves every hand of the batch on -- a hand over is dealt again from the counter
(:mod:`.draws`) once read, forced moves are made, the compiled bots of a league's table answer
(``random``, ``greedy``, ``heuristic``) -- until the network is asked a decision; :func:`inputs`
writes those decisions' inputs (:mod:`.features`): a state vector a decision and an action vector a
legal move, ready for one forward pass of the network over the whole batch
(:meth:`tienlen.bots.features.MLP.batch_scores`); :func:`pick` chooses, :func:`keep` keeps each
decision's inputs in its hand's rows (for the learner, once the hand is over) and :func:`answer`
makes the moves chosen. The order of asking is :class:`tienlen.turns.Turns`' (out of turn first,
in priority order, a seat without a chop asked all the same; a decline asks the next seat),
through the batched environment's own steps (:mod:`.vector`), whose per-hand rows this reuses: a
table's bots are the opponents there, and a seat whose policy is -1 is the network's (every seat
at a self-play table, one at a league's).

:mod:`tienlen.rl.actors` is the Python face (the training loop's), and
:func:`tienlen.rl.train.self_play_hand` the pure reference it follows.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, kernel
from .features import actions_into, state_into
from .layout import PASS, S_FINISH, S_OVER
from .movegen import WS_ROWS
from .policies import RANDOM
from .vector import (
    E_PACKS,
    M_ASKED,
    M_ASKED_OOT,
    M_DONE,
    M_N,
    M_POL,
    M_TRIES,
    _answered,
    _deal_next,
    _legal_into,
    _made,
    _policy_choice,
    _random_row,
    asked_now,
)

# each hand's own counters besides the batched environment's (tienlen.fast.vector's M_*)
A_ASKED = 0  # the network is asked: its moves (how many), in the hand's row of ``moves``
A_FRAMES = 1  # decisions made in this hand (forced ones included, declined chops not)
A_FIRST = 2  # the decision's first row in the inputs
A_DEAL = 3  # the hand over has been read: the next move on deals again
A_SIZE = 4


@jit
def _move_on(st: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ec: np.ndarray,
             meta: np.ndarray, own: np.ndarray, played: np.ndarray, total: np.ndarray,
             moves: np.ndarray, ws: np.ndarray, idt: np.ndarray, ids: np.ndarray,
             seen: np.ndarray, deck: np.ndarray, memo: dict) -> int:
    """One hand moved on until the network is asked (its moves in ``moves``) or the hand is
    over (``meta[M_DONE]``, dealt again once read: ``own[A_DEAL]``): 0, or the rows ``moves``
    must hold (grow it and ask again)."""
    if meta[M_DONE]:
        if not own[A_DEAL]:
            return 0
        own[A_DEAL] = 0
        meta[M_DONE] = 0
        meta[M_TRIES] = 0
        own[A_FRAMES] = 0
        _deal_next(st, ec, meta, played, total, deck)
    while not st[S_OVER]:
        seat, oot = asked_now(st, meta)
        n = _legal_into(st, cfg, chops, seat, oot, moves, ws)
        if n > moves.shape[0] or n > ids.shape[0]:
            return n
        policy = meta[M_POL + seat]
        if policy >= 0:  # a league's bot
            meta[M_N] = n
            meta[M_ASKED] = seat
            meta[M_ASKED_OOT] = oot
            if policy == RANDOM:  # random: the counter's draw among the legal ids
                i = _random_row(moves, n, idt, ids, seen, meta)
            else:
                i = _policy_choice(st, cfg, meta, moves, total, memo)
            _answered(st, cfg, chops, ec, meta, played, total, moves, i)
            continue
        if n == 1:  # forced (out of turn: a seat without a chop is asked all the same)
            own[A_FRAMES] += not oot
            _made(st, cfg, chops, ec, meta, played, total, seat, oot, moves[0, 0],
                  moves[0, 1], moves[0, 2])
            continue
        meta[M_ASKED] = seat
        meta[M_ASKED_OOT] = oot
        own[A_ASKED] = n
        return 0
    meta[M_DONE] = 1
    return 0


@jit
def move_all(states: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ecs: np.ndarray,
             tables: np.ndarray, metas: np.ndarray, owns: np.ndarray, played: np.ndarray,
             totals: np.ndarray, moves: np.ndarray, idt: np.ndarray, memo: dict) -> int:
    """Every hand not waiting on the network moved on (:func:`_move_on`; hand ``e`` under the
    settings ``ecs[tables[e]]``): 0, or the rows a hand's ``moves`` must hold (grow them and
    call again: nothing is lost)."""
    ws = np.zeros((WS_ROWS, 20), dtype=np.int64)
    cap = moves.shape[1]
    ids = np.zeros(cap, dtype=np.int64)
    seen = np.zeros(cap, dtype=np.int64)
    deck = np.zeros(104, dtype=np.int64)
    for e in range(states.shape[0]):
        if owns[e, A_ASKED] == 0:
            need = _move_on(states[e], cfg, chops, ecs[tables[e]], metas[e], owns[e], played[e],
                            totals[e], moves[e], ws, idt, ids, seen, deck, memo)
            if need:
                return need
    return 0


@jit
def inputs(states: np.ndarray, ecs: np.ndarray, tables: np.ndarray, metas: np.ndarray,
           owns: np.ndarray, played: np.ndarray, moves: np.ndarray, tops: np.ndarray,
           memo: dict, state_rows: np.ndarray, action_rows: np.ndarray,
           owner: np.ndarray) -> int:
    """Each decision the network is asked, its inputs: hand ``e``'s state vector into
    ``state_rows[e]``, one action vector a legal move into ``action_rows`` from row
    ``owns[e, A_FIRST]``, and ``e`` into ``owner`` for each of those rows. Returns the rows
    written, or minus the rows ``action_rows`` and ``owner`` must hold (nothing written)."""
    rows = 0
    for e in range(states.shape[0]):
        rows += owns[e, A_ASKED]
    if rows > action_rows.shape[0]:
        return -rows
    at = 0
    for e in range(states.shape[0]):
        n = owns[e, A_ASKED]
        if n == 0:
            continue
        owns[e, A_FIRST] = at
        seat = metas[e, M_ASKED]
        state_into(states[e], played[e], seat, ecs[tables[e], E_PACKS], state_rows[e])
        actions_into(states[e], seat, moves[e], n, tops[0], tops[1], state_rows[e], memo,
                     action_rows, at, 0)
        owner[at:at + n] = e
        at += n
    return at


@kernel
def pick(scores: np.ndarray, owns: np.ndarray, explore: np.ndarray, draws: np.ndarray,
         choices: np.ndarray) -> None:
    """Each decision asked: the move of the best score (the first of equal ones), or where
    ``explore[e]`` a move drawn from ``draws[e]`` (uniform in [0, 1)), into ``choices[e]``."""
    for e in range(owns.shape[0]):
        n = owns[e, A_ASKED]
        if n == 0:
            choices[e] = -1
            continue
        if explore[e]:
            choices[e] = min(int(draws[e] * n), n - 1)
            continue
        first = owns[e, A_FIRST]
        best = 0
        for i in range(1, n):
            if scores[first + i] > scores[first + best]:
                best = i
        choices[e] = best


@kernel
def keep(state_rows: np.ndarray, action_rows: np.ndarray, owns: np.ndarray, metas: np.ndarray,
         choices: np.ndarray, kept: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> int:
    """Each decision asked, its inputs as the learner reads them (the state vector, then the
    chosen move's action vector) kept in the next row of its hand's ``kept[e]``, and the seat
    that made it in ``seats[e]`` (``counts[e]``: the rows kept in the hand so far): 0, or the
    rows a hand's ``kept`` must hold (grow them and call again: nothing is written)."""
    need = 0
    for e in range(owns.shape[0]):
        if owns[e, A_ASKED] != 0 and choices[e] >= 0 and counts[e] >= kept.shape[1]:
            need = max(need, counts[e] + 1)
    if need:
        return need
    width = state_rows.shape[1]
    for e in range(owns.shape[0]):
        if owns[e, A_ASKED] == 0 or choices[e] < 0:
            continue
        i = counts[e]
        row = owns[e, A_FIRST] + choices[e]
        for c in range(width):
            kept[e, i, c] = state_rows[e, c]
        for c in range(action_rows.shape[1]):
            kept[e, i, width + c] = action_rows[row, c]
        seats[e, i] = metas[e, M_ASKED]
        counts[e] = i + 1
    return 0


@kernel
def answer(states: np.ndarray, cfg: np.ndarray, chops: np.ndarray, ecs: np.ndarray,
           tables: np.ndarray, metas: np.ndarray, owns: np.ndarray, played: np.ndarray,
           totals: np.ndarray, moves: np.ndarray, choices: np.ndarray) -> None:
    """The moves chosen made (``choices[e]``, a row of hand ``e``'s moves) for the hands
    asked."""
    for e in range(states.shape[0]):
        i = choices[e]
        if i < 0 or owns[e, A_ASKED] == 0:
            continue
        meta = metas[e]
        oot = meta[M_ASKED_OOT] != 0
        shape = moves[e, i, 2]
        if not (oot and shape == PASS):
            owns[e, A_FRAMES] += 1
        _made(states[e], cfg, chops, ecs[tables[e]], meta, played[e], totals[e],
              meta[M_ASKED], oot, moves[e, i, 0], moves[e, i, 1], shape)
        owns[e, A_ASKED] = 0


@kernel
def places(states: np.ndarray, metas: np.ndarray, owns: np.ndarray, players: int,
           out: np.ndarray) -> None:
    """Each seat's place (0 first) in every hand over and not yet read, into ``out`` (-1 for
    the others: the caller then marks the hands read, ``owns[e, A_DEAL]``)."""
    for e in range(states.shape[0]):
        if not metas[e, M_DONE] or owns[e, A_DEAL]:
            out[e, :players] = -1
            continue
        for place in range(players):
            out[e, states[e, S_FINISH + place]] = place
