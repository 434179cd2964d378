"""RULES.md §11: the Vietnamese presets `mien-nam` and `mien-bac` and their options: free chops,
chop payments (chặt heo, chặt chồng), places, penalties, cóng, follow_suit, going out on twos,
and the new instant wins. The worked examples of §11.4 are here one by one."""

from __future__ import annotations

import pytest

from tienlen import Game, IllegalPlay, Rules
from tienlen.payments import Payment, best_bombs, default_place_points, penalty_items

NAM = Rules.preset("mien-nam")
BAC = Rules.preset("mien-bac")
C3_LOW = "3s 3c 4s 4c 5s 5c"


def texts(moves):
    return sorted(str(m) for m in moves)


def position(rules, hands, *plays, leader=0):
    """A later hand (no opening card, no instant wins) from ``leader``; a play is text for the
    seat on turn or (seat, text) for a play out of turn."""
    game = Game(rules, hands=hands, leader=leader, first_hand=False)
    for play in plays:
        if isinstance(play, tuple):
            game.play(play[1], seat=play[0])
        else:
            game.play(play)
    return game


def chops_of(game):
    return [(p.payer, p.payee, p.units) for p in game.payments if p.kind == "chop"]


# --- §11.2 the presets ------------------------------------------------------------------
def test_the_presets_are_listed_after_the_accounts():
    assert Rules.presets()[-2:] == ["mien-nam", "mien-bac"]


def test_mien_nam_and_mien_bac_differ_only_where_the_table_says():
    diff = {k: v for k, v in NAM.as_dict().items() if BAC.as_dict()[k] != v}
    assert set(diff) == {"free_chops", "follow_suit", "no_two_last", "chops"}
    assert [str(e) for e in BAC.chops] == ["quad > 2"]


def test_place_points_follow_the_number_of_players():
    assert default_place_points(2) == (2, -2)
    assert default_place_points(3) == (2, 0, -2)
    assert default_place_points(4) == (2, 1, -1, -2)
    assert default_place_points(6) == (2, 1, 0, 0, -1, -2)


# --- §11.4 worked examples ----------------------------------------------------------------
def test_example_1_a_chopped_two_is_paid_when_the_round_ends():
    hands = ["2s 9h", "4s 4c 5s 5c 6d 6h Kd", "7d 8d", "Td Jd"]
    game = position(NAM, hands, "2s", "4s 4c 5s 5c 6d 6h", "pass", "pass")
    assert chops_of(game) == []  # not yet: the round goes on
    game.play("pass")
    assert chops_of(game) == [(0, 1, 1)]
    assert game.table is None and game.turn == 1


def test_example_2_a_pair_of_twos_falls_to_a_quad_not_to_three_pairs():
    hands = ["2s 2d 9h", "4s 4c 5s 5c 6d 6h 9s 9c 9d 9h", "7d 8d", "Td Jd"]
    hands[0] = "2s 2d 3h"
    game = position(NAM, hands, "2s 2d")
    assert not game.can_play("4s 4c 5s 5c 6d 6h")
    game.play("9s 9c 9d 9h")
    for _ in range(3):
        game.play("pass")
    assert chops_of(game) == [(0, 1, 3)]  # 1 for the black two, 2 for the red


def test_example_3_a_quad_chops_only_in_turn_and_a_passer_is_locked_out():
    hands = ["2h 3h", "7c Kd", "9c 3s 3c 4s 4c 5s 5c", "Qd 8s 8c 8d 8h"]
    game = position(NAM, hands, "7c", "9c", "pass", leader=1)
    assert game.turn == 0
    game.play("2h")
    assert game.turn == 1
    # everyone but the player of the two and the one to act is offered a free chop, and
    # neither seat 2's three pairs nor seat 3's quad is one
    assert game.out_of_turn_seats() == [2, 3]
    assert game.legal_plays(3) == [] and game.legal_plays(2) == []
    with pytest.raises(IllegalPlay):
        game.play("8s 8c 8d 8h", seat=3)
    with pytest.raises(IllegalPlay):
        game.play(C3_LOW, seat=2)
    game.play("pass")
    assert game.turn == 2 and "3s 3c 4s 4c 5s 5c" in texts(game.legal_plays())


def test_example_4_a_player_who_passed_chops_with_four_pairs_at_any_moment():
    hands = ["2h 3h", "9c Kd", "5s 5c 6s 6c 7s 7c 8s 8c Qh", "Tc Jd"]
    game = position(NAM, hands, "9c", "pass", "Tc", "2h", leader=1)
    assert game.turn == 1 and game.passed[2]
    assert game.out_of_turn_seats() == [2, 3]
    assert texts(game.legal_plays(2)) == ["5s 5c 6s 6c 7s 7c 8s 8c"]
    game.play("5s 5c 6s 6c 7s 7c 8s 8c", seat=2)
    assert game.passed == [False] * 4 and game.turn == 3
    for _ in range(3):
        game.play("pass")
    assert chops_of(game) == [(0, 2, 2)]


def test_example_5_chat_chong_the_last_victim_pays_for_the_round():
    hands = ["2h 4d", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h Qd", "Tc Jd"]
    game = position(NAM, hands, "2h", C3_LOW, "9s 9c 9d 9h", "pass", "pass", "pass")
    assert chops_of(game) == [(1, 2, 4)]  # 2 for the red two + 2 for three pairs


def test_chat_chong_with_three_chops_in_a_round():
    hands = ["2h 4d", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h Qd", "Ts Tc Js Jc Qs Qc Ks Kc Ad"]
    game = position(NAM, hands, "2h", C3_LOW, "9s 9c 9d 9h", "Ts Tc Js Jc Qs Qc Ks Kc",
                    "pass", "pass", "pass")
    # the quad's owner, the last victim, pays the red two (2), three pairs (2) and the quad (3)
    assert chops_of(game) == [(2, 3, 7)]
    assert sum(p.units for p in game.payments) == 7


def test_example_6_a_two_over_a_two_is_no_chop():
    hands = ["2s 4d", "2h Kd", "8s 8c 8d 8h Qd", "Tc Jd"]
    game = position(NAM, hands, "2s", "2h", "8s 8c 8d 8h", "pass", "pass", "pass")
    assert chops_of(game) == [(1, 2, 2)]


def test_example_7_places_and_a_red_two_left():
    hands = ["6c Js", "7c 2d 5s", "4s 9s", "5c Ts Qs"]
    game = position(NAM, hands, "4s", "5c", "6c", "7c", "9s", "Ts", "Js", "pass", "Qs",
                    leader=2)
    assert game.is_over and game.finish_order == [2, 0, 3, 1]
    assert game.scores == [1, -4, 4, -1]
    assert Payment(1, 2, 2, "penalty", "2d left") in game.payments


def test_example_8_the_quad_counts_not_the_three_pairs():
    rules = NAM
    keys = [Rules.preset("mien-nam").key(c) for c in
            Game(rules, ["5s 5c 5d 5h 6s 6c 7s 7c 2c", "3s"]).hand(0)]
    assert best_bombs(keys, rules) == [("four 5s", 3)]
    assert sum(u for _, u in penalty_items(keys, rules, played_any=True)) == 4
    game = position(NAM, ["3s 9s", "4d 5s 5c 5d 5h 6s 6c 7s 7c 2c"], "3s", "4d", "9s")
    assert game.is_over and game.scores == [6, -6]


def test_example_9_cong_is_last_at_once_and_pays_double():
    cong_hand = "8s 8c 8d 8h 2h 3c 4d 5c 6d 7c 9d Jc Kd"
    hands = ["3s 9h Qh", "4s Ts", "5s Jh Kh", cong_hand]
    game = position(NAM, hands, "3s", "4s", "5s", "pass", "9h", "Ts")
    assert game.finish_order == [1, 3] and game.cong == [3]
    assert game.is_out(3) and not game.is_over
    assert game.turn == 2
    game.play("Jh")
    assert game.turn == 0  # seat 3 plays no more
    game.play("Qh")
    assert game.is_over and game.finish_order == [1, 0, 2, 3]
    assert game.scores == [1, 9, -1, -9]
    penalties = {p.reason: p.units for p in game.payments if p.kind == "penalty"}
    assert penalties == {"2h left": 2, "four 8s left": 3, "no card played (cóng)": 2}


def test_cong_of_two_players_the_first_after_the_winner_takes_the_higher_place():
    hands = ["3s 9h Qh", "Ts", "5s 6c 7d 8s 9s Jc Kd 4c 2s Ac Tc", "4s 6d 7h 8c 9c Jd Kc Qs"]
    game = position(NAM, hands, "3s", "Ts", leader=0)
    assert game.is_over
    assert game.finish_order == [1, 0, 2, 3] and game.cong == [2, 3]
    # places 2 1 -1 -2; each cóng pays 2 more, seat 2 its black two 1 more
    assert game.scores == [1, 2 + 2 + 1 + 2, -1 - 2 - 1, -2 - 2]
    assert sum(game.scores) == 0


def test_without_cong_a_player_who_never_played_plays_on():
    rules = NAM.replace(cong=False)
    hands = ["3s 9h Qh", "Ts", "5s 6c", "4s 6d"]
    game = position(rules, hands, "Ts", leader=1)
    assert not game.is_over and game.finish_order == [1]


def test_example_10_mien_bac_follows_suit():
    game = position(BAC, ["9d 3h", "Td Ad Ts 2s 4c", "Kh", "Qh"], "9d")
    assert texts(game.legal_plays()) == ["2s", "Ad", "Td", "pass"]
    assert not game.can_play("Ts")
    assert BAC.play("7s 7d").shape is None and BAC.play("7s 7c").shape == "pair"
    game = position(BAC, ["8s 8c 3h", "9s 9c 9d 9h 2s 2h", "Kh", "Qh"], "8s 8c")
    legal = texts(game.legal_plays())
    assert "9s 9c" in legal and "2s 2h" in legal and "9d 9h" not in legal
    assert not game.can_play("9d 9h")


def test_mien_bac_a_run_is_of_one_suit_and_a_chain_of_one_colour():
    assert BAC.play("5h 6h 7h").shape == "run"
    assert BAC.play("5h 6d 7h").shape is None
    assert BAC.play("5s 5c 6s 6c 7s 7c").shape == "chain"
    assert BAC.play("5s 5c 6d 6h 7s 7c").shape is None
    assert BAC.play("2s 2h").shape == "pair"  # twos are exempt


def test_mien_bac_a_triple_is_beaten_by_the_same_three_suits():
    game = position(BAC, ["5s 5c 5d 3h", "6s 6c 6d 7s 7c 7h", "Kh", "Qh"], "5s 5c 5d")
    assert texts(game.legal_plays()) == ["6s 6c 6d", "pass"]


def test_mien_bac_only_a_quad_chops_and_only_a_single_two():
    game = position(BAC, ["2s 3h", "9s 9c 9d 9h 4s 4c 5s 5c 6s 6c", "Kh", "Qh"], "2s")
    assert texts(game.legal_plays()) == ["9s 9c 9d 9h", "pass"]
    game = position(BAC, ["2s 2c 3h", "9s 9c 9d 9h", "Kh", "Qh"], "2s 2c")
    assert texts(game.legal_plays()) == ["pass"]


def test_example_11_mien_bac_going_out_on_a_two_takes_the_last_place():
    game = position(BAC, ["4h 5h", "Kh 5d", "2h", "Qs Jd"], "4h", "Kh", leader=0)
    assert game.turn == 2
    game.play("2h")
    assert game.is_out(2) and game.finish_order == [2]
    assert game.table is not None and str(game.table) == "2h" and game.table_seat == 2
    assert game.turn == 3


def test_mien_bac_out_on_twos_is_last_and_the_last_holder_takes_the_place_left():
    rules = BAC.replace(cong=False)
    game = position(rules, ["4h 9h", "2h", "5h 6h"], "4h", "2h", leader=0)
    assert game.finish_order == [1]
    game.play("pass")
    game.play("pass")  # the round ends: the lead passes on from seat 1, which is out
    assert game.turn == 2
    game.play("5h")
    game.play("9h")
    assert game.is_over and game.finish_order == [0, 2, 1]
    assert game.scores == [2, -2, 0]


def test_mien_nam_going_out_on_a_two_is_first_place():
    game = position(NAM.replace(cong=False), ["4h 9h", "2h", "5h 6h"], "4h", "2h")
    assert game.finish_order == [1]


# --- free chops -------------------------------------------------------------------------
def test_free_chops_are_offered_to_every_seat_whatever_it_holds():
    hands = ["2h 3h", "Kd 4d", "Qh 5d", "Tc 6d"]
    game = position(NAM, hands, "2h")
    assert game.out_of_turn_seats() == [2, 3]
    assert game.legal_plays(2) == [] and game.legal_plays(3) == []


def test_free_chops_are_not_offered_when_nothing_could_free_chop_the_table():
    game = position(NAM, ["9h 3h", "Kd 4d", "Qh 5d", "Tc 6d"], "9h")
    assert game.out_of_turn_seats() == []


def test_a_free_chop_of_four_pairs_over_four_pairs_needs_a_higher_chain_of_the_same_length():
    hands = ["3s 3c 4s 4c 5s 5c 6s 6c Kh", "7s 7c 8s 8c 9s 9c Ts Tc", "Qh 5d",
             "7d 7h 8d 8h 9d 9h Td Th Jd Jh"]
    game = position(NAM, hands, "3s 3c 4s 4c 5s 5c 6s 6c")
    assert texts(game.legal_plays(2)) == []
    # five pairs do not beat four: only the higher chains of four pairs
    assert texts(game.legal_plays(3)) == ["7d 7h 8d 8h 9d 9h Td Th", "8d 8h 9d 9h Td Th Jd Jh"]
    game.play("7d 7h 8d 8h 9d 9h Td Th", seat=3)
    assert game.turn == 0
    assert chops_of(game) == []  # the round is not over


def test_a_player_may_not_free_chop_its_own_play():
    hands = ["2h 5s 5c 6s 6c 7s 7c 8s 8c", "Kd 4d", "Qh 5d", "Tc 6d"]
    game = position(NAM, hands, "2h")
    assert 0 not in game.out_of_turn_seats() and game.legal_plays(0) == []


def test_a_lone_bomb_led_chops_nothing():
    hands = ["9s 9c 9d 9h 3h", "Kd 4d", "Qh 5d", "Tc 6d"]
    game = position(NAM, hands, "9s 9c 9d 9h", "pass", "pass", "pass")
    assert game.payments == []


def test_chop_pay_each_pays_at_once():
    rules = NAM.replace(chop_pay="each")
    hands = ["2h 4d", "3s 3c 4s 4c 5s 5c Kd", "9s 9c 9d 9h Qd", "Tc Jd"]
    game = position(rules, hands, "2h", C3_LOW)
    assert chops_of(game) == [(0, 1, 2)]
    game.play("9s 9c 9d 9h")
    assert chops_of(game) == [(0, 1, 2), (1, 2, 2)]


def test_chop_payments_count_in_the_scores_at_the_end():
    hands = ["2h 4d", "3s 3c 4s 4c 5s 5c", "9s 9c 9d 9h", "Tc Jd"]
    game = position(NAM.replace(cong=False), hands, "2h", C3_LOW)
    assert game.is_out(1)
    game.play("9s 9c 9d 9h")  # seat 2 out too
    assert game.turn == 3
    game.play("pass")
    game.play("pass")  # round over: the chain of chops is settled
    assert chops_of(game) == [(1, 2, 4)]
    game.play("Tc")
    game.play("pass")
    game.play("Jd")
    assert game.is_over and game.finish_order == [1, 2, 3, 0]
    assert game.scores == [-2, 2 - 4, 1 + 4, -1]
    assert sum(game.scores) == 0


def test_the_end_of_the_hand_ends_the_round_of_chops():
    rules = NAM.replace(cong=False)
    game = position(rules, ["2h", C3_LOW, "8s 9s"], "8s", "2h", C3_LOW, leader=2)
    assert game.is_over and game.finish_order == [0, 1, 2]
    assert chops_of(game) == [(0, 1, 2)]


# --- penalties ----------------------------------------------------------------------------
def test_penalties_count_disjoint_bombs_of_greatest_value_and_twos_as_twos():
    rules = NAM
    game = Game(rules, ["2s 2c 2d 2h 3s 3c 4s 4c 5s 5c 6s 6c", "9h"])
    keys = game.state.hands[0]
    items = penalty_items(keys, rules, played_any=True)
    assert ("4 consecutive pairs 3-6 left", 4) in items
    assert sum(u for what, u in items if what.startswith("2")) == 1 + 1 + 2 + 2


def test_penalty_bomb_as_a_number_keeps_the_old_count():
    rules = Rules.preset("pagat").replace(penalty_bomb=2)
    game = Game(rules, ["3s 3c 3d 3h 4s 4c 5s 5c", "9h"])
    assert sum(u for _, u in penalty_items(game.state.hands[0], rules, True)) == 2 * 2


def test_place_points_set_for_another_number_of_players_are_refused_at_the_deal():
    rules = NAM.replace(place_points=[3, 1, -1, -3])
    with pytest.raises(ValueError, match="place_points"):
        Game(rules, ["3s", "4s", "5s"])
    Game(rules, ["3s", "4s", "5s", "6s"])


# --- instant wins -------------------------------------------------------------------------
FIVE_PAIRS = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c Ah Kd Qh"
RED = "3d 3h 4d 4h 5d 6d 7h 8h 9h Jh Qd Kh Ad"
THREES = "3s 3c 3d 3h 5s 6c 7d 8h 9s Tc Jd Qh Ks"


@pytest.mark.parametrize(("hand", "win"), [(FIVE_PAIRS, "five_pair_chain"),
                                           (RED, "same_colour"), (THREES, "four_threes")])
def test_each_new_instant_win(hand, win):
    game = Game(NAM, ["Ac", hand, "Jc", "Kc"])
    assert game.instant_win == (1, win)
    assert game.is_over and game.scores[1] == 12 and sum(game.scores) == 0


def test_four_threes_only_where_the_opening_names_the_lowest_card():
    hands = ["Ac", THREES, "Jc", "Kc"]
    game = Game(NAM, hands, first_hand=False)
    assert game.instant_win is None
    game = Game(NAM.replace(next_leader="lowest"), hands, first_hand=False)
    assert game.instant_win == (1, "four_threes")


def test_the_claim_order_of_the_new_instant_wins():
    from tienlen.rules import INSTANT_WINS

    assert INSTANT_WINS == ("four_twos", "dragon", "five_pair_chain", "six_pairs",
                            "same_colour", "all_sets", "four_threes")


# --- scores sum to zero, records round-trip -----------------------------------------------
@pytest.mark.parametrize("preset", ["mien-nam", "mien-bac"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_of_the_presets_score_zero_in_sum_and_round_trip(preset, players):
    from tienlen.arena import play_out
    from tienlen.bots import get_bot

    for seed in range(6):
        game = Game.deal(Rules.preset(preset), players, seed=seed)
        play_out(game, [get_bot("greedy", seed=s) for s in range(players)])
        assert game.is_over and sum(game.scores) == 0
        assert sorted(game.finish_order) == list(range(players))
        again = Game.from_record(game.record())
        assert again.record() == game.record() and again.scores == game.scores


# --- what a player is told ------------------------------------------------------------------
def test_the_reasons_name_the_suit_rule_and_the_free_chop():
    game = position(BAC, ["9d 3h", "Td Ts 4c 7s 7d", "Kh", "Qh"], "9d")
    with pytest.raises(IllegalPlay, match="under follow_suit a beat keeps the same suit"):
        game.play("Ts")
    with pytest.raises(IllegalPlay, match="a pair must be of one colour"):
        game.play("7s 7d")
    game = position(NAM, ["2h 3h", "Kd 4d", "Qh 5d", "Tc 6d"], "2h")
    with pytest.raises(IllegalPlay, match=r"only a free chop \(four or more consecutive pairs\)"):
        game.play("Qh", seat=2)
    with pytest.raises(IllegalPlay, match="nobody chops their own play"):
        game.play("3h", seat=0)


def test_the_view_shows_payments_and_places():
    hands = ["3s 9h Qh", "4s Ts", "5s Jh Kh", "8s 8c 8d 8h 2h 3c 4d 5c 6d 7c 9d Jc Kd"]
    game = position(NAM, hands, "3s", "4s", "5s", "pass", "9h", "Ts", "Jh", "Qh")
    view = game.view(2)
    assert view.is_over and view.cong == (3,) and view.finish_order == (1, 0, 2, 3)
    assert view.out == (True, True, False, True)  # seat 2 was left holding cards
    assert sum(p.units for p in view.payments if p.payee == 1) == 9
    assert str(view.payments[0]) == "3 pays 1 2: fourth place pays first"
