"""Speed of the RL environments and of training.

    python benchmarks/bench_rl.py [--rules pagat] [--players 4] [--hands 200] [--train-seconds 20]

Prints the AEC environment's steps per second with random masked actions (every agent
step: observation, mask, infos, the engine's move), on the pure engine and on the fast
path when the ``fast`` extra is installed; the single-seat Gymnasium wrapper's steps per
second against ``greedy`` bots; against ``random`` and then ``heuristic`` opponents, Gymnasium's
``SyncVectorEnv`` over the registered id (16 environments) beside the batched environment
(``vectorization_mode="vector_entry_point"``, compiled) at 64, 256 and 1024 environments, the
learner playing its lowest legal id in both; self-play
frames per second of the trainer's actors alone (decisions made with the numpy network), the
pure loop's one hand at a time beside the compiled actors' 64 hands at once; and, with torch
installed, frames per second of ``tienlen train`` (actors and learner together) over a short
run with the pure loop (``--envs 0``: before) and with the compiled actors (after), and where a
frame's time goes in each (the environment, the features, the inference, the learning); with
``open_spiel``
installed, the CPU seconds of one simulated game of OpenSpiel's ``random_sim_test`` at 4 and 8
players. CPU time per process.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from tienlen import Game, Rules, fast  # noqa: E402
from tienlen.rl.aec import TienLenEnv  # noqa: E402
from tienlen.rl.single import SingleSeatEnv  # noqa: E402


def env_steps(rules: Rules, players: int, hands: int, engine: str) -> float:
    e = TienLenEnv(rules=rules, players=players, engine=engine)
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    steps = 0
    start = time.process_time()
    for hand in range(hands):
        e.reset(seed=hand)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - start)


def single_steps(rules: Rules, players: int, hands: int) -> float:
    env = SingleSeatEnv(rules=rules, players=players, opponents="greedy")
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    for hand in range(hands):
        obs, _ = env.reset(seed=hand)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - start)


def _random_net() -> Any:
    """The shipped network's shape, random weights: the same speed."""
    from tienlen.bots.features import INPUT_SIZE, MLP

    gen = np.random.default_rng(0)
    sizes = [INPUT_SIZE, 256, 256, 128, 1]
    return MLP([(gen.normal(0, 0.05, (a, b)).astype(np.float32), np.zeros(b, dtype=np.float32))
                for a, b in itertools.pairwise(sizes)])


def actor_frames(rules: Rules, players: int, hands: int) -> float:
    """The pure actors' frames a second (one hand at a time, :func:`self_play_hand`)."""
    from tienlen.rl.train import self_play_hand

    net = _random_net()
    rng = random.Random(0)
    frames = 0
    start = time.process_time()
    for hand in range(hands):
        frames += self_play_hand(Game.deal(rules, players, hand), net, rng, 0.05).total
    return frames / (time.process_time() - start)


def compiled_actor_frames(rules: Rules, players: int, hands: int, envs: int = 64) -> float:
    """The compiled actors' frames a second (``envs`` hands at once, :mod:`tienlen.rl.actors`)."""
    from tienlen.rl.actors import Actors

    net = _random_net()
    Actors(rules, players, envs=2).step(net)  # compile or load the cache first
    actors = Actors(rules, players, envs=envs)
    frames = done = 0
    start = time.process_time()
    while done < hands:
        ended = actors.step(net, 0.05)
        frames += ended.frames
        done += ended.hands
    return frames / (time.process_time() - start)


def train_frames(rules_name: str, players: int, seconds: float, envs: int,
                 backend: str = "local") -> tuple[float, dict[str, float], str]:
    """``tienlen train``'s frames a second, where a frame's time went (the shares of the
    environment, the features, the inference and the learning) and its actors. Locally the
    frames a second of CPU time; with Ray actors (other processes) of wall time."""
    from tienlen.rl.train import TrainConfig, train

    with tempfile.TemporaryDirectory() as folder, open(os.devnull, "w") as sink:
        start = time.process_time()
        record = train(TrainConfig(rules=rules_name, players=players, seconds=seconds, out=folder,
                                   eval_deals=0, log_every=1e9, envs=envs, backend=backend),
                       stream=sink)
        elapsed = time.process_time() - start if backend == "local" else record["seconds"]
        first = json.loads((Path(folder) / "progress.jsonl").read_text().splitlines()[0])
        return float(record["frames"]) / elapsed, record["split"], first.get("actors", "")


def first_legal(masks: np.ndarray) -> np.ndarray:
    """The learner's policy in the vector lines: the lowest legal id of each environment (one
    numpy call a batch, so that the environment's time is measured, not the policy's)."""
    return masks.argmax(axis=1)


def vector_steps(rules_name: str, players: int, envs: int, steps: int, mode: str,
                 opponents: str) -> float:
    """Steps a second (each step: one decision in each of ``envs`` hands, the opponents'
    answers until the learner's next decision, the hands over dealt again) of ``make_vec`` over
    ``tienlen/TienLen-v0``: ``mode`` ``sync`` (Gymnasium's ``SyncVectorEnv`` over the single
    environment) or ``vector_entry_point`` (the batched environment in compiled code)."""
    import gymnasium as gym

    import tienlen.rl  # noqa: F401  (registers the ids)

    vec = gym.make_vec("tienlen/TienLen-v0", num_envs=envs, vectorization_mode=mode,
                       rules=rules_name, players=players, opponents=opponents)
    obs, _ = vec.reset(seed=0)
    obs, *_ = vec.step(first_legal(obs["action_mask"]))  # compiled, or loaded from the cache
    start = time.process_time()
    for _ in range(steps):
        obs, *_ = vec.step(first_legal(obs["action_mask"]))
    vec.close()
    return steps * envs / (time.process_time() - start)


def openspiel_seconds(rules_name: str, players: int, games: int) -> float:
    """CPU seconds per game of OpenSpiel's own ``random_sim_test`` on ``python_tienlen`` (every
    state cloned, its observations and information states read for every seat)."""
    import pyspiel

    import tienlen.rl.openspiel  # noqa: F401  (registers python_tienlen)

    game = pyspiel.load_game("python_tienlen", {"players": players, "rules": rules_name})
    start = time.process_time()
    pyspiel.random_sim_test(game, num_sims=games, serialize=False, verbose=False)
    return (time.process_time() - start) / games


def batch_lines(rules_name: str, players: int, hands: int) -> None:
    """``SyncVectorEnv`` and the batched environment over the same id, opponents and policy."""
    from tienlen.rl.vector import unsupported

    for opponents in ("random", "heuristic"):
        sync = vector_steps(rules_name, players, 16, max(50, hands), "sync", opponents)
        print(f"  vs {opponents}: SyncVectorEnv, 16 envs:       {sync:10,.0f} steps/s")
        why = unsupported(rules_name, players, opponents)
        if why is not None:
            print(f"  vs {opponents}: batched env: cannot run {why}")
            continue
        for envs in (64, 256, 1024):
            batched = vector_steps(rules_name, players, envs, max(20, 200_000 // envs // 4),
                                   "vector_entry_point", opponents)
            print(f"  vs {opponents}: batched env, {envs:4} envs:      {batched:10,.0f} steps/s "
                  f"({batched / sync:5.1f}x SyncVectorEnv)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--train-seconds", type=float, default=20.0)
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    rules = Rules.preset(args.rules)
    print(f"{args.rules}, {args.players} players, {args.hands} hands a line (CPU time)")
    print(f"  AEC env, pure engine:   {env_steps(rules, args.players, args.hands, 'pure'):8,.0f} steps/s")
    if fast.enabled(rules):
        env_steps(rules, args.players, 2, "fast")  # compile or load the cache first
        print(f"  AEC env, fast path:     {env_steps(rules, args.players, args.hands, 'fast'):8,.0f} steps/s")
    else:
        print("  AEC env, fast path:     not installed (extra fast) or these rules not supported")
    print(f"  single-seat vs greedy:  {single_steps(rules, args.players, args.hands // 2):8,.0f} steps/s")
    pure = actor_frames(rules, args.players, args.hands)
    print(f"  self-play actors, pure: {pure:8,.0f} frames/s (one hand at a time)")
    if fast.enabled(rules):
        compiled = compiled_actor_frames(rules, args.players, args.hands * 4)
        print(f"  self-play actors, compiled: {compiled:8,.0f} frames/s (64 hands at once, "
              f"{compiled / pure:.1f}x)")
    batch_lines(args.rules, args.players, args.hands)
    if importlib.util.find_spec("torch") is not None and args.train_seconds > 0:
        runs = []
        ray = importlib.util.find_spec("ray") is not None
        # before: the pure loop; after: the compiled actors; then two Ray actors (wall time)
        for envs, backend in ((0, "local"), (64, "local")) + (((64, "ray"),) if ray else ()):
            fps, split, actors = train_frames(args.rules, args.players, args.train_seconds, envs,
                                              backend)
            runs.append(fps)
            clock = "CPU time" if backend == "local" else "wall time, 2 Ray actors"
            print(f"  tienlen train --envs {envs} --backend {backend}: {fps:8,.0f} frames/s "
                  f"(actors and learner, {args.train_seconds:g} s, {clock}; actors {actors})")
            print("    a frame's time:       " + ", ".join(
                f"{part} {share:.1%} ({1e6 * share / fps:,.1f} µs)"
                for part, share in split.items()))
            print(f"    environment and features: {split['environment'] + split['features']:.1%}"
                  " of a frame (target: under 10%)")
        print(f"  tienlen train, compiled over pure: {runs[1] / runs[0]:.2f}x (target 2x)")
    elif args.train_seconds > 0:
        print("  tienlen train:          torch not installed (extra train)")
    if importlib.util.find_spec("pyspiel") is not None:
        for players in (4, 8):
            secs = openspiel_seconds(args.rules, players, max(4, args.hands // 20))
            print(f"  OpenSpiel random_sim_test, {players} players: {secs:6.3f} s a game")
    else:
        print("  OpenSpiel:              open_spiel not installed (extra openspiel)")


if __name__ == "__main__":
    main()
