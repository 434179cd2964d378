"""The bot levels a table offers, weakest first, per rules family, from docs/bots.md's ladder.

Each level is offered where the arena measured it at or above the level below it in that
family (docs/bots.md, "The ladder"): ``random``, ``greedy`` and ``heuristic`` everywhere;
``learned`` in the published and the southern families, at the table sizes where it was
measured ahead of three ``heuristic`` bots on first places and units both (4-player pagat:
34.0% [32.8, 35.2] of first places, +0.444 units a hand; 4-player mien-nam: 32.2% [31.1,
33.3], +0.410; pagat at 3 and 8 seats too, not at 2, 5, 6 or 7), and only where numpy is
installed (its network needs it); ``search`` in every family it was measured in (pagat,
viet-cong and mien-nam, killer, mien-bac: ahead of ``heuristic`` in each). A rules set of no
family (``custom``) offers the three levels measured everywhere.

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
    "southern": ("learned", "search"), "northern": ("search",),
    "published": ("learned", "search")}
# the table sizes a family offers a level at, where that is not every size: ``learned`` at the
# sizes where it was measured ahead of ``heuristic`` on first places and units both (trained at 4
# seats, it takes fewer first places than a tie at 2, 5, 6 and 7: docs/bots.md, "The learned
# bot by table size and family")
SEATS: Final[dict[str, dict[Level, frozenset[int]]]] = {
    "published": {"learned": frozenset({3, 4, 8})}, "southern": {"learned": frozenset({4})}}
POOLED: Final = frozenset({"search"})  # the levels decided in worker processes

assert set(MEASURED) == set(FAMILIES)


def _has_numpy() -> bool:
    return importlib.util.find_spec("numpy") is not None


def levels_for(preset: str, players: int | None = None) -> tuple[Level, ...]:
    """The levels a table of rules ``preset`` (with ``players`` seats, when known) offers,
    weakest first; the trained agent the server offers (agent.py) last, at its own tables."""
    family = family_of(preset) or ""
    more = MEASURED.get(family, ())
    sizes = SEATS.get(family, {})
    numpy = _has_numpy()
    agent = served()
    return tuple(level for level in LEVELS
                 if level in EVERYWHERE
                 or (level in more and (level != "learned" or numpy)
                     and (players is None or level not in sizes or players in sizes[level]))
                 or (level == AGENT_LEVEL and agent is not None
                     and agent.plays_at(preset, players)))


def seats() -> dict[str, dict[str, list[int]]]:
    """Per preset, the table sizes of the levels it offers only at some (what the pages filter
    the levels by once the size is chosen)."""
    from ... import Rules
    return {preset: {level: sorted(sizes) for level, sizes in SEATS[family].items()}
            for preset in Rules.presets() if (family := family_of(preset) or "") in SEATS}


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
