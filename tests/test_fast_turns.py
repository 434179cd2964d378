"""The compiled loops' order of asking against the turn API (issue 20, point 1).

``tienlen/turns.py`` is the engine's one answer to "who decides now, and from which moves":
after every move the seats asked out of turn (§6 chop windows under ``chop_out_of_turn``,
every seat the rules let chop, whatever it holds; §11 free chops), in priority order, each
with its chops and ``pass``; then the seat on turn. The fast path's compiled loops cannot call
Python, so they keep their own copy: one loop, ``tienlen.fast.policies._play``, under search's
rollouts (``rollouts``, ``bots/fast_rollout.py``), the arena's fast lane (``fast/play.py``) and
the playouts by policy (``play_hands``). ``policies.traced_playout`` is that same compiled loop
with a seat that plays the moves of a script and a trace of every decision it asks.

Each hand here is played first through :class:`~tienlen.turns.Turns` on the pure engine, with
the golden traces' chooser (``tests/golden_turns.py``); its moves in play become the script,
and the compiled loop, from the same position at the start of play, must ask the same
decisions: the same seat, the same kind (``play``, ``chop``, ``free_chop``) and the same legal
moves, one by one, to the end of the hand. Every preset at 2, 3, 4, 5 and 8 players (where it
allows that many), the golden traces' house rules, and a few more (``chop_after_pass`` alone,
out-of-turn chops without lock-out, free chops at other table sizes), some seeds each.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import golden_turns as g
from tienlen import Rules, Session
from tienlen.turns import Kind, Turns

SEEDS = (1, 2, 3)
_KINDS = {Kind.PLAY: 0, Kind.CHOP: 1, Kind.FREE_CHOP: 2}  # policies.ASK_PLAY, ...

Mask = tuple[int, int, int]
Asked = tuple[int, int, tuple[Mask, ...]]  # seat, kind, the sorted moves offered


def _more() -> list[g.Config]:
    pagat = Rules.preset("pagat")
    extra = [
        ("chop_after_pass", pagat.replace(chop_after_pass=True), 4),
        ("chop_after_pass+stacking",
         pagat.replace(chop_after_pass=True, stacking=True, pass_locks_out=False), 5),
        ("chop_out_of_turn+no_lock_out",
         pagat.replace(chop_out_of_turn=True, pass_locks_out=False), 3),
        ("chop_out_of_turn+chop_after_pass",
         Rules.preset("viet-cong").replace(chop_out_of_turn=True, chop_after_pass=True), 5),
        ("chop_out_of_turn+stacking",
         pagat.replace(chop_out_of_turn=True, stacking=True, pass_locks_out=False), 4),
        ("free_chops", pagat.replace(free_chops=["chain:3+", "quad"]), 3),
        ("free_chops", pagat.replace(free_chops=["chain:3+", "quad"]), 5),
        ("mien-nam+chop_out_of_turn", Rules.preset("mien-nam").replace(chop_out_of_turn=True), 4),
        ("mien-nam+chop_out_of_turn", Rules.preset("mien-nam").replace(chop_out_of_turn=True), 8),
    ]
    return [g.Config(f"more:{name}/{n}", rules, n) for name, rules, n in extra]


CONFIGS = [c for c in g.base_configs() + _more() if g.fast_supported(c)]


def _mask(move: Any) -> Mask:
    from tienlen.fast.encoding import play_mask

    return play_mask(move)


def pure_hand(config: g.Config, seed: int) -> tuple[Any, list[Asked], list[Mask]] | None:
    """The first hand of a session played through the turn API: the fast position at the start
    of play, then each decision asked in play and the move chosen (None: over before play)."""
    from tienlen.fast.encoding import state_of

    game = Session(config.rules, config.players, seed).game
    run = g.Run(config, seed)
    run.hand(0)
    turns = Turns(game)
    start = None
    asked: list[Asked] = []
    chosen: list[Mask] = []
    while (decision := turns.next()) is not None:
        if decision.kind in _KINDS and start is None:
            start = state_of(game)
        move = run.decide(game, decision.seat, decision.out_of_turn, decision.moves)
        if decision.kind in _KINDS:
            asked.append((decision.seat, _KINDS[decision.kind],
                          tuple(sorted(_mask(m) for m in decision.moves))))
            chosen.append(_mask(move))
        turns.answer(decision.seat, move)
    if start is None:
        return None
    return start, asked, chosen


@cache
def _compiled() -> Any:
    from tienlen import fast

    fast.load()
    from tienlen.fast import api, policies
    from tienlen.fast.split import new_memo

    return policies, api.buffer(), new_memo()


def compiled_hand(config: g.Config, start: Any, script: list[Mask]) -> tuple[list[Asked], Any]:
    """The decisions the compiled loop asks, from ``start``, playing ``script``; the end state."""
    import numpy as np

    from tienlen.fast.encoding import fast_rules

    policies, buf, memo = _compiled()
    fr = fast_rules(config.rules)
    st = start.copy()
    trace = np.zeros((200_000, 3), dtype=np.int64)
    made, rows = policies.traced_playout(st, fr.cfg, fr.chops, memo, buf,
                                         np.array(script, dtype=np.int64).reshape(-1, 3), trace)
    assert rows >= 0, "the trace is full"
    asked: list[Asked] = []
    r = 0
    while r < rows:
        seat, kind, count = (int(x) for x in trace[r])
        moves = tuple(sorted(tuple(int(x) for x in row) for row in trace[r + 1:r + 1 + count]))
        asked.append((seat, kind, moves))
        r += count + 1
    assert made == len(script) or asked != [], "the loop made moves it did not ask"
    return asked, st


def first_difference(expected: list[Asked], found: list[Asked]) -> str | None:
    for i, (e, f) in enumerate(zip(expected, found, strict=False)):
        if e != f:
            return f"decision {i}: turns.py asks {e}, the compiled loop {f}"
    if len(expected) != len(found):
        return (f"turns.py asks {len(expected)} decisions, the compiled loop {len(found)}"
                f" (next: {(expected + found)[min(len(expected), len(found))]})")
    return None


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_the_compiled_loop_asks_as_the_turn_api_does(config):
    pytest.importorskip("numba")
    from tienlen.fast.layout import S_FINISH, S_NFINISH, S_OVER

    played = 0
    for seed in SEEDS:
        hand = pure_hand(config, seed)
        if hand is None:  # a claimed instant win: no play at all
            continue
        start, expected, script = hand
        found, end = compiled_hand(config, start, script)
        assert first_difference(expected, found) is None, \
            (config.name, seed, first_difference(expected, found))
        assert end[S_OVER], (config.name, seed)
        assert len(end[S_FINISH:S_FINISH + end[S_NFINISH]]) >= 1
        played += 1
    assert played or config.rules.instant_wins
