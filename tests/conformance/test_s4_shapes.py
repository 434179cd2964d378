"""RULES.md §4: the shapes, sequences that never turn the corner, twos in runs and chains,
triple and quad chains, and every shape as a lead."""

import pytest

from tienlen import Game, IllegalPlay, Play, Rules

PAGAT = Rules.preset("pagat")
VIET = Rules.preset("viet-cong")
CARDRULES = Rules.preset("cardrules")


@pytest.mark.parametrize("text, shape", [
    ("9d", "single"),
    ("9d 9h", "pair"),
    ("9s 9d 9h", "triple"),
    ("9s 9c 9d 9h", "quad"),
    ("4h 5s 6d", "run"),
    ("9c Td Jh Qs Kc Ad", "run"),
    ("6s 6c 7d 7h 8s 8h", "chain"),
    ("3s 3c 4d 4h 5s 5h 6c 6d", "chain"),
])
def test_the_basic_shapes(text, shape):
    assert Play.parse(text, PAGAT).shape == shape


@pytest.mark.parametrize("text", [
    "4h 5s",  # two consecutive ranks are no run
    "6s 6c 7d 7h",  # two consecutive pairs are no chain
    "4h 6s 7d",  # a gap
    "9s 9c 9d 9h 9s",  # five of a kind is nothing even where it could be held
    "6s 6c 7d 8h",  # a pair with loose cards
])
def test_card_sets_that_form_no_combination(text):
    assert Play.parse(text, PAGAT).shape is None
    assert Play.parse(text).shape is None


@pytest.mark.parametrize("text", ["As 2s 3s", "Kd As 2s 3s", "Ah Ad 2s 2c 3s 3c"])
def test_nothing_turns_the_corner(text):
    assert Play.parse(text).shape is None
    assert Play.parse(text, PAGAT).shape is None


def test_a_corner_sequence_is_refused_with_the_reason():
    game = Game(PAGAT, hands=["Kd As 2s 3s 9h", "4s", "5s", "6s"], leader=0, first_hand=False)
    with pytest.raises(IllegalPlay, match="never turn the corner"):
        game.play("Kd As 2s 3s")


def test_with_twos_in_runs_a_two_caps_a_run_and_beats_a_run_to_the_ace():
    assert Play.parse("Jh Qh Kh Ah 2h", PAGAT).shape == "run"
    game = Game(PAGAT, hands=["Ts Jc Qd Kh Ac 3s", "Jd Qs Ks As 2c", "4s", "5s"],
                leader=0, first_hand=False)
    game.play("Jc Qd Kh Ac")
    game.play("Qs Ks As 2c")
    assert str(game.table) == "Qs Ks As 2c"


def test_without_twos_in_runs_runs_stop_at_the_ace():
    rules = PAGAT.replace(twos_in_runs=False)
    assert Play.parse("Jh Qh Kh Ah 2h", rules).shape is None
    assert Play.parse("Jh Qh Kh Ah", rules).shape == "run"
    game = Game(rules, hands=["Qs Ks As 2c", "4s", "5s", "6s"], leader=0, first_hand=False)
    assert "Qs Ks As 2c" not in [str(p) for p in game.legal_plays()]
    with pytest.raises(IllegalPlay, match="a two cannot be part of a run under these rules"):
        game.play("Qs Ks As 2c")


def test_twos_in_chains_default_true_even_where_twos_stay_out_of_runs():
    assert VIET.twos_in_chains and not VIET.twos_in_runs
    assert Play.parse("Ks Kc As Ac 2s 2c", VIET).shape == "chain"
    assert Play.parse("Ks Ac 2s", VIET).shape is None


def test_without_twos_in_chains_a_chain_stops_at_the_aces():
    rules = PAGAT.replace(twos_in_chains=False)
    assert Play.parse("Ks Kc As Ac 2s 2c", rules).shape is None
    assert Play.parse("Qs Qc Ks Kc As Ac", rules).shape == "chain"
    assert Play.parse("Kd Ah 2s", rules).shape == "run"  # runs are a separate option
    game = Game(rules, hands=["Ks Kc As Ac 2s 2c", "4s", "5s", "6s"], leader=0, first_hand=False)
    with pytest.raises(IllegalPlay, match="a two cannot be part of a chain under these rules"):
        game.play("Ks Kc As Ac 2s 2c")


def test_triple_chains_exist_only_where_triple_chains_is_on():
    text = "3s 3c 3d 4s 4c 4d 5s 5c 5d"
    assert Play.parse(text, CARDRULES).shape == "triple_chain"
    assert Play.parse(text, PAGAT).shape is None
    assert Play.parse("3s 3c 3d 4s 4c 4d", CARDRULES).shape is None  # at least three triples
    game = Game(PAGAT, hands=[text + " 9h", "6s", "7s", "8s"], leader=0, first_hand=False)
    with pytest.raises(IllegalPlay, match="chains of triples are not played"):
        game.play(text)


def test_quad_chains_exist_only_where_quad_chains_is_on():
    text = "3s 3c 3d 3h 4s 4c 4d 4h"
    assert Play.parse(text, VIET).shape == "quad_chain"
    assert Play.parse(text, PAGAT).shape is None
    game = Game(PAGAT, hands=[text + " 9h", "6s", "7s", "8s"], leader=0, first_hand=False)
    with pytest.raises(IllegalPlay, match="chains of fours of a kind are not played"):
        game.play(text)


def test_without_rules_a_play_is_classified_with_every_shape_allowed():
    assert Play.parse("Kh Ah 2h").shape == "run"
    assert Play.parse("3s 3c 3d 4s 4c 4d 5s 5c 5d").shape == "triple_chain"
    assert Play.parse("3s 3c 3d 3h 4s 4c 4d 4h").shape == "quad_chain"


@pytest.mark.parametrize("rules, lead, answer", [
    (PAGAT, "5s 5c 5d 5h", "6s 6c 6d 6h"),
    (PAGAT, "5s 5c 6d 6h 7s 7c", "5d 5h 6s 6c 7d 7h"),
    (CARDRULES, "5s 5c 5d 6s 6c 6d 7s 7c 7d", "8s 8c 8d 9s 9c 9d Ts Tc Td"),
    (VIET, "5s 5c 5d 5h 6s 6c 6d 6h", "7s 7c 7d 7h 8s 8c 8d 8h"),
])
def test_every_bomb_shape_may_be_led_and_is_beaten_the_ordinary_way(rules, lead, answer):
    game = Game(rules, hands=[lead + " Ks", answer, "3s", "4s"], leader=0, first_hand=False)
    game.play(lead)
    game.play(answer)
    assert str(game.table) == answer
