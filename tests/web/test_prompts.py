"""What a seat is asked, as the server sends it: a kind (protocol.py's ``Prompt``) with the
decision's facts, never words; the page says it in the reader's language."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from helpers import DRAGON_DEAL, TRADE_DEAL
from tienlen import Game, Rules
from tienlen.web.room.protocol import SeatView
from tienlen.web.room.views import seat_view

PAGAT = Rules.preset("pagat")
MUTUAL = PAGAT.replace(trading="mutual")


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
    assert seat_view(game, 3).prompt == "chop"
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(Rules.preset("mien-nam"), hands, leader=0, first_hand=False)
    game.play("2h")
    assert seat_view(game, 3).prompt == "free_chop"


def facts(view: SeatView) -> tuple[object, ...]:
    """A view's prompt, its decision's facts and its buttons (a move, made with the selected
    cards when marked +); (None,) when it is asked nothing, or to play in turn (no prompt)."""
    d = view.decision
    if d is None or d.kind == "play":
        assert view.prompt is None
        return (None,)
    assert d.kind == view.prompt
    return (d.kind, d.to, d.count, d.seats,
            [c.move + (" +" if c.cards else "") for c in d.choices])


def test_each_step_of_a_mutual_trade_is_asked_with_its_facts() -> None:
    game = Game(MUTUAL, TRADE_DEAL, leader=0)
    view = seat_view(game, 0)
    assert facts(view) == ("offer", None, 0, [1, 2, 3], ["done", "offer 1 +", "offer 2 +",
                                                        "offer 3 +"])
    assert view.legal == ["done"]
    game.play("offer 1 3s")
    view = seat_view(game, 1)
    assert facts(view) == ("answer", 0, 1, [], ["refuse 0", "answer 0 +"])
    assert view.legal == ["refuse 0"]
    game.play("answer 0 4s")
    view = seat_view(game, 0)
    assert facts(view) == ("settle", 1, 0, [], ["accept 1", "refuse 1"])
    assert view.legal == ["accept 1", "refuse 1"]
    assert facts(seat_view(game, 2)) == (None,) and facts(seat_view(game, None)) == (None,)
    game.play("accept 1")
    # seat 1 offers next, to the seats in turn order from it (the engine's partners)
    assert facts(seat_view(game, 1)) == ("offer", None, 0, [2, 3, 0], ["done", "offer 2 +",
                                                                      "offer 3 +", "offer 0 +"])


def test_the_return_to_the_president_is_asked_with_the_count() -> None:
    president = PAGAT.replace(trading="president")
    game = Game(president, DRAGON_DEAL, first_hand=False, exchange=[(3, 0, 2), (2, 1, 1)])
    assert game.phase == "return" and game.turn == 0
    view = seat_view(game, 0)
    assert facts(view) == ("return", 3, 2, [], ["return 3 +"]) and view.legal == []
    game.play("return 3 3s 4d")
    assert facts(seat_view(game, 1)) == ("return", 2, 1, [], ["return 2 +"])


def test_a_claim_is_asked_with_a_button_for_each_instant_win_and_decline() -> None:
    game = Game(Rules.preset("cardrules"), DRAGON_DEAL)
    view = seat_view(game, 0)
    assert facts(view) == ("claim", None, 0, [], ["claim dragon", "decline"])
    assert [(c.kind, c.win) for c in view.decision.choices] == [("claim", "dragon"),  # type: ignore[union-attr]
                                                                ("decline", None)]


def test_a_chop_out_of_turn_is_asked_with_the_player_of_the_play_to_chop() -> None:
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(Rules.preset("mien-nam"), hands, leader=0, first_hand=False)
    game.play("2h")
    view = seat_view(game, 3)
    assert facts(view) == ("free_chop", 0, 0, [], []) and view.decision.out_of_turn  # type: ignore[union-attr]
    assert view.legal == ["6s 6c 7s 7d 8s 8d 9s 9c"]  # its chops: letting it go is no move


# ---------------------------------------------------------------------- in the browser
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import Server  # noqa: E402
from .test_browser import TABLE, wait_turn_or_over  # noqa: E402
from .test_payments import practice_table  # noqa: E402

# each kind as the server would send it to the seat ("me"), and what the page then says
ASKED = {
    "claim": ({"phase": "claim", "turn": "me", "legal": ["claim dragon", "decline"],
               "decision": {"kind": "claim", "choices": [
                   {"move": "claim dragon", "kind": "claim", "win": "dragon"},
                   {"move": "decline", "kind": "decline"}]}},
              "You may claim an instant win, or decline"),
    "chop": ({"turn": "next", "table": "2h", "legal": ["7s 7c 7d 7h"],
              "decision": {"kind": "chop", "out_of_turn": True, "to": 2}},
             "Bot 1's turn — You may chop out of turn"),
    "offer": ({"phase": "trade", "turn": "me", "legal": ["done"],
               "decision": {"kind": "offer", "seats": [1, 2, 3], "count": 0, "choices": [
                   {"move": "done", "kind": "done"},
                   *({"move": f"offer {s}", "kind": "offer", "other": s, "cards": True}
                     for s in (1, 2, 3))]}},
              "Offer cards to a player (select them first), or say done"),
    "answer": ({"phase": "trade", "turn": "me", "legal": ["refuse 2"],
                "decision": {"kind": "answer", "to": 2, "count": 2, "choices": [
                    {"move": "refuse 2", "kind": "refuse", "other": 2},
                    {"move": "answer 2", "kind": "answer", "other": 2, "cards": True,
                     "count": 2}]}},
               "Bot 2 offers you 2 cards: answer with as many of yours, or refuse"),
    "settle": ({"phase": "trade", "turn": "me", "legal": ["accept 3", "refuse 3"],
                "decision": {"kind": "settle", "to": 3, "count": 0, "choices": [
                    {"move": "accept 3", "kind": "accept", "other": 3},
                    {"move": "refuse 3", "kind": "refuse", "other": 3}]}},
               "Bot 3 answered your offer: accept or refuse"),
    "return": ({"phase": "return", "turn": "me", "legal": [],
                "decision": {"kind": "return", "to": 1, "count": 1, "choices": [
                    {"move": "return 1", "kind": "return", "other": 1, "cards": True,
                     "count": 1}]}},
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
        t.state = {{ ...t.state, view: {{ ...v, table_seat: (t.seat + 2) % n,
            is_over: false, ...change, turn, prompt: kind }} }};
        t.render(t.state); }}""", [kind, change])
    expect(page.get_by_test_id("status")).to_have_text(words)


# what the seat is asked in the play, as the server would send it, and the buttons usable then
# (Play, Pass, Hint): the page reads them from the decision alone, not from whose turn it is
# nor from the legal list
BUTTONS = {
    "lead": ({"turn": "me", "table": None, "legal": ["3s"], "decision": {"kind": "play"}},
             (True, False, True)),
    "follow": ({"turn": "me", "table": "2h", "legal": ["pass"],
                "decision": {"kind": "play", "may_pass": True}}, (True, True, True)),
    "chop": ({"turn": "next", "table": "2h", "legal": ["7s 7c 7d 7h"],
              "decision": {"kind": "chop", "out_of_turn": True, "to": 2}}, (True, False, True)),
    "nothing": ({"turn": "next", "table": "2h", "legal": [], "decision": None},
                (False, False, False)),
    # on turn as the seat plates say, but not asked (a view between two moves): nothing usable
    "not asked": ({"turn": "me", "table": "2h", "legal": ["pass"], "decision": None},
                  (False, False, False)),
}


@pytest.mark.parametrize("name", sorted(BUTTONS))
def test_play_pass_and_hint_follow_the_decision(page: Page, server: Server, name: str) -> None:
    practice_table(page, server)
    wait_turn_or_over(page)
    change, (play, pass_, hint) = BUTTONS[name]
    page.evaluate(f"""(change) => {{ const t = {TABLE}; const v = t.state.view;
        const n = v.counts.length;
        const turn = change.turn === "me" ? t.seat : (t.seat + 1) % n;
        t.state = {{ ...t.state, view: {{ ...v, phase: "play", table_seat: (t.seat + 2) % n,
            is_over: false, prompt: null, ...change, turn }} }};
        t.render(t.state); }}""", change)
    for testid, usable in (("play", play), ("pass", pass_), ("hint", hint)):
        button = page.get_by_test_id(testid)
        expect(button).to_have_attribute("aria-disabled", "false" if usable else "true")
