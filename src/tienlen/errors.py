"""The errors the package raises: each a ValueError whose message names what is wrong."""

from __future__ import annotations


class TienLenError(ValueError):
    """Base class of every error about bad input: a card, a play, rules, a record."""


class CardError(TienLenError):
    """A card or a list of cards could not be read."""


class RulesError(TienLenError):
    """A rules option, value or file is wrong."""


class IllegalPlay(TienLenError):
    """An action that the rules do not allow now; the game state is unchanged."""


class RecordError(TienLenError):
    """A game record is malformed or replays to an illegal action."""
