"""Reinforcement learning: PettingZoo and Gymnasium environments (extra ``rl``) and self-play
training (``tienlen train``, extra ``train``) of the ``learned`` bot, whose inputs and network
are :mod:`tienlen.bots.features`.

``tienlen.rl.env`` is imported lazily. Without its extra, an environment (``env()``,
:mod:`.aec`, :mod:`.single`, :mod:`.openspiel`) raises a ``ModuleNotFoundError`` that names the
extra and how to install it (:func:`missing_extra`).
"""

from __future__ import annotations

from typing import Any


def missing_extra(exc: ModuleNotFoundError, extra: str = "rl") -> ModuleNotFoundError:
    """The error for a package of ``extra`` that is not installed (``exc``, as Python raised
    it): the same kind, the same missing name, in words that say which extra installs it."""
    from ..i18n import t

    return ModuleNotFoundError(t("err.rl.extra", extra=extra, missing=exc.name or exc),
                               name=exc.name)


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (see :mod:`tienlen.rl.aec`)."""
    from .aec import env as make

    return make(**kwargs)


__all__ = ["env", "missing_extra"]
