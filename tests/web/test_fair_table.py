"""Fairness at a rated table, on the table's state alone (web/table/state.py, no server): who may
hold a seat and which connections play it, the grace a player away has before a kick, and
what absence at a hand's end costs. Time is the tests' own (``now``, monotonic seconds)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")

from tienlen import Rules
from tienlen.web.table.state import MIN_GRACE, Refused, TableState
from tienlen.web.tablelog.writes import TableSettings, Write


def table_of(rated: bool = True, away_timeout: float = 0.0,
             players: int = 3) -> tuple[TableState, list[Write]]:
    """A table of pagat (rated in the published family; ``rated`` False: a practice table)."""
    log: list[Write] = []
    settings = TableSettings("t1", Rules.preset("pagat").to_toml(), players, 7,
                             away_timeout=away_timeout, turn_timer=0.0, name="Test",
                             bot_level="random", host_seat=0, fixed_seed=not rated,
                             next_hand_after=0.0)
    return TableState(settings, log.append), log


def lan_and_minh(rated: bool = True, away_timeout: float = 0.0) -> tuple[TableState, list[Write]]:
    """Lan (the host, seat 0) and Minh (seat 1) from their own browsers, a bot at seat 2,
    started; both connected."""
    table, log = table_of(rated, away_timeout)
    table.join_seat("Lan", 0, "lan", "lan-browser")
    table.join_seat("Minh", 1, "minh", "minh-browser")
    table.add_bot(by=0)
    table.start(by=0)
    for seat in (0, 1):
        table.seats[seat].clients.add(object())
    return table, log


def test_a_rated_table_seats_identities_one_seat_each_and_its_seats_play_for_them() -> None:
    table, log = table_of()
    with pytest.raises(Refused, match="seats only a player the room knows"):
        table.join_seat("Script", 1)  # no identity: a script known by a token alone
    table.join_seat("Lan", 0, "lan", "lan-browser")
    with pytest.raises(Refused, match="seat 0 is yours already"):
        table.join_seat("Lan again", 1, "lan", "another-browser")
    with pytest.raises(Refused, match="this browser already holds seat 0"):
        table.join_seat("Minh", 1, "minh", "lan-browser")
    assert [w.entry.kind for w in log] == ["join"]  # the refusals stored nothing
    _, minh_token = table.join_seat("Minh", 1, "minh", "minh-browser")
    assert table.seat_of(minh_token) == 1
    # Minh's token plays Minh's seat from Minh's identity, Minh's browser or a script of
    # Minh's (no identity, no browser), never from another's
    table.check_player(1, "minh", None)
    table.check_player(1, None, "minh-browser")
    table.check_player(1, None, None)
    for owner, device in (("lan", "lan-browser"), ("lan", None), (None, "lan-browser"),
                          ("hoa", None)):
        with pytest.raises(Refused, match="not by its token"):
            table.check_player(1, owner, device)
    # an unrated table seats a script, and a token is enough there
    practice, _ = table_of(rated=False)
    practice.join_seat("Script", 0)
    practice.join_seat("Lan", 1, "lan", "lan-browser")
    practice.check_player(1, None, None)


def test_a_seat_left_to_a_bot_or_kept_for_the_next_hand_is_a_seat_held() -> None:
    """Lan left seat 0 (a bot plays it; hers to take back): quick match may not keep the bot's
    seat 2 for her too, which would give one person two seats of the next hand once she took
    hers back (and the hand's rating would fail); kept for Hoa, seat 2 is Hoa's one."""
    table, _ = lan_and_minh()
    table.leave(0)
    with pytest.raises(Refused, match="seat 0 is yours already"):
        table.reserve(2, "lan", "Lan")
    table.reserve(2, "hoa", "Hoa", "hoa-browser")
    assert table.come_back("lan", 0, "lan-browser")[0] == 0  # her own seat, the one she holds
    assert [s.owner for s in table.seats] == ["lan", "minh", None]
    assert {seat: kept.owner for seat, kept in table.reserved.items()} == {2: "hoa"}


def test_a_rated_tables_grace_is_forty_seconds_at_least() -> None:
    assert MIN_GRACE == 40.0
    assert table_of(away_timeout=0)[0].away_timeout == MIN_GRACE
    assert table_of(away_timeout=90)[0].away_timeout == 90
    assert table_of(rated=False, away_timeout=0)[0].away_timeout == 0  # a choice there


@pytest.mark.parametrize("rated", [True, False], ids=["rated", "unrated"])
def test_a_kick_needs_the_player_gone_for_the_grace(rated: bool) -> None:
    """A reload is not absence: the host of any table kicks a player only once their last
    connection has been closed for MIN_GRACE seconds (the table's away timeout if longer)."""
    table, log = lan_and_minh(rated)
    closed = 1000.0
    table.seats[1].clients.clear()  # Minh's page reloads (or the tab is closed)
    table.seats[1].away_since = closed
    for now in (closed, closed + 1, closed + MIN_GRACE - 0.5):
        with pytest.raises(Refused, match="has been away less than 40 seconds"):
            table.kick(0, 1, now=now)
    assert log[-1].entry.kind == "start"  # nothing stored
    table.kick(0, 1, now=closed + MIN_GRACE)
    assert table.seats[1].kind == "bot" and "minh" in table.barred


def play_out(table: TableState, log: list[Write], now: float,
             back_after: int | None = None) -> Write:
    """Play the hand to its end at ``now``: the people on turn who are here by hand, the rest
    by their bots (an away player's too); with ``back_after``, Minh's page comes back after
    that many moves. The write that ended the hand."""
    game = table.game
    assert game is not None
    moves = 0
    while not game.is_over:
        if back_after is not None and moves == back_after:
            table.seats[1].clients.add(object())
            table.seats[1].away_since = None
        asked = table.asked(now)
        assert asked is not None
        if not table.bot_controlled(asked.seat, now) and not asked.out_of_turn:
            table.apply_move(asked.seat, str(table.choose(asked.seat)))
            last = log[-1]
        else:
            staged = table.bot_move(time.time(), now)
            assert staged is not None
            table.install(staged)
            last = staged.write
        moves += 1
    return last


def test_a_player_gone_when_the_hand_ends_is_rated_as_its_leaver() -> None:
    """Whichever way they went, a closed tab like Leave: last, whatever the bot made of it."""
    table, log = lan_and_minh(away_timeout=0)
    now = time.monotonic()
    table.seats[1].clients.clear()  # Minh closed the tab: gone past the grace
    table.seats[1].away_since = now - MIN_GRACE - 1
    ended = play_out(table, log, now).ended
    assert ended is not None and ended.left == frozenset({1})
    assert ended.owners[:2] == ("lan", "minh")


def test_a_player_back_before_the_hand_ends_is_rated_by_the_seats_place() -> None:
    table, log = lan_and_minh(away_timeout=0)
    now = time.monotonic()
    table.seats[1].clients.clear()
    table.seats[1].away_since = now - MIN_GRACE - 1
    ended = play_out(table, log, now, back_after=2).ended  # the bot played a while for Minh
    assert ended is not None and ended.left == frozenset()
    # away for less than the grace as the hand ends (a reload): not a leaver either
    table.next_hand()
    table.seats[1].clients.clear()
    table.seats[1].away_since = now - 1
    ended = play_out(table, log, now).ended
    assert ended is not None and ended.left == frozenset()
