"""The errors the package raises: one hierarchy, each a ValueError whose message names what is wrong.

::

    ValueError
     └── TienLenError          catch this to catch every error of the package
          ├── CardError        a card, a list of cards or an action's text could not be read
          ├── RulesError       a rules option, value or file is wrong
          ├── IllegalPlay      an action the rules do not allow now (the game is unchanged)
          │    └── UnreadableAction (also a CardError): the text given to
          │         ``Game.play``/``verify`` is no card or action at all
          ├── RecordError      a record is malformed or replays to an illegal action
          └── ArgumentError    a bad argument to a constructor or a query (a seat number
                               out of range, ``first_hand = "no"``, names of the wrong count)

So ``except IllegalPlay`` around ``game.play(...)`` catches every refusal of that
call, unreadable text included, and ``except TienLenError`` catches everything.
Messages name seats as the API numbers them, from 0 (``seat 2``), or by the
player's name when the game was given names.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .i18n import Msg, Said, render

E = TypeVar("E", bound="TienLenError")


class TienLenError(ValueError):
    """Base class of every error about bad input: a card, a play, rules, a record, an argument.

    Its text is in English; ``reason``, when set, is the same text as a message key and its
    parameters (a :class:`tienlen.i18n.Msg`), for a player who reads another language."""

    reason: Any = None


class CardError(TienLenError):
    """A card or a list of cards could not be read."""


class RulesError(TienLenError):
    """A rules option, value or file is wrong."""


class IllegalPlay(TienLenError):
    """An action that the rules do not allow now; the game state is unchanged.

    Its text is the reason in English; ``reason``, when set, is the same reason as a message
    key and its parameters (a :class:`tienlen.i18n.Msg`), to be said in another language."""


class UnreadableAction(CardError, IllegalPlay):
    """Text given to ``Game.play`` or ``Game.verify`` that is no card or action at all."""


class RecordError(TienLenError):
    """A game record is malformed or replays to an illegal action."""


class ArgumentError(TienLenError):
    """A bad argument to a constructor or a query: not an action, so not an IllegalPlay."""


def error(cls: type[E], key: str, /, **params: Any) -> E:
    """An error of ``cls`` whose text is the English of catalogue message ``key`` and whose
    ``reason`` is that message, to be said in the player's language."""
    reason = Msg(key, params)
    exc = cls(render(reason))
    exc.reason = reason
    return exc


def reason_of(exc: BaseException) -> Msg | Said | str:
    """What an error says, as a message when it carries one (a parameter of a wider message)."""
    reason = getattr(exc, "reason", None)
    return reason if isinstance(reason, Msg | Said | str) and reason else str(exc)
