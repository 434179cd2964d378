"""RULES.md §2: the deal: hand sizes, leftover cards, the odd card, dealers of later hands."""

import pytest

from tienlen import Game, Rules, Session

PAGAT = Rules.preset("pagat")
KLU = Rules.preset("kenneth-lu")


def play_out(game):
    """Finish a hand quickly: every seat plays its first legal card play, else the first action."""
    while not game.is_over:
        moves = game.legal_plays()
        plays = [m for m in moves if not m.is_pass]
        game.play(plays[0] if plays else moves[0])
    return game


def all_cards(game):
    return [str(c) for s in range(game.players) for c in game.hand(s)]


def test_four_players_get_thirteen_cards_each_and_the_whole_pack_is_dealt():
    game = Game.deal(PAGAT, 4, seed=5)
    assert game.counts() == [13, 13, 13, 13]
    assert len(set(all_cards(game))) == 52


@pytest.mark.parametrize("size", [13, 17])
def test_two_players_get_hand_size_two_cards_and_the_rest_is_set_aside(size):
    game = Game.deal(PAGAT.replace(hand_size_two=size), 2, seed=5)
    assert game.counts() == [size, size]


def test_kenneth_lu_deals_seventeen_cards_to_each_of_two_players():
    assert Game.deal(KLU, 2, seed=2).counts() == [17, 17]


@pytest.mark.parametrize("size", [13, 17])
def test_three_players_get_hand_size_three_cards(size):
    game = Game.deal(PAGAT.replace(hand_size_three=size), 3, seed=5)
    assert game.counts() == [size] * 3
    assert len(set(all_cards(game))) == 3 * size  # 17 x 3 leaves one card set aside, unseen


def test_the_odd_card_goes_to_the_player_who_leads():
    for seed in range(6):
        game = Game.deal(KLU, 3, seed=seed)
        counts = game.counts()
        assert sorted(counts) == [17, 17, 18]
        assert counts[game.leader] == 18
        assert game.turn == game.leader
        assert len(set(all_cards(game))) == 52


def test_the_odd_card_goes_to_a_leader_chosen_by_the_table():
    game = Game.deal(KLU, 3, seed=1, leader=1)
    assert game.counts() == [17, 18, 17]


def test_without_odd_card_to_leader_the_single_leftover_card_is_set_aside():
    game = Game.deal(KLU.replace(odd_card_to_leader=False), 3, seed=1)
    assert game.counts() == [17, 17, 17]


def test_the_odd_card_rule_gives_nothing_when_more_than_one_card_is_left():
    game = Game.deal(KLU, 2, seed=1)  # 52 - 34 leaves 18 cards over
    assert game.counts() == [17, 17]


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_five_to_eight_players_get_thirteen_cards_from_the_double_pack(players):
    game = Game.deal(PAGAT, players, seed=9)
    assert game.counts() == [13] * players


@pytest.mark.parametrize("players, each", [(5, 20), (6, 17), (7, 14), (8, 13)])
def test_hand_size_big_even_deals_as_many_as_divide_evenly(players, each):
    game = Game.deal(PAGAT.replace(hand_size_big="even"), players, seed=9)
    assert game.counts() == [each] * players
    assert each == 104 // players


def test_the_same_seed_gives_the_same_deal():
    one = Game.deal(PAGAT, 4, seed=42)
    two = Game.deal(PAGAT, 4, seed=42)
    assert [one.hand_text(s) for s in range(4)] == [two.hand_text(s) for s in range(4)]
    assert one.dealer == two.dealer


def test_either_direction_plays_in_seat_order():
    # seats are numbered in the order of play, so after seat 0 comes seat 1 either way
    for direction in ("clockwise", "anticlockwise"):
        game = Game(PAGAT.replace(direction=direction), hands=["3s 9h", "4s", "5s", "6s"])
        game.play("3s")
        assert game.turn == 1


def test_the_loser_deals_the_next_hand():
    session = Session(PAGAT, players=4, seed=8)
    for _ in range(3):
        last = play_out(session.game).finish_order[-1]
        session.next_hand()
        assert session.dealer == last


def test_under_rotate_the_deal_passes_on_one_seat():
    session = Session(Rules.preset("thirteen"), players=4, seed=8)
    for _ in range(3):
        dealer = play_out(session.game).dealer
        session.next_hand()
        assert session.dealer == (dealer + 1) % 4


def test_rotate_differs_from_loser_in_some_hand():
    seen = False
    session = Session(PAGAT.replace(next_dealer="rotate"), players=4, seed=8)
    for _ in range(6):
        game = play_out(session.game)
        session.next_hand()
        assert session.dealer == (game.dealer + 1) % 4
        seen = seen or session.dealer != game.finish_order[-1]
    assert seen
