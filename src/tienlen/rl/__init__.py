"""Reinforcement learning: PettingZoo and Gymnasium environments (extra ``rl``), self-play
training (``tienlen train``, extra ``train``) and the features of the ``learned`` bot.

``tienlen.rl.env`` is imported lazily, so the learned bot needs numpy alone.
"""

from __future__ import annotations

from typing import Any


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (see :mod:`tienlen.rl.aec`)."""
    from .aec import env as make

    return make(**kwargs)


__all__ = ["env"]
