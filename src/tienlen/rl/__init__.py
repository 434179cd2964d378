"""Reinforcement learning: PettingZoo and Gymnasium environments (extra ``rl``) and self-play
training (``tienlen train``, extra ``train``) of the ``learned`` bot, whose inputs and network
are :mod:`tienlen.bots.features`.

``tienlen.rl.env`` is imported lazily.
"""

from __future__ import annotations

from typing import Any


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (see :mod:`tienlen.rl.aec`)."""
    from .aec import env as make

    return make(**kwargs)


__all__ = ["env"]
