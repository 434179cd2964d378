"""Sessions: hands in a row, dealer and leader by the rules, totals, and the trading of §9."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import deal_with
from tienlen import ArgumentError, Card, Game, IllegalPlay, Rules, parse_cards
from tienlen.actions import Action
from tienlen.cards import KEY_TEXT
from tienlen.session import Session


def finish(game: Game, seed: int = 0) -> Game:
    """Play the hand out with random legal plays (trading phases are not expected here)."""
    rng = random.Random(seed)
    while not game.is_over:
        assert game.phase == "play"
        game.play(rng.choice(game.legal_plays()))
    return game




def texts(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


# ---------------------------------------------------------------------- the first hand
def test_the_first_dealer_comes_from_the_seed() -> None:
    rules = Rules.preset("pagat")
    for seed in range(10):
        assert Session(rules, 4, seed=seed).dealer == Session(rules, 4, seed=seed).dealer
    dealers = {Session(rules, 4, seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}  # random: every seat deals first for some seed


def test_the_first_hand_is_led_by_the_holder_of_the_lowest_card_under_the_opening_rule() -> None:
    session = Session(Rules.preset("parlett"), 4, seed=11)
    game = session.game
    assert game.first_hand
    holder = next(s for s in range(4) if Card.parse("3s") in game.hand(s))
    assert game.turn == holder
    assert [str(p) for p in game.legal_plays()] == ["3s"]  # lowest_single


def test_a_session_deals_the_same_hands_for_the_same_seed() -> None:
    rules = Rules.preset("pagat")
    a, b = Session(rules, 4, seed=5), Session(rules, 4, seed=5)
    for hand in range(3):
        assert a.dealer == b.dealer
        assert [a.game.hand(s) for s in range(4)] == [b.game.hand(s) for s in range(4)]
        finish(a.game, seed=hand)
        finish(b.game, seed=hand)
        a.next_hand()
        b.next_hand()
    assert a.totals == b.totals
    assert a.record() == b.record()
    other = Session(rules, 4, seed=6)
    assert [other.game.hand(s) for s in range(4)] != [Session(rules, 4, seed=5).game.hand(s)
                                                      for s in range(4)]


def test_the_next_hand_waits_until_the_current_one_is_over() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=1)
    with pytest.raises(IllegalPlay, match="not over"):
        session.next_hand()
    assert len(session.games) == 1


def test_a_seat_renamed_between_hands_is_named_so_from_the_next_hand_on() -> None:
    session = Session(Rules.preset("pagat"), 3, seed=4, names=["Lan", "Bot 1", "Bot 2"])
    finish(session.game)
    session.rename(1, "Minh")  # Minh takes the bot's seat for the next hand
    assert session.game.names == ("Lan", "Bot 1", "Bot 2")  # the hand played keeps its names
    assert session.next_hand().names == ("Lan", "Minh", "Bot 2")
    assert 'players = ["Lan", "Minh", "Bot 2"]' in session.game.record()
    with pytest.raises(ArgumentError, match="seat must be a seat number from 0 to 2"):
        session.rename(3, "Hoa")
    with pytest.raises(ArgumentError, match="non-empty names"):
        session.rename(0, "")
    assert session.names == ("Lan", "Minh", "Bot 2")  # a refused rename changes nothing


# ---------------------------------------------------------------------- dealer and leader
def test_the_loser_deals_the_next_hand() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=3)
    for hand in range(4):
        loser = finish(session.game, seed=hand).finish_order[-1]
        session.next_hand()
        assert session.dealer == loser
        assert session.game.dealer == loser


def test_under_rotate_the_deal_passes_on_one_seat() -> None:
    session = Session(Rules.preset("thirteen"), 4, seed=3)
    for hand in range(4):
        before = session.dealer
        finish(session.game, seed=hand)
        session.next_hand()
        assert session.dealer == (before + 1) % 4


def test_under_rotate_in_anticlockwise_order_the_deal_still_follows_the_order_of_play() -> None:
    session = Session(Rules.preset("thirteen").replace(direction="anticlockwise"), 3, seed=2)
    before = session.dealer
    finish(session.game)
    session.next_hand()
    assert session.dealer == (before + 1) % 3


def test_after_an_instant_win_the_player_after_the_claimant_deals() -> None:
    rules = Rules.preset("viet-cong")  # four twos win at once
    for claimant in range(4):
        game = Game(rules, deal_with({claimant: "2s 2c 2d 2h"}), dealer=claimant)
        assert game.instant_win == (claimant, "four_twos")
        # the others share last place, so "the loser deals" does not apply
        session = Session.from_record(game.record())
        session.next_hand()
        assert session.dealer == (claimant + 1) % 4
        assert session.game.turn == claimant  # next_leader "winner": the claimant leads


def test_the_winner_leads_the_next_hand_anything_at_all() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=8)
    winner = finish(session.game).finish_order[0]
    game = session.next_hand()
    assert not game.first_hand
    assert game.turn == winner
    assert game.leader == winner
    leads = game.legal_plays()
    # any single may be led, not only the lowest card
    assert {str(p) for p in leads if p.shape == "single"} == {str(c) for c in game.hand(winner)}


def test_under_next_leader_loser_the_last_player_leads() -> None:
    session = Session(Rules.preset("pagat").replace(next_leader="loser"), 4, seed=8)
    loser = finish(session.game).finish_order[-1]
    game = session.next_hand()
    assert game.turn == loser
    assert {str(p) for p in game.legal_plays() if p.shape == "single"} == \
        {str(c) for c in game.hand(loser)}


def test_under_next_leader_lowest_every_hand_opens_with_the_lowest_card_again() -> None:
    session = Session(Rules.preset("thirteen"), 4, seed=4)
    for hand in range(3):
        game = session.game
        lowest = min(c for s in range(4) for c in game.hand(s))
        holder = next(s for s in range(4) if lowest in game.hand(s))
        assert game.turn == holder
        plays = game.legal_plays()
        assert plays
        assert all(lowest in p.cards for p in plays)  # contains_lowest, every hand
        finish(game, seed=hand)
        session.next_hand()


def test_under_next_leader_lowest_with_lowest_single_the_later_hands_open_with_that_card_alone(
) -> None:
    session = Session(Rules.preset("thirteen").replace(opening="lowest_single"), 4, seed=4)
    finish(session.game)
    game = session.next_hand()
    lowest = min(c for s in range(4) for c in game.hand(s))
    assert [str(p) for p in game.legal_plays()] == [str(lowest)]


# ---------------------------------------------------------------------- totals and result
def test_totals_add_up_the_units_of_every_hand() -> None:
    session = Session(Rules.preset("pagat").replace(stake=3), 4, seed=2)
    expected = [0, 0, 0, 0]
    for hand in range(4):
        game = finish(session.game, seed=hand)
        loser = game.finish_order[-1]
        # loser_pays: the loser pays the stake to each of the three others
        for seat in range(4):
            expected[seat] += -9 if seat == loser else 3
        assert session.totals == expected
        session.next_hand()
    assert session.totals == expected  # the new hand, not yet played, adds nothing
    assert sum(session.totals) == 0


def test_first_places_count_the_hands_each_seat_won() -> None:
    session = Session(Rules.preset("pagat"), 4, seed=9)
    wins = Counter[int]()
    for hand in range(5):
        wins[finish(session.game, seed=hand).finish_order[0]] += 1
        assert session.first_places == [wins[s] for s in range(4)]
        session.next_hand()
    assert sum(session.first_places) == 5


def test_the_session_result_is_units_or_first_places_as_the_rules_say() -> None:
    for result in ("units", "first_places"):
        session = Session(Rules.preset("pagat").replace(session_result=result), 4, seed=9)
        for hand in range(3):
            finish(session.game, seed=hand)
            session.next_hand()
        expected = session.totals if result == "units" else session.first_places
        assert session.result == expected
    assert session.first_places != session.totals  # the two differ, so the test tells them apart


# ---------------------------------------------------------------------- given seeds, tallies only
def test_a_hand_dealt_from_a_given_seed_takes_the_place_of_the_drawn_one() -> None:
    rules = Rules.preset("pagat")
    drawn, given = Session(rules, 4, seed=3), Session(rules, 4, seed=3)
    finish(drawn.game, 1), finish(given.game, 1)
    seed = drawn.next_seed()
    assert drawn.deal_next().record() == drawn.deal_next(seed).record()  # nothing changed
    assert given.next_hand(seed).record() == drawn.next_hand().record()
    finish(drawn.game, 2), finish(given.game, 2)
    other = given.next_hand(12345)
    assert other.record() != drawn.next_hand().record()
    finish(drawn.game, 3), finish(other, 3)
    assert given.next_hand().record() == drawn.next_hand().record()  # the sequence went on


def test_keep_hands_false_keeps_only_the_tallies_of_finished_hands() -> None:
    rules = Rules.preset("pagat")
    full, light = Session(rules, 4, seed=9), Session(rules, 4, seed=9, keep_hands=False)
    for hand in range(4):
        finish(full.game, hand), finish(light.game, hand)
        assert light.totals == full.totals and light.first_places == full.first_places
        full.next_hand(), light.next_hand()
        assert light.game.record() == full.game.record()
    assert len(light.games) == 1 and light.past.hands == 4 and light.number == full.number == 5
    assert light.tally() == full.tally()


def test_a_resumed_session_deals_as_the_one_it_was_taken_from() -> None:
    rules = Rules.preset("pagat")
    session = Session(rules, 4, seed=4, keep_hands=False)
    finish(session.game, 0), session.next_hand(), finish(session.game, 1)
    again = Session.resume(rules, session.game, past=session.past, rng_state=session.rng_state())
    assert again.number == session.number and again.totals == session.totals
    assert again.next_hand().record() == session.next_hand().record()


# ---------------------------------------------------------------------- president exchange
def test_president_trading_begins_from_the_second_hand() -> None:
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=3)
    assert session.game.phase == "play"
    assert not any(isinstance(m, Action) for _, m in session.game.history)


def _dealt_text(game: Game, seat: int) -> list[str]:
    return [KEY_TEXT[game.rules.suit_order][k] for k in game.dealt[seat]]


def _president_second_hand(players: int, seed: int) -> tuple[Session, list[int], Game]:
    session = Session(Rules.preset("pagat").replace(trading="president"), players, seed=seed)
    order = finish(session.game, seed=seed).finish_order
    game = session.next_hand()
    return session, order, game


def test_the_last_gives_the_winner_two_highest_and_the_second_last_the_runner_up_one() -> None:
    _session, order, game = _president_second_hand(4, seed=3)
    winner, runner_up, second_last, last = order
    dealt = [sorted(parse_cards(_dealt_text(game, s))) for s in range(4)]
    assert game.phase == "return"
    gifts = [(seat, m) for seat, m in game.history]
    assert len(gifts) == 2
    (giver1, give1), (giver2, give2) = gifts
    assert isinstance(give1, Action) and isinstance(give2, Action)
    assert (giver1, give1.kind, give1.other) == (last, "give", winner)
    assert list(give1.cards) == dealt[last][-2:]
    assert (giver2, give2.kind, give2.other) == (second_last, "give", runner_up)
    assert list(give2.cards) == dealt[second_last][-1:]
    counts = game.counts()
    assert (counts[winner], counts[runner_up], counts[second_last], counts[last]) == (15, 14, 12, 11)
    for card in give1.cards:
        assert card in game.hand(winner)
        assert card not in game.hand(last)


def test_receivers_return_cards_of_their_choice_winner_first_then_play_begins() -> None:
    _session, order, game = _president_second_hand(4, seed=3)
    winner, runner_up, second_last, last = order
    assert game.turn == winner
    returns = game.legal_plays()
    assert all(isinstance(m, Action) and m.kind == "return" and m.other == last and
               len(m.cards) == 2 for m in returns)
    # any two of the fifteen cards the winner now holds
    assert len(returns) == 15 * 14 // 2
    chosen = game.hand(winner)[5:7]
    game.play(f"return {last} {chosen[0]} {chosen[1]}")
    for card in chosen:
        assert card in game.hand(last)
        assert card not in game.hand(winner)
    assert game.turn == runner_up
    assert game.phase == "return"
    card = game.hand(runner_up)[0]
    game.play(f"return {second_last} {card}")
    assert card in game.hand(second_last)
    assert game.counts() == [13, 13, 13, 13]
    assert game.phase == "play"
    assert game.turn == winner  # next_leader "winner"


def test_a_wrong_president_return_is_an_illegal_play_that_changes_nothing() -> None:
    _session, order, game = _president_second_hand(4, seed=3)
    winner, runner_up, second_last, last = order
    hand = game.hand(winner)
    foreign = next(c for c in game.hand(last))
    before = game.counts(), game.history
    wrong = [
        f"return {last} {hand[0]}",  # one card, not two
        f"return {last} {hand[0]} {hand[1]} {hand[2]}",  # three cards
        f"return {last} {hand[0]} {foreign}",  # a card the winner does not hold
        f"return {second_last} {hand[0]} {hand[1]}",  # to the wrong giver
        f"{hand[0]}",  # a play before the exchange is done
        "pass",
        "done",
    ]
    for text in wrong:
        with pytest.raises(IllegalPlay):
            game.play(text)
    # the runner-up may not return before the winner
    with pytest.raises(IllegalPlay, match="turn"):
        game.play(f"return {second_last} {game.hand(runner_up)[0]}", seat=runner_up)
    assert (game.counts(), game.history) == before
    assert game.turn == winner


def test_with_three_players_only_the_last_and_the_winner_exchange() -> None:
    _session, order, game = _president_second_hand(3, seed=5)
    winner, _middle, last = order
    assert [(s, m.kind, m.other) for s, m in game.history] == [(last, "give", winner)]
    assert game.turn == winner
    game.play(game.legal_plays()[0])
    assert game.phase == "play"
    assert game.counts() == [13, 13, 13]


def test_president_exchange_runs_every_hand_of_a_session() -> None:
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=12)
    rng = random.Random(4)
    for _ in range(3):
        game = session.game
        while not game.is_over:
            game.play(rng.choice(game.legal_plays()))
        session.next_hand()
        assert session.game.phase == "return"
    assert Session.from_record(session.record()).record() == session.record()


# ---------------------------------------------------------------------- mutual trading
MUTUAL = Rules.preset("pagat").replace(trading="mutual")
SMALL = ["3s 4s 5s", "6h 7h 8h", "9c Tc Jc", "Qd Kd Ad"]


def test_mutual_trading_comes_first_starting_with_the_leader() -> None:
    game = Game(MUTUAL, SMALL)
    assert game.phase == "trade"
    assert game.turn == 0
    with pytest.raises(IllegalPlay, match="trading comes first"):
        game.play("3s")


def test_an_accepted_trade_swaps_the_cards_both_named() -> None:
    game = Game(MUTUAL, SMALL)
    game.play("offer 2 3s 4s")
    assert game.turn == 2
    game.play("answer 0 Tc Jc", seat=2)
    assert game.turn == 0
    assert texts(game.hand(0)) == ["3s", "4s", "5s"]  # nothing moves before the accept
    game.play("accept 2")
    assert texts(game.hand(0)) == ["5s", "Tc", "Jc"]
    assert texts(game.hand(2)) == ["3s", "4s", "9c"]


@pytest.mark.parametrize("refusal", ["target", "offerer"])
def test_a_refused_trade_swaps_nothing(refusal: str) -> None:
    game = Game(MUTUAL, SMALL)
    game.play("offer 1 5s")
    if refusal == "target":
        game.play("refuse 0", seat=1)
    else:
        game.play("answer 0 8h", seat=1)
        game.play("refuse 1", seat=0)
    assert [texts(game.hand(s)) for s in range(4)] == [h.split() for h in SMALL]
    assert game.phase == "trade"


def test_a_seat_makes_at_most_one_offer_to_each_other_seat() -> None:
    game = Game(MUTUAL, SMALL)
    game.play("offer 1 5s")
    game.play("refuse 0", seat=1)
    # seats 1, 2 and 3 take their turns
    for seat in (1, 2, 3):
        assert game.turn == seat
        game.play("done")
    assert game.turn == 0
    with pytest.raises(IllegalPlay, match="already made an offer"):
        game.play("offer 1 4s")
    offers = [m for m in game.legal_plays() if isinstance(m, Action) and m.kind == "offer"]
    assert offers and {m.other for m in offers} == {2, 3}
    game.play("offer 3 4s")
    game.play("answer 0 Kd", seat=3)
    game.play("accept 3")
    assert "Kd" in texts(game.hand(0))


def test_an_answer_must_give_as_many_cards_as_were_offered() -> None:
    game = Game(MUTUAL, SMALL)
    game.play("offer 2 3s 4s")
    with pytest.raises(IllegalPlay, match="equal numbers"):
        game.play("answer 0 Tc", seat=2)
    with pytest.raises(IllegalPlay):
        game.play("answer 0 Tc Jc", seat=1)  # seat 1 was not asked
    with pytest.raises(IllegalPlay, match="do not hold"):
        game.play("answer 0 Tc 2c", seat=2)


def test_play_begins_when_every_seat_is_done() -> None:
    game = Game(MUTUAL, SMALL)
    for seat in range(4):
        assert game.phase == "trade"
        game.play("done", seat=seat)
    assert game.phase == "play"
    assert game.turn == 0
    assert [str(p) for p in game.legal_plays()] == ["3s", "3s 4s 5s"]


def test_mutual_trading_turns_instant_wins_off() -> None:
    hands = deal_with({1: "2s 2c 2d 2h"})
    assert Game(Rules.preset("viet-cong"), hands).instant_win == (1, "four_twos")
    game = Game(Rules.preset("viet-cong").replace(trading="mutual"), hands)
    assert game.phase == "trade"
    for seat in range(4):
        game.play("done", seat=seat)
    assert game.phase == "play"
    assert game.instant_win is None


def test_president_trading_turns_instant_wins_off_too() -> None:
    hands = deal_with({1: "2s 2c 2d 2h"})
    game = Game(Rules.preset("viet-cong").replace(trading="president"), hands)
    assert game.phase == "play"
    assert game.instant_win is None


def test_a_trade_that_moves_the_lowest_card_moves_the_opening_lead_with_it() -> None:
    game = Game(MUTUAL, SMALL)
    game.play("offer 1 3s")
    game.play("answer 0 6h", seat=1)
    game.play("accept 1")
    for seat in (1, 2, 3, 0):
        game.play("done", seat=seat)
    assert game.phase == "play"
    assert game.turn == 1  # seat 1 holds the 3s now
    assert [str(p) for p in game.legal_plays()] == ["3s"]
    game.play("3s")
    assert game.turn == 2


def test_a_president_return_of_the_lowest_card_moves_the_opening_lead_with_it() -> None:
    rules = Rules.preset("thirteen").replace(trading="president")  # the lowest leads every hand
    hands = ["3s 9d Ts", "4s 5d Js", "6c 7h Qs", "8d Kc Ah"]
    game = Game(rules, hands, first_hand=False, exchange=[(3, 0, 2)])
    assert game.phase == "return"
    assert texts(game.hand(0)) == ["3s", "9d", "Ts", "Kc", "Ah"]
    game.play("return 3 3s 9d")
    assert game.phase == "play"
    assert game.turn == 3
    assert all(Card.parse("3s") in p.cards for p in game.legal_plays())
