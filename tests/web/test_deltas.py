"""After its first state a connection is sent deltas (web/room/deltas.py): each one, applied to the
state the client holds, makes the very state the server would have sent whole; no server here."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

pytest.importorskip("pydantic")

from tienlen import PASS, Game, Rules, Session
from tienlen.bots import get_bot
from tienlen.turns import Turns
from tienlen.web.room.deltas import apply_delta, update
from tienlen.web.room.protocol import Delta, SeatInfo, State, TableInfo, event_body, with_seq
from tienlen.web.room.views import PlayTexts, seat_view


def info(players: int, deadline: float | None = None) -> TableInfo:
    seats = [SeatInfo(seat=s, name=f"P{s}", kind="bot", level="greedy") for s in range(players)]
    return TableInfo(id="t", name="t", next_hand_after=0.0, turn_deadline=deadline,
                     status="playing", rules="mien-nam", options={}, players=players, seats=seats,
                     hand_no=1, totals=[0] * players, first_places=[0] * players, records=0,
                     away_timeout=60.0, turn_timer=0.0)


def states(game: Game, seat: int | None, plays: PlayTexts) -> list[State]:
    """The state of ``seat`` after every move of a whole hand played by bots (each with a
    turn deadline of its own, so that the table's info changes too)."""
    players = game.players
    bots = [get_bot("greedy", seed=s) for s in range(players)]
    made: list[State] = []

    def push(move: Any, by: int) -> None:
        game.play(move, seat=by)
        made.append(State(version=len(made) + 1, at=float(len(made)),
                          info=info(players, deadline=float(len(made))),
                          view=seat_view(game, seat, plays)))

    made.append(State(version=0, info=info(players), view=seat_view(game, seat, plays)))
    turns = Turns(game, push=push)
    while (asked := turns.next()) is not None:
        view = game.view(asked.seat)
        if asked.out_of_turn:
            view = dataclasses.replace(view, legal=(*view.legal, PASS))
        turns.answer(asked.seat, bots[asked.seat].choose(view))
    return made


def wire(event: State | Delta, seq: int) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(with_seq(seq, event_body(event)))
    return loaded


@pytest.mark.parametrize("seat", [0, 5, None])
def test_every_delta_of_an_eight_player_hand_makes_the_whole_state(seat: int | None) -> None:
    session = Session(Rules.preset("mien-nam"), 8, seed=3)
    made = states(session.game, seat, PlayTexts())
    assert len(made) > 20 and made[-1].view is not None and made[-1].view.is_over
    held = wire(made[0], 1)
    whole = delta = len(json.dumps(held))
    for n, state in enumerate(made[1:], 2):
        sent = update(made[n - 2], state)
        assert isinstance(sent, Delta) and sent.base == made[n - 2].version
        held_next = apply_delta(held, wire(sent, n))
        assert held_next is not None
        assert State.model_validate(held_next) == state.model_copy(update={"seq": n})
        held = held_next
        whole += len(event_body(state))
        delta += len(event_body(sent))
    assert delta * 5 < whole  # a long hand does not resend itself at every move


def test_a_delta_for_another_version_is_not_applied() -> None:
    made = states(Session(Rules.preset("pagat"), 4, seed=1).game, 0, PlayTexts())
    held = wire(made[0], 1)
    late = wire(update(made[1], made[2]), 3)  # the client never got version 1
    assert apply_delta(held, late) is None


def test_a_state_whose_seat_or_view_changed_is_sent_whole() -> None:
    game = Session(Rules.preset("pagat"), 4, seed=1).game
    one = State(version=1, info=info(4), view=seat_view(game, 0))
    assert update(None, one) is one
    assert isinstance(update(one, one.model_copy(update={"view": seat_view(game, 1)})), State)
    assert isinstance(update(one.model_copy(update={"view": None}), one), State)
    same = update(one, one)
    assert isinstance(same, Delta) and same.info is None and same.view is None


def test_a_delta_names_only_fields_the_state_has() -> None:
    with pytest.raises(ValueError, match="SeatView has no field history"):
        Delta.model_validate({"version": 2, "base": 1, "view": {"set": {"history": []}}})
