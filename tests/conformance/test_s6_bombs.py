"""RULES.md §6: bombs (chop entries, their patterns and targets, `higher`), a bomb as the play to
beat, chopping out of turn, four twos."""

import pytest

from tienlen import Game, IllegalPlay, Rules

PAGAT = Rules.preset("pagat")
SPARES = ("Kc", "Kd", "Kh", "Ks")
Q3 = "3s 3c 3d 3h"
C3 = "4s 4c 5s 5c 6s 6c"  # three consecutive pairs
C4 = "4s 4c 5s 5c 6s 6c 7s 7c"
C5 = "4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"


def texts(moves):
    return sorted(str(m) for m in moves)


def facing(rules, target, answer, spare="Kc"):
    """Seat 0 has just played ``target``; seat 1, on turn, holds ``answer``."""
    others = [c for c in SPARES if c != spare]
    game = Game(rules, hands=[f"{target} {spare}", answer, others[0], others[1]],
                leader=0, first_hand=False)
    game.play(target)
    return game


def beats(rules, target, bomb):
    return facing(rules, target, bomb).can_play(bomb)


# --- the pagat list: quad > 2; chain:3+ > 2; chain:4+ > 22; chain:5+ > 222 ----------------
def test_a_quad_chops_a_single_two():
    game = facing(PAGAT, "2h", Q3)
    game.play(Q3)
    assert game.table is not None and game.table.shape == "quad"


def test_a_quad_does_not_chop_an_ace():
    game = facing(PAGAT, "Ah", Q3)
    assert texts(game.legal_plays()) == ["pass"]
    with pytest.raises(IllegalPlay, match="can only be beaten by a higher single card"):
        game.play(Q3)


def test_three_or_more_consecutive_pairs_chop_a_single_two():
    assert beats(PAGAT, "2h", C3)
    assert beats(PAGAT, "2h", C4)


def test_a_pair_of_twos_falls_to_four_consecutive_pairs_but_not_to_three_or_a_quad():
    assert beats(PAGAT, "2s 2h", C4)
    assert beats(PAGAT, "2s 2h", C5)
    assert not beats(PAGAT, "2s 2h", C3)
    game = facing(PAGAT, "2s 2h", Q3)
    with pytest.raises(IllegalPlay, match="four or more consecutive pairs"):
        game.play(Q3)


def test_three_twos_fall_to_five_consecutive_pairs_but_not_to_four():
    assert beats(PAGAT, "2s 2c 2h", C5)
    assert not beats(PAGAT, "2s 2c 2h", C4)


def test_bombs_do_not_break_the_shape_rule_against_non_targets():
    assert not beats(PAGAT, "Ad Ah", C3)  # a pair of aces is no target
    assert not beats(PAGAT, "9h Th Jh", Q3)


def test_a_bomb_needs_all_its_cards_in_hand():
    game = facing(PAGAT, "2h", "3s 3c 3d 9h")
    with pytest.raises(IllegalPlay, match="you do not hold 3h"):
        game.play(Q3)


# --- once down, a bomb is the play to beat --------------------------------------------------
def test_a_quad_that_chopped_a_two_is_beaten_by_a_higher_quad_only():
    hands = ["2h Kc", "3s 3c 3d 3h Kd", "5s 5c 5d 5h", "4s 4c 4d 4h"]
    game = Game(PAGAT, hands=hands, leader=0, first_hand=False)
    game.play("2h")
    game.play(Q3)
    assert texts(game.legal_plays()) == ["5s 5c 5d 5h", "pass"]
    game.play("pass")
    assert texts(game.legal_plays()) == ["4s 4c 4d 4h", "pass"]


def test_a_chain_that_chopped_twos_is_beaten_only_by_a_higher_chain_of_the_same_length():
    hands = ["2s 2h Kc", C4 + " Kd", "8d 8h 9s 9c Ts Tc Js Jc", "8s 8c 9d 9h Td Th Jd Jh Qs Qc"]
    game = Game(PAGAT, hands=hands, leader=0, first_hand=False)
    game.play("2s 2h")
    game.play(C4)
    game.play("8d 8h 9s 9c Ts Tc Js Jc")
    assert "8s 8c 9d 9h Td Th Jd Jh Qs Qc" not in texts(game.legal_plays())
    assert "9d 9h Td Th Jd Jh Qs Qc" in texts(game.legal_plays())


# --- patterns and targets --------------------------------------------------------------------
def test_target_single_and_pair_mean_any_single_and_any_pair():
    rules = PAGAT.replace(chops="quad > single; quad > pair")
    assert beats(rules, "9h", Q3)
    assert beats(rules, "9d 9h", Q3)
    assert not beats(rules, "9s 9d 9h", Q3)


def test_an_exact_chain_pattern_takes_only_that_many_pairs():
    rules = PAGAT.replace(chops="chain:4 > 22")
    assert beats(rules, "2s 2h", C4)
    assert not beats(rules, "2s 2h", C5)


def test_an_or_more_chain_pattern_takes_longer_chains_too():
    rules = PAGAT.replace(chops="chain:4+ > 22")
    assert beats(rules, "2s 2h", C4)
    assert beats(rules, "2s 2h", C5)


def test_triple_chain_bombs():
    rules = PAGAT.replace(triple_chains=True, chops="triple_chain:3 > 22")
    tc3 = "4s 4c 4d 5s 5c 5d 6s 6c 6d"
    assert beats(rules, "2s 2h", tc3)
    assert not beats(rules.replace(triple_chains=False), "2s 2h", tc3)


def test_quad_chain_bombs_take_exactly_n_consecutive_quads():
    rules = PAGAT.replace(quad_chains=True, chops="quad_chain:2 > 22")
    qc2 = "4s 4c 4d 4h 5s 5c 5d 5h"
    assert beats(rules, "2s 2h", qc2)
    assert not beats(rules, "2s 2h", qc2 + " 6s 6c 6d 6h")
    assert not beats(rules.replace(quad_chains=False), "2s 2h", qc2)


def test_a_bomb_pattern_may_be_a_target():
    rules = PAGAT.replace(chops="quad > chain:3")
    assert beats(rules, "Ts Tc Js Jc Qs Qc", Q3)  # any quad, whatever the ranks
    assert not beats(rules, "9s 9c Ts Tc Js Jc Qs Qc", Q3)


def test_higher_requires_the_bombs_top_card_to_beat_the_targets():
    rules = PAGAT.replace(chops="chain:4 > chain:3 higher")
    assert beats(rules, "3d 3h 4d 4h 5d 5h", C4)
    assert not beats(rules, "8s 8c 9s 9c Ts Tc", C4)
    no_higher = PAGAT.replace(chops="chain:4 > chain:3")
    assert beats(no_higher, "8s 8c 9s 9c Ts Tc", C4)


def test_the_reason_names_the_bombs_that_would_chop():
    game = facing(PAGAT, "2s 2c 2h", Q3)
    with pytest.raises(IllegalPlay, match="five or more consecutive pairs"):
        game.play(Q3)


# --- four twos ----------------------------------------------------------------------------
FOUR_TWOS = "2s 2c 2d 2h"


@pytest.mark.parametrize("target", ["3h 4h 5h 6h 7h", "9h", "Qd Qh", "As Ac Ad Ah",
                                    "4d 4h 5d 5h 6d 6h 7d 7h 8d 8h"])
def test_with_four_twos_bomb_four_twos_beat_anything(target):
    assert beats(PAGAT.replace(four_twos_bomb=True), target, FOUR_TWOS)


@pytest.mark.parametrize("target", ["3h 4h 5h 6h 7h", "9h", "Qd Qh",
                                    "4d 4h 5d 5h 6d 6h 7d 7h 8d 8h"])
def test_without_four_twos_bomb_four_twos_keep_to_the_shape_rule(target):
    assert not beats(PAGAT, target, FOUR_TWOS)


def test_without_four_twos_bomb_four_twos_still_beat_a_lower_quad_as_a_quad():
    assert beats(PAGAT, "As Ac Ad Ah", FOUR_TWOS)


# --- chop_out_of_turn -------------------------------------------------------------------------
OOT = PAGAT.replace(chop_out_of_turn=True)
OOT_HANDS = ["2h 9c Kc", "Ts Jc", "3s 3c 3d 3h 8c", "5s 5c 5d 5h 8d"]


def oot_game(rules=OOT, hands=OOT_HANDS):
    game = Game(rules, hands=hands, leader=0, first_hand=False)
    game.play("2h")
    return game


def test_a_bomb_may_be_dropped_out_of_turn_the_moment_its_target_is_played():
    game = oot_game()
    assert game.turn == 1
    assert texts(game.legal_plays(2)) == [Q3]
    game.play(Q3, seat=2)
    assert game.table_seat == 2 and str(game.table) == Q3


def test_after_an_out_of_turn_chop_the_rotation_resumes_after_the_chopper():
    game = oot_game()
    game.play("5s 5c 5d 5h", seat=3)
    assert game.turn == 0  # seats 1 and 2 are passed over, not passed
    game.play("pass")
    assert game.turn == 1 and game.passed == [True, False, False, False]


def test_the_first_in_turn_order_after_the_target_has_priority():
    game = oot_game()
    assert game.out_of_turn_seats() == [2, 3]
    hands = ["9c Kc 3s 3c 3d 3h", "2h Jc", "Ts 8h", "5s 5c 5d 5h 8d"]
    game = Game(OOT, hands=hands, leader=1, first_hand=False)
    game.play("2h")  # seat 1's two: seat 2 is on turn, then 3 and 0 may chop out of turn
    assert game.turn == 2
    assert game.out_of_turn_seats() == [3, 0]


def test_the_chance_closes_with_the_next_action():
    game = oot_game()
    game.play("pass")  # seat 1
    assert game.turn == 2
    assert game.legal_plays(3) == []
    with pytest.raises(IllegalPlay, match="must come the moment its target is played"):
        game.play("5s 5c 5d 5h", seat=3)
    assert game.table_seat == 0


def test_the_seat_on_turn_chops_in_its_turn_not_out_of_it():
    hands = ["2h 9c Kc", "3s 3c 3d 3h", "Ts 8c", "5s 8d"]
    game = oot_game(hands=hands)
    assert game.out_of_turn_seats() == []
    assert Q3 in texts(game.legal_plays(1))


def test_a_player_who_passed_may_not_chop_out_of_turn():
    hands = ["8h 2h Kc", "Ts Jc", "9s 9h", "5s 5c 5d 5h 8d"]
    game = Game(OOT, hands=hands, leader=0, first_hand=False)
    for play in ("8h", "Ts", "pass", "pass", "2h"):
        game.play(play)
    # seat 3 passed this round; seat 1 is on turn, seat 2 passed too
    assert game.turn == 1 and game.out_of_turn_seats() == []
    with pytest.raises(IllegalPlay, match="has passed this round and may not chop"):
        game.play("5s 5c 5d 5h", seat=3)


def test_with_chop_after_pass_a_passer_may_chop_out_of_turn():
    hands = ["8h 2h Kc", "Ts Jc", "9s 9h", "5s 5c 5d 5h 8d"]
    game = Game(OOT.replace(chop_after_pass=True), hands=hands, leader=0, first_hand=False)
    for play in ("8h", "Ts", "pass", "pass", "2h"):
        game.play(play)
    assert game.out_of_turn_seats() == [3]
    game.play("5s 5c 5d 5h", seat=3)
    assert game.table_seat == 3


def test_without_chop_out_of_turn_only_the_seat_on_turn_plays():
    game = oot_game(rules=PAGAT)
    assert game.legal_plays(2) == [] and game.out_of_turn_seats() == []
    with pytest.raises(IllegalPlay, match="it is seat 1's turn, not seat 2's"):
        game.play(Q3, seat=2)


def test_no_chop_out_of_turn_against_a_play_that_is_no_target():
    hands = ["Ah 9c Kc", "Ts Jc", "3s 3c 3d 3h 8c", "5s 5c 5d 5h 8d"]
    game = Game(OOT, hands=hands, leader=0, first_hand=False)
    game.play("Ah")
    assert game.out_of_turn_seats() == [] and game.legal_plays(2) == []


def test_four_twos_make_no_play_a_target_for_passers_or_out_of_turn_chops():
    # §6 resolution: four twos chop only for the seat on turn
    rules = PAGAT.replace(four_twos_bomb=True, chop_after_pass=True, chop_out_of_turn=True)
    game = Game(rules, ["5s 9h", "6s Kd", "2s 2c 2d 2h 7s", "8s Qd"], leader=0, first_hand=False)
    game.play("5s")
    assert game.out_of_turn_seats() == [] and game.legal_plays(2) == []
    game.play("6s")
    game.play("pass", seat=2)  # seat 2 passes
    game.play("8s")
    game.play("9h")
    assert game.turn == 1  # seat 2 passed and gets no chop-or-pass turn on the nine
    game.play("Kd")
    assert game.turn == 3  # nor on a king: four twos make no play a target
