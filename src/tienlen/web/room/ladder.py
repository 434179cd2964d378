"""The bot levels a table offers, weakest first, per rules family, from docs/bots.md's ladder.

Each level is offered where the arena measured it at or above the level below it in that
family (docs/bots.md, "The ladder"): ``random``, ``greedy`` and ``heuristic`` everywhere;
``learned`` only in the published family, the one its figure is for (4-player pagat: 29.4%
[28.2, 30.7] of first places and +0.342 units a hand [+0.299, +0.385] against three
``heuristic`` bots, ahead of them on both), and only where numpy
is installed (its network needs it); ``search`` in every family it was measured in (pagat,
viet-cong and mien-nam, mien-bac: ahead of ``heuristic`` in each). A rules set of no family
(``custom``) offers the three levels measured everywhere.

``search`` decides in the bot pool's worker processes (botpool.py): its decision takes tens to
hundreds of milliseconds. The others decide on the event loop: a ``heuristic`` decision takes
about 0.1 ms and a ``learned`` one about 1 ms, less than a round trip to a worker.
"""

from __future__ import annotations

import importlib.util
from typing import Final

from ...i18n import msg
from ..ratings.ratings import FAMILIES, family_of
from ..refusal import Refused
from ..table.agent import AGENT_LEVEL, served
from .protocol import BOT_LEVELS as LEVELS
from .protocol import BotLevel as Level

EVERYWHERE: Final[tuple[Level, ...]] = ("random", "greedy", "heuristic")
# the levels measured at or above the one below, per family, beyond EVERYWHERE
MEASURED: Final[dict[str, tuple[Level, ...]]] = {
    "southern": ("search",), "northern": ("search",), "published": ("learned", "search")}
POOLED: Final = frozenset({"search"})  # the levels decided in worker processes

assert set(MEASURED) == set(FAMILIES)


def _has_numpy() -> bool:
    return importlib.util.find_spec("numpy") is not None


def levels_for(preset: str, players: int | None = None) -> tuple[Level, ...]:
    """The levels a table of rules ``preset`` (with ``players`` seats, when known) offers,
    weakest first; the trained agent the server offers (agent.py) last, at its own tables."""
    more = MEASURED.get(family_of(preset) or "", ())
    numpy = _has_numpy()
    agent = served()
    return tuple(level for level in LEVELS
                 if level in EVERYWHERE or (level in more and (level != "learned" or numpy))
                 or (level == AGENT_LEVEL and agent is not None
                     and agent.plays_at(preset, players)))


def check_level(preset: str, level: str, players: int | None = None) -> None:
    """Refuse a bot ``level`` that a table of rules ``preset`` (``players`` seats) does not
    offer."""
    levels = levels_for(preset, players)
    if level not in levels:
        raise Refused(msg("room.level_not_offered", level=level, preset=preset,
                          levels=", ".join(levels)))


def offered() -> dict[str, list[str]]:
    """Every preset's levels (what the lobby's page offers for the rules chosen)."""
    from ... import Rules
    return {preset: list(levels_for(preset)) for preset in Rules.presets()}
