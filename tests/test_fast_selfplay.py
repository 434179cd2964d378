"""Self-play at compiled speed: the learned bot's inputs computed in compiled code equal the
pure ones to the bit, and the compiled actors play the very hands the pure loop plays."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

from tienlen import Rules
from tienlen.actions import Action
from tienlen.bots.features import INPUT_SIZE, MLP, STATE_SIZE, action_matrix, state_vector
from tienlen.bots.heuristic import plan_tops
from tienlen.bots.learned import load_net
from tienlen.bots.simple import phase_choice
from tienlen.game import Game, packs_for
from tienlen.shapes import Play
from tienlen.turns import Turns

pytest.importorskip("numba")

import itertools

from tienlen.fast.encoding import state_of
from tienlen.fast.features import actions_into, state_into
from tienlen.fast.plays import mask_of
from tienlen.fast.split import new_memo
from tienlen.rl import actors as compiled_actors
from tienlen.rl.actors import Actors, unsupported
from tienlen.rl.draws import deal, key_of
from tienlen.rl.train import self_play_hand

# rules and table sizes with every kind of decision: §6 chops out of turn (pagat with them),
# §11 free chops, cóng and places from the bottom (mien-nam), two packs (killer at 8),
# stacking (mien-bac), two and three players
TABLES = [("pagat", 4), ("pagat+chop_out_of_turn", 8), ("mien-nam", 4), ("mien-bac", 4),
          ("killer", 6), ("killer", 8), ("pagat", 2), ("viet-cong", 3)]


def _rules(name: str) -> Rules:
    preset, _, option = name.partition("+")
    rules = Rules.preset(preset)
    return rules.replace(**{option: True}) if option else rules


def _pure_inputs(game: Game, seat: int, legal: list[Play], played: list[list[int]]
                 ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    table = game.table
    state = state_vector(seat, game.players, game.state.hands[seat], played, game.counts(),
                         game.finish_order, game.passed, table.keys if table else None,
                         table.shape if table else None, game.table_seat, game.stacking,
                         packs_for(game.players))
    actions = action_matrix(game.state.hands[seat], [(p.keys, p.shape) for p in legal],
                            plan_tops(game.rules), state[52:104])
    return state, actions


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_the_compiled_inputs_are_the_pure_ones_at_every_decision(preset: str, players: int) -> None:
    rules = _rules(preset)
    tops = plan_tops(rules)
    memo = new_memo()
    decisions = out_of_turn = 0
    for hand in range(4):
        game = Game.deal(rules, players, 100 + hand)
        rng = random.Random(hand)
        played: list[list[int]] = [[] for _ in range(players)]
        turns = Turns(game)
        while (asked := turns.next()) is not None:
            legal = list(asked.moves)
            if any(isinstance(m, Action) for m in legal):
                turns.answer(asked.seat, phase_choice(cast(Any, SimpleNamespace(legal=legal))))
                continue
            plays = cast(list[Play], legal)
            state, actions = _pure_inputs(game, asked.seat, plays, played)
            counted = np.zeros((players + 1, 52), dtype=np.int8)
            for seat, keys in enumerate(played):
                for k in keys:
                    counted[seat, k] += 1
                    counted[players, k] += 1
            st = state_of(game)
            mine = np.zeros((len(plays), INPUT_SIZE), dtype=np.float32)
            state_into(st, counted, asked.seat, packs_for(players), mine[0, :STATE_SIZE])
            moves = np.array([mask_of(p) for p in plays], dtype=np.int64)
            actions_into(st, asked.seat, moves, len(plays), tops[0], tops[1],
                         mine[0, :STATE_SIZE], memo, mine, 0, STATE_SIZE)
            assert mine[0, :STATE_SIZE].tobytes() == state.tobytes()
            assert mine[:, STATE_SIZE:].tobytes() == actions.tobytes()
            decisions += 1
            out_of_turn += asked.out_of_turn
            move = rng.choice(plays)
            turns.answer(asked.seat, move)
            played[asked.seat].extend(move.keys)
    assert decisions > 50
    if rules.chop_out_of_turn:
        assert out_of_turn > 0  # chops offered out of turn were compared too


def _net(seed: int) -> MLP:
    """A small network of random weights whose scores spread (no near ties to flip)."""
    rng = np.random.default_rng(seed)
    widths = [INPUT_SIZE, 24, 1]
    return MLP([(rng.normal(0, 1, (a, b)).astype(np.float32), rng.normal(0, 1, b).astype(np.float32))
                for a, b in itertools.pairwise(widths)], blas=True)


@pytest.mark.parametrize(("preset", "players", "kept"),
                         [(preset, players, compiled_actors.KEPT) for preset, players in TABLES]
                         + [("pagat", 4, 1)])  # a hand's rows grown at every decision
def test_the_compiled_actors_play_the_hands_the_pure_loop_plays(
        preset: str, players: int, kept: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_actors, "KEPT", kept)
    rules = _rules(preset)
    net = _net(players)
    actors = Actors(rules, players, envs=1, seed=5)
    key = key_of(5 * 1_000_003)  # table 0's key
    hands = 0
    number = -1  # the deal's number under the key: one won at once is dealt again
    for _ in range(3):
        ended = actors.step(net)
        while ended.hands == 0:
            ended = actors.step(net)
        number += 1
        while (game := deal(rules, players, key, number)).is_over:
            number += 1
        frames = self_play_hand(game, net, random.Random(0), 0.0)
        places = {seat: place for place, seat in enumerate(game.finish_order)}
        assert ended.frames == frames.total
        assert ended.inputs.tobytes() == np.stack(frames.inputs).tobytes()
        assert ended.places.tolist() == [places[seat] for seat in frames.seats]
        hands += 1
    assert hands == 3


def test_many_hands_at_once_each_end_with_a_place_for_every_decision() -> None:
    rules = Rules.preset("mien-nam")
    actors = Actors(rules, 4, envs=32, seed=2, league=("heuristic", "greedy", "random"),
                    league_share=0.5)
    net = MLP([(w.astype(np.float32), b.astype(np.float32)) for w, b in load_net().layers])
    hands = rows = 0
    while hands < 60:
        ended = actors.step(net, epsilon=0.1)
        hands += ended.hands
        rows += len(ended.inputs)
        assert len(ended.inputs) == len(ended.places)
        assert ((ended.places >= 0) & (ended.places < 4)).all()
        own = ended.inputs[:, :52]
        assert ((own == 0) | (own == 1)).all()  # one pack: each card held once at most
    assert rows > hands * 5


def test_what_the_compiled_actors_do_not_run_is_said() -> None:
    assert unsupported(Rules.preset("pagat")) is None
    assert "search" in str(unsupported(Rules.preset("pagat"), ("search",)))
    with pytest.raises(ValueError, match="league's bot 'learned'"):
        Actors(Rules.preset("pagat"), 4, league=("learned",), league_share=0.5)
