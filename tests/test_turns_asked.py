"""Who is asked now, once (``tienlen.turns.asked``), and what the seat asked decides from
(``view_for_decision``): one function for the arena, the terminal and the web room, which
differ only in how a person is asked out of turn (``OutOfTurn``). Issue 33."""

from __future__ import annotations

import dataclasses

from helpers import DRAGON_DEAL, TRADE_DEAL
from tienlen import Game, Rules
from tienlen.actions import Action, TradeDecision, TradeOffers
from tienlen.shapes import PASS, Play
from tienlen.turns import Decision, Kind, OutOfTurn, Turns, asked, view_for_decision
from tienlen.view import View

CHOPPING = Rules.preset("pagat").replace(chop_out_of_turn=True)


def _everyone(seat: int) -> bool:
    return True


def chop_chance() -> Game:
    """Seat 0 has played a two, seat 1 is on turn; seats 2 and 3 may chop out of turn, and
    only seat 3 holds a chop (a four of a kind)."""
    game = Game(CHOPPING, ["2h 3c", "4c 5d 6h", "8c 9d Th", "7s 7c 7d 7h 9c"], leader=0,
                first_hand=False)
    game.play("2h", seat=0)
    assert game.out_of_turn_asked() == [2, 3] and game.out_of_turn_seats() == [3]
    return game


def _own_view(game: Game, decision: Decision) -> View:
    """The seat's view for its decision, checked to hold nothing the seat may not know: the
    game's view of that seat with the decision's moves as its legal moves."""
    view = view_for_decision(game, decision)
    assert dataclasses.replace(view, legal=game.view(decision.seat).legal) == game.view(decision.seat)
    assert view.hand == tuple(game.hand(decision.seat))
    return view


def test_the_seat_on_turn_is_asked_its_turn_under_every_policy() -> None:
    game = Game.deal(Rules.preset("pagat"), 4, seed=5)
    for policy in OutOfTurn:
        decision = asked(Turns(game), person=_everyone, policy=policy)
        assert decision is not None
        assert (decision.seat, decision.kind, decision.out_of_turn) == (game.turn, Kind.PLAY, False)
        assert list(decision.moves) == game.legal_plays(game.turn)
    decision = asked(Turns(game))
    assert decision is not None
    assert _own_view(game, decision) == game.view(decision.seat)  # no pass added on turn
    other = (decision.seat + 1) % 4
    assert asked(Turns(game), other) is None  # not the seat the hand waits for
    assert asked(Turns(game), other, person=_everyone, policy=OutOfTurn.ANY_TIME) is None  # no chop


def test_a_bot_asked_out_of_turn_is_asked_whatever_it_holds() -> None:
    game = chop_chance()
    turns = Turns(game)
    first = asked(turns)  # nobody is a person: the queue's first seat, although it holds no chop
    assert first is not None
    assert (first.seat, first.kind, first.out_of_turn) == (2, Kind.CHOP, True)
    assert list(first.moves) == [PASS] and first.answers == game.table
    assert asked(turns) == first and turns.declined == []  # asking again declines nothing
    assert asked(Turns(game), 3) is None  # seat 2 is asked first
    assert _own_view(game, first).legal == (PASS,)


def test_the_terminal_asks_a_person_out_of_turn_only_when_holding_a_chop() -> None:
    game = chop_chance()
    turns = Turns(game)
    decision = asked(turns, person=_everyone, policy=OutOfTurn.HOLDING)
    assert decision is not None and (decision.seat, decision.kind) == (3, Kind.CHOP)
    assert turns.declined == [2]  # the empty offer let go at once
    quad = Play.parse("7s 7c 7d 7h")
    assert quad in decision.moves and decision.moves[-1] == PASS
    view = _own_view(game, decision)
    assert view.legal == (*game.view(3).legal, PASS)  # its chops, and pass: its decline
    assert all(set(m.cards) <= set(game.hand(3)) for m in view.legal if isinstance(m, Play))


def test_the_web_waits_for_no_person_out_of_turn_but_takes_their_chop_at_any_time() -> None:
    game = chop_chance()
    turns = Turns(game)
    decision = asked(turns, person=_everyone, policy=OutOfTurn.ANY_TIME)
    assert decision is not None and (decision.seat, decision.kind) == (1, Kind.PLAY)
    assert turns.declined == [2, 3]
    fresh = Turns(game)
    offered = asked(fresh, 3, person=_everyone, policy=OutOfTurn.ANY_TIME)
    assert offered is not None and (offered.seat, offered.kind, offered.out_of_turn) == (3, Kind.CHOP, True)
    assert list(offered.moves) == [*game.legal_plays(3), PASS] and offered.answers == game.table
    assert fresh.declined == []  # a seat's own question lets nobody go
    assert asked(fresh, 2, person=_everyone, policy=OutOfTurn.ANY_TIME) is None  # no chop held
    on_turn = asked(fresh, 1, person=_everyone, policy=OutOfTurn.ANY_TIME)
    assert on_turn is not None and (on_turn.kind, on_turn.out_of_turn) == (Kind.PLAY, False)
    # a bot is asked in the queue's order under every policy
    assert asked(Turns(game), person=lambda seat: seat != 2, policy=OutOfTurn.ANY_TIME) == \
        asked(Turns(game))


def test_an_instant_win_is_asked_of_the_seat_on_turn_alone() -> None:
    deal = [DRAGON_DEAL[2], DRAGON_DEAL[3], DRAGON_DEAL[0], DRAGON_DEAL[1]]
    game = Game(Rules.preset("cardrules"), deal, leader=2)
    decision = asked(Turns(game), person=_everyone, policy=OutOfTurn.ANY_TIME)
    assert decision is not None and (decision.seat, decision.kind) == (2, Kind.CLAIM)
    assert Action("claim", win="dragon") in decision.moves and not decision.out_of_turn
    assert _own_view(game, decision) == game.view(2)
    assert asked(Turns(game), 0, person=_everyone, policy=OutOfTurn.ANY_TIME) is None
    game.play("claim dragon")
    then = asked(Turns(game), 0, person=_everyone, policy=OutOfTurn.ANY_TIME)
    assert then is not None and then.kind == Kind.CLAIM and Action("decline") in then.moves
    assert _own_view(game, then).legal == tuple(then.moves)


def test_a_trade_asks_the_offer_then_the_answer_with_what_it_answers() -> None:
    game = Game(Rules.preset("pagat").replace(trading="mutual"), TRADE_DEAL, leader=0)
    offer = asked(Turns(game))
    assert offer is not None and (offer.seat, offer.kind, offer.answers) == (0, Kind.OFFER, None)
    assert isinstance(offer.moves, TradeOffers)
    assert isinstance(_own_view(game, offer).legal, TradeOffers)
    game.play("offer 1 3s")
    answer = asked(Turns(game), person=_everyone, policy=OutOfTurn.HOLDING)
    assert answer is not None and (answer.seat, answer.kind) == (1, Kind.ANSWER)
    assert isinstance(answer.answers, TradeDecision)
    view = _own_view(game, answer)
    assert PASS not in view.legal and view.legal == tuple(answer.moves)
    assert asked(Turns(game), 0, person=_everyone, policy=OutOfTurn.ANY_TIME) is None
