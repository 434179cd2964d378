"""Hands stopped where a seat is asked something before or beside the play: a mutual-trading
table, a president's exchange, an instant-win claim and a free chop; the page's and the views'
tests read the same hands. Seat 0 is the page's player (Lan at a practice table)."""

from __future__ import annotations

from collections.abc import Callable

from helpers import DRAGON_DEAL, TRADE_DEAL
from tienlen import Game, Rules

PAGAT = Rules.preset("pagat")
# seat 0 offers seat 1 (answered, accepted), seat 1 offers seat 2 (answered, refused: the
# others see neither's cards), seat 2 is done, seat 3 offers seat 0 one card
TRADES = ["offer 1 3s", "answer 0 4s", "accept 1", "offer 2 3c 3d", "answer 1 7d 7h",
          "refuse 2", "done", "offer 0 Jh"]


def trading(moves: int) -> Game:
    """A 4-player mutual-trading hand after the first ``moves`` of :data:`TRADES`."""
    game = Game(PAGAT.replace(trading="mutual"), TRADE_DEAL, leader=0)
    for move in TRADES[:moves]:
        game.play(move)
    return game


def exchange(returned: bool) -> Game:
    """A president's exchange: seat 3 gives seat 0 two cards, seat 2 gives seat 1 one; seat 0
    on turn to return its two (``returned``: seat 0 and seat 1 have returned theirs)."""
    game = Game(PAGAT.replace(trading="president"), DRAGON_DEAL, first_hand=False,
                exchange=[(3, 0, 2), (2, 1, 1)])
    if returned:
        game.play("return 3 3s 4d")
        game.play("return 2 3c")
    return game


def claim(answered: bool) -> Game:
    """Instant wins to claim: seat 2 (a dragon) answers first and claims it, then seat 0 (no
    loose card) is asked (``answered``: seat 0 declined too, and the claims are shown)."""
    deal = [DRAGON_DEAL[2], DRAGON_DEAL[3], DRAGON_DEAL[0], DRAGON_DEAL[1]]
    game = Game(Rules.preset("cardrules"), deal, leader=2)
    game.play("claim dragon")
    if answered:
        game.play("decline")
    return game


def free_chop() -> Game:
    """Mien-nam: seat 1 leads a two, and seat 0, not on turn, is offered a free chop (§11)."""
    hands = ["6s 6c 7s 7d 8s 8d 9s 9c Kc", "2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc"]
    game = Game(Rules.preset("mien-nam"), hands, leader=1, first_hand=False)
    game.play("2h")
    return game


TABLES: dict[str, Callable[[], Game]] = {
    "offer": lambda: trading(0),
    "settle": lambda: trading(2),
    "answer": lambda: trading(8),
    "return": lambda: exchange(False),
    "returned": lambda: exchange(True),
    "claim": lambda: claim(False),
    "claimed": lambda: claim(True),
    "free_chop": free_chop,
}
