"""Bots: each sees only ``game.view(seat)`` and returns one of its legal actions.

>>> from tienlen.bots import get_bot, bot_names
>>> "greedy" in bot_names()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import TienLenError, error
from ..i18n import t
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .search import SearchBot
from .simple import GreedyBot, RandomBot

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Move: ...


_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "search": SearchBot,
    "learned": LearnedBot,
}


def bot_names() -> list[str]:
    return list(_FACTORIES)


def bot_options(name: str) -> list[str]:
    """The options (budget) a built-in bot takes, as written after its name:
    ``search:steps=5000``."""
    import inspect

    factory = _FACTORIES[name]
    return [p for p in inspect.signature(factory).parameters if p != "seed"]


def bot_defaults(name: str) -> dict[str, tuple[str, str]]:
    """A built-in bot's options with their defaults, as written after its name: on the pure
    engine and on the fast path (the same but where the bot's ``path_defaults`` differ)."""
    import inspect

    factory = _FACTORIES[name]
    params = inspect.signature(factory).parameters
    by_path: dict[str, tuple[float, float]] = getattr(factory, "path_defaults", {})
    out = {}
    for option in bot_options(name):
        pure, fast = by_path.get(option, (params[option].default,) * 2)
        out[option] = (str(pure).lower(), str(fast).lower())
    return out


def bot_usage(lang: str = "en") -> str:
    """The built-in bots and their options with their defaults, as ``--help`` lists them."""
    parts = []
    for name in _FACTORIES:
        defaults = bot_defaults(name)
        options = [f"{o}={pure}" if pure == fast else
                   t("cli.help.bot_fast_default", lang, option=o, pure=pure, fast=fast)
                   for o, (pure, fast) in defaults.items()]
        if options:
            example = ":".join(f"{o}={pure}" for o, (pure, _) in list(defaults.items())[:2])
            name = t("cli.help.bot_options", lang, name=name, options=", ".join(options),
                     example=f"{name}:{example}")
        parts.append(name)
    return ", ".join(parts)


def get_bot(name: str, seed: int | None = None, **budget: Any) -> Bot:
    """A bot by name; seeded bots make the same choices for the same views."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise error(TienLenError, "err.bot.unknown", name=repr(name),
                    bots=", ".join(_FACTORIES)) from None
    return factory(seed=seed, **budget)


__all__ = ["Bot", "GreedyBot", "HeuristicBot", "LearnedBot", "RandomBot", "SearchBot", "bot_defaults",
           "bot_names", "bot_options", "bot_usage", "get_bot"]
