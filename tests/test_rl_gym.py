"""Gymnasium's conventions: the registered ids (``gymnasium.make``), Gymnasium's own checker on
both, the vector environments over them, self-play's rewards, the text render, each id's
layout held to its version, and registering that costs the engine nothing."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import tienlen.rl  # noqa: E402, F401  (registers the ids)
from tienlen.rl import SELF_PLAY_ID, SINGLE_ID  # noqa: E402

# four presets at player counts they are played at (two packs for eight)
GAMES = [("pagat", 4), ("mien-nam", 4), ("mien-bac", 3), ("pagat", 8)]

# Each id's layout, by version: the observation's keys and shapes and the number of action ids
# for these games. A change of layout is a new version of the id (docs/rl.md, "Gymnasium ids"):
# change the id and add its layout here, do not edit a released one.
LAYOUTS = {
    "tienlen/TienLen-v0": {
        ("pagat", 4): ({"observation": (409,), "action_mask": (519,)}, 519),
        ("mien-nam", 4): ({"observation": (409,), "action_mask": (463,)}, 463),
        ("mien-bac", 3): ({"observation": (347,), "action_mask": (463,)}, 463),
        ("pagat", 8): ({"observation": (677,), "action_mask": (609,)}, 609),
    },
    "tienlen/TienLenSelfPlay-v0": {
        ("pagat", 4): ({"observation": (409,), "action_mask": (519,), "seat": ()}, 519),
        ("mien-nam", 4): ({"observation": (409,), "action_mask": (463,), "seat": ()}, 463),
        ("mien-bac", 3): ({"observation": (347,), "action_mask": (463,), "seat": ()}, 463),
        ("pagat", 8): ({"observation": (677,), "action_mask": (609,), "seat": ()}, 609),
    },
}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="gymnasium")


def pick(obs: dict[str, np.ndarray], rng: np.random.Generator) -> list[int]:
    """A random legal id for each environment of a vector (0 where a hand just ended)."""
    return [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]


def test_the_ids_are_registered_and_versioned() -> None:
    assert SINGLE_ID in gym.registry and SELF_PLAY_ID in gym.registry
    assert set(LAYOUTS) == {SINGLE_ID, SELF_PLAY_ID}


@pytest.mark.parametrize(("rules", "players"), GAMES)
@pytest.mark.parametrize("env_id", [SINGLE_ID, SELF_PLAY_ID])
def test_each_ids_layout_is_its_versions(env_id: str, rules: str, players: int) -> None:
    e = gym.make(env_id, rules=rules, players=players)
    shapes = {k: s.shape for k, s in e.observation_space.spaces.items()}
    assert (shapes, int(e.action_space.n)) == LAYOUTS[env_id][(rules, players)], (
        f"{env_id}'s layout changed: give the id a new version")


@pytest.mark.parametrize(("rules", "players"), GAMES)
@pytest.mark.parametrize("env_id", [SINGLE_ID, SELF_PLAY_ID])
def test_gymnasium_check_env_over_twenty_hands(env_id: str, rules: str, players: int) -> None:
    e = gym.make(env_id, rules=rules, players=players).unwrapped
    check_env(e, skip_render_check=True)
    rng = np.random.default_rng(players)
    ends = 0
    obs, _ = e.reset(seed=1)
    while ends < 20:  # a checker call plays one hand: twenty more, each step in its spaces
        assert e.observation_space.contains(obs)
        action = pick({"action_mask": obs["action_mask"][None]}, rng)[0]
        obs, _, terminated, truncated, info = e.step(action)
        assert not truncated and not info["illegal"]
        if terminated:
            ends += 1
            obs, _ = e.reset()


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("env_id", [SINGLE_ID, SELF_PLAY_ID])
def test_the_vector_environments_run_the_ids(env_id: str, mode: str) -> None:
    # (SyncVectorEnv crashed at reset before: the infos' legal ids differ in length)
    vec = gym.make_vec(env_id, num_envs=3, vectorization_mode=mode, rules="mien-nam")
    try:
        obs, info = vec.reset(seed=0)
        assert obs["observation"].shape == (3, 409) and info["legal_count"].shape == (3,)
        rng = np.random.default_rng(0)
        ends = 0
        for _ in range(400):
            obs, reward, terminated, truncated, info = vec.step(pick(obs, rng))
            ends += int(terminated.sum())
            assert reward.shape == (3,) and not truncated.any()
        assert ends >= 2  # hands ended, and the next began (the autoreset mode declared)
    finally:
        vec.close()


def test_self_play_asks_every_seat_and_pays_each_its_own_reward() -> None:
    e = gym.make(SELF_PLAY_ID, rules="pagat", players=4, reward="rank")
    rng = np.random.default_rng(3)
    for hand in range(5):
        obs, _ = e.reset(seed=hand)
        seats = set()
        while True:
            seat = int(obs["seat"])
            seats.add(seat)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, _, info = e.step(action)
            if terminated:
                rewards = info["rewards"]
                assert reward == rewards[seat] and int(obs["seat"]) == seat
                assert sorted(rewards.tolist()) == pytest.approx([-1, -1 / 3, 1 / 3, 1])
                break
            assert reward == 0.0
        assert seats == {0, 1, 2, 3}


def test_the_render_shows_the_table_and_only_the_learners_hand() -> None:
    e = gym.make(SINGLE_ID, rules="pagat", players=4, opponents="greedy", render_mode="ansi", seat=2)
    e.reset(seed=4)
    e.step(int(np.flatnonzero(e.unwrapped.aec.observe("player_2")["action_mask"])[0]))
    text = e.render()
    lines = text.splitlines()
    assert lines[0].startswith("pagat, 4 players, play")
    assert lines[1].startswith("to beat: ") and lines[2].startswith("last: player_")
    assert lines[3].startswith("cards: player_0 ")
    assert lines[4].startswith("hand of player_2: ") and text.count("hand of") == 1
    game = e.unwrapped.aec.game
    shown = lines[4].split(": ", 1)[1].split()
    assert len(shown) == len(game.hand(2))


def test_importing_the_engine_the_bots_and_the_web_imports_no_gymnasium() -> None:
    code = ("import sys, tienlen, tienlen.bots, tienlen.web; "
            "tienlen.bots.get_bot('learned'); print('gymnasium' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
