"""A trained agent's shape: ``tienlen tournament --bots "me=py:examples/policy_agent.py:bot,greedy"``.

A policy is any callable from an observation (``{"observation": int8[...], "action_mask":
int8[n]}``, the environments' own: docs/rl.md) to an action id; ``PolicyBot`` makes it a bot.
A real one loads its network in ``bot()`` (called once); this one plays the lowest legal play
and passes only when it must, with the mask alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tienlen.rl.policy import PolicyBot

PASS = 0  # the id of pass (and of declining an out-of-turn chop): docs/rl.md, "Actions"


def policy(obs: dict[str, Any]) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    plays = legal[legal != PASS]
    return int(plays[0] if len(plays) else legal[0])


def bot() -> PolicyBot:
    return PolicyBot(policy, name="lowest play")
