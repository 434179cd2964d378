"""A table's clock (web/table/clock.py) on a time the test moves by hand (manual_time.py): the turn
timer, the away timeout, the next hand's countdown, a bot's move falling due, and the wake it
arranges for them; no server, no event loop, no real second waited."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")

from tienlen import Rules
from tienlen.web.room.room import Room
from tienlen.web.schema import open_repository
from tienlen.web.table.clock import JITTER, WAKE_STEP, Clock
from tienlen.web.table.committer import Committer
from tienlen.web.table.state import TableState
from tienlen.web.tablelog.writes import TableSettings, Write

from .manual_time import ManualTime

BOT_DELAY = 1.0


def table_of(time: ManualTime, people: int = 1, players: int = 3, turn_timer: float = 0.0,
             away_timeout: float = 60.0, next_hand_after: float = 0.0, here: bool = True,
             store: Callable[[Write], None] | None = None,
             made: Callable[[TableSettings], None] = lambda settings: None) -> TableState:
    """A practice table of pagat, started: ``people`` players (Lan, Minh...: ``here``, each
    connected), bots in the other seats; its writes go to ``store`` (default: a list), once
    ``made`` has made the table there."""
    settings = TableSettings("t1", Rules.preset("pagat").to_toml(), players, 7,
                             away_timeout=away_timeout, turn_timer=turn_timer, name="Clock",
                             bot_level="random", fixed_seed=True, next_hand_after=next_hand_after)
    log: list[Write] = []
    made(settings)
    table = TableState(settings, store or log.append, time)
    for name in ["Lan", "Minh", "Hoa"][:people]:
        seat, _ = table.join_seat(name)
        if here:
            table.seats[seat].clients.add(object())
    while any(s.kind == "empty" for s in table.seats):
        table.add_bot()
    table.start()
    return table


class Timed:
    """A table's clock whose wakes land in ``due`` (the versions the driver is told of)."""

    def __init__(self, table: TableState, watched: bool = True) -> None:
        self.table = table
        self.due: list[int] = []
        self.watched = watched
        self.clock = Clock(table, BOT_DELAY, self.due.append, lambda: self.watched)

    def bots_until_person(self) -> None:
        """Make the bots' moves (as the driver does) until a person is asked."""
        while (staged := self.table.bot_move(self.table.time.wall())) is not None:
            self.table.install(staged)
        assert self.table.asked() is not None


def test_the_bots_of_many_tables_wake_on_the_clocks_steps_within_their_jitter() -> None:
    wakes = []
    for k in range(40):  # each table arranges its wake at another instant, between two steps
        arranged = 1000.003 + 0.0037 * k
        time = ManualTime(now=arranged)
        Timed(table_of(time, people=0)).clock.schedule()
        [wake] = time.pending()
        assert BOT_DELAY * (1 - JITTER) <= wake - arranged <= BOT_DELAY * (1 + JITTER)
        assert wake / WAKE_STEP == pytest.approx(round(wake / WAKE_STEP), abs=1e-6)
        wakes.append(round(wake / WAKE_STEP))
    assert len(set(wakes)) < len(wakes)  # some of them wake together


def test_a_bots_move_falls_due_after_the_bot_delay_and_not_before() -> None:
    time = ManualTime()
    timed = Timed(table_of(time, people=0))
    timed.clock.schedule()
    [wake] = time.pending()
    assert BOT_DELAY * (1 - JITTER) <= wake - time() <= BOT_DELAY * (1 + JITTER)
    time.advance(BOT_DELAY * (1 - JITTER) - 0.01)
    assert timed.due == []
    time.advance(2 * JITTER * BOT_DELAY + 0.01)
    assert timed.due == [timed.table.version]
    staged = timed.clock.owed()
    assert staged is not None and staged.write.entry.kind == "bot_move"
    assert staged.at == pytest.approx(time.wall() - (time() - wake))  # when it was due


def test_a_person_on_turn_is_waited_for_without_a_wake() -> None:
    time = ManualTime()
    timed = Timed(table_of(time, people=3))  # everyone here, no timer: nothing to wake for
    timed.clock.schedule()
    assert time.pending() == [] and not timed.clock.armed
    assert timed.clock.owed() is None


def test_the_turn_timer_runs_out_at_its_deadline_and_the_timer_moves() -> None:
    time = ManualTime()
    table = table_of(time, people=1, turn_timer=30.0)
    timed = Timed(table)
    timed.bots_until_person()
    timed.clock.restart()  # the last change: the turn begins
    assert timed.clock.turn_deadline() == pytest.approx(time.wall() + 30.0, abs=1e-3)
    timed.clock.schedule()
    assert time.pending() == [pytest.approx(time() + 30.0)]
    time.advance(29.9)
    assert timed.due == [] and timed.clock.owed() is None  # not out of time yet
    time.advance(0.1)
    assert timed.due == [table.version]
    staged = timed.clock.owed()
    assert staged is not None and staged.seat == 0 and staged.write.entry.kind == "timer"


def test_a_restored_table_gives_the_player_on_turn_no_new_time() -> None:
    time = ManualTime()
    table = table_of(time, people=1, turn_timer=30.0)
    timed = Timed(table)
    timed.bots_until_person()
    table.last_change = time.wall() - 20.0  # stored 20 s before the restart
    restored = Clock(table, BOT_DELAY, timed.due.append, lambda: True)
    assert restored.turn_deadline() == pytest.approx(time.wall() + 10.0, abs=1e-3)


def test_a_player_away_past_the_away_timeout_is_played_by_a_bot() -> None:
    time = ManualTime()
    table = table_of(time, people=1, away_timeout=60.0)
    timed = Timed(table)
    timed.bots_until_person()
    table.seats[0].clients.clear()  # Lan's page closes: away from now
    table.seats[0].away_since = time()
    timed.clock.schedule()
    assert time.pending() == [pytest.approx(time() + 60.0)]
    time.advance(59.0)
    assert timed.due == [] and not table.bot_controlled(0)
    time.advance(1.0)
    assert timed.due == [table.version] and table.bot_controlled(0)
    staged = timed.clock.owed()
    assert staged is not None and staged.seat == 0 and staged.write.entry.kind == "bot_move"


def finish(table: TableState) -> None:
    """Play the hand to its end, a bot's move for every seat."""
    while (staged := table.bot_move(table.time.wall(), out_of_time=True)) is not None:
        table.install(staged)
    assert table.game is not None and table.game.is_over


def test_the_next_hand_is_dealt_when_the_countdown_from_the_first_ask_ends() -> None:
    time = ManualTime()
    table = table_of(time, people=2, turn_timer=30.0, next_hand_after=15.0)
    timed = Timed(table)
    finish(table)
    assert timed.clock.next_hand_at() is None  # nobody asked: no countdown
    table.ask_next_hand(0, table.version)
    asked_at = time.wall()
    assert timed.clock.next_hand_at() == pytest.approx(asked_at + 15.0, abs=1e-3)
    time.advance(5.0)
    timed.clock.schedule()
    assert time.pending() == [pytest.approx(time() + 10.0, abs=1e-3)]
    time.advance(9.9)
    assert timed.due == [] and timed.clock.owed() is None
    time.advance(0.1)
    assert timed.due == [table.version]
    staged = timed.clock.owed()
    assert staged is not None and staged.move is None and staged.write.entry.kind == "next"


def test_a_finished_hand_waits_for_no_player_who_is_away() -> None:
    """Minh has not asked, but he has been gone past the away timeout: Lan's ask deals."""
    time = ManualTime()
    table = table_of(time, people=2, away_timeout=60.0)
    timed = Timed(table)
    finish(table)
    table.ask_next_hand(0, table.version)
    table.seats[1].clients.clear()
    table.seats[1].away_since = time()
    timed.clock.schedule()
    assert time.pending() == [pytest.approx(time() + 60.0)]
    time.advance(60.0)
    assert timed.due == [table.version]
    staged = timed.clock.owed()
    assert staged is not None and staged.write.entry.kind == "next"


def test_a_bots_only_table_deals_only_while_watched() -> None:
    time = ManualTime()
    table = table_of(time, people=0)
    timed = Timed(table, watched=False)
    finish(table)
    timed.clock.schedule()
    assert time.pending() == [] and timed.clock.owed() is None and timed.clock.paused
    timed.watched = True
    timed.clock.schedule()
    time.advance(BOT_DELAY * (1 + JITTER))
    assert timed.due == [table.version]
    staged = timed.clock.owed()
    assert staged is not None and staged.write.entry.kind == "next"


def test_a_wake_for_a_table_that_moved_on_arranges_a_new_one_and_stop_arranges_none() -> None:
    time = ManualTime()
    table = table_of(time, people=0)
    timed = Timed(table)
    timed.clock.schedule()
    staged = table.bot_move(time.wall())  # someone acted meanwhile (as the driver does)
    assert staged is not None
    table.install(staged)
    time.advance(BOT_DELAY * (1 + JITTER))
    assert timed.due == [] and timed.clock.armed  # the old version's wake: asked again later
    timed.clock.stop()
    assert not timed.clock.armed and time.pending() == []
    timed.clock.schedule()
    assert time.pending() == [] and timed.clock.owed() is None


def test_a_bots_only_room_plays_its_hand_as_the_test_moves_time(tmp_path: Path) -> None:
    """Table, clock, inbox, committer and storage together: each move falls due (a tick in the
    table's inbox), is made and stored, then told."""
    time = ManualTime()
    repo = open_repository(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    try:
        table = table_of(time, people=0, store=lambda w: repo.append_many([w]),
                         made=repo.create_table)
        committer = Committer(repo, time=time)
        room = Room(repo, table.settings, BOT_DELAY, committer, table)
        room.changed()
        time.advance(BOT_DELAY * (1 + JITTER) * 200)
        game = table.game
        assert game is not None and game.is_over
        assert committer.stats.moves == len(game.history)
        assert committer.stats.batches == committer.stats.moves
        assert [e.kind for e in repo.log(table.id)][-1] == "bot_move"
        assert len(repo.log(table.id)) == table.version
    finally:
        repo.close()
