"""What a seat is asked, as the server sends it: a kind (protocol.py's ``Prompt``) with the
decision's facts, never words; the page says it in the reader's language."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Rules
from tienlen.web.views import seat_view

PAGAT = Rules.preset("pagat")
MUTUAL = PAGAT.replace(trading="mutual")
# the whole pack in four hands; seat 0 holds a dragon (a card of every rank 3..A)
DRAGON_DEAL = ["3s 4d 5c 6h 7s 8d 9c Th Js Qd Kc Ah 2s",
               "3c 3d 3h 4s 4c 4h 5s 5d 5h 6s 6c 6d 7c",
               "7d 7h 8s 8c 8h 9s 9d 9h Ts Tc Td Jc Jd",
               "Jh Qs Qc Qh Ks Kd Kh As Ac Ad 2c 2d 2h"]
TRADE_DEAL = ["3s 4d 5c 6h 7s 8d", "3c 3d 3h 4s 4c 4h", "7d 7h 8s 8c 8h 9s", "Jh Qs Qc Qh Ks Kd"]


def test_a_claim_and_the_plain_play_are_asked_as_kinds() -> None:
    game = Game(Rules.preset("cardrules"), DRAGON_DEAL)
    assert game.phase == "claim" and game.turn == 0
    assert seat_view(game, 0).prompt == "claim"
    assert seat_view(game, 1).prompt is None and seat_view(game, None).prompt is None
    while game.phase == "claim":  # seat 2 holds an instant win too
        game.play("decline")
    assert game.phase == "play" and game.turn is not None
    assert seat_view(game, game.turn).prompt is None  # a play in turn needs no prompt


def test_chops_out_of_turn_are_asked_as_chop_or_free_chop() -> None:
    out_of_turn = PAGAT.replace(chop_out_of_turn=True)
    game = Game(out_of_turn, ["3s 9s Jd Qh", "2c 8h 6s", "4d 5d Ks", "7s 7c 7d 7h 4h"],
                leader=0, first_hand=False)
    game.play("3s")
    game.play("2c")
    assert seat_view(game, 3).prompt == "chop" and not seat_view(game, 3).free_chop
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(Rules.preset("mien-nam"), hands, leader=0, first_hand=False)
    game.play("2h")
    assert seat_view(game, 3).prompt == "free_chop"


def test_each_step_of_a_mutual_trade_is_asked_with_its_facts() -> None:
    game = Game(MUTUAL, TRADE_DEAL, leader=0)
    view = seat_view(game, 0)
    assert (view.prompt, view.decision) == ("offer", {"kind": "offer", "seats": [1, 2, 3]})
    game.play("offer 1 3s")
    view = seat_view(game, 1)
    assert (view.prompt, view.decision) == ("answer", {"kind": "answer", "to": 0, "count": 1})
    game.play("answer 0 4s")
    view = seat_view(game, 0)
    assert (view.prompt, view.decision, view.legal) == ("accept", None, ["accept 1", "refuse 1"])
    assert seat_view(game, 2).prompt is None


def test_the_return_to_the_president_is_asked_with_the_count() -> None:
    president = PAGAT.replace(trading="president")
    game = Game(president, DRAGON_DEAL, first_hand=False, exchange=[(3, 0, 2), (2, 1, 1)])
    seat = game.turn
    assert seat is not None and game.phase == "return"
    view = seat_view(game, seat)
    assert view.prompt == "return"
    assert view.decision is not None and view.decision["kind"] == "return"


# ---------------------------------------------------------------------- in the browser
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import Server  # noqa: E402
from .test_browser import TABLE, wait_turn_or_over  # noqa: E402
from .test_payments import practice_table  # noqa: E402

# each kind as the server would send it to the seat ("me"), and what the page then says
ASKED = {
    "claim": ({"phase": "claim", "turn": "me", "legal": ["claim dragon", "decline"]},
              "You may claim an instant win, or decline"),
    "chop": ({"turn": "next", "table": "2h", "legal": ["7s 7c 7d 7h"]},
             "Bot 1's turn — You may chop out of turn"),
    "offer": ({"phase": "trade", "turn": "me", "legal": ["done"],
               "decision": {"kind": "offer", "seats": [1, 2, 3]}},
              "Offer cards to a player (select them first), or say done"),
    "answer": ({"phase": "trade", "turn": "me", "legal": ["refuse 2"],
                "decision": {"kind": "answer", "to": 2, "count": 2}},
               "Bot 2 offers you 2 cards: answer with as many of yours, or refuse"),
    "accept": ({"phase": "trade", "turn": "me", "legal": ["accept 3", "refuse 3"]},
               "Bot 3 answered your offer: accept or refuse"),
    "return": ({"phase": "return", "turn": "me", "legal": [],
                "decision": {"kind": "return", "to": 1, "count": 1}},
               "Return 1 card of your choice to Bot 1"),
}


@pytest.mark.parametrize("kind", sorted(ASKED))
def test_the_page_says_each_kind_of_prompt_in_words(page: Page, server: Server, kind: str) -> None:
    practice_table(page, server)
    wait_turn_or_over(page)
    change, words = ASKED[kind]
    page.evaluate(f"""([kind, change]) => {{ const t = {TABLE}; const v = t.state.view;
        const n = v.counts.length;
        const turn = change.turn === "me" ? t.seat : (t.seat + 1) % n;
        t.state = {{ ...t.state, view: {{ ...v, decision: null, table_seat: (t.seat + 2) % n,
            is_over: false, ...change, turn, prompt: kind }} }};
        t.render(t.state); }}""", [kind, change])
    expect(page.get_by_test_id("status")).to_have_text(words)
