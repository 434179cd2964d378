"""RULES.md §3: who leads, the opening play, the opener's pass, chains on the opening, later leaders."""

import pytest

from tienlen import Game, IllegalPlay, Rules, Session

PAGAT = Rules.preset("pagat")
HANDS = ["5c 9h Kd", "3s 3c 4d 5s 6h", "4s 7c 8c", "Ts Js Qs"]  # seat 1 holds 3s


def texts(moves):
    return sorted(str(m) for m in moves)


def play_out(game):
    while not game.is_over:
        moves = game.legal_plays()
        plays = [m for m in moves if not m.is_pass]
        game.play(plays[0] if plays else moves[0])
    return game


def test_the_holder_of_the_three_of_spades_leads_the_first_hand():
    assert Game(PAGAT, hands=HANDS).turn == 1


def test_when_the_three_of_spades_was_not_dealt_the_lowest_card_dealt_leads():
    game = Game(PAGAT, hands=["5c 9h", "4d 6h", "3c 7c", "Ts Js"])
    assert game.turn == 2
    assert all("3c" in str(p) for p in game.legal_plays())


@pytest.mark.parametrize("dealer, leader", [(0, 1), (2, 4), (4, 1)])
def test_with_two_packs_the_first_holder_of_the_lowest_card_in_dealing_order_leads(dealer, leader):
    hands = ["5c 9h", "3s 6h", "4s 7c", "4d 8c", "3s 9d"]  # seats 1 and 4 both hold a 3s
    game = Game(PAGAT, hands=hands, dealer=dealer)
    assert game.turn == leader


def test_lowest_single_the_first_play_is_the_lowest_card_alone():
    game = Game(PAGAT.replace(opening="lowest_single"), hands=HANDS)
    assert texts(game.legal_plays()) == ["3s"]
    with pytest.raises(IllegalPlay, match="lowest card, 3s, on its own"):
        game.play("3s 3c")


def test_contains_lowest_the_first_play_is_any_combination_with_the_lowest_card():
    game = Game(PAGAT, hands=HANDS)
    assert texts(game.legal_plays()) == ["3s", "3s 3c", "3s 4d 5s", "3s 4d 5s 6h"]
    with pytest.raises(IllegalPlay, match="must contain the lowest card, 3s"):
        game.play("4d 5s 6h")
    game.play("3s 4d 5s")
    assert game.table is not None and str(game.table) == "3s 4d 5s"


def test_free_opening_the_leader_may_lead_anything():
    game = Game(PAGAT.replace(opening="free"), hands=HANDS)
    assert game.turn == 1
    assert "4d 5s 6h" in texts(game.legal_plays())
    game.play("6h")
    assert game.turn == 2


def test_the_opening_rule_binds_only_the_first_play_of_the_hand():
    game = Game(PAGAT.replace(opening="lowest_single"), hands=HANDS)
    game.play("3s")
    for _ in range(3):
        game.play("pass")
    assert game.turn == 1
    assert "4d 5s 6h" in texts(game.legal_plays())


def test_later_hands_led_by_the_lowest_holder_are_free_unless_next_leader_is_lowest():
    free = Game(PAGAT, hands=HANDS, first_hand=False)
    assert free.turn == 1 and "6h" in texts(free.legal_plays())
    bound = Game(PAGAT.replace(next_leader="lowest"), hands=HANDS, first_hand=False)
    assert bound.turn == 1 and "6h" not in texts(bound.legal_plays())


def test_the_opener_may_not_pass_without_opening_may_pass():
    game = Game(PAGAT, hands=HANDS)
    assert "pass" not in texts(game.legal_plays())
    with pytest.raises(IllegalPlay, match="cannot pass"):
        game.play("pass")


def test_with_opening_may_pass_the_opener_may_pass_and_the_next_player_leads_freely():
    game = Game(PAGAT.replace(opening_may_pass=True), hands=HANDS)
    assert "pass" in texts(game.legal_plays())
    game.play("pass")
    assert game.turn == 2 and game.table is None
    assert "pass" not in texts(game.legal_plays())
    with pytest.raises(IllegalPlay, match="the opener passed, so you must lead"):
        game.play("pass")
    game.play("7c")  # free: no need to hold or play the 3s


def test_the_openers_pass_counts_as_a_pass_in_that_round():
    game = Game(PAGAT.replace(opening_may_pass=True), hands=HANDS)
    game.play("pass")  # seat 1
    game.play("7c")  # seat 2 leads
    game.play("Js")  # seat 3
    game.play("Kd")  # seat 0
    assert game.turn == 2  # seat 1 passed in this round and is locked out
    game.play("pass")
    game.play("pass")
    assert game.table is None and game.turn == 0


def test_opening_may_pass_is_only_for_the_very_first_lead():
    game = Game(PAGAT.replace(opening_may_pass=True), hands=HANDS)
    game.play("3s")
    for _ in range(3):
        game.play("pass")
    assert game.turn == 1 and game.table is None
    assert "pass" not in texts(game.legal_plays())


CHAIN_HANDS = ["3s 3c 4s 4c 5s 5c 9h", "6d 7d", "8d 9d", "Th Jh"]


@pytest.mark.parametrize("first_hand", [True, False])
def test_opening_no_chain_forbids_a_chain_of_pairs_as_the_first_play(first_hand):
    rules = PAGAT.replace(opening_no_chain=True)
    game = Game(rules, hands=CHAIN_HANDS, leader=0, first_hand=first_hand)
    assert "3s 3c 4s 4c 5s 5c" not in texts(game.legal_plays())
    with pytest.raises(IllegalPlay, match="a chain of pairs may not open the hand"):
        game.play("3s 3c 4s 4c 5s 5c")
    game.play("3s 4s 5s")  # other combinations are fine


def test_without_opening_no_chain_a_chain_may_open_the_hand():
    game = Game(PAGAT, hands=CHAIN_HANDS)
    game.play("3s 3c 4s 4c 5s 5c")
    assert game.table is not None and game.table.shape == "chain"


def test_opening_no_chain_allows_a_chain_on_later_leads():
    game = Game(PAGAT.replace(opening_no_chain=True), hands=CHAIN_HANDS, leader=0)
    game.play("9h")
    for _ in range(3):
        game.play("pass")
    game.play("3s 3c 4s 4c 5s 5c")
    assert game.table is not None and game.table.shape == "chain"


def test_next_leader_winner_the_winner_leads_the_next_hand_with_anything():
    session = Session(PAGAT, players=4, seed=21)
    for _ in range(3):
        winner = play_out(session.game).winner
        game = session.next_hand()
        assert game.turn == winner
        lowest = min(c for s in range(4) for c in game.hand(s))
        assert any(lowest not in p.cards for p in game.legal_plays())


def test_next_leader_loser_the_last_player_leads_the_next_hand():
    session = Session(PAGAT.replace(next_leader="loser"), players=4, seed=21)
    for _ in range(3):
        last = play_out(session.game).finish_order[-1]
        assert session.next_hand().turn == last


def test_next_leader_lowest_the_lowest_card_leads_every_hand_under_the_opening_rule():
    session = Session(PAGAT.replace(next_leader="lowest"), players=4, seed=21)
    for _ in range(3):
        play_out(session.game)
        game = session.next_hand()
        lowest = min(c for s in range(4) for c in game.hand(s))
        assert lowest in game.hand(game.turn)
        assert all(lowest in p.cards for p in game.legal_plays())
