"""The web room asks out of turn in the turn API's order (issue 20): a player asked out of turn
is waited for in their place, for one chop window whatever they hold, and a seat that let a
chop go is not asked again until someone moves."""

from __future__ import annotations

import time

from tienlen import Rules
from tienlen.web.room import CHOP_WINDOW, Room
from tienlen.web.storage import Repository, TableSettings


def _table(seed: int) -> tuple[Room, Repository]:
    rules = Rules.preset("pagat").replace(chop_out_of_turn=True)
    repo = Repository("sqlite://")
    settings = TableSettings("t", rules.to_toml(), 4, seed, away_timeout=3600.0, turn_timer=0.0,
                             name="t", bot_level="random", host_seat=0, fixed_seed=True,
                             next_hand_after=0.0)
    room = Room(repo, settings, bot_delay=0.0)
    room.hold_writes()
    room.join_seat("Ann", 0)
    for _ in range(3):
        room.add_bot(None)
    room.start()
    entries, seats = room.take_writes()
    repo.create_table(settings, seats, entries, (room.version, room.snapshot()))
    return room, repo


def _until_asked_out_of_turn(room: Room, repo: Repository) -> None:
    """Let the bots play (and seat 0 pass or lead) until seat 0 is asked out of turn."""
    for _ in range(500):
        game = room.game
        assert game is not None and not game.is_over
        asked = room._asked_now(time.monotonic())
        assert asked is not None
        if asked[0] == 0 and asked[1]:
            return
        staged = room.bot_action()
        if staged is not None:
            repo.append_many([staged.write])
            room.install(staged)
            continue
        asked = room._asked_now(time.monotonic())
        assert asked is not None and asked[0] == 0
        if asked[1]:
            return
        room.apply_move(0, str(game.legal_plays(0)[-1]))
    raise AssertionError("seat 0 never asked out of turn")


def test_a_player_asked_out_of_turn_is_waited_for_then_passed_for() -> None:
    room, repo = _table(1)
    _until_asked_out_of_turn(room, repo)
    assert room.chop_window == CHOP_WINDOW
    version = room.version
    assert room.bot_action() is None  # no bot after seat 0 chops first: the table waits
    wait = room._next_wake()
    assert wait is not None and 0 < wait <= CHOP_WINDOW
    room.chop_window = 0.0  # the window runs out: pass is answered for seat 0
    staged = room.bot_action()
    turns = room._turns
    assert turns is not None and room.version == version
    assert 0 in turns.declined and 0 not in turns.queue  # not asked again until someone moves
    after = room._asked_now(time.monotonic())
    assert staged is not None or (after is not None and after[0] != 0)


def test_a_player_lets_a_chop_go_with_pass_and_is_not_asked_again() -> None:
    room, repo = _table(1)
    _until_asked_out_of_turn(room, repo)
    version = room.version
    room.apply_move(0, "pass")
    assert room.version == version  # a decline is not stored: nobody learns of it
    turns = room._turns
    assert turns is not None and 0 in turns.declined
    asked = room._asked_now(time.monotonic())
    assert asked is not None and asked[0] != 0
