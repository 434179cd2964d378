"""Views: what one seat may know of a hand, and nothing more."""

from __future__ import annotations

import random
import re

import pytest

from helpers import deal_with, play_on
from tienlen import Card, Game, Play, Rules, View, parse_cards
from tienlen.bots.protocol import view_to_json
from tienlen.cards import full_deck
from tienlen.session import Session

CARD_RE = re.compile(r"\b(10|[2-9TJQKA])[scdh]\b")




def cards_named(view: View) -> set[str]:
    """Every card text that appears anywhere in the view's history."""
    return {m.group(0) for _, text in view.history for m in CARD_RE.finditer(text)}




# ---------------------------------------------------------------------- hands and counts
def test_a_view_holds_only_that_seats_cards_and_counts_for_the_others() -> None:
    game = play_on(Game.deal(Rules.preset("pagat"), 4, seed=3), moves=6)
    for seat in range(4):
        view = game.view(seat)
        assert view.seat == seat
        assert list(view.hand) == game.hand(seat)
        assert view.counts == tuple(len(game.hand(s)) for s in range(4))
        assert view.revealed is None
        # no other seat's cards are anywhere in the view
        for other in range(4):
            if other != seat:
                held = {str(c) for c in game.hand(other)}
                assert not held & {str(c) for c in view.hand}
                assert not held & cards_named(view)
                assert not held & {str(c) for c in view.played}


def test_a_view_shows_the_table_the_turn_and_every_play_made() -> None:
    game = play_on(Game.deal(Rules.preset("pagat"), 4, seed=3), moves=6)
    view = game.view(2)
    assert view.turn == game.turn
    assert view.my_turn == (game.turn == 2)
    assert view.table == game.table
    assert view.table_seat == game.table_seat
    assert view.passed == tuple(game.passed)
    assert view.history == tuple((s, str(m)) for s, m in game.history)  # plays are public
    assert sorted(view.played) == sorted(
        c for _, m in game.history if isinstance(m, Play) for c in m.cards)


def test_unseen_cards_are_the_pack_less_my_hand_and_the_cards_played() -> None:
    game = play_on(Game.deal(Rules.preset("pagat"), 3, seed=5), moves=9)  # one card set aside
    view = game.view(1)
    unseen = view.unseen()
    others = [c for s in (0, 2) for c in game.hand(s)]
    assert sorted(unseen) == sorted([*others, *_set_aside(game)])
    assert len(unseen) == 52 - len(view.hand) - len(view.played)


def _set_aside(game: Game) -> list[Card]:
    dealt = {c for s in range(game.players) for c in parse_cards(
        " ".join(str(c) for c in game.hand(s)))}
    played = {c for _, m in game.history for c in getattr(m, "cards", ())}
    return [c for c in full_deck() if c not in dealt and c not in played]


def test_a_view_with_two_packs_counts_copies() -> None:
    game = play_on(Game.deal(Rules.preset("pagat"), 5, seed=2), moves=5)
    view = game.view(0)
    assert len(view.unseen()) == 104 - len(view.hand) - len(view.played)


def test_cards_are_revealed_only_when_the_hand_is_over() -> None:
    game = Game.deal(Rules.preset("pagat"), 4, seed=4)
    while not game.is_over:
        for seat in range(4):
            assert game.view(seat).revealed is None
        play_on(game, moves=1, seed=len(game.history))
    view = game.view(1)
    assert view.is_over
    assert view.revealed == tuple(tuple(game.hand(s)) for s in range(4))
    assert view.scores == tuple(game.scores)
    assert view.finish_order == tuple(game.finish_order)
    assert view.legal == ()


# ---------------------------------------------------------------------- legal actions
def test_view_legal_is_the_seats_legal_plays_throughout_a_hand() -> None:
    rules = Rules.preset("pagat").replace(chop_out_of_turn=True)
    for seed in range(3):
        game = Game.deal(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(4):
                assert list(game.view(seat).legal) == game.legal_plays(seat)
            game.play(rng.choice(game.legal_plays()))


def test_a_view_lists_an_out_of_turn_chop_for_the_seat_that_may_make_it() -> None:
    rules = Rules.preset("pagat").replace(chop_out_of_turn=True)
    game = Game(rules, ["3s 2h 9d", "4s 6h Jd", "5s 5c 5d 5h 7c", "6s 8s Ts"])
    for text in ("3s", "4s", "7c", "8s", "2h"):
        game.play(text)
    view = game.view(2)
    assert not view.my_turn
    assert [str(m) for m in view.legal] == ["5s 5c 5d 5h"]
    assert list(view.legal) == game.legal_plays(2)
    assert game.view(3).legal == ()


# ---------------------------------------------------------------------- phases before play
def test_trade_offers_between_other_seats_appear_without_their_cards() -> None:
    rules = Rules.preset("pagat").replace(trading="mutual")
    game = Game(rules, ["3s 4s 5s 9h", "6h 7h 8h Jd", "9c Tc Jc Qs", "Qd Kd Ad Ac"])
    game.play("offer 2 3s 4s")
    game.play("answer 0 Tc Jc", seat=2)
    game.play("accept 2")
    outsider = game.view(1)
    assert outsider.history == ((0, "offer 2 (2 cards)"), (2, "answer 0 (2 cards)"),
                                (0, "accept 2"))
    assert not cards_named(outsider)
    assert [t for _, t in game.view(0).history] == ["offer 2 3s 4s", "answer 0 Tc Jc", "accept 2"]
    assert [t for _, t in game.view(2).history] == ["offer 2 3s 4s", "answer 0 Tc Jc", "accept 2"]
    # the traded cards now sit in the new hands, and only there
    assert {"3s", "4s"} <= {str(c) for c in game.view(2).hand}
    assert outsider.counts == (4, 4, 4, 4)


def test_a_refused_offer_stays_hidden_from_the_others() -> None:
    rules = Rules.preset("pagat").replace(trading="mutual")
    game = Game(rules, ["3s 4s 5s 9h", "6h 7h 8h Jd", "9c Tc Jc Qs", "Qd Kd Ad Ac"])
    game.play("offer 3 9h")
    game.play("refuse 0", seat=3)
    assert game.view(1).history == ((0, "offer 3 (1 card)"), (3, "refuse 0"))
    assert game.view(3).history == ((0, "offer 3 9h"), (3, "refuse 0"))


def test_president_gifts_and_returns_appear_without_cards_to_the_others() -> None:
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=3)
    play_on(session.game)
    winner, runner_up, second_last, last = session.game.finish_order
    game = session.next_hand()
    game.play(game.legal_plays()[0])  # the winner's return
    game.play(game.legal_plays()[0])  # the runner-up's return
    full = [(s, str(m)) for s, m in game.history]
    for seat in range(4):
        view = game.view(seat)
        for (actor, shown), (_, text) in zip(view.history, full, strict=True):
            kind, other = text.split()[:2]
            party = seat in (actor, int(other))
            if party:
                assert shown == text
            else:
                assert shown == f"{kind} {other} ({'2 cards' if actor in (winner, last) else '1 card'})"
    # the first gift was last -> winner; the runner-up and second-last do not see its cards
    assert not cards_named(game.view(runner_up)) & {t for t in full[0][1].split()[2:]}
    assert game.view(second_last).history[0] == (last, f"give {winner} (2 cards)")


def test_claims_stay_hidden_until_every_seat_has_answered() -> None:
    game = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    assert game.phase == "claim"
    order = []
    while game.phase == "claim":
        seat = game.turn
        assert seat is not None
        order.append(seat)
        wins = [m for m in game.legal_plays() if str(m).startswith("claim")]
        game.play(wins[0] if wins else "decline")
        if game.phase == "claim":
            for viewer in range(4):
                for actor, shown in game.view(viewer).history:
                    if actor != viewer:
                        assert shown == "answered"  # a claim and a decline look the same
    assert order == [1, 2]  # only the holders of an instant win are asked
    assert game.instant_win == (2, "four_twos")
    for viewer in range(4):
        shown = dict(game.view(viewer).history)
        assert shown[2] == "claim four_twos"
        assert shown[1] == "claim all_sets"  # seat 1's dealt hand is all sets


def test_a_seat_sees_its_own_claim_answer_at_once() -> None:
    game = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    game.play("decline")
    assert game.view(1).history == ((1, "decline"),)
    assert game.view(0).history == ((1, "answered"),)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_view_of_a_seat_outside_the_table_is_an_error(seat: int) -> None:
    game = Game.deal(Rules.preset("pagat"), 4, seed=1)
    assert game.view(seat).players == 4
    with pytest.raises(ValueError):
        game.view(seat + 4)


# ---------------------------------------------------------------------- §11: payments, free chops
def test_a_view_marks_a_free_chop_offer_and_carries_the_payments() -> None:
    rules = Rules.preset("mien-nam")
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(rules, hands, leader=0, first_hand=False)
    game.play("2h")
    # seat 1 is to act; every other seat but the owner is asked, whatever it holds
    assert [game.view(s).free_chop for s in range(4)] == [False, False, True, True]
    assert view_to_json(game.view(3))["free_chop"] is True  # external bots are told too
    assert game.view(3).legal == (Play.parse("6s 6c 7s 7d 8s 8d 9s 9c"),)
    assert game.view(2).legal == ()  # asked, holding no free chop (the quad chops in turn)
    game.play("3s 3c 4s 4c 5d 5h", seat=1)
    for move in ("pass", "pass", "pass"):
        game.play(move)
    for seat in range(4):
        [paid] = game.view(seat).payments  # public: every seat sees it
        assert (paid.payer, paid.payee, paid.units, paid.item, paid.at) == (0, 1, 2, "chop", 5)
        assert [str(c.target) for c in paid.chops] == ["2h"]


# ---------------------------------------------------------------------- the typed history
HIDDEN_RE = re.compile(r"^([a-z]+)(?: (\d+))?(?: \((\d+) cards?\))?$")


def read_shown(text: str, rules: Rules) -> object:
    """A history text read back as the event it shows, by its text alone."""
    from tienlen.actions import Hidden, parse_move

    if text == "answered":
        return Hidden(None)
    found = HIDDEN_RE.match(text)
    if found and found.group(3):
        kind, other, count = found.groups()
        return Hidden(kind, int(other) if other else None, int(count))  # type: ignore[arg-type]
    return parse_move(text, rules)


def check_events(game: Game) -> int:
    """For every seat: the events are the history's texts read back (they say no more than
    the history), and str of each is its text. Returns the number of hidden events."""
    hidden = 0
    for seat in range(game.players):
        view = game.view(seat)
        assert view.history == tuple((s, str(m)) for s, m in view.events)
        assert view.events == tuple((s, read_shown(t, game.rules)) for s, t in view.history)
        hidden += sum(type(m).__name__ == "Hidden" for _, m in view.events)
    return hidden


def random_to_the_end(game: Game, rng: random.Random) -> int:
    hidden = check_events(game)
    while not game.is_over:
        legal = game.legal_plays()
        game.play(legal[rng.randrange(min(len(legal), 40))] if rng.random() < 0.8 else legal[-1])
        hidden += check_events(game)
    return hidden


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_events_say_what_the_history_says_in_a_hand_with_trades(seed: int) -> None:
    rng = random.Random(seed)
    mutual = Game.deal(Rules.preset("pagat").replace(trading="mutual"), 4, seed=seed)
    assert random_to_the_end(mutual, rng) > 0
    session = Session(Rules.preset("pagat").replace(trading="president"), 4, seed=seed)
    play_on(session.game)
    assert random_to_the_end(session.next_hand(), rng) > 0
    claims = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    random_to_the_end(claims, rng)


def test_a_hidden_trade_is_an_event_with_its_kind_other_seat_and_count() -> None:
    from tienlen.actions import Action, Hidden

    rules = Rules.preset("pagat").replace(trading="mutual")
    game = Game(rules, ["3s 4s 5s 9h", "6h 7h 8h Jd", "9c Tc Jc Qs", "Qd Kd Ad Ac"])
    game.play("offer 2 3s 4s")
    assert game.view(1).events == ((0, Hidden("offer", 2, 2)),)
    assert game.view(1).history == ((0, "offer 2 (2 cards)"),)
    assert game.view(2).events == ((0, Action.parse("offer 2 3s 4s")),)
    claims = Game(Rules.preset("cardrules"), deal_with({2: "2s 2c 2d 2h"}))
    claims.play("decline")
    assert claims.view(0).events == ((1, Hidden(None)),)
    assert claims.view(1).events == ((1, Action("decline")),)
