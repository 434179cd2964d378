"""Plays between their masks and :class:`~tienlen.shapes.Play` objects, both ways, cached.

The same plays come back decision after decision (a seat's hand loses only what it plays),
so each mask is made into a ``Play`` once, and a cached ``Play`` gives its masks back
without reading its cards. The cache is emptied when it grows past :data:`CACHE_SIZE`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from .encoding import Mask, mask_play, play_mask

if TYPE_CHECKING:
    from ..shapes import Play

CACHE_SIZE: Final = 1 << 16
_PLAYS: dict[str, dict[Mask, Play]] = {}  # by suit order, then by mask
_MASKS: dict[int, tuple[Play, Mask]] = {}  # by id(play): the play is kept alive beside it


def _made(mask: Mask, order: str) -> Play:
    if len(_MASKS) >= CACHE_SIZE:
        _PLAYS.clear()
        _MASKS.clear()
    play = mask_play(mask[0], mask[1], mask[2], order)
    _PLAYS.setdefault(order, {})[mask] = play
    _MASKS[id(play)] = (play, mask)
    return play


def cached_plays(order: str) -> dict[Mask, Play]:
    """The plays made so far in the suit order ``order``, by masks (the cache itself: read it,
    add through :func:`plays_of`)."""
    return _PLAYS.setdefault(order, {})


def plays_of(masks: Iterable[Mask], order: str) -> list[Play]:
    """The plays of ``masks`` (lo, hi, shape) in the suit order ``order``."""
    cache = _PLAYS.get(order) or {}
    out = []
    for mask in masks:
        play = cache.get(mask)
        out.append(play if play is not None else _made(mask, order))
    return out


def mask_of(play: Play | Mask) -> Mask:
    """The masks of a play (given as masks, or as a ``Play``, cached or not)."""
    if isinstance(play, tuple):
        return play
    held = _MASKS.get(id(play))
    if held is not None and held[0] is play:
        return held[1]
    return play_mask(play)
