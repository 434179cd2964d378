"""A trained agent as a bot: ``PolicyBot(policy)`` plays wherever a bot plays (``tienlen
tournament``, a table, :class:`~tienlen.rl.single.SingleSeatEnv`'s opponents).

``policy`` is any callable from an observation to an action id: it is given the observation
the environments give (``{"observation": int8[...], "action_mask": int8[n]}``, built from the
bot's :class:`~tienlen.view.View` alone, :mod:`tienlen.rl.observation`) and returns an id of
:mod:`tienlen.rl.actions`. An object with ``predict(obs, action_masks=mask)`` (Stable-Baselines3's
maskable policies) or ``compute_single_action(obs)`` (RLlib's) is called that way. An id that
is not legal is replaced as the environments replace it (``pass`` or ``decline`` when legal,
else the lowest legal id) and counted in :attr:`PolicyBot.illegal`.

In a tournament, ``py:MODULE:NAME`` (or ``py:path/to/file.py:NAME``) plays the bot ``NAME`` makes:
``def bot(): return PolicyBot(load_my_network())`` (``examples/policy_agent.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import numpy as np
except ModuleNotFoundError as exc:  # the extra is not installed: say which
    from . import missing_extra

    raise missing_extra(exc) from None

from ..actions import Move
from ..rules import Rules
from ..view import View
from .actions import ActionSpace
from .observation import encode

Policy = Callable[[dict[str, Any]], Any] | Any


class PolicyBot:
    """A bot that asks ``policy`` for an action id at each decision (see the module text)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self.illegal = 0  # decisions where the policy's id was not legal (replaced)
        self._spaces: dict[tuple[Rules, int], ActionSpace] = {}

    def _space(self, view: View) -> ActionSpace:
        key = (view.rules, view.players)
        space = self._spaces.get(key)
        if space is None:
            space = self._spaces[key] = ActionSpace(view.rules, view.players)
        return space

    def observe(self, view: View) -> tuple[dict[str, Any], dict[int, Move]]:
        """The environments' observation of ``view``, and its legal moves by id."""
        space = self._space(view)
        legal = space.legal(list(view.legal))
        mask = np.zeros(space.n, dtype=np.int8)
        mask[list(legal)] = 1
        return {"observation": encode(view), "action_mask": mask}, legal

    def _ask(self, obs: dict[str, Any]) -> Any:
        policy = self.policy
        if hasattr(policy, "predict"):  # Stable-Baselines3 (maskable): (action, state)
            return policy.predict(obs, action_masks=obs["action_mask"].astype(bool))[0]
        if hasattr(policy, "compute_single_action"):  # RLlib: (action, state, info)
            answer = policy.compute_single_action(obs)
            return answer[0] if isinstance(answer, tuple) else answer
        return policy(obs)

    def choose(self, view: View) -> Move:
        obs, legal = self.observe(view)
        try:
            chosen = int(self._ask(obs))
        except (TypeError, ValueError):
            chosen = -1
        if chosen not in legal:
            self.illegal += 1
            space = self._space(view)
            pick = space.phase_base if space.phase_base in legal else 0
            chosen = pick if pick in legal else min(legal)
        return legal[chosen]
