"""RULES.md §10: every preset, its options as the table gives them, its chop list, and worked
positions that show what sets each account apart."""

import pytest

from tienlen import Game, IllegalPlay, Rules

NAMES = ["pagat", "parlett", "justus-pang", "kenneth-lu", "viet-cong", "thirteen", "killer",
         "cardrules"]
Q3 = "3s 3c 3d 3h"
C3 = "4s 4c 5s 5c 6s 6c"
C4 = "4s 4c 5s 5c 6s 6c 7s 7c"
C5 = "4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"
QC2 = "4s 4c 4d 4h 5s 5c 5d 5h"
QC3 = QC2 + " 6s 6c 6d 6h"


def texts(moves):
    return sorted(str(m) for m in moves)


def facing(preset, target, answer, **options):
    """Seat 0 (with a spare card) has just played ``target``; seat 1, on turn, holds ``answer``."""
    rules = Rules.preset(preset).replace(**options)
    spares = [c for c in ("Kc", "Kd", "Kh", "Ks", "Qh") if c not in (target + " " + answer).split()]
    game = Game(rules, hands=[f"{target} {spares[0]}", answer, spares[1], spares[2]],
                leader=0, first_hand=False)
    game.play(target)
    return game


def beats(preset, target, bomb):
    return facing(preset, target, bomb).can_play(bomb)


def test_there_is_a_preset_for_every_account():
    assert Rules.presets() == [*NAMES, "mien-nam", "mien-bac"]  # §11's in test_s11


# option -> value per preset, in the order of NAMES (the table of §10, "—" filled in from pagat)
TABLE = {
    "opening": ["contains_lowest", "lowest_single", "contains_lowest", "free", "contains_lowest",
                "contains_lowest", "contains_lowest", "contains_lowest"],
    "opening_may_pass": [False, False, True, False, False, False, False, False],
    "next_leader": ["winner"] * 5 + ["lowest", "winner", "winner"],
    "next_dealer": ["loser"] * 5 + ["rotate", "loser", "loser"],
    "hand_size_three": [13, 13, 13, 17, 13, 13, 13, 13],
    "hand_size_two": [13, 13, 13, 17, 13, 13, 13, 13],
    "odd_card_to_leader": [False, False, False, True, False, False, False, False],
    "twos_in_runs": [True, True, False, True, False, False, False, False],
    "twos_in_chains": [True] * 8,
    "quad_chains": [False, False, False, False, True, False, True, True],
    "triple_chains": [False] * 7 + [True],
    "pass_locks_out": [True] * 6 + [False, True],
    "chop_after_pass": [False, False, True, False, False, False, False, False],
    "stacking": [False, False, True, False, False, False, False, False],
    "instant_wins": [(), (), (), (), ("four_twos",), (), ("four_twos",),
                     ("four_twos", "dragon", "all_sets")],
    "four_twos_bomb": [False] * 7 + [True],
    "end_at": ["last", "last", "last", "first_out", "last", "last", "last", "last"],
    "scoring": ["loser_pays", "loser_pays", "loser_pays", "cards_left", "loser_pays",
                "loser_pays", "loser_pays", "loser_pays"],
    "instant_win_optional": [False] * 7 + [True],
}
DEFAULTS = {
    "suit_order": "standard", "direction": "clockwise", "hand_size_big": 13,
    "double_deck_ties": "reject", "opening_no_chain": False, "chop_out_of_turn": False,
    "trading": "none", "stake": 1, "penalty_two": 0, "red_twos_double": False,
    "penalty_bomb": 0, "penalty_no_play": 0, "instant_win_stake": 2, "session_result": "units",
    # §11: every new option defaults to the old behaviour
    "follow_suit": False, "free_chops": (), "chop_pay": "none", "cong": False,
    "no_two_last": False, "place_points": (),
}
CHOPS = {
    "pagat": "quad > 2; chain:3+ > 2; chain:4+ > 22; chain:5+ > 222",
    "parlett": "quad > 2; chain:3+ > 2; quad > 22; chain:4+ > 22; chain:5+ > 222",
    "justus-pang": "quad > 2; chain:3+ > 2; chain:4+ > 22; chain:5+ > 222",
    "kenneth-lu": "quad > single; quad > pair; chain:3 > 2",
    "viet-cong": "quad > 2; chain:3+ > 2; quad_chain:2 > 22; chain:5+ > 22; quad_chain:3 > 222; "
                 "chain:7+ > 222",
    "thirteen": "chain:3+ > single; quad > single; chain:4+ > 22; chain:6+ > 222",
    "killer": "quad > 2; chain:3+ > 2; quad_chain:2 > 22; chain:4+ > 22; quad_chain:3 > 222; "
              "chain:5+ > 222; quad > chain:3",
    "cardrules": "quad > 2; chain:3+ > 2; chain:4+ > 22; chain:6+ > 222; triple_chain:3 > 2; "
                 "triple_chain:3 > 22; quad_chain:3 > 2; quad_chain:3 > 22; quad_chain:3 > 222; "
                 "chain:4 > chain:3 higher; chain:5 > chain:3 higher; chain:5 > chain:4 higher; "
                 "chain:6 > chain:3 higher; chain:6 > chain:4 higher; chain:6 > chain:5 higher; "
                 "triple_chain:3 > chain:3 higher; triple_chain:3 > triple_chain:3 higher; "
                 "quad_chain:3 > quad higher; quad_chain:3 > chain:3 higher; "
                 "quad_chain:3 > triple_chain:3 higher",
}


@pytest.mark.parametrize("option", sorted(TABLE))
def test_each_preset_sets_the_options_of_the_table(option):
    assert [getattr(Rules.preset(name), option) for name in NAMES] == TABLE[option]


@pytest.mark.parametrize("name", NAMES)
def test_options_not_in_the_table_keep_their_defaults(name):
    rules = Rules.preset(name)
    assert {key: getattr(rules, key) for key in DEFAULTS} == DEFAULTS


@pytest.mark.parametrize("name", NAMES)
def test_each_preset_carries_its_chop_list(name):
    expected = {e.strip() for e in CHOPS[name].split(";")}
    assert {str(e) for e in Rules.preset(name).chops} == expected


def test_a_preset_can_be_changed_option_by_option_in_code_or_a_house_rules_file():
    changed = Rules.preset("viet-cong").replace(stake=5, twos_in_runs=True)
    assert changed.stake == 5 and changed.twos_in_runs and changed.quad_chains
    from_file = Rules.from_toml('preset = "viet-cong"\nstake = 5\ntwos_in_runs = true\n')
    assert from_file == changed
    with pytest.raises(ValueError, match="stacking"):
        Rules.preset("pagat").replace(stackin=True)


# --- pagat ------------------------------------------------------------------------------------
def test_pagat_a_quad_chops_a_two_but_not_an_ace():
    assert beats("pagat", "2h", Q3)
    assert not beats("pagat", "Ah", Q3)


def test_pagat_a_pair_of_twos_falls_to_four_consecutive_pairs_but_not_to_a_quad():
    assert beats("pagat", "2s 2h", C4)
    game = facing("pagat", "2s 2h", Q3)
    with pytest.raises(IllegalPlay, match="four or more consecutive pairs"):
        game.play(Q3)


def test_pagat_twos_may_cap_a_run():
    assert facing("pagat", "Ts Jc Qd", "Jd Qs Kh As 2c").can_play("Qs Kh As")
    assert facing("pagat", "Tc Jc Qd Ks", "Jd Qs Kh As 2c").can_play("Qs Kh As 2c")


# --- parlett --------------------------------------------------------------------------------
def test_parlett_the_first_play_must_be_the_three_of_spades_alone():
    game = Game(Rules.preset("parlett"), hands=["3s 4s 5s 3c", "6h", "7h", "8h"])
    assert texts(game.legal_plays()) == ["3s"]
    with pytest.raises(IllegalPlay, match="must be the lowest card, 3s, on its own"):
        game.play("3s 4s 5s")


def test_parlett_a_quad_chops_a_pair_of_twos():
    assert beats("parlett", "2s 2h", Q3)
    assert not beats("pagat", "2s 2h", Q3)


# --- justus-pang --------------------------------------------------------------------------------
JP = Rules.preset("justus-pang")


def test_justus_pang_the_opener_may_pass_and_the_next_player_must_lead():
    game = Game(JP, hands=["3s 3c 3d 3h 9h", "4s 8d", "5c 7d", "6c Td"])
    assert game.turn == 0 and "pass" in texts(game.legal_plays())
    game.play("pass")
    assert game.turn == 1 and "pass" not in texts(game.legal_plays())
    with pytest.raises(IllegalPlay, match="must lead"):
        game.play("pass")
    game.play("8d")


def test_justus_pang_a_player_who_passed_may_still_chop():
    hands = ["9h 2s Kd", "Ts 3s 3c 3d 3h", "Jc 4s", "Qc 5s"]
    game = Game(JP, hands=hands, leader=0, first_hand=False)
    for play in ("9h", "pass", "Jc", "Qc", "2s"):
        game.play(play)
    assert game.turn == 1 and texts(game.legal_plays()) == [Q3, "pass"]
    pagat = Game(Rules.preset("pagat"), hands=hands, leader=0, first_hand=False)
    for play in ("9h", "pass", "Jc", "Qc", "2s"):
        pagat.play(play)
    assert pagat.turn == 2  # in pagat the passer is locked out


def test_justus_pang_the_last_player_may_stack_higher_plays():
    game = Game(JP, hands=["5s 8s Kh", "6c", "7d", "4h"], leader=0, first_hand=False)
    for play in ("5s", "pass", "pass", "pass"):
        game.play(play)
    assert game.stacking and game.turn == 0
    game.play("8s")
    assert game.stacking and texts(game.legal_plays()) == ["Kh", "pass"]


def test_justus_pang_runs_stop_at_the_ace():
    game = facing("justus-pang", "Tc Jc Qd Ks", "Jd Qs Kh As 2c")
    assert not game.can_play("Qs Kh As 2c")


# --- kenneth-lu ------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["4h", "Ah", "2h", "9d 9h", "2s 2h"])
def test_kenneth_lu_a_quad_beats_any_single_and_any_pair(target):
    assert beats("kenneth-lu", target, Q3)


def test_kenneth_lu_only_exactly_three_pairs_chop_a_two_four_pairs_have_no_power():
    assert beats("kenneth-lu", "2h", C3)
    assert not beats("kenneth-lu", "2h", C4)
    assert not beats("kenneth-lu", "2s 2h", C4)
    assert not beats("kenneth-lu", "2s 2c 2h", C5)
    game = facing("kenneth-lu", "2h", C4)
    with pytest.raises(IllegalPlay, match="three consecutive pairs"):
        game.play(C4)


def test_kenneth_lu_a_quad_does_not_beat_a_triple():
    assert not beats("kenneth-lu", "9s 9d 9h", Q3)


def test_kenneth_lu_seventeen_cards_each_for_three_with_the_odd_card_to_the_leader():
    game = Game.deal(Rules.preset("kenneth-lu"), 3, seed=4)
    assert sorted(game.counts()) == [17, 17, 18] and game.counts()[game.turn] == 18


def test_kenneth_lu_free_opening_and_the_hand_ends_at_the_first_out():
    game = Game(Rules.preset("kenneth-lu"), hands=["3s 9h", "Kh", "5c 6c", "7c 8c"])
    assert game.turn == 0
    game.play("9h")  # free: the 3s need not be in it
    game.play("Kh")
    assert game.is_over and game.finish_order == [1, 0, 2, 3]
    assert game.scores == [-1, 5, -2, -2]


# --- viet-cong -------------------------------------------------------------------------------
def test_viet_cong_a_pair_of_twos_falls_to_five_pairs_not_four():
    assert beats("viet-cong", "2s 2h", C5)
    assert not beats("viet-cong", "2s 2h", C4)
    assert not beats("viet-cong", "2s 2h", Q3)
    game = facing("viet-cong", "2s 2h", C4)
    with pytest.raises(IllegalPlay, match="five or more consecutive pairs"):
        game.play(C4)


def test_viet_cong_a_pair_of_twos_falls_to_two_consecutive_quads():
    assert beats("viet-cong", "2s 2h", QC2)


def test_viet_cong_three_twos_fall_to_three_consecutive_quads_or_seven_pairs():
    assert beats("viet-cong", "2s 2c 2h", QC3)
    assert not beats("viet-cong", "2s 2c 2h", QC2)
    c7 = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9s 9c"
    assert beats("viet-cong", "2s 2c 2h", c7)
    assert not beats("viet-cong", "2s 2c 2h", c7[:-6])  # six pairs


def test_viet_cong_twos_stay_out_of_runs_but_may_end_a_chain():
    rules = Rules.preset("viet-cong")
    assert Game(rules, hands=["Ks Kc As Ac 2s 2c", "3s", "4s", "5s"], leader=0).can_play(
        "Ks Kc As Ac 2s 2c")
    assert not Game(rules, hands=["Ks Ac 2s", "3s", "4s", "5s"], leader=0).can_play("Ks Ac 2s")


def test_viet_cong_four_twos_win_at_once():
    four_twos = "2s 2c 2d 2h 3s 4s 5s 6s 7s 8s 9s Ts Js"
    game = Game(Rules.preset("viet-cong"), hands=["Qs", four_twos, "Qd", "Qh"], leader=0)
    assert game.instant_win == (1, "four_twos")


# --- thirteen --------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["4h", "Kh", "Ah", "2h"])
def test_thirteen_chains_and_quads_beat_any_single(target):
    assert beats("thirteen", target, C3)
    assert beats("thirteen", target, Q3)


def test_thirteen_pairs_of_twos_need_four_pairs_and_three_twos_six():
    assert beats("thirteen", "2s 2h", C4)
    assert not beats("thirteen", "2s 2h", Q3)
    assert not beats("thirteen", "2s 2c 2h", C5)
    assert beats("thirteen", "2s 2c 2h", C5 + " 9s 9c")


def test_thirteen_every_hand_is_opened_by_the_lowest_card():
    game = Game(Rules.preset("thirteen"), hands=["4s 9h", "3s Kh", "5c 6c", "7c 8c"],
                first_hand=False)
    assert game.turn == 1 and texts(game.legal_plays()) == ["3s"]


# --- killer ------------------------------------------------------------------------------------
def test_killer_a_quad_beats_a_three_pair_chain():
    assert beats("killer", "8s 8c 9s 9c Ts Tc", Q3)
    assert not beats("pagat", "8s 8c 9s 9c Ts Tc", Q3)
    assert not beats("killer", "8s 8c 9s 9c Ts Tc Js Jc", Q3)


def test_killer_pairs_of_twos_fall_to_four_pairs_and_three_twos_to_five():
    assert beats("killer", "2s 2h", C4)
    assert beats("killer", "2s 2h", QC2)
    assert beats("killer", "2s 2c 2h", C5)
    assert not beats("killer", "2s 2c 2h", C4)


def test_killer_passers_may_play_again():
    hands = ["5s 8s Ks Ac", "Jd Qd", "6s 9s 3c", "7s Ts 3d"]
    game = Game(Rules.preset("killer"), hands=hands, leader=0, first_hand=False)
    for play in ("5s", "pass", "6s", "7s", "8s"):
        game.play(play)
    assert game.turn == 1 and "Jd" in texts(game.legal_plays())


# --- cardrules ----------------------------------------------------------------------------------
def test_cardrules_five_pairs_beat_a_lower_three_pair_chain_but_not_a_higher_one():
    assert beats("cardrules", "3d 3h 4d 4h 5d 5h", C5)
    game = facing("cardrules", "Ts Tc Js Jc Qs Qc", C5)
    assert not game.can_play(C5)


def test_cardrules_four_twos_beat_anything():
    for target in ("3h 4h 5h 6h 7h", "As Ac Ad Ah", "Qd Qh", "9d 9h Td Th Jd Jh Qd Qh"):
        assert beats("cardrules", target, "2s 2c 2d 2h")


def test_cardrules_three_consecutive_quads_beat_a_lower_quad():
    assert beats("cardrules", "3s 3c 3d 3h", QC3)
    assert not beats("cardrules", "7s 7c 7d 7h", QC3)


def test_cardrules_triple_chains_chop_a_pair_of_twos():
    assert beats("cardrules", "2s 2h", "4s 4c 4d 5s 5c 5d 6s 6c 6d")


def test_cardrules_instant_wins_are_optional():
    dragon = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac Ad"
    game = Game(Rules.preset("cardrules"), hands=["Qs", dragon, "Qd", "Qh"], leader=0)
    assert game.phase == "claim" and texts(game.legal_plays()) == ["claim dragon", "decline"]
