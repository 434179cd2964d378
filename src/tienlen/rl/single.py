"""A Gymnasium single-seat environment: the learner plays one seat, bots play the others.

``SingleSeatEnv(rules="pagat", players=4, opponents="heuristic", seat=None, reward="rank")``:
observations, actions, masks and infos are those of the AEC environment
(:mod:`tienlen.rl.aec`) for the learner's seat. ``opponents`` is a bot name of the ladder
(``random``, ``greedy``, ``heuristic``, ``learned``, ...), a list of them (one per other
seat), or callables taking a :class:`~tienlen.view.View` and returning one of its
``legal`` moves (any object with ``choose(view)`` works too). Out of turn, a bot's view
lists its chops and ``pass``. The bots' moves are played as they choose them (any card
set). ``seat=None`` seats the learner at random on each reset. The reward is the
learner's, at the end of the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import gymnasium as gym
    import numpy as np
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..actions import Move
from ..bots import get_bot
from ..rules import Rules
from ..turns import view_for_decision
from .aec import TienLenEnv

Opponent = str | Callable[[Any], Move] | Any


class SingleSeatEnv(gym.Env[dict[str, np.ndarray[Any, Any]], int]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "pagat", players: int = 4,
                 opponents: Opponent | Sequence[Opponent] = "greedy", seat: int | None = None,
                 reward: str = "rank", render_mode: str | None = None) -> None:
        self.aec = TienLenEnv(rules=rules, players=players, reward=reward, render_mode=render_mode)
        self.players = players
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"name one opponent per other seat: {players - 1}, not {len(opponents)}")
        self.opponents = list(opponents)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self._bots: dict[int, Any] = {}

    def _make_bots(self, seed: int) -> None:
        self._bots = {}
        others = [s for s in range(self.players) if s != self.seat]
        for index, (other, spec) in enumerate(zip(others, self.opponents, strict=True)):
            self._bots[other] = get_bot(spec, seed=seed + index) if isinstance(spec, str) else spec

    def _bot_move(self, seat: int) -> Move:
        game = self.aec.game
        assert game is not None
        asked = self.aec._decision
        assert asked is not None and asked.seat == seat
        view = view_for_decision(game, asked)  # out of turn: its chops and pass
        bot = self._bots[seat]
        move: Move = bot.choose(view) if hasattr(bot, "choose") else bot(view)
        return move

    def _advance(self) -> None:
        aec = self.aec
        assert aec.game is not None
        while not aec.game.is_over and aec._asking != self.seat:
            aec.apply_move(self._bot_move(aec._asking))

    def _out(self) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        agent = self.aec.possible_agents[self.seat]
        return self.aec.observe(agent), dict(self.aec.infos[agent])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(1000):
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(0, self.players))
            self.aec.reset(seed=int(self.np_random.integers(0, 2**31)))
            self._make_bots(int(self.np_random.integers(0, 2**31)))
            self._advance()
            assert self.aec.game is not None
            if not self.aec.game.is_over:
                break
        return self._out()

    def step(self, action: int) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        assert aec.game is not None
        aec.step(action)
        self._advance()
        over = aec.game.is_over
        reward = float(aec.rewards[aec.possible_agents[self.seat]]) if over else 0.0
        obs, info = self._out()
        return obs, reward, over, False, info

    def render(self) -> str | None:
        return self.aec.render()
