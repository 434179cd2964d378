"""The turn API (``tienlen/turns.py``): one decision at a time, the queue of out-of-turn offers
and the declines made to them; under ``chop_out_of_turn`` an order of asking that reveals no
hidden card (issue 20, point 2)."""

from __future__ import annotations

import random

from helpers import others_shuffled
from tienlen import Game, Rules
from tienlen.cards import Card
from tienlen.shapes import PASS, Play
from tienlen.turns import Decision, Kind, OutOfTurn, Turns, bot_answers

RULES = Rules.preset("pagat").replace(chop_out_of_turn=True)


def _asking_order(hands: list[list[Card]]) -> tuple[list[tuple[int, Kind]], list[list[int]]]:
    """Seat 0 leads and plays its lowest play at each turn, every other seat passes on turn and
    lets every chop go, until seat 0 has played its cards: the (seat, kind) of each decision
    asked, and the seats that held a chop at each chance (``Game.out_of_turn_seats``)."""
    game = Game(RULES, hands=hands, leader=0, first_hand=False)
    turns = Turns(game)
    order: list[tuple[int, Kind]] = []
    holders: list[list[int]] = []
    while game.hand(0) and (asked := turns.next()) is not None:
        if not order or order[-1][1] is Kind.PLAY:
            holders.append(game.out_of_turn_seats())
        order.append((asked.seat, asked.kind))
        if asked.out_of_turn:
            assert asked.moves[-1] == PASS
            turns.answer(asked.seat, PASS)
        elif asked.seat == 0:
            plays = [m for m in asked.moves if isinstance(m, Play) and m.keys]
            turns.answer(0, min(plays, key=lambda p: (len(p.keys), p.keys)))
        else:
            turns.answer(asked.seat, PASS)
    return order, holders


def test_the_order_of_asking_does_not_depend_on_the_other_seats_cards() -> None:
    """Two deals that differ only in the other seats' cards give the same order of asking
    (seats and kinds) while nobody chops, although the seats holding a chop differ."""
    rng = random.Random(20)
    differs = asked_out_of_turn = 0
    for seed in range(40):
        game = Game.deal(RULES, 4, seed=seed)
        a = [list(game.hand(s)) for s in range(4)]
        b = others_shuffled(game, rng)
        order_a, holders_a = _asking_order(a)
        order_b, holders_b = _asking_order(b)
        assert order_a == order_b, seed
        differs += holders_a != holders_b
        asked_out_of_turn += sum(k is Kind.CHOP for _, k in order_a)
    assert differs and asked_out_of_turn  # the hidden cards would have shown before


def test_every_seat_the_rules_let_chop_is_asked_in_turn_order_whatever_it_holds() -> None:
    # seat 0 plays a two, seat 1 is on turn; only seat 3 holds a chop (a four of a kind)
    game = Game(RULES, ["2h 3c", "4c 5d 6h", "8c 9d Th", "7s 7c 7d 7h 9c"], leader=0,
                first_hand=False)
    turns = Turns(game)
    turns.answer(0, game.legal_plays(0)[[str(m) for m in game.legal_plays(0)].index("2h")])
    assert game.out_of_turn_seats() == [3]
    assert turns.queue == [2, 3] == game.out_of_turn_asked()
    first = turns.next()
    assert first is not None and (first.seat, first.kind, first.out_of_turn) == (2, Kind.CHOP, True)
    assert list(first.moves) == [PASS] and first.answers == game.table
    turns.decline(2)
    second = turns.next()
    assert second is not None and second.seat == 3 and len(second.moves) > 1
    assert turns.declined == [2]
    turns.decline(3)
    on_turn = turns.next()
    assert on_turn is not None and (on_turn.seat, on_turn.kind) == (1, Kind.PLAY)
    assert not on_turn.out_of_turn and turns.declined == [2, 3]
    # a move made on the game by other means: a new chance for every seat
    game.play("pass", seat=1)
    assert turns.declined == []
    assert turns.waiting_for() == (turns.queue[0] if turns.queue else game.turn)


def test_a_chop_out_of_turn_starts_the_asking_again() -> None:
    game = Game(RULES, ["2h 3c", "4c 5d 6h", "8c 9d Th", "7s 7c 7d 7h 9c"], leader=0,
                first_hand=False)
    turns = Turns(game)
    turns.answer(0, next(m for m in game.legal_plays(0) if str(m) == "2h"))
    turns.decline(2)
    asked = turns.next()
    assert asked is not None and asked.seat == 3
    quad = next(m for m in asked.moves if isinstance(m, Play) and m.keys)
    turns.answer(3, quad)
    assert game.history[-1] == (3, quad) and turns.declined == []


def _out_of_turn_position() -> tuple[Game, Turns]:
    """Seat 0 has played a two; seats 2 and 3 are asked out of turn (only 3 holds a chop), then
    seat 1, on turn."""
    game = Game(RULES, ["2h 3c", "4c 5d 6h", "8c 9d Th", "7s 7c 7d 7h 9c"], leader=0,
                first_hand=False)
    turns = Turns(game)
    turns.answer(0, next(m for m in game.legal_plays(0) if str(m) == "2h"))
    return game, turns


def test_the_bots_loop_notes_a_decline_and_stops_at_a_persons_decision() -> None:
    game, turns = _out_of_turn_position()
    asked: list[tuple[int, bool]] = []

    def lets_go(decision: Decision) -> Play:  # every bot lets the chop go, or passes
        asked.append((decision.seat, decision.out_of_turn))
        return PASS

    # seat 1 (on turn) is the person's: the bots of seats 2 and 3 let the chop go, then it stops
    steps = list(bot_answers(turns, lets_go, by_bot=lambda d: d.seat != 1))
    assert [(s.decision.seat, s.declined) for s in steps] == [(2, True), (3, True)]
    assert asked == [(2, True), (3, True)] and turns.declined == [2, 3]
    assert turns.waiting_for() == 1 and len(game.history) == 1  # no move made


def test_the_bots_loop_leaves_a_move_to_its_caller_and_a_person_out_of_turn_is_let_go() -> None:
    game, turns = _out_of_turn_position()

    def chops(decision: Decision) -> Play:  # seat 3 chops with its four of a kind
        plays = [m for m in decision.moves if isinstance(m, Play)]
        return next((m for m in plays if m.keys), plays[0])

    # seat 2 is a person the web room never waits for out of turn: let go, not asked
    loop = bot_answers(turns, chops, person=lambda seat: seat == 2, policy=OutOfTurn.ANY_TIME)
    step = next(loop)
    assert (step.decision.seat, step.declined) == (3, False) and turns.declined == [2]
    assert len(game.history) == 1  # the chop is the caller's to make
    turns.answer(3, step.move)
    assert game.history[-1] == (3, step.move)
    after = next(loop)  # the asking starts again after the chop: the seat on turn now
    assert after.decision.seat == game.turn and not after.decision.out_of_turn
