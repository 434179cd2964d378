"""Inference for the search bot: sampled deals that explain what the other seats did.

Against heuristic players the real deal always explains the history; the deals the chain
finds are real possibilities (the right cards, the right counts, the seat's own hand) that
explain it too, and they place more of the others' cards with their true holders than a
blind deal does."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import twin_games
from tienlen import Card, Game, Rules
from tienlen.bots import get_bot
from tienlen.bots.inference import Beliefs, Deal, History, explaining_deals
from tienlen.errors import TienLenError
from tienlen.view import View

PAGAT = Rules.preset("pagat")


def heuristic_hand(rules: Rules, players: int, seed: int) -> tuple[Game, list[tuple[View, Game]]]:
    """A hand played by heuristic bots, with seat 0's views at its decisions (and a copy of
    the real game at each)."""
    game = Game.deal(rules, players, seed=seed)
    bots = [get_bot("heuristic", seed=s) for s in range(players)]
    seen = []
    while not game.is_over:
        turn = game.turn
        assert turn is not None
        view = game.view(turn)
        if turn == 0 and game.phase == "play" and len(view.legal) > 1:
            seen.append((view, game.copy()))
        game.play(bots[turn].choose(view), seat=turn)
    return game, seen


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("pagat", 3), ("viet-cong", 4),
                                                 ("killer", 6)])
def test_the_real_deal_explains_every_decision_of_heuristic_players(preset: str,
                                                                     players: int) -> None:
    checked = 0
    for seed in range(6):
        _, seen = heuristic_hand(Rules.preset(preset), players, seed)
        checked += len(seen)  # (a hand can end at once, with an instant win)
        for view, real in seen:
            history = History(view)
            deal, _ = history.replay(history.hidden_of(Deal(real, 0)))
            assert deal is not None and deal.misfits == 0
            assert [deal.game.hand(s) for s in range(players)] == \
                [real.hand(s) for s in range(players)]
    assert checked > 10


def check_possible(view: View, game: Game) -> None:
    """A sampled deal at the present: the seat's own hand, every other seat's count, and
    only cards the seat has not seen."""
    assert game.turn == view.seat
    assert game.hand(view.seat) == list(view.hand)
    assert [len(game.hand(s)) for s in range(view.players)] == list(view.counts)
    others = Counter(c for s in range(view.players) if s != view.seat for c in game.hand(s))
    assert not others - Counter(view.unseen())


def test_the_deals_found_are_possible_and_explain_the_history_far_better_than_blind_deals(
        ) -> None:
    rng = random.Random(4)
    found_misfits = blind_misfits = 0.0
    for seed in (1, 2):
        _, seen = heuristic_hand(PAGAT, 4, seed)
        for view, _ in seen[2:]:
            history = History(view)
            deals, spent = explaining_deals(history, rng, budget=4000, wanted=20)
            assert deals and spent > 0
            assert len({history.signature(d) for d in deals}) == len(deals)  # all distinct
            for deal in deals:
                check_possible(view, deal.game)
                again, _ = history.replay(history.hidden_of(deal))
                assert again is not None and again.misfits == deal.misfits
            found_misfits += deals[0].misfits
            blind = [history.replay(history.random_deal(rng))[0] for _ in range(5)]
            blind_misfits += sum(d.misfits for d in blind if d) / max(1, sum(1 for d in blind if d))
    assert found_misfits < 0.3 * blind_misfits


def placed_right(history: History, hidden: list[list[Card]], real: Game) -> tuple[int, int]:
    right = total = 0
    for holder, cards in zip(history.holders, hidden, strict=True):
        if holder >= 0:
            truth = Counter(real.hand(holder))
            right += sum((Counter(cards) & truth).values())
            total += len(cards)
    return right, total


def test_watching_the_others_play_places_their_cards_better_than_a_blind_deal() -> None:
    rng = random.Random(2)
    inferred = [0, 0]
    blind = [0, 0]
    for seed in range(8):
        _, seen = heuristic_hand(PAGAT, 4, 10 + seed)
        for view, real in seen:
            if len(view.history) < 20:
                continue  # late enough in the hand that the others have shown something
            history = History(view)
            deals, _ = explaining_deals(history, rng, budget=6000, wanted=10)
            for deal in deals:
                r, t = placed_right(history, history.hidden_of(deal), real)
                inferred[0] += r
                inferred[1] += t
            for _ in range(10):
                r, t = placed_right(history, history.random_deal(rng), real)
                blind[0] += r
                blind[1] += t
    assert inferred[1] > 100 and blind[1] > 100
    assert inferred[0] / inferred[1] > blind[0] / blind[1] + 0.08


def hands_before(deal_hands: dict[int, list[Card]], view: View, since: int) -> dict[int, tuple[str, ...]]:
    """The others' hands in a deal as they were ``since`` actions into the history."""
    out = {s: [str(c) for c in cards] for s, cards in deal_hands.items()}
    for seat, text in view.history[since:]:
        if seat in out and text != "pass" and not text.startswith(("claim", "decline", "answered")):
            out[seat].extend(text.split())
    return {s: tuple(sorted(cards)) for s, cards in out.items()}


def test_beliefs_carry_their_deals_from_one_decision_to_the_next_and_start_afresh_each_hand(
        ) -> None:
    rng = random.Random(3)
    beliefs = Beliefs()
    _, seen = heuristic_hand(PAGAT, 4, 5)
    carried = 0
    before: list[dict[int, tuple[str, ...]]] = []
    previous = 0
    for view, _ in seen:
        deals, _ = beliefs.deals(History(view), rng, budget=3000, wanted=15)
        assert deals
        for deal in deals:
            check_possible(view, deal.game)
        hands = [{s: deal.game.hand(s) for s in range(1, 4)} for deal in deals]
        if before and any(hands_before(h, view, previous) in before for h in hands):
            carried += 1
        before = [{s: tuple(sorted(str(c) for c in h[s])) for s in h} for h in hands]
        previous = len(view.history)
    assert carried >= len(seen) // 2
    # the next hand's deals hold the next hand's cards, whatever was believed before
    _, other = heuristic_hand(PAGAT, 4, 6)
    view = other[1][0]
    fresh, _ = beliefs.deals(History(view), rng, budget=2000, wanted=15)
    assert fresh
    for deal in fresh:
        check_possible(view, deal.game)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("pagat", 3), ("killer", 6)])
def test_search_with_inference_plays_whole_hands(preset: str, players: int) -> None:
    game = Game.deal(Rules.preset(preset), players, seed=9)
    bots = [get_bot("search", seed=1, steps=400, inference=0.5),
            *(get_bot("heuristic", seed=s) for s in range(1, players))]
    while not game.is_over:
        turn = game.turn
        assert turn is not None
        view = game.view(turn)
        move = bots[turn].choose(view)
        assert move in view.legal
        game.play(move, seat=turn)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("justus-pang", 3)])
def test_search_with_inference_chooses_alike_whatever_cards_the_others_hide(
        preset: str, players: int) -> None:
    for seed, steps in ((1, 4), (2, 9), (3, 14)):
        a, b = twin_games(Rules.preset(preset), players, seed, steps)
        assert a.view(0) == b.view(0)
        choices = [get_bot("search", seed=5, steps=600, inference=0.5).choose(g.view(0))
                   for g in (a, b)]
        assert choices[0] == choices[1]


@pytest.mark.parametrize("bad", [1, 1.5, -0.1, "half", True])
def test_a_bad_inference_share_is_refused_with_its_name(bad: object) -> None:
    with pytest.raises((ValueError, TienLenError), match="inference"):
        get_bot("search", inference=bad)
