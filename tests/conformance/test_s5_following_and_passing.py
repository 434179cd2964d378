"""RULES.md §5: beating (shape, size, top card), double-pack ties, passing and the lock-out,
chop after pass, the end of a round, stacking, players who went out."""

import pytest

from tienlen import Game, IllegalPlay, Rules

PAGAT = Rules.preset("pagat")
JP = Rules.preset("justus-pang")
KILLER = Rules.preset("killer")


def texts(moves):
    return sorted(str(m) for m in moves)


def position(rules, hands, *plays, leader=0):
    game = Game(rules, hands=hands, leader=leader, first_hand=False)
    for play in plays:
        game.play(play)
    return game


def test_a_pair_with_the_higher_top_suit_beats_a_pair_of_the_same_rank():
    game = position(PAGAT, ["Qc Qd 3s", "Qs Qh 4s", "5s", "6s"], "Qc Qd")
    game.play("Qs Qh")  # the Q of hearts beats the Q of diamonds
    assert str(game.table) == "Qs Qh"


def test_a_pair_with_a_lower_top_suit_does_not_beat():
    game = position(PAGAT, ["Qs Qh 3s", "Qc Qd 4s", "5s", "6s"], "Qs Qh")
    with pytest.raises(IllegalPlay, match="must be a higher pair"):
        game.play("Qc Qd")


def test_runs_settle_on_the_suit_of_their_top_card():
    game = position(PAGAT, ["6h 7h 8h 9c 3s", "6s 7s 8s 9d 4s", "5s", "5c"], "6h 7h 8h 9c")
    assert "6s 7s 8s 9d" in texts(game.legal_plays())
    game = position(PAGAT, ["6s 7s 8s 9d 3s", "6h 7h 8h 9c 4s", "5s", "5c"], "6s 7s 8s 9d")
    assert "6h 7h 8h 9c" not in texts(game.legal_plays())


def test_a_beat_needs_the_same_length():
    game = position(PAGAT, ["4s 5s 6s Th", "7c 8c 9c Tc", "3c", "3d"], "4s 5s 6s")
    assert texts(game.legal_plays()) == ["7c 8c 9c", "8c 9c Tc", "pass"]
    with pytest.raises(IllegalPlay, match="one of the same length"):
        game.play("7c 8c 9c Tc")


def test_a_beat_needs_the_same_shape():
    game = position(PAGAT, ["9s Th", "Kc Kd", "3c", "3d"], "9s")
    with pytest.raises(IllegalPlay, match="can only be beaten by a higher single card"):
        game.play("Kc Kd")


def test_a_play_is_never_compulsory():
    game = position(PAGAT, ["9s Th", "2h", "3c", "3d"], "9s")
    assert texts(game.legal_plays()) == ["2h", "pass"]
    game.play("pass")
    assert game.turn == 2


# --- double_deck_ties (two packs, 5 or more players) -----------------------------------
FIVE = ["7s 7h 3s", "7s 7h 7c 4s", "5s", "6s", "8s"]


def ties(option):
    return PAGAT.replace(double_deck_ties=option)


def test_reject_an_exact_tie_does_not_beat():
    game = position(ties("reject"), ["7h 3s", "7h 4s", "5s", "6s", "8s"], "7h")
    assert texts(game.legal_plays()) == ["pass"]
    with pytest.raises(IllegalPlay, match="an exact tie does not beat"):
        game.play("7h")


def test_reject_a_pair_with_the_same_top_card_does_not_beat():
    game = position(ties("reject"), FIVE, "7s 7h")
    assert texts(game.legal_plays()) == ["pass"]


def test_later_wins_an_exact_tie_beats():
    game = position(ties("later_wins"), ["7h 3s", "7h 4s", "5s", "6s", "8s"], "7h")
    game.play("7h")
    assert game.table_seat == 1


def test_later_wins_a_pair_with_the_same_top_card_beats_whatever_its_other_card():
    game = position(ties("later_wins"), FIVE, "7s 7h")
    assert texts(game.legal_plays()) == ["7c 7h", "7s 7h", "pass"]


def test_next_distinct_compares_the_next_highest_cards_and_copies_never_beat():
    game = position(ties("next_distinct"), FIVE, "7s 7h")
    assert texts(game.legal_plays()) == ["7c 7h", "pass"]
    single = position(ties("next_distinct"), ["7h 3s", "7h 4s", "5s", "6s", "8s"], "7h")
    assert texts(single.legal_plays()) == ["pass"]


def test_next_distinct_settles_runs_with_the_same_top_card_on_the_next_highest_card():
    hands = ["5s 6s 7h 3s", "5c 6c 7h 4s", "9s", "8s", "Ts"]
    game = position(ties("next_distinct"), hands, "5s 6s 7h")
    assert texts(game.legal_plays()) == ["5c 6c 7h", "pass"]
    # the next-highest card decides before the lowest: 6s is below 6c, whatever the fives
    hands = ["5s 6c 7h 3s", "5c 6s 7h 4s", "9s", "8s", "Ts"]
    game = position(ties("next_distinct"), hands, "5s 6c 7h")
    assert texts(game.legal_plays()) == ["pass"]


# --- passing --------------------------------------------------------------------------
LOCK = ["5s 8s Ks Ac", "Jd Qd", "6s 9s 3c", "7s Ts 3d"]


def test_a_player_who_passes_takes_no_further_part_in_the_round():
    game = position(PAGAT, LOCK, "5s", "pass", "6s", "7s", "8s")
    assert game.turn == 2  # seat 1 passed and is skipped although it holds higher cards
    game.play("9s")
    game.play("Ts")
    game.play("Ks")
    assert game.turn == 2


def test_without_pass_locks_out_a_passer_plays_again_when_the_turn_comes_back():
    game = position(PAGAT.replace(pass_locks_out=False), LOCK, "5s", "pass", "6s", "7s", "8s")
    assert game.turn == 1
    game.play("Jd")
    assert game.table_seat == 1


def test_killer_passers_may_play_again():
    game = position(KILLER, LOCK, "5s", "pass", "6s", "7s", "8s")
    assert game.turn == 1


def test_the_round_ends_when_all_others_have_passed_and_the_last_player_leads_anything():
    game = position(PAGAT, ["5s 8s Ks", "Jd Qd", "6s 9s", "7s Ts"], "Ks", "pass", "pass", "pass")
    assert game.table is None and game.turn == 0
    assert texts(game.legal_plays()) == ["5s", "8s"]


# --- chop_after_pass --------------------------------------------------------------------
CAP = ["9h 2s Kd", "Ts 3s 3c 3d 3h", "Jc 4s", "Qc 5s"]


def test_without_chop_after_pass_a_passer_cannot_chop_a_later_two():
    game = position(PAGAT, CAP, "9h", "pass", "Jc", "Qc", "2s")
    assert game.turn == 2  # seat 1 holds a quad but passed
    assert 1 not in game.out_of_turn_seats()


def test_with_chop_after_pass_a_passer_gets_a_turn_to_chop_a_target():
    game = position(PAGAT.replace(chop_after_pass=True), CAP, "9h", "pass", "Jc", "Qc", "2s")
    assert game.turn == 1
    assert texts(game.legal_plays()) == ["3s 3c 3d 3h", "pass"]
    game.play("3s 3c 3d 3h")
    assert game.table_seat == 1


def test_a_passer_with_chop_after_pass_may_only_chop_not_beat_in_the_ordinary_way():
    hands = ["9h 2s Kd", "Ts 2h 3c", "Jc 4s", "Qc 5s"]
    game = position(JP, hands, "9h", "pass", "Jc", "Qc", "2s")
    assert game.turn == 1
    assert texts(game.legal_plays()) == ["pass"]  # the turn comes whatever it holds
    with pytest.raises(IllegalPlay, match="you passed this round: you may only chop"):
        game.play("2h")


def test_chop_after_pass_gives_no_turn_against_a_play_that_nothing_chops():
    game = position(JP, CAP, "9h", "pass", "Jc", "Qc")
    assert game.turn == 0


# --- stacking ----------------------------------------------------------------------------
STACK = ["5s 8s Tc Kh", "6c 9h", "7d Jd", "4h Qd"]


def test_without_stacking_the_last_player_clears_the_pile():
    game = position(PAGAT, STACK, "8s", "9h", "Jd", "Qd", "pass", "pass", "pass")
    assert game.table is None and game.turn == 3 and not game.stacking


def test_with_stacking_the_last_player_may_go_on_with_higher_plays_of_the_same_shape():
    rules = PAGAT.replace(stacking=True)
    game = position(rules, STACK, "5s", "pass", "pass", "pass")
    assert game.stacking and game.turn == 0
    assert texts(game.legal_plays()) == ["8s", "Kh", "Tc", "pass"]
    game.play("8s")
    assert game.stacking and game.turn == 0  # the others passed and may answer only with a chop
    assert texts(game.legal_plays()) == ["Kh", "Tc", "pass"]
    game.play("pass")  # the pass clears the pile and gives a free lead
    assert not game.stacking and game.table is None and game.turn == 0


def test_after_a_stack_a_passer_may_answer_only_with_a_chop():
    hands = ["5s 2s Kh", "3s 3c 3d 3h Ac", "7d Jd", "4h Qd"]
    game = position(JP, hands, "5s", "pass", "pass", "pass")
    game.play("2s")  # stacked onto the 5s
    assert game.turn == 1
    assert texts(game.legal_plays()) == ["3s 3c 3d 3h", "pass"]
    game.play("3s 3c 3d 3h")
    assert game.table_seat == 1


# --- players who went out ---------------------------------------------------------------
def test_a_player_who_has_played_out_is_skipped_and_the_lead_passes_on():
    game = position(PAGAT, ["5s 6s", "Ad", "7d 8d", "9h Th"], "5s", "Ad", "pass", "pass", "pass")
    assert game.finish_order == [1]
    assert game.table is None and game.turn == 2
    game.play("7d")
    game.play("9h")
    assert game.turn == 0  # seat 1 is out


def test_killer_stack_of_a_two_gives_every_other_player_a_turn_to_chop_it():
    # §5 resolution: without lock-out, a stacked chop target is answered by every other player
    killer = Rules.preset("killer").replace(stacking=True)
    hands = ["5s 2h Kh", "3s 3c 3d 3h Ac", "7d Jd", "4h Qd"]
    game = position(killer, hands, "5s", "pass", "pass", "pass")
    assert game.stacking and game.turn == 0
    game.play("2h")
    assert game.turn == 1 and texts(game.legal_plays()) == ["3s 3c 3d 3h", "pass"]
    game.play("pass")
    assert game.turn == 2 and texts(game.legal_plays()) == ["pass"]
    game.play("pass")
    game.play("pass")
    assert game.turn == 0 and game.stacking


def test_killer_stack_chopped_by_a_quad():
    killer = Rules.preset("killer").replace(stacking=True)
    hands = ["5s 2h Kh", "3s 3c 3d 3h Ac", "7d Jd", "4h Qd"]
    game = position(killer, hands, "5s", "pass", "pass", "pass", "2h")
    game.play("3s 3c 3d 3h")
    assert game.table_seat == 1


def test_a_stack_that_is_no_chop_target_is_not_answered():
    killer = Rules.preset("killer").replace(stacking=True)
    game = position(killer, STACK, "5s", "pass", "pass", "pass", "8s")
    assert game.stacking and game.turn == 0


def test_with_lock_out_and_no_chop_after_pass_nobody_answers_a_stack():
    rules = PAGAT.replace(stacking=True)
    hands = ["5s 2h Kh", "3s 3c 3d 3h Ac", "7d Jd", "4h Qd"]
    game = position(rules, hands, "5s", "pass", "pass", "pass", "2h")
    assert game.stacking and game.turn == 0
