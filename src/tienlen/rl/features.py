"""The learned bot's inputs: a state vector and one vector per candidate action (numpy only).

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

Action (:data:`ACTION_SIZE` = 195): the play's cards, count per key (52); its shape,
one-hot (9, ``pass`` last); its number of cards / 13 (1); the cards left after it,
one-hot 0..13 (14); its top rank, one-hot (13, zero for a pass); the hand after it,
count per key (52); the hand after it by rank (52, as the state's hand by rank); the
ranks held once and the ranks held at all after it, each / 13 (2).

The by-rank entries (DouZero's card matrix) let the network see pairs, triples and runs
whatever their suits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

SHAPES: Final = ("single", "pair", "triple", "quad", "run", "chain", "triple_chain", "quad_chain",
                 "pass")
_SHAPE_INDEX: Final = {s: i for i, s in enumerate(SHAPES)}
STATE_SIZE: Final = 496
ACTION_SIZE: Final = 195
INPUT_SIZE: Final = STATE_SIZE + ACTION_SIZE

F32 = npt.NDArray[np.float32]


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


def action_matrix(hand: Sequence[int], actions: Sequence[tuple[Sequence[int], str | None]]) -> F32:
    """One action vector per ``(keys, shape)``; an empty key list is a pass."""
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
    return m


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

    def save(self, path: object, half: bool = False) -> None:
        dtype = np.float16 if half else np.float32
        arrays: dict[str, npt.NDArray[np.generic]] = {"layers": np.array(len(self.layers))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def __call__(self, x: F32) -> F32:
        for i, (w, b) in enumerate(self.layers):
            x = (x @ w if self.blas else np.einsum("ij,jk->ik", x, w, optimize=False)) + b
            if i < len(self.layers) - 1:
                np.maximum(x, 0.0, out=x)
        return x[:, 0]

    def scores(self, state: F32, actions: F32) -> F32:
        x = np.empty((actions.shape[0], INPUT_SIZE), dtype=np.float32)
        x[:, :STATE_SIZE] = state
        x[:, STATE_SIZE:] = actions
        return self(x)
