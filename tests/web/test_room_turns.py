"""The web room asks its bots through the one turn API (tienlen/turns.py): under the house rule
``chop_out_of_turn`` every seat the rules let chop is asked, in turn order, whatever it holds;
a bot that lets a chop go is not asked again until someone moves; a person asked out of turn is
passed over at once (no chop window); and neither the order of asking nor the time a table
takes depends on who holds a chop. No server and no event loop: the room's own calls, as the
driver makes them (``bot_action``, then ``install``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from helpers import others_shuffled
from tienlen import PASS, Card, Game, Move, Play, Rules
from tienlen.view import View
from tienlen.web.room.room import Room
from tienlen.web.schema import open_repository
from tienlen.web.table import agent, clock
from tienlen.web.table.committer import Committer
from tienlen.web.table.hands import Hands
from tienlen.web.table.snapshot import Snapshot
from tienlen.web.table.state import TableState
from tienlen.web.tablelog.writes import TableSettings, Write

from .manual_time import ManualTime

RULES = Rules.preset("pagat").replace(chop_out_of_turn=True)
DELAY = 0.5
# seat 0 plays a two, seat 1 is on turn; only seat 3 holds a chop (a four of a kind) ...
HOLDS = ["2h 3c", "4c 5d 6h", "8c 9d Th", "7s 7c 7d 7h 9c"]
# ... or nobody does: seats 2 and 3 swap a card
HOLDS_NOT = ["2h 3c", "4c 5d 6h", "7h 9d Th", "7s 7c 7d 8c 9c"]


class Asked:
    """Every bot's questions in order: (the history's length, the seat, out of turn or not)."""

    def __init__(self) -> None:
        self.log: list[tuple[int, int, bool]] = []


class Bot:
    """Seat 0 plays its lowest play (leads included); any other seat passes on turn and lets
    every chop go; each question is noted."""

    def __init__(self, asked: Asked) -> None:
        self.asked = asked

    def choose(self, view: View) -> Move:
        out_of_turn = view.turn != view.seat
        self.asked.log.append((len(view.history), view.seat, out_of_turn))
        plays = [m for m in view.legal if isinstance(m, Play) and m.keys]
        if view.seat == 0 and view.turn == 0 and plays:
            return min(plays, key=lambda p: (len(p.keys), p.keys))
        return PASS if PASS in view.legal else view.legal[0]


def room_with(hands: Sequence[Sequence[Card]] | Sequence[str], people: Sequence[int],
              monkeypatch: pytest.MonkeyPatch) -> tuple[Room, Asked, list[Write]]:
    """A started four-seat table whose current hand is dealt ``hands`` (seat 0 leads); the
    seats in ``people`` are players, connected; the others are bots (:class:`Bot`)."""
    asked = Asked()
    monkeypatch.setattr(agent, "get_bot", lambda level, seed=None: Bot(asked))  # tables' bots
    monkeypatch.setattr(clock._jitter, "random", lambda: 0.5)  # the bot delay, exactly
    settings = TableSettings("t", RULES.to_toml(), 4, 1, away_timeout=60.0, turn_timer=0.0,
                             bot_level="random", fixed_seed=True, next_hand_after=0.0)
    log: list[Write] = []
    state = TableState(settings, log.append, ManualTime())
    for seat in range(4):
        if seat in people:
            state.join_seat(f"P{seat}", seat)
            state.seats[seat].clients.add(object())
        else:
            state.add_bot(seat)
    state.start()
    game = Game(RULES, list(hands), leader=0, first_hand=False)
    state.hands = Hands.from_snapshot(RULES, Snapshot(game.record(), totals=[0] * 4,
                                                      first_places=[0] * 4))
    repo = open_repository("sqlite://")
    return Room(repo, settings, DELAY, Committer(repo, time=state.time), state), asked, log


def play(room: Room, seat: int, move: str) -> None:
    """A person's move, made through the table's one write path (stored, then told)."""
    room.act(lambda: room.table.apply_move(seat, move))


def step(room: Room) -> bool:
    """One wake of the driver: the bot move owed now, made (False: none was)."""
    staged = room.clock.owed()
    if staged is None:
        return False
    room.table.install(staged)
    return True


def test_a_bot_that_let_a_chop_go_is_not_asked_again_until_someone_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    room, asked, _ = room_with(HOLDS, people=(0, 1), monkeypatch=monkeypatch)
    game = room.game
    assert game is not None
    play(room, 0, "2h")
    assert game.out_of_turn_seats() == [3]
    assert not step(room)  # seats 2 and 3 let it go; seat 1, a person, is on turn
    assert [(s, out) for _, s, out in asked.log] == [(2, True), (3, True)]
    assert room.clock.next_wake() is None  # nothing to do until the player acts
    for _ in range(3):  # the driver would wake again: nobody is asked again
        assert not step(room)
    assert len(asked.log) == 2
    play(room, 1, "pass")  # someone moved: a new chance for every seat
    assert step(room)
    assert len(asked.log) > 2 and asked.log[2][0] == len(game.history) - 1


def test_a_person_asked_out_of_turn_is_passed_over_at_once_and_may_chop_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # seat 3, a person, holds the chop; seat 1, a bot, is on turn and plays at the first wake
    room, asked, _ = room_with(HOLDS, people=(0, 3), monkeypatch=monkeypatch)
    game = room.game
    assert game is not None
    play(room, 0, "2h")
    assert room.clock.next_wake() == DELAY  # the bots asked: seat 2 out of turn, then seat 1
    assert room.table.asked() is not None
    assert step(room)
    assert [(s, out) for _, s, out in asked.log] == [(2, True), (1, False)]
    assert game.history[-1][0] == 1
    chops = [m for m in game.legal_plays(3) if isinstance(m, Play) and m.keys]
    if chops:  # while the game lets seat 3 chop, its chop is taken whenever it comes
        play(room, 3, str(chops[0]))
        assert game.history[-1] == (3, chops[0])


def wakes(hands: Sequence[str], people: Sequence[int],
          monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, Any]]:
    """After seat 0 plays its two: each wake the clock arranges (its wait), and what the bots
    made at it (the seat that moved, or None), until the table waits for a person (at most 6)."""
    room, _, _ = room_with(hands, people, monkeypatch)
    game = room.game
    assert game is not None
    play(room, 0, "2h")
    seen: list[tuple[float, Any]] = []
    while len(seen) < 6 and (wait := room.clock.next_wake()) is not None:
        seen.append((wait, game.history[-1][0] if step(room) else None))
    return seen


@pytest.mark.parametrize("people", [(0, 1), (0,)], ids=["a person on turn", "a bot on turn"])
def test_the_time_before_the_next_move_does_not_show_who_holds_a_chop(
        people: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that lets a chop go adds no wake (and no wait) that a bot without one would not:
    the bots out of turn answer at one wake, the seat on turn's bot at the same one."""
    holds, holds_not = wakes(HOLDS, people, monkeypatch), wakes(HOLDS_NOT, people, monkeypatch)
    assert holds == holds_not
    assert holds == ([(DELAY, None)] if people == (0, 1) else [(DELAY, 1), *holds[1:]])


def _asking_order(hands: list[list[Card]],
                  monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """Seat 0 leads and plays its lowest play at each turn, every other seat passes on turn and
    lets every chop go, until seat 0 has played its cards: the (history's length, seat) of each
    bot asked, and the seats that held a chop at each play (``Game.out_of_turn_seats``)."""
    room, asked, _ = room_with(hands, people=(), monkeypatch=monkeypatch)
    game = room.game
    assert game is not None
    holders: list[list[int]] = []
    seen = -1
    for _ in range(1000):
        if not game.hand(0) or game.is_over:
            break
        if len(game.history) != seen:
            seen = len(game.history)
            holders.append(game.out_of_turn_seats())
        assert step(room)
    return [(n, s) for n, s, _ in asked.log], holders


def test_the_room_asks_its_bots_in_an_order_that_does_not_depend_on_the_other_seats_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two deals that differ only in the other seats' cards: the bots are asked in the same
    order (seats, at the same moments) while nobody chops, although the seats holding a chop
    differ (tests/test_turns.py holds the engine's turn API to the same)."""
    rng = random.Random(20)
    differs = out_of_turn = 0
    for seed in range(25):
        game = Game.deal(RULES, 4, seed=seed)
        a = [list(game.hand(s)) for s in range(4)]
        b = others_shuffled(game, rng)
        order_a, holders_a = _asking_order(a, monkeypatch)
        order_b, holders_b = _asking_order(b, monkeypatch)
        assert order_a == order_b, seed
        differs += holders_a != holders_b
        out_of_turn += sum(1 for i, (n, s) in enumerate(order_a)
                           if i and order_a[i - 1][0] == n)  # several asked at one moment
    assert differs and out_of_turn  # the hidden cards would have shown before


def test_a_bot_that_fails_out_of_turn_lets_the_chop_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's failure never stops the table, and never chops for it: out of turn it passes."""
    room, _, _ = room_with(HOLDS, people=(0, 1), monkeypatch=monkeypatch)

    class Broken:
        def choose(self, view: View) -> Move:
            raise RuntimeError("a bug in the bot")

    monkeypatch.setattr(agent, "get_bot", lambda level, seed=None: Broken())
    game = room.game
    assert game is not None
    play(room, 0, "2h")
    assert game.out_of_turn_seats() == [3]  # seat 3 holds four sevens
    assert not step(room)  # seats 2 and 3 let it go: seat 1, a person, is on turn
    assert game.table_seat == 0 and game.turn == 1
