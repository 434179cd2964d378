"""A trained agent at the tables: ``tienlen serve --agent "NAME=py:MODULE:ATTR@PRESET/PLAYERS"``.

The server offers one more bot level, ``agent``: the bot ``py:MODULE:ATTR`` makes (a trained
policy made a bot, ``tienlen.rl.policy.PolicyBot``, as ``tienlen tournament`` plays it:
``examples/train_ppo.py``'s ``bot``), named ``NAME`` in the tables' words, at the tables of the
rules ``PRESET`` with ``PLAYERS`` seats only -- the ones it was trained for: a network's
observation and actions are those of one rules set and one number of players, and anywhere
else it would read nonsense. The module is loaded once, when the server starts (a spec that
does not load stops the start with the reason); each bot seat gets its own bot from it. The
agent decides on the event loop, as ``learned`` does (a small network: about a millisecond).

An agent is measured nowhere the server knows: its seats count as nobody in the ratings (no
anchor, ``records/played.py``), and a quick match never seats it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ...bots import Bot, get_bot
from ...errors import TienLenError, error

AGENT_LEVEL: Final = "agent"
_FORM: Final = re.compile(r"^(?P<name>[\w ]{1,24})=py:(?P<spec>[^@]+)@(?P<preset>[\w-]+)/(?P<players>[2-8])$")


@dataclass(frozen=True)
class ServedAgent:
    """The agent a server offers: its name at the tables, what makes it, where it plays."""

    name: str
    spec: str
    preset: str
    players: int
    make: Callable[[], Bot]

    def plays_at(self, preset: str, players: int | None = None) -> bool:
        """Whether tables of ``preset`` (with ``players`` seats, when known) may seat it."""
        return preset == self.preset and (players is None or players == self.players)


_SERVED: list[ServedAgent] = []  # at most one: this process's, from its command line


def load_agent(text: str) -> ServedAgent:
    """The agent ``--agent`` names, loaded; a clear error for a malformed or failing one."""
    from ...arena import python_maker
    from ...rules import Rules

    found = _FORM.match(text.strip())
    if found is None:
        raise error(TienLenError, "err.serve.agent_form", agent=repr(text))
    preset = found["preset"]
    if preset not in Rules.presets():
        raise error(TienLenError, "err.serve.agent_preset", preset=repr(preset),
                    presets=", ".join(Rules.presets()))
    make = python_maker(found["spec"].strip())
    return ServedAgent(found["name"].strip(), found["spec"].strip(), preset,
                       int(found["players"]), make)


def serve_agent(agent: ServedAgent | None) -> None:
    """Offer ``agent`` at this process's tables (None: no agent)."""
    _SERVED.clear()
    if agent is not None:
        _SERVED.append(agent)


def served() -> ServedAgent | None:
    """The agent this process offers, if any."""
    return _SERVED[0] if _SERVED else None


def make_agent() -> Bot:
    """A bot of the agent this process offers (a table asks only where it is offered)."""
    agent = served()
    if agent is None:
        raise error(TienLenError, "err.serve.agent_none")
    return agent.make()


STAND_IN: Final = "heuristic"  # plays an agent's seat where this process offers no agent


def bot_of(level: str, seed: int) -> Bot:
    """A table's bot of ``level``: the ladder's by name, or the trained agent's. A table whose
    agent seats were made under a server that offered one, served now by a process that offers
    none (restarted without ``--agent``, or another of the room's), plays them with the
    :data:`STAND_IN` level rather than stopping."""
    if level == AGENT_LEVEL:
        return make_agent() if served() is not None else get_bot(STAND_IN, seed=seed)
    return get_bot(level, seed=seed)
