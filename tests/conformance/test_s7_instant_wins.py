"""RULES.md §7: instant wins: each kind, 13-card hands only, automatic and optional claims,
several claims, trading turning them off, the stake and the next dealer."""

import pytest

from tienlen import Game, IllegalPlay, Rules, Session

PAGAT = Rules.preset("pagat")
VIET = Rules.preset("viet-cong")
CARDRULES = Rules.preset("cardrules")
ALL_WINS = ["four_twos", "dragon", "six_pairs", "all_sets"]

FOUR_TWOS = "2s 2c 2d 2h 3s 4s 5s 6s 7s 8s 9s Ts Js"
DRAGON_AC = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac Ad"
DRAGON_AH = "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ah Qh"
SIX_PAIRS = "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c 9h"
ALL_SETS = "3s 3c 3d 4s 4c 4d 5s 5c 5d 6s 6c 6d 6h"  # triples and a quad: only five pairs
PLAIN = "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Qs Ks"  # thirteen cards, no instant win


def wins(*names):
    return PAGAT.replace(instant_wins=list(names))


def hands_with(special, players=4):
    """Seats given in ``special`` hold those hands; the others a small hand (no instant win)."""
    used = set(" ".join(special.values()).split())
    filler = ["Qs Ks", "Qd Kd", "Qh Kh", "Td", "Th", "Ts", "9d", "9h"]
    spare = iter([f for f in filler if not set(f.split()) & used])
    return [special[s] if s in special else next(spare) for s in range(players)]


def test_four_twos_win_at_once_before_any_play():
    game = Game(VIET, hands=hands_with({2: FOUR_TWOS}), leader=0)
    assert game.is_over and game.turn is None
    assert game.instant_win == (2, "four_twos")
    assert game.winner == 2
    assert game.action_texts() == ["2 claim four_twos"]


def test_the_instant_winner_wins_and_the_others_share_last_place():
    game = Game(VIET, hands=hands_with({2: FOUR_TWOS}), leader=0)
    assert game.finish_order == [2, 0, 1, 3]
    assert game.scores == [-2, -2, 6, -2]  # instant_win_stake 2 from each other player


@pytest.mark.parametrize("kind, hand", [
    ("four_twos", FOUR_TWOS),
    ("dragon", DRAGON_AC),
    ("dragon", "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"),  # the thirteen-card run counts
    ("six_pairs", SIX_PAIRS),
    ("six_pairs", "3s 3c 3d 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c"),  # a triple holds one pair
    ("all_sets", ALL_SETS),
])
def test_each_instant_win(kind, hand):
    game = Game(wins(kind), hands=hands_with({1: hand}), leader=0)
    assert game.instant_win == (1, kind)


@pytest.mark.parametrize("kind, hand", [
    ("dragon", "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2c 2d"),  # no ace
    ("six_pairs", "3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 9h Th"),  # five pairs
    ("all_sets", SIX_PAIRS),  # the 9h is loose
    ("four_twos", "2s 2c 2d 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"),
])
def test_near_misses_are_no_instant_win(kind, hand):
    game = Game(wins(kind), hands=hands_with({1: hand}), leader=0)
    assert game.instant_win is None and game.phase == "play"


def test_only_a_full_thirteen_card_hand_holds_an_instant_win():
    game = Game(VIET, hands=hands_with({2: FOUR_TWOS + " Qc"}), leader=0)
    assert game.instant_win is None and game.phase == "play"


def test_a_win_not_in_the_rules_list_is_played_as_an_ordinary_hand():
    game = Game(PAGAT, hands=hands_with({2: FOUR_TWOS}), leader=0)
    assert game.instant_win is None and game.phase == "play"
    game = Game(VIET, hands=hands_with({2: DRAGON_AC}), leader=0)
    assert game.instant_win is None


@pytest.mark.parametrize("first, second", [(DRAGON_AC, FOUR_TWOS), (SIX_PAIRS, DRAGON_AH)])
def test_several_claims_are_settled_by_the_order_of_the_list(first, second):
    game = Game(wins(*ALL_WINS), hands=hands_with({0: first, 1: second}), leader=0)
    assert game.winner == 1


def test_six_pairs_come_before_all_sets():
    all_sets = "7s 7c 7d 8s 8c 8d 9s 9c 9d Ts Tc Td Th"
    six_pairs = "3d 3h 4d 4h 5d 5h Js Jc Qs Qc Ks Kc Ah"
    assert Game(wins("six_pairs"), hands=hands_with({1: six_pairs})).instant_win == (1, "six_pairs")
    game = Game(wins(*ALL_WINS), hands=hands_with({0: all_sets, 1: six_pairs}), leader=0)
    assert game.instant_win == (1, "six_pairs")


def test_of_two_dragons_the_higher_ace_wins():
    game = Game(wins("dragon"), hands=hands_with({0: DRAGON_AC, 1: DRAGON_AH}), leader=0)
    assert game.instant_win == (1, "dragon")
    game = Game(wins("dragon"), hands=hands_with({0: DRAGON_AH, 1: DRAGON_AC}), leader=1)
    assert game.instant_win == (0, "dragon")


def test_equal_claims_go_by_turn_order_from_the_leader():
    other = "9s 9c Ts Tc Js Jc Qs Qc Ks Kc As Ac 2h"
    hands = [SIX_PAIRS.replace("9h", "2d"), "4d", "5d", other]
    for leader, winner in ((2, 3), (0, 0), (3, 3), (1, 3)):
        game = Game(wins("six_pairs"), hands=hands, leader=leader)
        assert game.instant_win == (winner, "six_pairs")


# --- optional instant wins ----------------------------------------------------------------
OPTIONAL = VIET.replace(instant_win_optional=True)


def test_optional_only_a_seat_holding_an_instant_win_is_asked():
    other = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 3d 4d"
    game = Game(OPTIONAL, hands=[PLAIN, "Qd Kd", FOUR_TWOS, other], leader=2)
    assert game.phase == "claim" and game.turn == 2
    assert [str(a) for a in game.legal_plays()] == ["claim four_twos", "decline"]
    game.play("decline")  # nobody else holds one: nobody else is asked
    assert game.phase == "play" and game.instant_win is None
    assert game.action_texts() == ["2 decline"]


def test_optional_without_an_instant_win_in_any_hand_play_starts_at_once():
    game = Game(OPTIONAL, hands=[PLAIN, "Qd Kd", "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 3d 4d", "Td"])
    assert game.phase == "play" and game.action_texts() == []


def test_optional_a_claim_wins_the_hand():
    game = Game(OPTIONAL, hands=[PLAIN, "Qd Kd", FOUR_TWOS, "Td"], leader=2)
    game.play("claim four_twos")
    assert game.instant_win == (2, "four_twos")
    assert game.action_texts() == ["2 claim four_twos"]


def test_optional_several_claims_are_settled_by_the_list_order():
    rules = wins(*ALL_WINS).replace(instant_win_optional=True)
    game = Game(rules, hands=hands_with({0: DRAGON_AC, 1: FOUR_TWOS}), leader=0)
    game.play("claim dragon")
    game.play("claim four_twos")
    assert game.instant_win == (1, "four_twos")


def test_optional_a_holder_may_decline_and_play_on():
    game = Game(OPTIONAL, hands=hands_with({0: FOUR_TWOS}), leader=0)
    game.play("decline")
    assert game.phase == "play" and game.turn == 0
    game.play("3s")


def test_optional_a_claim_of_a_win_not_held_is_refused():
    rules = wins("four_twos", "dragon").replace(instant_win_optional=True)
    game = Game(rules, hands=hands_with({0: FOUR_TWOS}), leader=0)
    with pytest.raises(IllegalPlay, match="does not hold dragon"):
        game.play("claim dragon")


def test_optional_no_play_before_the_claims():
    game = Game(OPTIONAL, hands=hands_with({0: FOUR_TWOS}), leader=0)
    with pytest.raises(IllegalPlay, match="the instant wins come first"):
        game.play("3s")


def test_without_optional_the_holder_cannot_decline():
    game = Game(VIET, hands=hands_with({0: FOUR_TWOS}), leader=0)
    assert game.is_over
    with pytest.raises(IllegalPlay, match="the hand is over"):
        game.play("decline")


def test_cardrules_four_twos_declined_become_a_bomb_that_beats_anything():
    hands = [FOUR_TWOS, "Qd Kd Ad Ah", "3h 4h 5h 6h 7h", "Th"]
    game = Game(CARDRULES, hands=hands, leader=2, first_hand=False)
    assert game.phase == "claim" and game.turn == 0  # the only thirteen-card hand
    game.play("decline")
    assert game.turn == 2
    game.play("3h 4h 5h 6h 7h")
    game.play("pass")  # seat 3
    game.play("2s 2c 2d 2h")  # seat 0: four twos on a run
    assert game.table_seat == 0


def test_trading_turns_instant_wins_off():
    game = Game(VIET.replace(trading="mutual"), hands=hands_with({2: FOUR_TWOS}), leader=0)
    assert game.phase == "trade"
    for _ in range(4):
        game.play("done")
    assert game.phase == "play" and game.instant_win is None


def test_the_instant_win_stake():
    game = Game(VIET.replace(instant_win_stake=5), hands=hands_with({3: FOUR_TWOS}), leader=0)
    assert game.scores == [-5, -5, -5, 15]


@pytest.mark.parametrize("next_dealer", ["loser", "rotate"])
def test_after_an_instant_win_the_player_after_the_claimant_deals(next_dealer):
    rules = VIET.replace(instant_wins=ALL_WINS, next_dealer=next_dealer)
    for seed in range(2000):
        session = Session(rules, players=4, seed=seed)
        if session.game.instant_win is not None:
            break
    else:
        pytest.fail("no instant win dealt")
    claimant = session.game.instant_win[0]
    session.next_hand()
    assert session.dealer == (claimant + 1) % 4
