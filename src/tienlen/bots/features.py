"""The learned bot's inputs: a state vector and one vector per candidate action (numpy only),
and its value network (:class:`MLP`); self-play training (:mod:`tienlen.rl.train`) uses the same.

The network scores ``concat(state, action)`` for each legal action (Deep Monte-Carlo with
actions as inputs, as DouZero does) and the bot takes the best. Both vectors are float32
and hold only what the seat may know. Cards are counted by *key* (``rank * 4 + strength``
under the rules' suit order, 0..51), so a two-pack count may be 2.

State (:data:`STATE_SIZE` = 496), the other seats seen from the seat in three slots --
slot 0 the next seat, slot 2 the previous seat, slot 1 every seat in between (empty with
2 players; with 3 players slot 1 is empty and the previous seat is slot 2):

====  ====  ======================================================================
from  size  entry
====  ====  ======================================================================
0     52    own hand, count per key
52    52    unseen cards (neither in the hand nor played), count per key
104   156   cards played by slot 0, 1, 2 (52 each)
260   42    cards held by slot 0, 1, 2, one-hot 0..13 (13 = 13 or more; slot 1: fewest)
302   3     slot 0, 1, 2 has gone out (slot 1: any of its seats)
305   3     slot 0, 1, 2 has passed this round (slot 1: all of its seats)
308   3     slot 0, 1, 2 holds a seat
311   52    the play to beat, count per key (all zero on a lead)
363   9     its shape, one-hot (:data:`SHAPES`; ``pass`` marks a lead)
372   4     who made it: self, slot 0, 1, 2
376   1     the decision is a lead
377   1     a stacking turn (§5)
378   14    own card count, one-hot 0..13
392   52    own hand by rank: 4 per rank, entry j is 1 when the rank is held j+1 times or more
444   52    unseen cards by rank, the same way
====  ====  ======================================================================

Action (:data:`ACTION_SIZE` = 225; MLP input 721): the play's cards, count per key (52); its shape,
one-hot (9, ``pass`` last); its number of cards / 13 (1); the cards left after it,
one-hot 0..13 (14); its top rank, one-hot (13, zero for a pass); the hand after it,
count per key (52); the hand after it by rank (52, as the state's hand by rank); the
ranks held once and the ranks held at all after it, each / 13 (2); then the hand's plan after
it (:data:`PLAN_SIZE` = 30, from 195), made by the heuristic bot's hand split
(:func:`tienlen.bots.split.best_split`, fewest groups then fewest loose singles, on the
seat's own rank counts) of the hand before and after the play:

====  ====  ======================================================================
from  size  entry (the plan after the play unless said)
====  ====  ======================================================================
195   1     groups (plays needed to go out) / 13
196   8     groups, one-hot 0..7 (7 = 7 or more)
204   1     loose singles / 13
205   1     low loose singles (3 to 10) / 13
206   1     groups before minus groups after, / 4
207   1     loose singles after minus before, / 4
208   1     the play is a whole group of the plan before (groups fall by one)
209   5     the play breaks a pair, triple, quad, run, chain of the plan before (takes
            some of its cards and is not that group)
214   5     pairs, triples, quads, runs, chains / 4
219   1     chop-capable groups kept (quads, chains of 3 pairs or more) / 2
220   1     cards kept above every unseen card (masters), at most 4, / 4
221   1     highest card kept, (key + 1) / 52 (0: none)
222   1     highest loose single, (rank + 1) / 13 (0: none)
223   1     lowest loose single, (rank + 1) / 13 (0: none)
224   1     the play's top card is above every unseen card
====  ====  ======================================================================

The plan entries need the rules' run and chain tops
(:func:`tienlen.bots.heuristic.plan_tops`) and the unseen cards (the state's entries
52..103): only the seat's own hand and what it has seen. A network trained before them
(input :data:`LEGACY_INPUT_SIZE` = 691) reads only the first 691 inputs and plays as it did
(:meth:`MLP.scores`); :meth:`MLP.widened` gives it the new inputs with zero weights.

The by-rank entries (DouZero's card matrix) let the network see pairs, triples and runs
whatever their suits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..shapes import Play

SHAPES: Final = ("single", "pair", "triple", "quad", "run", "chain", "triple_chain", "quad_chain",
                 "pass")
_SHAPE_INDEX: Final = {s: i for i, s in enumerate(SHAPES)}
STATE_SIZE: Final = 496
LEGACY_ACTION_SIZE: Final = 195
PLAN_SIZE: Final = 30
ACTION_SIZE: Final = LEGACY_ACTION_SIZE + PLAN_SIZE
INPUT_SIZE: Final = STATE_SIZE + ACTION_SIZE
LEGACY_INPUT_SIZE: Final = STATE_SIZE + LEGACY_ACTION_SIZE

F32 = npt.NDArray[np.float32]

def played_by_seat(view: Any) -> list[list[int]]:
    """The keys each seat has played, read from the view's events."""
    played: list[list[int]] = [[] for _ in range(view.players)]
    for seat, move in view.events:
        if isinstance(move, Play):
            played[seat].extend(move.keys)  # a pass adds none
    return played


def slots_of(seat: int, players: int) -> list[int]:
    """The slot (0 next, 1 between, 2 previous) of every seat, -1 for the seat itself."""
    out = [-1] * players
    for other in range(players):
        if other == seat:
            continue
        step = (other - seat) % players
        out[other] = 0 if step == 1 else 2 if step == players - 1 else 1
    return out


def state_vector(seat: int, players: int, hand: Sequence[int], played: Sequence[Sequence[int]],
                 counts: Sequence[int], finished: Sequence[int], passed: Sequence[bool],
                 table: Sequence[int] | None, table_shape: str | None, table_seat: int | None,
                 stacking: bool, packs: int) -> F32:
    """The state vector of ``seat``: ``hand`` and each seat's ``played`` cards as keys."""
    v = np.zeros(STATE_SIZE, dtype=np.float32)
    for k in hand:
        v[k] += 1.0
    unseen = np.full(52, float(packs), dtype=np.float32) - v[:52]
    slots = slots_of(seat, players)
    fewest = [99, 99, 99]
    out_any = [False, False, False]
    all_passed = [True, True, True]
    present = [False, False, False]
    gone = set(finished)
    for other in range(players):
        keys = played[other]
        for k in keys:
            unseen[k] -= 1.0
        slot = slots[other]
        if slot < 0:
            continue
        base = 104 + 52 * slot
        for k in keys:
            v[base + k] += 1.0
        present[slot] = True
        fewest[slot] = min(fewest[slot], counts[other])
        out_any[slot] = out_any[slot] or other in gone
        all_passed[slot] = all_passed[slot] and bool(passed[other])
    v[52:104] = np.maximum(unseen, 0.0)
    for slot in range(3):
        if present[slot]:
            v[260 + 14 * slot + min(fewest[slot], 13)] = 1.0
            v[302 + slot] = float(out_any[slot])
            v[305 + slot] = float(all_passed[slot])
            v[308 + slot] = 1.0
    if table is None or not table:
        v[363 + _SHAPE_INDEX["pass"]] = 1.0
        v[376] = 1.0
    else:
        for k in table:
            v[311 + k] += 1.0
        v[363 + _SHAPE_INDEX.get(table_shape or "pass", 8)] = 1.0
        if table_seat is not None:
            v[372 + (0 if table_seat == seat else 1 + slots[table_seat])] = 1.0
    v[377] = float(stacking)
    v[378 + min(len(hand), 13)] = 1.0
    v[392:444] = _by_rank(v[:52])
    v[444:496] = _by_rank(v[52:104])
    return v


_THERMO: Final = np.arange(1, 5, dtype=np.float32)


def _by_rank(counts: F32) -> F32:
    """Per rank, 4 entries: held at least 1, 2, 3, 4 times (counts per key in, 52 out)."""
    per_rank = counts.reshape(13, 4).sum(axis=1)
    out: F32 = (per_rank[:, None] >= _THERMO[None, :]).astype(np.float32).reshape(52)
    return out


def action_matrix(hand: Sequence[int], actions: Sequence[tuple[Sequence[int], str | None]],
                  tops: tuple[int, int] = (11, 11), unseen: F32 | None = None,
                  plan: bool = True) -> F32:
    """One action vector per ``(keys, shape)``; an empty key list is a pass.

    ``tops``: the highest ranks runs and chains may reach in the plan (``plan_tops(rules)``);
    ``unseen``: the unseen cards per key (the state's entries 52..103; none: no masters).
    ``plan=False`` leaves the plan entries zero (a network without them does not read them).
    """
    m = np.zeros((len(actions), ACTION_SIZE), dtype=np.float32)
    h = np.zeros(52, dtype=np.float32)
    for k in hand:
        h[k] += 1.0
    size = len(hand)
    for i, (keys, shape) in enumerate(actions):
        row = m[i]
        for k in keys:
            row[k] += 1.0
        row[52 + _SHAPE_INDEX.get(shape or "pass", 8)] = 1.0
        row[61] = len(keys) / 13.0
        row[62 + min(size - len(keys), 13)] = 1.0
        if keys:
            row[76 + (max(keys) >> 2)] = 1.0
        row[89:141] = h - row[:52]
    after = m[:, 89:141].reshape(len(actions), 13, 4).sum(axis=2)
    m[:, 141:193] = (after[:, :, None] >= _THERMO[None, None, :]).reshape(len(actions), 52)
    m[:, 193] = (after == 1).sum(axis=1) / 13.0
    m[:, 194] = (after > 0).sum(axis=1) / 13.0
    if plan and len(actions):
        _plan_entries(m, hand, actions, tops, unseen)
    return m


_BREAKS: Final = {"pair": 0, "triple": 1, "quad": 2, "run": 3, "chain": 4}


def _plan_entries(m: F32, hand: Sequence[int], actions: Sequence[tuple[Sequence[int], str | None]],
                  tops: tuple[int, int], unseen: F32 | None) -> None:
    from .split import best_split

    run_top, chain_top = tops
    counts = [0] * 13
    for k in hand:
        counts[k >> 2] += 1
    groups0, singles0, plan0 = best_split(tuple(counts), run_top, chain_top)
    spans = [(g[0], g[1], g[2], g[3]) for g in plan0 if g[0] in _BREAKS]
    top_unseen = -1
    if unseen is not None:
        seen = np.flatnonzero(unseen > 0)
        top_unseen = int(seen[-1]) if seen.size else -1
    base = LEGACY_ACTION_SIZE
    for i, (keys, _shape) in enumerate(actions):
        row = m[i]
        played = [0] * 13
        for k in keys:
            played[k >> 2] += 1
        left = tuple(c - p for c, p in zip(counts, played, strict=True))
        groups, singles, plan = best_split(left, run_top, chain_top)
        row[base] = groups / 13.0
        row[base + 1 + min(groups, 7)] = 1.0
        row[base + 9] = singles / 13.0
        kinds = [0, 0, 0, 0, 0]
        chops = 0
        low = 0
        single_ranks = []
        for shape, r, n, _per in plan:
            if shape == "single":
                single_ranks.append(r)
                low += r <= 7
            elif shape in _BREAKS:
                kinds[_BREAKS[shape]] += 1
                chops += shape == "quad" or (shape == "chain" and n >= 3)
        row[base + 10] = low / 13.0
        row[base + 11] = (groups0 - groups) / 4.0
        row[base + 12] = (singles - singles0) / 4.0
        row[base + 13] = float(bool(keys) and groups == groups0 - 1)
        if keys:
            for shape, r, n, per in spans:
                if any(played[q] for q in range(r, r + n)):
                    whole = all(played[q] == (per if r <= q < r + n else 0) for q in range(13))
                    if not whole:
                        row[base + 14 + _BREAKS[shape]] = 1.0
        for j in range(5):
            row[base + 19 + j] = kinds[j] / 4.0
        row[base + 24] = chops / 2.0
        kept = np.flatnonzero(m[i, 89:141] > 0)
        if kept.size:
            row[base + 25] = min(int((kept > top_unseen).sum()), 4) / 4.0
            row[base + 26] = (int(kept[-1]) + 1) / 52.0
        if single_ranks:
            row[base + 27] = (max(single_ranks) + 1) / 13.0
            row[base + 28] = (min(single_ranks) + 1) / 13.0
        row[base + 29] = float(bool(keys) and max(keys) > top_unseen)


def _one_thread_blas() -> bool:
    import os

    return any(os.environ.get(var) == "1" for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                      "MKL_NUM_THREADS"))


class MLP:
    """The value network in numpy: ReLU layers, one output (the expected reward)."""

    def __init__(self, layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
                 blas: bool | None = None) -> None:
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                       for w, b in layers]
        # A decision scores a handful of rows: multi-threaded BLAS only costs there (tens of
        # ms on a busy machine), so without a one-thread BLAS the products are numpy's own loops.
        self.blas = _one_thread_blas() if blas is None else blas

    @classmethod
    def load(cls, path: object) -> MLP:
        with np.load(path) as data:  # type: ignore[arg-type]
            count = int(data["layers"])
            return cls([(data[f"w{i}"], data[f"b{i}"]) for i in range(count)])

    @property
    def input_size(self) -> int:
        return int(self.layers[0][0].shape[0])

    def widened(self, size: int = INPUT_SIZE) -> MLP:
        """The same network reading ``size`` inputs: the new ones with zero weights, so that
        it scores every decision as before until training moves them."""
        w0, b0 = self.layers[0]
        if w0.shape[0] > size:
            raise ValueError(f"the network reads {w0.shape[0]} inputs, more than {size}")
        wide = np.zeros((size, w0.shape[1]), dtype=np.float32)
        wide[:w0.shape[0]] = w0
        return MLP([(wide, b0), *self.layers[1:]], blas=self.blas)

    def save(self, path: object, half: bool = False) -> None:
        dtype = np.float16 if half else np.float32
        arrays: dict[str, npt.NDArray[np.generic]] = {"layers": np.array(len(self.layers))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def __call__(self, x: F32, blas: bool | None = None) -> F32:
        """The scores of the rows of ``x``; ``blas``: the products by BLAS (many rows at once)
        or numpy's own loops (default: the network's setting)."""
        by_blas = self.blas if blas is None else blas
        w, b = self.layers[0]
        return self._after_first((x @ w if by_blas else np.einsum("ij,jk->ik", x, w,
                                                                    optimize=False)) + b, by_blas)

    def batch_scores(self, states: F32, actions: F32, owner: npt.NDArray[np.int64]) -> F32:
        """The scores of many decisions' moves at once, by BLAS: ``states`` a state vector a
        decision, ``actions`` an action vector a move, ``owner`` each move's decision (its row
        of ``states``). The first layer's state part is computed once a decision, not once a
        move (the state is 496 of the 721 inputs). The same scores as :meth:`scores` up to
        rounding. A network of every input (:data:`INPUT_SIZE`) only."""
        w, b = self.layers[0]
        if w.shape[0] != INPUT_SIZE:
            raise ValueError(f"batch_scores needs a network of {INPUT_SIZE} inputs, not {w.shape[0]}")
        first = actions @ w[STATE_SIZE:] + (states @ w[:STATE_SIZE] + b)[owner]
        return self._after_first(first, True)

    def _after_first(self, x: F32, blas: bool) -> F32:
        """The scores from the first layer's sums (its ReLU, then the other layers)."""
        for w, b in self.layers[1:]:
            np.maximum(x, 0.0, out=x)
            x = (x @ w if blas else np.einsum("ij,jk->ik", x, w, optimize=False)) + b
        return x[:, 0]

    def scores(self, state: F32, actions: F32) -> F32:
        """Scores of the actions; a network of fewer inputs (one trained before the plan
        entries) reads only its first ones."""
        width = self.input_size
        x = np.empty((actions.shape[0], width), dtype=np.float32)
        x[:, :STATE_SIZE] = state
        x[:, STATE_SIZE:] = actions[:, :width - STATE_SIZE]
        return self(x)
