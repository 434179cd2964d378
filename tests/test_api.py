"""The API's edges: one error hierarchy, argument errors, seats named from 0, the rules' card
order, the trading decision as a structure, records and rules files that are refused."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from helpers import deal_with
from tienlen import (
    ArgumentError,
    Card,
    CardError,
    Game,
    IllegalPlay,
    Play,
    RecordError,
    Rules,
    RulesError,
    TienLenError,
    parse_cards,
)
from tienlen.actions import Action, TradeOffers

PAGAT = Rules.preset("pagat")


def test_every_error_is_a_tienlen_error_and_a_value_error() -> None:
    for error in (CardError, RulesError, IllegalPlay, RecordError, ArgumentError):
        assert issubclass(error, TienLenError) and issubclass(error, ValueError)


def test_unreadable_text_given_to_play_is_caught_as_illegal_play_and_as_card_error() -> None:
    game = Game.deal(PAGAT, 4, seed=1)
    for catch in (IllegalPlay, CardError):
        with pytest.raises(catch, match="'7x' is not a card"):
            game.play("7x")
    with pytest.raises(IllegalPlay):
        game.verify("offer banana")


@pytest.mark.parametrize("call", [
    lambda: Game(PAGAT, ["3s", "4s"], dealer=5),
    lambda: Game(PAGAT, ["3s", "4s"], leader=-1),
    lambda: Game(PAGAT, ["3s", "4s"], first_hand="no"),  # type: ignore[arg-type]
    lambda: Game(PAGAT, ["3s", "4s"], names=["Lan"]),
    lambda: Game.deal(PAGAT, players=9),
    lambda: Game.deal(PAGAT, 4, seed=1).hand(4),
    lambda: Game("pagat", ["3s", "4s"]),  # type: ignore[arg-type]
])
def test_bad_constructor_and_query_arguments_are_argument_errors_not_illegal_plays(call) -> None:
    with pytest.raises(ArgumentError) as info:
        call()
    assert not isinstance(info.value, IllegalPlay)


def test_messages_name_seats_from_zero_or_by_the_given_names() -> None:
    game = Game(PAGAT, ["3s 9d", "4s", "5s", "6s"])
    with pytest.raises(IllegalPlay, match="it is seat 0's turn, not seat 2's"):
        game.play("5s", seat=2)
    named = Game(PAGAT, ["3s 9d", "4s", "5s", "6s"], names=["Lan", "Minh", "Hoa", "Tuan"])
    with pytest.raises(IllegalPlay, match="it is Lan's turn, not Hoa's"):
        named.play("5s", seat=2)


def test_rules_key_sorts_cards_in_the_rules_order_and_hands_come_sorted_by_it() -> None:
    rules = PAGAT.replace(suit_order="alphabetical")
    cards = parse_cards("5s 5c 5h 5d")
    assert [str(c) for c in sorted(cards, key=rules.key)] == ["5c", "5d", "5h", "5s"]
    game = Game(rules, ["5s 5c 5h 5d 3c", "4s 9h"])
    hand = game.hand(0)
    assert hand == sorted(hand, key=rules.key)
    assert [str(c) for c in hand] == ["3c", "5c", "5d", "5h", "5s"]
    assert [str(c) for c in game.view(0).hand] == ["3c", "5c", "5d", "5h", "5s"]


def test_play_parse_without_rules_does_not_judge_and_with_rules_does() -> None:
    assert Play.parse("Jh Qh Kh Ah 2h").shape == "run"  # structure only
    viet = Rules.preset("viet-cong")
    assert Play.parse("Jh Qh Kh Ah 2h", viet).shape is None
    assert viet.play("Jh Qh Kh Ah 2h").shape is None
    assert "not judged" in (Play.parse.__doc__ or "") or "not judged against" in \
        (Play.parse.__doc__ or "")


def test_the_mutual_trade_is_a_lazy_list_and_a_small_structured_decision() -> None:
    rules = Rules.preset("viet-cong").replace(trading="mutual")
    game = Game.deal(rules, 4, seed=3, leader=0)
    legal = game.legal_plays()
    assert isinstance(legal, TradeOffers)
    assert len(legal) == 3 * (2 ** 13 - 1) + 1 == 24_574
    assert not legal._built  # nothing listed yet
    assert legal[-1] == Action("done")
    first = legal[0]
    assert isinstance(first, Action) and first.kind == "offer" and first in legal
    decision = game.trade_decision()
    assert decision is not None and decision.kind == "offer"
    assert decision.partners == (1, 2, 3) and len(decision.hand) == 13
    offer = decision.make("offer", 2, [str(c) for c in decision.hand[:2]])
    assert offer in legal
    game.play(offer)
    answer = game.trade_decision()
    assert answer is not None and answer.kind == "answer" and answer.other == 0
    assert answer.count == 2 and answer.offered == offer.cards
    game.play(answer.make("answer", cards=answer.hand[:2]))
    settle = game.trade_decision()
    assert settle is not None and settle.kind == "settle" and settle.other == 2
    game.play(settle.make("accept"))
    assert game.trade_decision(seat=2) is None


def test_a_record_header_field_of_the_wrong_type_is_refused() -> None:
    game = Game(PAGAT, deal_with({}), first_hand=False, leader=1)
    text = game.record()
    assert "first_hand = false" in text
    with pytest.raises(RecordError, match="first_hand must be true or false, not 'no'"):
        Game.from_record(text.replace("first_hand = false", 'first_hand = "no"'))
    with pytest.raises(RecordError, match="dealer must be a seat number"):
        Game.from_record(text.replace("dealer = 0", 'dealer = "0"'))
    with pytest.raises(RecordError, match="leader must be a seat number"):
        Game.from_record(text.replace("leader = 1", "leader = true"))


def test_a_rules_file_cannot_relabel_a_preset() -> None:
    with pytest.raises(RulesError, match="'name' is not an option"):
        Rules.from_toml('preset = "pagat"\nname = "viet-cong"\n')
    with pytest.raises(RulesError, match="'name' is not an option"):
        Rules.from_toml('preset = "pagat"\n[options]\nname = "killer"\n')


def test_card_order_itself_stays_standard() -> None:
    assert Card.parse("5s") < Card.parse("5h")


def test_tienlen_rules_lists_and_shows_the_vietnamese_presets(capsys: pytest.CaptureFixture[str]) -> None:
    from tienlen.cli import main

    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    assert "mien-nam" in listing and "mien-bac" in listing
    assert main(["rules", "mien-bac"]) == 0
    shown = capsys.readouterr().out
    for line in ("follow_suit: true", "no_two_last: true", "chop_pay: chain", "scoring: places"):
        assert line in shown
    assert main(["rules", "mien-nam", "--toml"]) == 0
    assert 'preset = "mien-nam"' in capsys.readouterr().out  # every option follows it


def test_the_legal_list_is_the_callers_own_and_play_checks_against_the_same_moves() -> None:
    # play() reuses the plays just listed for the seat (one generation a move, not two): a
    # caller changing its list changes nothing in the game
    game = Game.deal(Rules.preset("pagat"), 4, seed=5)
    legal = game.legal_plays()
    first = legal[0]
    legal.clear()
    assert game.legal_plays()[0] == first
    other = next(s for s in range(4) if s != game.turn)
    with pytest.raises(IllegalPlay):  # a card the seat does not hold: still refused
        game.play(str(game.hand(other)[0]))
    game.play(str(first))  # an equal move, not the listed object
    assert game.history[-1][1] == first
    copy = game.copy()
    seat = copy.turn
    assert copy.legal_plays() == game.legal_plays(seat)
    copy.play(copy.legal_plays()[-1])
    assert len(game.history) == 1  # the copy's move is its own


# ---------------------------------------------------------------------- docs/api.md holds
API_DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_the_stable_surface_page_names_what_the_package_has() -> None:
    """docs/api.md: every name it imports exists, its action table is the action kinds, its
    commands are the command line's, and its worked examples give what it says."""
    import tienlen
    from tienlen.actions import ACTION_KINDS
    from tienlen.cli import build_parser

    text = API_DOC.read_text(encoding="utf-8")
    for line in re.findall(r"^from tienlen import (.+)$", text, re.M):
        names = [n.strip() for n in line.split("#")[0].split(",")]
        assert [n for n in names if not hasattr(tienlen, n)] == [], line
    table = text.split("## Actions as text", 1)[1].split("##", 1)[0]
    kinds = {m.split()[0] for m in re.findall(r"^\| `([a-z][^`]*)`", table, re.M)} | \
        set(re.findall(r", `([a-z]+)[ `]", table))
    assert kinds == set(ACTION_KINDS)
    commands = set(re.findall(r"^\| `tienlen ([a-z]+)", text, re.M))
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert commands == set(sub.choices)
    assert str(Play.parse("Jh 9c 10d")) == "9c Td Jh" and "`9c Td Jh`" in text
    assert [str(Card.parse(t)) for t in ("10♥", "QS", "q♠")] == ["Th", "Qs", "Qs"]
    assert Rules.presets()[:3] == ["pagat", "parlett", "justus-pang"]
    assert "unknown option 'stak' (did you mean 'stake'?)" in text
    with pytest.raises(RulesError, match=re.escape("unknown option 'stak' (did you mean 'stake'?)")):
        PAGAT.replace(stak=5)


def test_one_enumeration_of_action_kinds_and_one_of_phases() -> None:
    """The kinds and the phases are Literal types of their texts: the values stay strings."""
    from typing import get_args

    from tienlen.actions import ACTION_KINDS, PHASES, ActionKind, Phase, parse_move

    assert get_args(ActionKind) == ACTION_KINDS and get_args(Phase) == PHASES
    assert PHASES == ("claim", "trade", "return", "play", "over")
    for text in ("claim dragon", "decline", "offer 2 5s 6d", "answer 0 9h Tc", "accept 2",
                 "refuse 2", "done", "give 0 2s 2h", "return 3 4c 5d"):
        move = parse_move(text)
        assert isinstance(move, Action) and move.kind in ACTION_KINDS
        assert type(move.kind) is str and str(move) == text
    rules = PAGAT.replace(trading="mutual")
    game = Game.deal(rules, players=4, seed=3)
    seen = {game.phase}
    while not game.is_over:
        game.play(next(iter(game.legal_plays())))
        seen.add(game.phase)
        assert type(game.phase) is str and game.phase in PHASES
    assert {"trade", "play", "over"} <= seen


def test_the_stable_surface_page_holds_the_views_events() -> None:
    """docs/api.md: ``view.events`` beside ``view.history``, a hidden trade with its count."""
    import dataclasses

    from tienlen import View
    from tienlen.actions import Hidden

    text = API_DOC.read_text(encoding="utf-8")
    assert "`view.events`" in text and "`offer 2 (2 cards)`" in text
    fields = {f.name for f in dataclasses.fields(View)}
    assert {"history", "events", "phase"} <= fields
    game = Game(PAGAT.replace(trading="mutual"),
                ["3s 4s 5s 9h", "6h 7h 8h Jd", "9c Tc Jc Qs", "Qd Kd Ad Ac"])
    game.play("offer 2 5s 9h")
    (seat, move), = game.view(1).events
    assert seat == 0 and move == Hidden("offer", 2, 2) and str(move) == "offer 2 (2 cards)"
    assert game.view(1).history == ((0, "offer 2 (2 cards)"),)
