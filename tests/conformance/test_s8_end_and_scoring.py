"""RULES.md §8: the end of a hand (last or first out), scoring schemes, penalties, the instant-win
stake and the session result."""

import pytest

from tienlen import Game, Rules, Session

PAGAT = Rules.preset("pagat")
KLU = Rules.preset("kenneth-lu")


def played(rules, hands, plays, leader=0):
    game = Game(rules, hands=hands, leader=leader, first_hand=False)
    for play in plays:
        game.play(play)
    return game


def play_out(game):
    while not game.is_over:
        moves = game.legal_plays()
        cards = [m for m in moves if not m.is_pass]
        game.play(cards[0] if cards else moves[0])
    return game


# seat 1 goes out first; under end_at "last" seat 0, then seat 2 follow and seat 3 is left
LONG_HANDS = ["3s 9h Kd", "4s", "5s Th Jh 2d", "6s 7s 8s Qc"]
LONG_PLAYS = ["3s", "4s", "5s", "6s", "9h", "Th", "Qc", "Kd", "2d", "pass", "Jh"]


def test_end_at_last_play_goes_on_until_one_player_holds_cards():
    game = played(PAGAT, LONG_HANDS, LONG_PLAYS[:2])
    assert not game.is_over and game.turn == 2
    game = played(PAGAT, LONG_HANDS, LONG_PLAYS)
    assert game.is_over and game.finish_order == [1, 0, 2, 3]
    assert game.counts() == [0, 0, 0, 2]


def test_end_at_first_out_the_hand_ends_when_someone_goes_out():
    game = played(PAGAT.replace(end_at="first_out"), LONG_HANDS, LONG_PLAYS[:2])
    assert game.is_over and game.winner == 1


def test_first_out_the_others_place_by_cards_left_ties_in_turn_order_after_the_winner():
    hands = ["3s 9h Kd", "4s Jc Jd", "5s", "6s 7c 8c"]
    game = played(KLU, hands, ["3s", "4s", "5s"])
    assert game.counts() == [2, 2, 0, 3]
    assert game.finish_order == [2, 0, 1, 3]


def test_loser_pays_the_last_player_pays_the_stake_to_each_other_player():
    assert played(PAGAT, LONG_HANDS, LONG_PLAYS).scores == [1, 1, 1, -3]
    rules = PAGAT.replace(stake=3)
    assert played(rules, LONG_HANDS, LONG_PLAYS).scores == [3, 3, 3, -9]


def test_cards_left_each_other_player_pays_the_winner_for_each_card_held():
    hands = ["3s 9h Kd", "4s Jc Jd", "5s", "6s 7c 8c"]
    assert played(KLU, hands, ["3s", "4s", "5s"]).scores == [-2, -2, 7, -3]
    rules = KLU.replace(stake=2)
    assert played(rules, hands, ["3s", "4s", "5s"]).scores == [-4, -4, 14, -6]


def test_cards_left_counts_the_cards_held_when_the_winner_went_out():
    # the hand plays on to the last, but the payment is fixed when seat 1 went out
    rules = PAGAT.replace(scoring="cards_left")
    assert played(rules, LONG_HANDS, LONG_PLAYS).scores == [-2, 10, -4, -4]


def test_scoring_none_gives_finish_order_only():
    rules = PAGAT.replace(scoring="none", penalty_two=2, penalty_no_play=3)
    game = played(rules, LONG_HANDS, LONG_PLAYS)
    assert game.finish_order == [1, 0, 2, 3] and game.scores == [0, 0, 0, 0]


# --- penalties, paid to the winner ---------------------------------------------------------
FIRST_OUT = PAGAT.replace(end_at="first_out")


def penalty_delta(rules, hands, plays):
    """Per seat, what the penalty options change against the same hand without them."""
    base = rules.replace(penalty_two=0, red_twos_double=False, penalty_bomb=0, penalty_no_play=0)
    with_pen = played(rules, hands, plays).scores
    without = played(base, hands, plays).scores
    assert sum(with_pen) == 0
    return [a - b for a, b in zip(with_pen, without, strict=True)]


TWOS_HANDS = ["3s", "2h 2s 4c", "2d 5c 5d", "6c 7c 8c"]


def test_penalty_two_for_each_two_left_in_hand():
    rules = FIRST_OUT.replace(penalty_two=2)
    assert penalty_delta(rules, TWOS_HANDS, ["3s"]) == [6, -4, -2, 0]


def test_red_twos_double_makes_the_two_of_hearts_and_diamonds_cost_double():
    rules = FIRST_OUT.replace(penalty_two=2, red_twos_double=True)
    assert penalty_delta(rules, TWOS_HANDS, ["3s"]) == [10, -6, -4, 0]


def test_penalty_bomb_for_each_quad_and_chain_of_three_or_more_pairs_left():
    hands = ["3s", "4s 4c 4d 4h", "5c 5d 6c 6d 7c 7d 9s", "8c 8d 9c 9d Tc"]
    rules = FIRST_OUT.replace(penalty_bomb=5)
    assert penalty_delta(rules, hands, ["3s"]) == [10, -5, -5, 0]  # two pairs are no bomb


def test_penalty_no_play_for_a_player_who_never_put_down_a_card():
    hands = ["3s 9s", "4s 8c", "5c 5d", "6c 7c"]
    plays = ["3s", "4s", "pass", "6c", "9s"]  # seat 2 never plays
    rules = FIRST_OUT.replace(penalty_no_play=4)
    assert penalty_delta(rules, hands, plays) == [4, 0, -4, 0]


def test_penalties_count_the_cards_held_when_the_hand_ends():
    # seat 0 is out first; seat 1 then plays its two and goes out; seat 2 keeps the 2d
    rules = PAGAT.replace(penalty_two=2)
    game = played(rules, ["3s", "4s 5d", "2d 6s"], ["3s", "4s", "pass", "5d"])
    assert game.finish_order == [0, 1, 2]
    assert game.scores == [1 + 2, 1, -2 - 2]


def test_penalties_add_to_cards_left_scoring():
    rules = KLU.replace(penalty_two=1)
    hands = ["3s 9h Kd", "4s Jc 2d", "5s", "6s 7c 8c"]
    assert played(rules, hands, ["3s", "4s", "5s"]).scores == [-2, -3, 8, -3]


def test_an_instant_winner_is_paid_the_instant_win_stake_by_each_other_player():
    four_twos = "2s 2c 2d 2h 3s 4s 5s 6s 7s 8s 9s Ts Js"
    rules = Rules.preset("viet-cong").replace(instant_win_stake=3, stake=7)
    game = Game(rules, hands=["Qs", four_twos, "Qd", "Qh"], leader=0)
    assert game.scores == [-3, 9, -3, -3]


# --- sessions ------------------------------------------------------------------------------
def session_of(rules, hands=4, seed=13):
    session = Session(rules, players=4, seed=seed)
    play_out(session.game)
    for _ in range(hands - 1):
        play_out(session.next_hand())
    return session


def test_session_result_units_is_the_sum_of_the_hands_scores():
    session = session_of(PAGAT.replace(stake=2))
    totals = [sum(g.scores[s] for g in session.games) for s in range(4)]
    assert session.totals == totals and session.result == totals
    assert sum(totals) == 0 and any(totals)


def test_session_result_first_places_counts_the_hands_won():
    session = session_of(PAGAT.replace(session_result="first_places"))
    wins = [sum(g.winner == s for g in session.games) for s in range(4)]
    assert session.first_places == wins and session.result == wins
    assert sum(session.result) == 4
    assert session.result != session.totals


@pytest.mark.parametrize("players", [2, 3, 5])
def test_scores_always_sum_to_zero(players):
    rules = PAGAT.replace(penalty_two=2, red_twos_double=True, penalty_bomb=3, penalty_no_play=1)
    for seed in range(3):
        game = play_out(Game.deal(rules, players, seed=seed))
        assert sum(game.scores) == 0
