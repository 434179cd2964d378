"""What a table has decided and not made yet: a move checked and written (:class:`Staged`), or
a decision the bot pool is to make first (:class:`Asking`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ... import Action, Game, Move, Play
    from ...view import View
    from ..tablelog.writes import Write


@dataclass(frozen=True)
class Staged:
    """A move decided and checked but not made yet: what to store, then what to make.
    ``after``: the hand the move leads to (its trial, made on a copy: it becomes the hand, so
    the move is made once), or the next hand dealt (``move`` None)."""

    write: Write
    seat: int | None
    move: Play | Action | None  # None: deal the next hand
    at: float  # when it was due (Unix seconds): its event's latency counts from then
    after: Game | None = None

    @property
    def made(self) -> Game | tuple[Move, Game] | None:
        """What :meth:`TableState.apply` is handed: the dealt hand, or the move and its trial."""
        if self.move is None or self.after is None:
            return self.after
        return self.move, self.after


@dataclass(frozen=True)
class Asking:
    """A bot's decision for ``view`` that the bot pool makes (botpool.py): the table asks the pool
    with ``key`` and, once its answer is posted back, hands it to ``answered`` and asks the bot
    again, which then has its move."""

    key: tuple[str, int, str, int]
    view: View
    answered: Callable[[View, Move | BaseException], None]
