"""A Gymnasium environment for self-play: one agent decides for every seat in turn
(``tienlen/TienLenSelfPlay-v0``).

``SelfPlayEnv(rules="pagat", players=4, reward="rank")``: each step is the decision of the
seat asked now (on turn, or out of turn for a chop), in the AEC environment's order
(:mod:`tienlen.rl.aec`). The observation is that seat's, with the seat itself:
``{"observation", "action_mask", "seat"}`` (the observation seat-relative, as in the AEC
environment, so one policy serves every seat). The reward of a step is the acting seat's (0
until the hand ends); at the end ``info["rewards"]`` holds every seat's, by seat. Infos are of
one shape (``illegal``, ``decision``, ``legal_count``; and ``rewards`` at the end), for the
vector environments.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..rules import Rules
from .aec import TienLenEnv
from .render import render_text
from .single import fixed_info

Observation = dict[str, Any]


class SelfPlayEnv(gym.Env[Observation, int]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4,  # noqa: RUF012
                                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, rules: Rules | str = "pagat", players: int = 4, reward: str = "rank",
                 render_mode: str | None = None) -> None:
        self.aec = TienLenEnv(rules=rules, players=players, reward=reward, render_mode=render_mode)
        self.players = players
        self.render_mode = render_mode
        inner = self.aec.observation_space(self.aec.possible_agents[0])
        assert isinstance(inner, spaces.Dict)
        self.observation_space = spaces.Dict({**inner.spaces, "seat": spaces.Discrete(players)})
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])
        self._seat = 0  # the seat asked now

    def _out(self, seat: int) -> tuple[Observation, dict[str, Any]]:
        agent = self.aec.possible_agents[seat]
        obs: Observation = dict(self.aec.observe(agent))
        obs["seat"] = seat
        return obs, fixed_info(self.aec.infos[agent])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(0, 2**31)))
        self._seat = self.aec._asking
        return self._out(self._seat)

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        assert aec.game is not None
        seat = self._seat
        aec.step(action)
        illegal = bool(aec.infos[aec.possible_agents[seat]].get("illegal", False))
        if aec.game.is_over:  # the acting seat's last observation, every seat's reward
            obs, info = self._out(seat)
            rewards = [float(aec.rewards[a]) for a in aec.possible_agents]
            info["rewards"] = np.asarray(rewards, dtype=np.float32)
            info["illegal"] = illegal
            return obs, rewards[seat], True, False, info
        self._seat = aec._asking
        obs, info = self._out(self._seat)
        info["illegal"] = illegal  # the action just taken (by the seat before)
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """The hand as text (:mod:`.render`), the cards of the seat asked shown."""
        game = self.aec.game
        if game is None:
            return None
        return render_text(game, self._seat, None if game.is_over else self._seat,
                           self.aec.possible_agents)
