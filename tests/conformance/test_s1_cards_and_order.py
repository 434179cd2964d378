"""RULES.md §1: cards, ranks, suits, card order (both suit orders), one or two packs."""

from itertools import pairwise

import pytest

from tienlen import Card, Game, IllegalPlay, Play, Rules

PAGAT = Rules.preset("pagat")
ALPHA = PAGAT.replace(suit_order="alphabetical")


def after_lead(rules, lead, answer, players=4):
    """Seat 0 leads ``lead`` (holding one spare card); seat 1 holds ``answer`` and is on turn."""
    spares = ["Kc", "Kd", "Kh", "Ks", "Qc", "Qd", "Qh"]
    used = set((lead + " " + answer).split())
    spares = [c for c in spares if c not in used]
    hands = [f"{lead} {spares[0]}", answer, *spares[1:players - 1]]
    game = Game(rules, hands=hands, leader=0, first_hand=False)
    game.play(lead)
    return game


def test_ranks_run_from_three_up_to_two():
    order = "3456789TJQKA2"
    for low, high in pairwise(order):
        assert after_lead(PAGAT, f"{low}h", f"{high}s").can_play(f"{high}s")
        assert not after_lead(PAGAT, f"{high}s", f"{low}h").can_play(f"{low}h")


def test_a_two_is_above_an_ace():
    game = after_lead(PAGAT, "Ah", "2s")
    assert game.can_play("2s")
    game = after_lead(PAGAT, "2s", "Ah")
    with pytest.raises(IllegalPlay, match="higher single card"):
        game.play("Ah")


@pytest.mark.parametrize("lower, higher", [("7s", "7c"), ("7c", "7d"), ("7d", "7h")])
def test_standard_suits_run_spades_clubs_diamonds_hearts(lower, higher):
    assert after_lead(PAGAT, lower, higher).can_play(higher)
    assert not after_lead(PAGAT, higher, lower).can_play(lower)


def test_rank_comes_before_suit():
    # the eight of spades (lowest suit) beats the seven of hearts (highest suit)
    assert after_lead(PAGAT, "7h", "8s").can_play("8s")


def test_three_of_spades_is_the_lowest_card_and_leads_the_first_hand():
    game = Game(PAGAT, hands=["4s 5s", "3c 6c", "3s 7d", "8h 9h"])
    assert game.turn == 2
    assert [str(p) for p in game.legal_plays()] == ["3s"]


def test_the_two_of_hearts_is_the_highest_card_nothing_beats_it_as_a_single():
    game = after_lead(PAGAT, "2h", "2s 2c 2d Ac")
    assert [str(p) for p in game.legal_plays()] == ["pass"]


@pytest.mark.parametrize("lower, higher", [("7c", "7d"), ("7d", "7h"), ("7h", "7s")])
def test_alphabetical_suits_run_clubs_diamonds_hearts_spades(lower, higher):
    assert after_lead(ALPHA, lower, higher).can_play(higher)
    assert not after_lead(ALPHA, higher, lower).can_play(lower)


def test_alphabetical_order_lets_a_spade_beat_a_heart_that_it_cannot_beat_in_standard_order():
    assert after_lead(ALPHA, "9h", "9s").can_play("9s")
    assert not after_lead(PAGAT, "9h", "9s").can_play("9s")


def test_alphabetical_order_makes_the_three_of_clubs_the_lowest_card():
    game = Game(ALPHA, hands=["3s 5s", "3c 6c", "3d 7d", "3h 9h"])
    assert game.turn == 1
    assert [str(p) for p in game.legal_plays() if len(p) == 1] == ["3c"]


def test_alphabetical_order_makes_the_two_of_spades_the_highest_card():
    game = after_lead(ALPHA, "2s", "2h 2d 2c")
    assert [str(p) for p in game.legal_plays()] == ["pass"]


def test_plays_and_hands_are_written_low_to_high_in_the_rules_suit_order():
    assert str(Play.parse("5s 5c")) == "5s 5c"
    assert str(Play.parse("5s 5c", ALPHA)) == "5c 5s"
    game = Game(ALPHA, hands=["3s 3c 4h", "5d 6d"], leader=0)
    assert game.hand_text(0) == "3c 3s 4h"


def test_cards_read_with_ten_symbols_and_any_case():
    assert Card.parse("10♥") is Card.parse("Th")
    assert Card.parse("qs") is Card.parse("QS")
    assert str(Card.parse("10♠")) == "Ts"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_up_to_four_players_use_one_pack_of_52_without_jokers(players):
    game = Game.deal(PAGAT, players, seed=3)
    cards = [str(c) for s in range(players) for c in game.hand(s)]
    assert len(cards) == len(set(cards)) == 13 * players


def test_one_pack_holds_each_card_once():
    with pytest.raises(ValueError, match="7h is dealt 2 times"):
        Game(PAGAT, hands=["7h 8h", "7h 9h", "Ts", "Js"])


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_five_to_eight_players_use_two_packs_shuffled_together(players):
    game = Game.deal(PAGAT.replace(hand_size_big="even"), players, seed=11)
    cards = [str(c) for s in range(players) for c in game.hand(s)]
    assert len(cards) == 104 // players * players
    assert max(cards.count(c) for c in cards) == 2  # duplicate cards exist in a double pack
    game = Game(PAGAT, hands=["7h 8h", "7h 9h", "Ts", "Js", "Qs"])  # two 7h are fine
    assert game.hand_text(1) == "7h 9h"
