"""Tiến Lên (Thirteen, Killer, Viet Cong): cards, rules, and an exact, fast game engine.

>>> from tienlen import Game, Rules
>>> game = Game.deal(Rules.preset("pagat"), players=4, seed=7)
>>> len(game.hand(0))
13
"""

from .actions import Action, Move, parse_move
from .cards import Card, parse_cards
from .chops import ChopEntry
from .errors import (
    ArgumentError,
    CardError,
    IllegalPlay,
    RecordError,
    RulesError,
    TienLenError,
    UnreadableAction,
)
from .game import Game
from .rules import Rules
from .session import Session
from .shapes import PASS, Play
from .view import View

__all__ = [
    "PASS", "Action", "ArgumentError", "Card", "CardError", "ChopEntry", "Game", "IllegalPlay",
    "Move", "Play", "RecordError", "Rules", "RulesError", "Session", "TienLenError",
    "UnreadableAction", "View", "parse_cards", "parse_move",
]
__version__ = "0.1.0"
