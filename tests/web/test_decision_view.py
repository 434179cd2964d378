"""What a seat may do now, as the server sends it: the seat's view carries the decision it is
asked, a play in turn too (``kind`` "play"), with the facts the page reads its buttons from:
a pass among the moves (``may_pass``) and a chop out of turn (``out_of_turn``). A spectator
and a seat asked nothing get none."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Rules
from tienlen.web.room.protocol import DecisionView
from tienlen.web.room.views import seat_view

from .asked import TABLES, claim, trading

OUT_OF_TURN = Rules.preset("pagat").replace(chop_out_of_turn=True)
HANDS = ["3s 9s Jd Qh", "2c 8h 6s", "4d 5d Ks", "7s 7c 7d 7h 4h"]


def game() -> Game:
    return Game(OUT_OF_TURN, HANDS, leader=0, first_hand=False)


def decision(g: Game, seat: int | None) -> DecisionView:
    d = seat_view(g, seat).decision
    assert d is not None
    return d


def test_a_lead_is_a_play_without_a_pass() -> None:
    g = game()
    view = seat_view(g, 0)
    assert view.decision == DecisionView(kind="play") and view.prompt is None
    assert "pass" not in view.legal


def test_a_follow_is_a_play_with_a_pass() -> None:
    g = game()
    g.play("3s")
    view = seat_view(g, 1)
    assert view.decision == DecisionView(kind="play", may_pass=True) and view.prompt is None
    assert "pass" in view.legal


def test_a_chop_out_of_turn_is_no_pass_and_no_play_in_turn() -> None:
    g = game()
    g.play("3s")
    g.play("2c")  # seat 2 on turn; seat 3 holds four sevens
    d = decision(g, 3)
    assert (d.kind, d.out_of_turn, d.may_pass, d.to) == ("chop", True, False, 1)
    assert seat_view(g, 3).legal == ["7s 7c 7d 7h"]  # its chops: letting it go is no move
    assert decision(g, 2) == DecisionView(kind="play", may_pass=True)
    free = decision(TABLES["free_chop"](), 0)
    assert (free.kind, free.out_of_turn, free.may_pass) == ("free_chop", True, False)


def test_a_spectator_and_a_seat_asked_nothing_get_no_decision() -> None:
    g = game()
    g.play("3s")
    assert seat_view(g, None).decision is None
    assert [seat_view(g, s).decision is None for s in range(4)] == [True, False, True, True]
    g.play("2c")  # nobody but seat 3 (out of turn) and seat 2 (on turn) is asked
    assert [seat_view(g, s).decision is None for s in range(4)] == [True, True, False, False]
    assert seat_view(trading(2), 2).decision is None  # another seat's trade
    over = game()
    while not over.is_over:
        over.play(over.legal_plays()[0])
    assert [seat_view(over, s).decision for s in (0, 1, 2, 3, None)] == [None] * 5


def test_a_decision_before_the_play_is_on_turn_without_a_pass() -> None:
    for d in (decision(claim(False), 0), decision(trading(0), 0), decision(trading(2), 0)):
        assert (d.out_of_turn, d.may_pass) == (False, False) and d.kind != "play"


def test_a_decision_on_the_wire_holds_only_its_facts() -> None:
    """A fact the decision lacks is left out of the JSON (the page reads it as none): a play
    in turn is its kind and, where it may pass, that; seat 0 as the other seat is kept."""
    g = game()
    assert json.loads(decision(g, 0).model_dump_json()) == {"kind": "play"}
    g.play("3s")
    assert json.loads(decision(g, 1).model_dump_json()) == {"kind": "play", "may_pass": True}
    g.play("2c")
    assert json.loads(decision(g, 3).model_dump_json()) == {"kind": "chop", "out_of_turn": True,
                                                            "to": 1}
    settle = json.loads(decision(trading(2), 0).model_dump_json())
    assert settle["to"] == 1 and "seats" not in settle and "count" not in settle
    assert json.loads(decision(trading(8), 0).model_dump_json())["to"] == 3
