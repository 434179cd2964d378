"""``tienlen train --backend ray``: the compiled actors on a Ray cluster, feeding one learner.

Each Ray actor (:class:`ActorWorker`) keeps its own :class:`~tienlen.rl.actors.Actors` (``envs``
hands in play, dealt from the counter under its own key) and plays batches of at least
``rows`` of the network's decisions with the weights it is handed. :class:`RayActors` keeps
one batch asked of every actor; each time one comes back, the learner takes its hands and asks
that actor for the next batch with the newest weights (so the weights an actor plays with are
at most one batch old, as DouZero's actors are). Its CPU time by part (the game, the features,
the inference) is added to the run's :class:`~tienlen.rl.frameclock.FrameClock`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bots.features import INPUT_SIZE, MLP
from ..rules import Rules
from .actors import Actors, Ended
from .frameclock import FrameClock

BATCH_ROWS = 4096  # the network's decisions an actor plays before it reports


class ActorWorker:
    """One Ray actor's self-play: :class:`Actors` played batch after batch."""

    def __init__(self, rules: Rules, players: int, envs: int, seed: int,
                 league: Sequence[str], league_share: float) -> None:
        self.actors = Actors(rules, players, envs, seed, league, league_share)

    def play(self, net: MLP, epsilon: float, rows: int) -> tuple[Ended, dict[str, float]]:
        """Hands played with ``net`` until at least ``rows`` decisions of it have ended: they,
        and the CPU seconds spent by part."""
        clock = FrameClock()
        inputs: list[np.ndarray[Any, Any]] = []
        places: list[np.ndarray[Any, Any]] = []
        hands = frames = got = 0
        while got < rows:
            ended = self.actors.step(net, epsilon, clock)
            if ended.hands:
                inputs.append(ended.inputs.astype(np.float16))  # what the buffer keeps
                places.append(ended.places)
                hands += ended.hands
                frames += ended.frames
                got += len(ended.inputs)
        batch = Ended(np.concatenate(inputs) if inputs else np.zeros((0, INPUT_SIZE), np.float16),
                      np.concatenate(places) if places else np.zeros(0, np.int64), hands, frames)
        return batch, clock.seconds


class RayActors:
    """``count`` :class:`ActorWorker` on Ray (``ray``: the module, from
    :func:`tienlen.arena.ray_session`), each asked one batch at a time."""

    def __init__(self, ray: Any, count: int, rules: Rules, players: int, envs: int, seed: int,
                 league: Sequence[str], league_share: float, epsilon: float,
                 rows: int = BATCH_ROWS) -> None:
        self._ray = ray
        self._epsilon = epsilon
        self._rows = rows
        remote = ray.remote(num_cpus=1)(ActorWorker)
        # each actor's own deals: its seed, then the learner's seed
        self._workers = [remote.remote(rules, players, envs, seed * 1009 + 1 + i, league,
                                       league_share) for i in range(count)]
        self._asked: dict[Any, int] = {}

    def next(self, net: MLP, clock: FrameClock) -> Ended:
        """The next batch any actor finishes (every idle actor asked for one with ``net``)."""
        ray = self._ray
        if len(self._asked) < len(self._workers):
            weights = ray.put(net)
            busy = set(self._asked.values())
            for i, worker in enumerate(self._workers):
                if i not in busy:
                    self._asked[worker.play.remote(weights, self._epsilon, self._rows)] = i
        done, _ = ray.wait(list(self._asked), num_returns=1)
        self._asked.pop(done[0])
        batch: Ended
        batch, seconds = ray.get(done[0])
        for part, spent in seconds.items():
            clock.add(part, spent)
        return batch

    def close(self) -> None:
        for worker in self._workers:
            self._ray.kill(worker)
        self._workers = []
        self._asked = {}
