"""Reinforcement learning: PettingZoo and Gymnasium environments (extra ``rl``) and self-play
training (``tienlen train``, extra ``train``) of the ``learned`` bot, whose inputs and network
are :mod:`tienlen.bots.features`.

Importing it registers two Gymnasium ids where Gymnasium is installed:
``gymnasium.make("tienlen/TienLen-v0", rules=..., players=..., opponents=..., reward=...)``
(one seat against bots, :mod:`.single`) and ``"tienlen/TienLenSelfPlay-v0"`` (one agent for
every seat, :mod:`.selfplay`); ``gymnasium.make("tienlen.rl:tienlen/TienLen-v0")`` imports it
first. ``tienlen.rl.env`` is imported lazily. Without its extra, an environment (``env()``,
:mod:`.aec`, :mod:`.single`, :mod:`.openspiel`) raises a ``ModuleNotFoundError`` that names the
extra and how to install it (:func:`missing_extra`).
"""

from __future__ import annotations

from typing import Any, Final


def missing_extra(exc: ModuleNotFoundError, extra: str = "rl") -> ModuleNotFoundError:
    """The error for a package of ``extra`` that is not installed (``exc``, as Python raised
    it): the same kind, the same missing name, in words that say which extra installs it."""
    from ..i18n import t

    return ModuleNotFoundError(t("err.rl.extra", extra=extra, missing=exc.name or exc),
                               name=exc.name)


# Gymnasium's ids (a new version for any change of the spaces' layout: docs/rl.md, and
# tests/test_rl_gym.py holds each version's layout)
SINGLE_ID: Final = "tienlen/TienLen-v0"
SELF_PLAY_ID: Final = "tienlen/TienLenSelfPlay-v0"


def _register() -> None:
    """Register the ids with Gymnasium, where it is installed (importing the engine, the bots
    or the web never imports this package: registering costs them nothing)."""
    try:
        from gymnasium.envs.registration import register, registry
    except ModuleNotFoundError:
        return
    if SINGLE_ID not in registry:
        register(id=SINGLE_ID, entry_point="tienlen.rl.single:SingleSeatEnv",
                 vector_entry_point="tienlen.rl.vector:make_vector",
                 kwargs={"infos": "fixed"}, disable_env_checker=False)
    if SELF_PLAY_ID not in registry:
        register(id=SELF_PLAY_ID, entry_point="tienlen.rl.selfplay:SelfPlayEnv")


_register()


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (see :mod:`tienlen.rl.aec`)."""
    from .aec import env as make

    return make(**kwargs)


__all__ = ["SELF_PLAY_ID", "SINGLE_ID", "env", "missing_extra"]
