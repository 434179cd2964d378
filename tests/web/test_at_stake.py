"""Under chặt chồng (``chop_pay = "chain"``, mien-nam) a chop is paid when its round ends: until
then every seat's view lists the round's chops at stake, and the payment replaces them."""

from __future__ import annotations

import pytest

pytest.importorskip("pydantic")

from tienlen import Game, Move, Rules
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.view import View
from tienlen.web.room.views import seat_view


class Chopped(Exception):
    """The hand stopped at the first decision after a chop."""


class Watching:
    """A heuristic bot that stops the hand (raises :class:`Chopped`) once a chop is at stake."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game, self.bot = game, get_bot("heuristic", seed=seat)

    def choose(self, view: View) -> Move:
        if self.game.chops_at_stake:
            raise Chopped
        return self.bot.choose(view)


def chopped_game() -> Game:
    """A mien-nam hand of heuristic bots, stopped just after a chop (the first seed that has one)."""
    for seed in range(200):
        game = Game.deal(Rules.preset("mien-nam"), 4, seed=seed)
        try:
            play_out(game, [Watching(game, s) for s in range(4)])  # type: ignore[misc]
        except Chopped:
            return game
    raise AssertionError("no chop in 200 deals")


def test_a_chop_is_at_stake_until_its_round_ends_then_paid() -> None:
    game = chopped_game()
    [chop] = game.chops_at_stake
    paid = len(game.payments)
    for seat in (0, 1, 2, 3, None):  # public: every seat and a spectator see it
        [seen] = seat_view(game, seat).at_stake
        assert (seen.chopper, seen.owner, seen.units) == (chop.chopper, chop.owner, chop.units)
        assert seen.target == str(chop.target) and seen.bomb == str(chop.bomb)
    assert "at_stake" in seat_view(game, 0).model_dump_json()
    play_out(game, [get_bot("heuristic", seed=s) for s in range(4)])  # the round ends, and the hand
    view = seat_view(game, 0)
    assert view.at_stake == []
    assert "at_stake" not in view.model_dump_json()  # left out when nothing is at stake
    chops = [p for p in view.payments[paid:] if p.kind == "chop"]
    assert chops and chops[0].chops[0].target == str(chop.target)  # paid now, the chop with it
