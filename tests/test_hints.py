"""The hint (tienlen.hints): the default search bot's move from the seat's view, and a reason a
player understands, on fixed positions."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers import deal_with, twin_games
from tienlen import Game, Play, Rules, fast
from tienlen.bots import get_bot
from tienlen.coach import appraise
from tienlen.hints import Reason, prepare, reason_for, reason_words, suggest
from tienlen.view import View


def after_lead(hand: str, lead: str, rules: Rules | None = None) -> View:
    """Seat 0 holding ``hand`` (the others as many cards), to answer ``lead`` by seat 3."""
    size = len(hand.split())
    game = Game(rules or Rules(), deal_with({0: hand, 3: lead}, size=size), leader=3,
                first_hand=False)
    game.play(lead, seat=3)
    assert game.turn == 0
    return game.view(0)


def leading(hand: str, rules: Rules | None = None) -> View:
    """Seat 0 holding ``hand``, free to lead (not the first hand)."""
    game = Game(rules or Rules(), deal_with({0: hand}, size=len(hand.split())), leader=0,
                first_hand=False)
    return game.view(0)


def said(view: View, move: str) -> tuple[str, str]:
    reason = reason_for(view, Play.parse(move))
    return reason_words(reason, "en"), reason_words(reason, "vi")


def test_a_play_that_keeps_the_run_and_the_chain():
    view = after_lead("3s 4d 5c 6h 7s 9s Td Jh", "3d 4c 5s")
    assert said(view, "9s Td Jh") == ("keeps your run of 5 cards (3s 4d 5c 6h 7s)",
                                      "giữ nguyên sảnh 5 lá của bạn (3s 4d 5c 6h 7s)")
    # the runs it was chosen over break that run
    assert said(view, "4d 5c 6h")[0] == "breaks your run of 5 cards (3s 4d 5c 6h 7s): the search " \
        "bot judges it worth it"
    view = after_lead("5s 5c 6d 6h 7s 7c Js Jh", "4s 4c")
    assert said(view, "Js Jh") == ("keeps your chain of 3 pairs (5s 5c 6d 6h 7s 7c)",
                                   "giữ nguyên dây 3 đôi thông của bạn (5s 5c 6d 6h 7s 7c)")


def test_a_single_that_saves_the_pair_of_twos():
    view = after_lead("3s 5c 9d Jh Qs 2s 2h", "8c")
    assert said(view, "9d") == ("holds back a pair of twos for later", "giữ lại đôi heo để dành")


def test_a_single_out_of_a_pair_says_it_breaks_the_pair_not_that_it_saves_a_two():
    view = after_lead("4d 6s 6d 9s Jh Kc 2c", "5c")
    assert said(view, "6s")[0] == "breaks your pair (6s 6d): the search bot judges it worth it"
    assert said(view, "9s")[0] == "holds back a two for later"


def test_a_loose_single_and_the_lowest_pair_led():
    view = leading("4s 6d 6h 9c Jc Jd Kh")
    assert said(view, "4s") == ("plays your loose single 4s", "đánh lá lẻ 4s của bạn")
    assert said(view, "6d 6h") == ("leads your lowest pair (6d 6h)", "mở bằng đôi nhỏ nhất (6d 6h)")


def test_last_cards_and_a_chop():
    assert said(after_lead("9s 9h", "4s 4c"), "9s 9h") == ("your last cards: 9s 9h",
                                                          "những lá cuối cùng của bạn: 9s 9h")
    view = after_lead("5s 5c 5d 5h 8c Kd", "2s")
    assert said(view, "5s 5c 5d 5h") == ("chops 2s with your four of a kind",
                                         "chặt 2s bằng tứ quý của bạn")


def test_a_clean_lead_counts_what_is_left():
    view = leading("3s 4d 5c 9c 9d Kh Ks")
    assert said(view, "3s 4d 5c") == ("a clean play: what is left makes 2 combinations",
                                      "đánh gọn: bài còn lại gom được 2 bộ")
    assert said(leading("3s 4d 5c Kh Ks"), "3s 4d 5c")[0] == \
        "a clean play: what is left makes one combination"


def test_the_passes():
    # every single that beats the 8 comes out of the run 9..K
    view = after_lead("4s 4d 9c Td Jh Qs Kc", "8c")
    assert said(view, "pass") == ("a pass: every play breaks your run of 5 cards (9c Td Jh Qs Kc)",
                                  "bỏ lượt: đánh bộ nào cũng phá sảnh 5 lá của bạn (9c Td Jh Qs Kc)")
    assert said(after_lead("4s 5d 7h", "2h"), "pass") == (
        "a pass: nothing you hold beats the table",
        "bỏ lượt: không có bộ nào chặn được bài trên bàn")
    assert said(after_lead("4s 7h 2d", "Ah"), "pass")[0] == "a pass: every play would spend a two"
    assert said(after_lead("4s 7h Kd", "Jh"), "pass")[0] == \
        "a pass: the search bot expects more from waiting"


def test_a_move_that_is_no_play():
    assert reason_words(Reason("hint.search"), "en") == "the search bot's choice"


def test_suggest_is_the_coachs_best_move_on_the_seats_view():
    view = after_lead("3s 4d 5c 5h 6h 7s 9s 9h Jd Qc Kh Ad 2c", "4s 4c")
    hint = suggest(view)
    appraisal = appraise(view)
    assert hint.move == appraisal.best.move
    assert appraisal.best.units == max(e.units for e in appraisal.estimates)
    assert hint.reason == reason_for(view, hint.move)
    assert suggest(view) == hint  # the same position, the same deals, the same hint


def test_the_other_hands_hidden_cards_do_not_change_the_hint():
    a, b = twin_games(Rules(), 4, seed=5, steps=6)
    assert a.view(0).hand == b.view(0).hand
    assert suggest(a.view(0)) == suggest(b.view(0))


def test_not_the_old_hints_queens():
    """The terminal's old hint (search with 8 deals) led Qs Qc Qh here, where the bots lead
    4s 4d 4h."""
    hands = ["4s 4d 4h Qs Qc Qh 7d 5d 8s Kh Ts Ad 7s",
             "2s 6h Kc 9d Jc 8c 2h 4c Td Qd 5c 9c 3d",
             "6s Jh As 8h 6d Tc 3h 7h Th 2d Ks 9s 6c",
             "Ac Kd 9h Jd 3s 2c 8d 5h 3c Js Ah 5s 7c"]
    view = Game(Rules(), hands, leader=0, first_hand=False).view(0)
    assert str(get_bot("heuristic", seed=0).choose(view)) == "4s 4d 4h"
    old = {str(get_bot("search", seed=s, worlds=8).choose(view)) for s in range(6)}
    assert "Qs Qc Qh" in old
    assert str(suggest(view).move) != "Qs Qc Qh"


def test_no_pass_with_two_runs_that_beat():
    """The old hint passed here though two runs beat the table's 6h 7h 8d."""
    game = Game.deal(Rules(), 4, seed=23)
    bot = get_bot("heuristic", seed=1)
    for _ in range(2):
        game.play(bot.choose(game.view(game.turn)), seat=game.turn)
    view = game.view(game.turn)
    assert str(view.table) == "6h 7h 8d"
    runs = [m for m in view.legal if isinstance(m, Play) and m.shape == "run"]
    assert len(runs) == 2
    assert any(not get_bot("search", seed=s, worlds=8).choose(view).keys for s in range(4))
    assert suggest(view).move in runs


def test_prepare_loads_the_fast_kernels_or_says_it_did_not(monkeypatch):
    monkeypatch.setenv("TIENLEN_PURE", "1")
    assert prepare(Rules()) is False
    monkeypatch.delenv("TIENLEN_PURE")
    if not fast.enabled(Rules()):
        assert prepare(Rules()) is False
        return
    # in a fresh process: after prepare, the compiled playouts the hint's search runs are loaded
    code = ("import sys; from tienlen import Rules; from tienlen.hints import prepare; "
            "print(prepare(Rules()), 'tienlen.fast.policies' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.split() == ["True", "True"]
