"""The batched environment (``tienlen.rl.vector``): equal to the single environment under
Gymnasium's ``SyncVectorEnv`` byte for byte -- observations, masks, rewards, terminations,
infos -- over thousands of hands on the presets at the player counts they are played at; the
counter-based draws equal in Python and compiled code; the deal equal to the engine's; and the
vector environment's own conventions (spaces, seeding, autoreset, errors, ``make_vec``)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import tienlen.rl  # noqa: E402, F401  (registers the ids)
from tienlen import Rules  # noqa: E402
from tienlen.fast import draws as compiled_draws  # noqa: E402
from tienlen.fast.deal import deal_counter  # noqa: E402
from tienlen.fast.encoding import state_of  # noqa: E402
from tienlen.fast.layout import S_SIZE  # noqa: E402
from tienlen.rl import SINGLE_ID, draws  # noqa: E402
from tienlen.rl.single import SingleSeatEnv  # noqa: E402
from tienlen.rl.vector import TienLenVectorEnv, unsupported  # noqa: E402

# every preset at a player count it is played at (cardrules asks optional claims: not batched)
PRESETS = [("pagat", 4), ("parlett", 4), ("justus-pang", 4), ("kenneth-lu", 3),
           ("kenneth-lu", 2), ("viet-cong", 4), ("thirteen", 4), ("killer", 6),
           ("mien-nam", 4), ("mien-bac", 4), ("mien-bac", 3), ("mien-nam", 8)]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="gymnasium")


def _signed(key: int) -> int:
    return key - (1 << 64) if key >= 1 << 63 else key


def test_the_compiled_draws_are_the_pythons() -> None:
    assert (compiled_draws.SEAT_INDEX, compiled_draws.PICK_INDEX) == (
        draws.SEAT_INDEX, draws.PICK_INDEX)
    deck = np.zeros(104, dtype=np.int64)
    for key in (0, 1, 12345, 2**63 + 7, 2**64 - 1):
        for hand in (0, 1, 9, 2**40):
            for index in (0, 1, 119, 256, 300):
                assert int(compiled_draws.draw(_signed(key), hand, index)) == \
                    draws.draw(key, hand, index)
                assert compiled_draws.below(_signed(key), hand, index, 7) == \
                    draws.below(key, hand, index, 7)
            for packs in (1, 2):
                compiled_draws.shuffle_into(deck, _signed(key), hand, packs)
                assert deck[:52 * packs].tolist() == draws.shuffled(key, hand, packs)
    assert sorted(draws.shuffled(5, 0, 2)) == sorted(list(range(52)) * 2)


@pytest.mark.parametrize(("rules", "players"), PRESETS)
def test_the_compiled_deal_is_the_engines(rules: str, players: int) -> None:
    """The hand's first state and a deal won at once (an automatic instant win) alike."""
    v = TienLenVectorEnv(1, rules=rules, players=players, opponents="random")
    st = np.zeros(S_SIZE, dtype=np.int64)
    aside = np.zeros(2, dtype=np.int64)
    deck = np.zeros(104, dtype=np.int64)
    won = 0
    for hand in range(300):
        game = draws.deal(Rules.preset(rules), players, 2024, hand)
        dealt = deal_counter(st, v._ec, 2024, hand, deck, aside)
        assert dealt == (not game.is_over), hand
        if game.is_over:
            won += 1
            continue
        assert st.tolist() == state_of(game).tolist(), hand
    if Rules.preset(rules).instant_wins and players == 4:
        assert won > 0  # the instant-win check was met, and held equal


def _run_both(rules: str, players: int, opponents: Any, hands: int, seed: int,
              num_envs: int = 4) -> dict[str, int]:
    """Step the batched environment and SyncVectorEnv over single environments with the same
    actions (now and then an illegal id) until ``hands`` hands ended; compare every output."""
    batched = TienLenVectorEnv(num_envs, rules=rules, players=players, opponents=opponents)
    single = gym.vector.SyncVectorEnv([
        lambda: SingleSeatEnv(rules=rules, players=players, opponents=opponents, infos="fixed")
        for _ in range(num_envs)])
    a, info_a = batched.reset(seed=seed)
    b, info_b = single.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = {"hands": 0, "steps": 0, "out_of_turn": 0, "illegal": 0}
    while True:
        for key in ("observation", "action_mask"):
            assert a[key].dtype == b[key].dtype and a[key].tobytes() == b[key].tobytes(), (
                f"{rules}: {key} differs at step {seen['steps']}")
        for key in ("illegal", "decision", "legal_count", "_illegal", "_decision",
                    "_legal_count"):
            assert info_a[key].tolist() == info_b[key].tolist(), (key, seen["steps"])
        if seen["hands"] >= hands:
            return seen
        masks = a["action_mask"]
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() and rng.integers(12)
                   else int(rng.integers(-2, masks.shape[1] + 3)) for m in masks]
        a, reward_a, term_a, trunc_a, info_a = batched.step(np.array(actions))
        b, reward_b, term_b, trunc_b, info_b = single.step(np.array(actions))
        assert reward_a.tolist() == reward_b.tolist() and term_a.tolist() == term_b.tolist()
        assert trunc_a.tolist() == trunc_b.tolist() == [False] * num_envs
        seen["hands"] += int(term_a.sum())
        seen["steps"] += 1
        seen["out_of_turn"] += int((info_a["decision"] == "out_of_turn").sum())
        seen["illegal"] += int(info_a["illegal"].sum())


@pytest.mark.parametrize(("rules", "players"), PRESETS)
def test_the_batched_env_is_the_single_env_byte_for_byte(rules: str, players: int) -> None:
    seen = _run_both(rules, players, "random", hands=200, seed=players * 100 + len(rules))
    assert seen["illegal"] > 0  # the replacement of an illegal id was compared too
    if Rules.preset(rules).chop_out_of_turn:
        assert seen["out_of_turn"] > 0  # and the learner's decisions out of turn


@pytest.mark.parametrize(("rules", "players", "opponents"), [
    ("pagat", 4, "heuristic"),
    ("mien-nam", 4, ["heuristic", "greedy", "random"]),
    ("killer", 6, "heuristic"),
    ("kenneth-lu", 3, ["greedy", "heuristic"]),
])
def test_the_compiled_bots_answer_as_the_pure_bots(rules: str, players: int,
                                                   opponents: Any) -> None:
    _run_both(rules, players, opponents, hands=40, seed=7)


def test_a_seeded_reset_replays_the_same_hands_and_seeds_differ() -> None:
    v = TienLenVectorEnv(8, rules="pagat", opponents="random")
    first, _ = v.reset(seed=11)
    again, _ = v.reset(seed=11)
    assert first["observation"].tobytes() == again["observation"].tobytes()
    other, _ = v.reset(seed=12)
    assert other["observation"][:-1].tobytes() == first["observation"][1:].tobytes()  # seed + i
    listed, _ = v.reset(seed=[11 + i for i in range(8)])
    assert listed["observation"].tobytes() == first["observation"].tobytes()
    with pytest.raises(ValueError, match="one seed per environment"):
        v.reset(seed=[1, 2])


def test_the_spaces_hold_every_output_and_a_hand_ends_then_restarts() -> None:
    v = gym.make_vec(SINGLE_ID, num_envs=16, rules="mien-nam", opponents="heuristic", seat=2)
    assert isinstance(v, TienLenVectorEnv)
    assert v.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, _ = v.reset(seed=3)
    assert v.observation_space.contains(obs) and (v.seats == 2).all()
    rng = np.random.default_rng(3)
    ended = np.zeros(16, dtype=bool)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                            for m in obs["action_mask"]])
        obs, reward, terminated, _truncated, info = v.step(actions)
        assert v.observation_space.contains(obs) and not info["illegal"][~ended].any()
        live = ~terminated
        assert (obs["action_mask"][live].sum(axis=1) == info["legal_count"][live]).all()
        assert (obs["action_mask"][terminated] == 0).all()  # the last observation: no move
        assert (reward[live] == 0).all() and set(reward[terminated]) <= {1.0, 1 / 3, -1 / 3, -1.0}
        assert (obs["action_mask"][ended].sum(axis=1) > 0).all()  # restarted at the next step
        ended = terminated
    v.close()


def test_make_vec_falls_back_to_sync_for_what_is_not_batched_and_says_why() -> None:
    with pytest.warns(UserWarning, match="the reward 'units'"):
        v = gym.make_vec(SINGLE_ID, num_envs=2, reward="units")
    assert isinstance(v, gym.vector.SyncVectorEnv)
    v.close()
    assert unsupported("cardrules") == "optional instant wins ask decisions before play"
    assert "the opponent 'learned'" in (unsupported("pagat", opponents="learned") or "")
    assert unsupported("mien-nam", 4, ["random", "greedy", "heuristic"]) is None
    sync = gym.make_vec(SINGLE_ID, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    sync.close()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_envs": 0}, "num_envs is a whole number from 1"),
    ({"num_envs": 2, "seat": 4}, "seat is None or a seat 0 .. 3"),
    ({"num_envs": 2, "opponents": ["random"]}, "one opponent per other seat: 3, not 1"),
    ({"num_envs": 2, "opponents": "learned"}, "the opponent 'learned'"),
    ({"num_envs": 2, "infos": "full"}, "infos are fixed"),
])
def test_bad_settings_are_refused_by_name(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TienLenVectorEnv(**kwargs)


def test_bad_actions_are_refused_and_nothing_moves() -> None:
    v = TienLenVectorEnv(2, rules="pagat", opponents="random")
    with pytest.raises(RuntimeError, match="reset the environment"):
        v.step(np.zeros(2, dtype=np.int64))
    obs, _ = v.reset(seed=1)
    for bad in (np.zeros(3, dtype=np.int64), np.array([0.5, 1.0]), np.zeros((2, 1), dtype=int)):
        with pytest.raises(ValueError, match="one action id per environment"):
            v.step(bad)
    again, _ = v.reset(seed=1)
    assert again["observation"].tobytes() == obs["observation"].tobytes()
