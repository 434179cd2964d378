"""The RL environments: each framework's own checker, and the environment against the engine."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from tienlen import Card, Game, Rules  # noqa: E402
from tienlen.actions import Action  # noqa: E402
from tienlen.rl import env as make_env  # noqa: E402
from tienlen.rl.actions import ActionSpace  # noqa: E402
from tienlen.rl.aec import TienLenEnv  # noqa: E402
from tienlen.rl.observation import encode, observation_size  # noqa: E402
from tienlen.rl.single import SingleSeatEnv  # noqa: E402
from tienlen.shapes import PASS, Play  # noqa: E402


def _rules(name: str) -> Rules:
    if name == "mutual":
        return Rules.preset("pagat").replace(trading="mutual")
    if name == "claims":
        return Rules.preset("mien-nam").replace(instant_win_optional=True)
    if name == "out-of-turn":
        return Rules.preset("pagat").replace(chop_out_of_turn=True)
    return Rules.preset(name)


CASES = [("pagat", 4), ("viet-cong", 4), ("cardrules", 4), ("mien-nam", 4), ("mien-bac", 4),
         ("justus-pang", 4), ("pagat", 2), ("pagat", 3), ("pagat", 6), ("mutual", 4),
         ("claims", 4), ("out-of-turn", 4)]
CHECKED = [("pagat", 4), ("viet-cong", 4), ("mien-nam", 4), ("pagat", 3), ("pagat", 6),
           ("claims", 4), ("out-of-turn", 4)]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


@pytest.mark.parametrize(("preset", "players"), CHECKED)
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    for _ in range(3):
        api_test(make_env(rules=_rules(preset), players=players), num_cycles=400)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("mien-nam", 4), ("pagat", 6)])
def test_pettingzoo_seed_test(preset: str, players: int) -> None:
    seed_test(lambda: make_env(rules=_rules(preset), players=players), num_cycles=200)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("out-of-turn", 4), ("pagat", 3)])
def test_pettingzoo_parallel_api_test(preset: str, players: int) -> None:
    par = turn_based_aec_to_parallel(make_env(rules=_rules(preset), players=players))
    parallel_api_test(par, num_cycles=400)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("viet-cong", 4), ("pagat", 2)])
def test_gymnasium_check_env(preset: str, players: int) -> None:
    check_env(SingleSeatEnv(rules=_rules(preset), players=players, opponents="greedy"),
              skip_render_check=True)


def _engine_moves(e: TienLenEnv) -> list[object]:
    game = e.game
    assert game is not None
    if e._out_of_turn_now:
        return [*[m for m in game.legal_plays(e._asking) if isinstance(m, Play)], PASS]
    decision = game.trade_decision(e._asking)
    if decision is not None and decision.kind == "offer":
        return [Action("done")]
    return list(game.legal_plays(e._asking))


@pytest.mark.parametrize("engine", ["pure", "fast"])
@pytest.mark.parametrize(("preset", "players"), CASES)
def test_mask_is_the_engines_legal_plays_and_ids_round_trip(preset: str, players: int, engine: str) -> None:
    """With ``fast`` the compiled path makes the lists: checked against the pure engine."""
    if engine == "fast":
        pytest.importorskip("numba")
        from tienlen import fast

        if not fast.enabled(_rules(preset)):
            pytest.skip("the fast path does not support these rules")
    e = make_env(rules=_rules(preset), players=players, engine=engine)
    rng = random.Random(players)
    for hand in range(3):
        e.reset(seed=hand)
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            moves = _engine_moves(e)
            ids = {e.space.id_of(m) for m in moves}  # type: ignore[arg-type]
            assert set(np.flatnonzero(obs["action_mask"])) == ids
            assert list(info["legal_ids"]) == sorted(ids)
            for move in moves:  # every legal move's id gives a legal card set of that id
                action_id = e.space.id_of(move)  # type: ignore[arg-type]
                chosen = e._legal[action_id]
                assert chosen in moves
                assert e.space.id_of(chosen) == action_id
                if isinstance(move, Play) and move.keys:
                    assert e.space.entries[action_id] == ActionSpace.key_of(move)
                    assert chosen.keys <= move.keys  # the lowest card set of the id
            row = list(info["legal_ids"]).index(next(iter(e._legal)))
            first = e._legal[next(iter(e._legal))]
            assert sorted(np.flatnonzero(info["legal_cards"][row])) == \
                sorted({c.code for c in getattr(first, "cards", ())})
            assert e.agent_selection == agent
            view_obs = encode(e.game.view(e._asking))  # type: ignore[union-attr]
            assert (obs["observation"][:-3] == view_obs[:-3]).all()  # the out-of-turn flag: the env's
            e.step(rng.choice(sorted(ids)))


def test_auto_is_the_fast_path_where_installed_and_supported(monkeypatch: pytest.MonkeyPatch) -> None:
    from tienlen import fast

    rules = Rules.preset("pagat")
    assert make_env(rules=rules).use_fast == fast.enabled(rules)
    assert make_env(rules=rules, engine="auto").use_fast == fast.enabled(rules)
    assert not make_env(rules=rules, engine="pure").use_fast
    monkeypatch.setenv("TIENLEN_PURE", "1")  # numba missing or turned off: the pure engine
    assert not make_env(rules=rules).use_fast
    with pytest.raises(ValueError, match="fast path"):
        make_env(rules=rules, engine="fast")


def test_auto_runs_a_hand_on_the_fast_path_as_on_the_pure_engine() -> None:
    """The same seed and actions give the same hand, masks and rewards on both engines."""
    pytest.importorskip("numba")
    rules = Rules.preset("mien-nam")  # free chops: the out-of-turn queue is asked too
    envs = [make_env(rules=rules, reward="units"), make_env(rules=rules, reward="units",
                                                           engine="pure")]
    assert envs[0].use_fast
    rng = np.random.default_rng(5)
    for hand in range(4):
        for e in envs:
            e.reset(seed=hand)
        for agent in envs[0].agent_iter():
            obs, reward, term, trunc, info = envs[0].last()
            assert envs[1].agent_selection == agent
            obs_p, reward_p, _, _, info_p = envs[1].last()
            assert (obs["action_mask"] == obs_p["action_mask"]).all() and reward == reward_p
            assert info.get("legal_text") == info_p.get("legal_text")
            live = not (term or trunc)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"]))) if live else None
            for e in envs:
                e.step(action)
        assert envs[0].game.finish_order == envs[1].game.finish_order  # type: ignore[union-attr]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_a_random_masked_game_ends_with_the_engines_order_and_scores(preset: str, players: int) -> None:
    e = make_env(rules=_rules(preset), players=players, reward="units")
    e.reset(seed=11)
    rng = np.random.default_rng(3)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        rewards[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.game
    assert game is not None and game.is_over
    replay = Game.from_record(game.record())
    assert replay.finish_order == game.finish_order
    assert replay.scores == game.scores
    assert [rewards[a] for a in e.possible_agents] == [float(s) for s in game.scores]
    assert abs(sum(rewards.values())) < 1e-9


@pytest.mark.parametrize("reward", ["rank", "first"])
def test_rewards_are_zero_sum_by_place(reward: str) -> None:
    e = make_env(rules="pagat", players=4, reward=reward)
    e.reset(seed=5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.game is not None
    first = e.possible_agents[e.game.finish_order[0]]
    assert total[first] == max(total.values()) == 1.0
    assert abs(sum(total.values())) < 1e-9


def test_an_illegal_id_is_replaced_deterministically_and_flagged() -> None:
    runs = []
    for _ in range(2):
        e = make_env(rules="pagat", players=4)
        e.reset(seed=2)
        agent = e.agent_selection
        e.step(e.space.n - 1)  # claim:four_threes: never legal in pagat
        assert e.infos[agent]["illegal"] is True
        runs.append(e.game.record())  # type: ignore[union-attr]
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
        assert e.infos[agent]["illegal"] is False
    assert runs[0] == runs[1]


def test_no_hidden_card_reaches_an_observation() -> None:
    """Two deals that differ only in the cards the observer cannot see give it the same
    observations at every step of the same play."""
    rules = Rules.preset("pagat")
    e = make_env(rules=rules, players=4)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    for _agent in e.agent_iter(max_iter=24):  # part of a hand: the others still hold cards
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.game
    assert game is not None
    seat = 0
    played: dict[int, list[str]] = {s: [] for s in range(4)}
    for s, move in game.history:
        played[s] += [str(c) for c in getattr(move, "cards", ())]
    dealt = [[str(Card(k)) for k in game.dealt[s]] for s in range(4)]  # standard order: keys are codes
    hidden = [c for s in range(1, 4) for c in dealt[s] if c not in played[s]]
    random.Random(1).shuffle(hidden)
    other = [dealt[0]]
    for s in range(1, 4):
        keep = [c for c in dealt[s] if c in played[s]]
        take = len(dealt[s]) - len(keep)
        other.append(keep + hidden[:take])
        hidden = hidden[take:]
    a = Game(rules, hands=[" ".join(h) for h in dealt], leader=None)
    b = Game(rules, hands=[" ".join(h) for h in other], leader=None)
    assert [a.hand(s) for s in range(1, 4)] != [b.hand(s) for s in range(1, 4)]
    for s, move in game.history:
        assert (encode(a.view(seat)) == encode(b.view(seat))).all()
        a.play(move, s)
        b.play(move, s)
    assert (encode(a.view(seat)) == encode(b.view(seat))).all()


def test_the_observation_is_the_documented_size_and_seat_relative() -> None:
    game = Game(Rules.preset("pagat"), hands=["3s 4s", "5h 6h", "7d 8d", "9c Tc"])
    size = observation_size(4)
    assert size == 409
    assert encode(game.view(0)).shape == (size,)
    game.play("3s")
    o1 = encode(game.view(1))
    # seat 1 sees seat 0's 3s among the cards played by rel 3 (the previous seat)
    assert o1[52 + 52 * 3 + 0] == 1
    assert o1[52 + 0] == 0


def test_pagat_has_509_ids_and_the_space_grows_with_the_options() -> None:
    pagat = ActionSpace(Rules.preset("pagat"), 4)
    assert pagat.play_count == 509
    plain = ActionSpace(Rules.preset("pagat").replace(twos_in_runs=False, twos_in_chains=False), 4)
    assert plain.play_count == 453
    assert ActionSpace(Rules.preset("cardrules"), 4).play_count > plain.play_count
    assert ActionSpace(Rules.preset("pagat"), 6).play_count > pagat.play_count


def test_the_single_seat_env_plays_bots_and_callables() -> None:
    env = SingleSeatEnv(rules="pagat", players=4, opponents=["heuristic", "greedy", lambda v: v.legal[-1]],
                        seat=2)
    obs, _info = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, done, _, _info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.aec.game is not None and env.aec.game.is_over
    assert reward == env.aec.rewards["player_2"]


@pytest.mark.parametrize(("preset", "players"), [("out-of-turn", 4), ("claims", 4)])
def test_asking_order_drives_a_hand_as_the_environment_does(preset: str, players: int) -> None:
    """The turn API alone plays a hand to its end, asking exactly what the environment asks."""
    from tienlen.rl.asking import rl_moves
    from tienlen.turns import Turns

    rules = _rules(preset)
    kinds = set()
    for seed in range(6):
        e = make_env(rules=rules, players=players)
        e.reset(seed=seed)
        game = Game(rules, hands=[e.game.hand(s) for s in range(players)])
        turns = Turns(game)
        rng = random.Random(seed)
        while (asked := turns.next()) is not None:
            moves = rl_moves(asked)
            assert asked.seat == e._asking and e.space.legal(moves) == e._legal
            assert asked.out_of_turn == (e.infos[e.agent_selection]["decision"] == "out_of_turn")
            kinds.add(asked.out_of_turn)
            move = moves[rng.randrange(len(moves))]
            turns.answer(asked.seat, move)
            e.apply_move(move)
        assert e.game.is_over and e.game.finish_order == game.finish_order
    assert kinds == {False, True}  # out-of-turn chops were asked too
