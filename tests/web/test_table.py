"""A table's state on its own (web/table/state.py): seats, host, staging, the log and the snapshot,
with no server, no event loop and no database (its writes go to a list)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")

from tienlen import Rules
from tienlen.web.room.views import seat_view
from tienlen.web.table.state import Refused, TableState
from tienlen.web.tablelog.writes import SeatChange, StoredTable, TableSettings, Write

from .manual_time import ManualTime


def settings(players: int = 3, host: int | None = None, seed: int = 7,
             fixed: bool = True) -> TableSettings:
    return TableSettings("t1", Rules.preset("pagat").to_toml(), players, seed,
                         away_timeout=60.0, turn_timer=0.0, name="Test", bot_level="random",
                         host_seat=host, fixed_seed=fixed, next_hand_after=0.0)


def made(players: int = 3, host: int | None = None) -> tuple[TableState, list[Write]]:
    log: list[Write] = []
    return TableState(settings(players, host), log.append), log


def stored(table: TableState, log: list[Write], since: int = 0) -> StoredTable:
    """What the storage would give back for ``table``: its seats, the snapshot of entry
    ``since`` (0: none), and the entries after it."""
    seats: dict[int, SeatChange] = {}
    for write in log:
        if write.seat is not None:
            seats[write.seat.seat] = write.seat
    snap = next(((w.entry.idx + 1, w.snapshot) for w in log
                 if w.snapshot is not None and w.entry.idx + 1 == since), None)
    return StoredTable(table.settings, {k: v for k, v in seats.items() if v.kind != "empty"},
                       [w.entry for w in log if w.entry.idx >= since], snap)


def test_the_first_player_to_sit_at_a_table_made_without_a_name_hosts_it() -> None:
    table, log = made()
    assert table.host is None
    seat, token = table.join_seat("Lan", 1)
    assert seat == 1 and table.host == 1 and table.seat_of(token) == 1
    assert log[-1].host == (1,) and log[-1].seat == SeatChange(1, "human", "Lan", None,
                                                                log[-1].seat.token_hash)
    table.join_seat("Minh")
    with pytest.raises(Refused, match="only the table's host"):
        table.add_bot(by=0)
    assert table.add_bot(by=1) == 2 and table.seats[2].name == "Bot 1"
    with pytest.raises(Refused, match="every seat is taken"):
        table.join_seat("Hoa")
    assert [w.entry.kind for w in log] == ["join", "join", "bot"]
    assert [w.entry.idx for w in log] == [0, 1, 2] and table.version == 3


def test_the_hosts_role_passes_when_the_host_leaves_before_the_start() -> None:
    table, log = made(host=0)
    table.join_seat("Lan", 0)
    table.join_seat("Minh", 1)
    table.add_bot(by=0)
    with pytest.raises(Refused):
        table.remove_seat(by=1, seat=2)
    table.leave(0)
    assert table.host == 1 and log[-1].host == (1,) and table.seats[0].kind == "empty"
    table.remove_seat(by=1, seat=2)
    assert table.seats[2].kind == "empty"
    with pytest.raises(Refused, match="empty"):
        table.start(by=1)


def test_a_refused_command_stores_nothing() -> None:
    table, log = made()
    table.join_seat("Lan")
    with pytest.raises(Refused):
        table.join_seat("Lan")
    with pytest.raises(Refused):
        table.apply_move(0, "3c")  # not started
    assert len(log) == 1 and table.version == 1


def started(players: int = 3) -> tuple[TableState, list[Write]]:
    table, log = made(players)
    table.join_seat("Lan", 0)
    while any(s.kind == "empty" for s in table.seats):
        table.add_bot()
    table.start()
    return table, log


def test_a_new_tables_writes_are_held_and_taken_together() -> None:
    log: list[Write] = []
    table = TableState(settings(), log.append)
    table.hold_writes()
    table.join_seat("Lan", 0)
    table.add_bot()
    table.leave(0)
    table.join_seat("Minh", 0)
    entries, seats = table.take_writes()
    assert not log and [e.kind for e in entries] == ["join", "bot", "leave", "join"]
    assert sorted((c.seat, c.kind, c.name) for c in seats) == [(0, "human", "Minh"),
                                                               (1, "bot", "Bot 1")]
    table.add_bot()
    assert [w.entry.kind for w in log] == ["bot"]  # written again once taken


def test_a_staged_bot_move_changes_nothing_until_it_is_installed() -> None:
    table, log = started()
    game = table.game
    assert game is not None
    while game.turn == 0:  # seat 0, the player, is connected: the bots wait for them
        table.seats[0].clients.add(object())
        table.apply_move(0, str(game.legal_plays()[0]))
    before, version, record, moves = len(log), table.version, game.record(), len(game.history)
    staged = table.bot_move(at=time.time())
    assert staged is not None and staged.seat == game.turn
    assert (len(log), table.version, game.record()) == (before, version, record)
    assert staged.write.entry.idx == version and staged.write.entry.kind == "bot_move"
    table.install(staged)
    assert table.version == version + 1 and len(game.history) == moves + 1
    assert game.history[-1] == (staged.seat, staged.move)
    assert len(log) == before  # the driver stores it, not the table


def test_a_person_on_turn_is_waited_for() -> None:
    table, _ = started()
    game = table.game
    assert game is not None
    table.seats[0].clients.add(object())
    while game.turn != 0 and not game.is_over:
        staged = table.bot_move(at=0.0)
        assert staged is not None
        table.install(staged)
    assert table.bot_move(at=0.0) is None  # the player's turn: no bot plays it
    table.seats[0].clients.clear()
    table.seats[0].away_since = time.monotonic() - 61  # away longer than away_timeout
    assert table.bot_controlled(0)
    staged = table.bot_move(at=0.0)
    assert staged is not None and staged.seat == 0


def test_a_table_restored_from_its_snapshot_and_log_is_the_same_table() -> None:
    table, log = started()
    game = table.game
    assert game is not None
    table.seats[0].clients.add(object())
    for _ in range(6):  # a few moves after the start's snapshot, the player's among them
        if game.turn == 0:
            table.apply_move(0, str(game.legal_plays()[-1]))
        else:
            staged = table.bot_move(at=0.0)
            assert staged is not None
            log.append(staged.write)  # what the driver stores
            table.install(staged)
    for since in (0, 4):  # the whole log, or the start's snapshot and the entries after it
        again = TableState.restore(stored(table, log, since), log.append)
        assert again.version == table.version
        assert again.game is not None and again.game.record() == game.record()
        assert again.snapshot() == table.snapshot()
        assert [(s.kind, s.name) for s in again.seats] == [(s.kind, s.name) for s in table.seats]
        assert again.seats[0].away_since is not None  # not connected after a restart


def test_the_asks_for_the_next_hand_are_kept_in_the_log() -> None:
    table, log = made(players=2)
    table.join_seat("Lan", 0)
    table.join_seat("Minh", 1)
    table.start()
    game = table.game
    assert game is not None
    for seat in (0, 1):
        table.seats[seat].clients.add(object())
    while not game.is_over:
        seat = game.turn
        assert seat is not None
        table.apply_move(seat, str(game.legal_plays()[0]))
    with pytest.raises(Refused, match="stale"):
        table.ask_next_hand(0, table.version - 1)
    table.ask_next_hand(0, table.version)
    assert list(table.asks) == [0] and log[-1].entry.kind == "ask"
    again = TableState.restore(stored(table, log), log.append)
    assert again.asks == table.asks and again.hand_no == 1
    table.ask_next_hand(1, table.version - 1)  # it saw the end: not stale, and deals
    assert table.hand_no == 2 and table.asks == {} and log[-1].entry.kind == "next"
    assert log[-1].snapshot == table.snapshot()


def test_the_moves_bots_made_are_marked_for_a_bots_seat_and_an_away_player() -> None:
    table, log = started()
    game = table.game
    assert game is not None
    table.seats[0].clients.add(object())  # Lan is here: she plays her own moves
    made_by: list[str] = []
    for _ in range(12):
        if game.turn == 0:
            table.apply_move(0, str(game.legal_plays()[0]))
            made_by.append("Lan")
        else:
            staged = table.bot_move(at=time.time())
            assert staged is not None
            table.install(staged)
            log.append(staged.write)  # as the driver stores it
            made_by.append("bot")
    table.seats[0].clients.clear()  # Lan goes away: past the away timeout a bot plays for her
    table.seats[0].away_since = time.monotonic() - 120
    while game.turn != 0:
        staged = table.bot_move(at=time.time())
        assert staged is not None
        table.install(staged)
        log.append(staged.write)
        made_by.append("bot")
    staged = table.bot_move(at=time.time())
    assert staged is not None and staged.seat == 0  # played for Lan, who is away
    table.install(staged)
    log.append(staged.write)
    made_by.append("bot")
    events = seat_view(game, 0, timer=table.timer_moves(), bots=table.bot_moves()).events
    assert ["bot" if e.bot else "Lan" for e in events] == made_by
    again = TableState.restore(stored(table, log), lambda w: None)
    assert again.bot_moves() == table.bot_moves()  # the log says so after a restart too


def timed_table(players: int = 3) -> tuple[TableState, list[Write], ManualTime]:
    """Lan (seat 0, the host) and bots, started, on a time the test moves (manual_time.py)."""
    clock = ManualTime()
    log: list[Write] = []
    table = TableState(settings(players, host=0), log.append, clock)
    table.join_seat("Lan", 0)
    for _ in range(players - 1):
        table.add_bot(by=0)
    table.start(by=0)
    return table, log, clock


def test_a_player_is_away_by_the_tables_time_until_the_away_timeout_gives_the_seat_a_bot() -> None:
    table, _, clock = timed_table()
    assert table.away_for(0) == 0.0  # seated now, not connected yet
    clock.advance(59.5)
    assert table.away_for(0) == 59.5 and not table.bot_controlled(0) and table.waited_for() == [0]
    clock.advance(0.5)
    assert table.bot_controlled(0) and table.waited_for() == []
    table.seats[0].clients.add(object())  # back: here, whatever the time
    assert table.away_for(0) == -1.0 and not table.bot_controlled(0)


def test_a_kick_waits_for_the_grace_by_the_tables_time() -> None:
    clock = ManualTime()
    table = TableState(settings(host=0), lambda w: None, clock)
    table.join_seat("Lan", 0)
    table.join_seat("Minh", 1)
    table.add_bot(by=0)
    table.start(by=0)
    clock.advance(59.0)  # the table's away timeout (60 s) is longer than the least grace
    with pytest.raises(Refused, match="away less than 60 seconds"):
        table.kick(0, 1)
    clock.advance(1.0)
    table.kick(0, 1)
    assert table.seats[1].kind == "bot"


def test_an_ask_for_the_next_hand_is_stored_at_the_tables_time() -> None:
    clock = ManualTime()
    log: list[Write] = []
    table = TableState(settings(players=2), log.append, clock)
    table.join_seat("Lan", 0)
    table.join_seat("Minh", 1)
    table.start()
    for seat in (0, 1):
        table.seats[seat].clients.add(object())
    while (staged := table.bot_move(clock.wall(), out_of_time=True)) is not None:
        log.append(staged.write)  # as the driver stores it
        table.install(staged)
    clock.advance(12.3456)
    table.ask_next_hand(0, table.version)
    assert log[-1].entry.text == f"{clock.wall():.3f}"
    assert table.asks == {0: round(clock.wall(), 3)}
    again = TableState.restore(stored(table, log), log.append, clock)
    assert again.asks == table.asks and again.game is not None and again.game.is_over
