"""A table rebuilt from what is stored is the live table: after every entry of its log, whatever
the entries were (web/table/state.py: each entry made by one ``apply``, live and on a restart alike).

No server and no event loop: a :class:`~tienlen.web.table.state.TableState` stores into a real
database (SQLite in a temporary folder), and after every entry the table is rebuilt from what
:meth:`Repository.load_all` reads back, as a restart rebuilds it, and compared with the live one
in full (every attribute but those said below, which no restart keeps)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")
pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tienlen import Rules
from tienlen.web.schema import open_repository
from tienlen.web.table.hands import Hands
from tienlen.web.table.staged import Staged
from tienlen.web.table.state import Refused, Seat, TableState
from tienlen.web.tablelog.repository import Repository
from tienlen.web.tablelog.writes import TableSettings, Write

from .manual_time import ManualTime

# what no restart keeps, by design: how the table stores and is told the time, its connections'
# notices to the room, its bots (made again), the hand's Turns (every seat gets a new chance to
# chop), when it last changed (read from the log's time), the settings as made (the stored ones
# follow the host: compared apart)
TRANSIENT = {"_store", "_pending", "held", "taken", "time", "make_bot", "check_owner_name",
             "_bots", "_turns", "last_change", "settings"}


def seat_state(seat: Seat) -> tuple[Any, ...]:
    """A seat as stored (its connections, and since when its player is away, are not)."""
    return (seat.kind, seat.name, seat.level, seat.token_hash, seat.owner, seat.device)


def hands_state(hands: Hands | None) -> tuple[Any, ...] | None:
    if hands is None:
        return None
    return (hands.snapshot(), hands.number, hands.game.record(), tuple(hands.game.names),
            tuple(hands.session.names), list(hands.round_starts), hands.game.is_over)


def state(table: TableState) -> dict[str, Any]:
    """Everything a table holds but :data:`TRANSIENT`, comparable."""
    seen: dict[str, Any] = {}
    for name, value in vars(table).items():
        if name == "seats":
            value = [seat_state(s) for s in value]
        elif name == "hands":
            value = hands_state(value)
        elif name in TRANSIENT:
            continue
        seen[name] = value
    seen["settings"] = dataclasses.replace(table.settings, host_seat=None, creator="")
    return seen


def table_settings(players: int = 3, turn_timer: float = 30.0, seed: int = 11,
                   preset: str = "pagat") -> TableSettings:
    """A practice table (its deals follow its seed) whose bots play at random, with chops out
    of turn (§6) and a turn timer."""
    rules = dataclasses.replace(Rules.preset(preset), chop_out_of_turn=True)
    return TableSettings("t1", rules.to_toml(), players, seed, away_timeout=60.0,
                         turn_timer=turn_timer, name="Log", bot_level="random", fixed_seed=True,
                         next_hand_after=0.0, quick_match=True)


class Played:
    """A table whose every write is stored in ``repo`` (a person's as the room stores it, a
    bot's and a deal as the driver does); before each write, and on :meth:`check`, the table
    rebuilt from the database is compared with the live one."""

    def __init__(self, repo: Repository, settings: TableSettings, time: ManualTime,
                 seed: int = 5) -> None:
        repo.create_table(settings)
        self.repo = repo
        self.time = time
        self.rng = random.Random(seed)
        self.table = TableState(settings, self.store, time)
        self.checked = 0
        self.out_of_turn = 0  # moves made out of turn (chops)

    def store(self, write: Write) -> None:
        self.check()  # the live table is as the entries stored so far made it
        self.repo.append_many([write])

    def check(self) -> None:
        stored = next(t for t in self.repo.load_all() if t.id == self.table.id)
        again = TableState.restore(stored, lambda w: None, self.time)
        assert state(again) == state(self.table), f"rebuilt at entry {self.table.version}"
        self.checked += 1

    def install(self, staged: Staged) -> None:
        self.store(staged.write)
        self.table.install(staged)

    # ------------------------------------------------------------------ playing
    def here(self, *seats: int) -> None:
        for seat in seats:
            self.table.seats[seat].clients.add(object())

    def away(self, *seats: int) -> None:
        for seat in seats:
            s = self.table.seats[seat]
            s.clients.clear()
            s.away_since = self.time()

    def step(self, timer: bool = False) -> bool:
        """One move of the hand in play: a bot's (for a bot's seat, an away player, a chop out
        of turn), else the person on turn's (``timer``: the turn timer's for them); now and then
        a person's chop out of turn first. False: the hand is over."""
        table, game = self.table, self.table.game
        assert game is not None
        if game.is_over:
            return False
        now = self.time()
        for seat in range(table.players):
            chops = game.legal_plays(seat) if seat != game.turn else []
            if chops and not table.bot_controlled(seat, now) and self.rng.random() < 0.5:
                table.apply_move(seat, str(self.rng.choice(chops)))
                self.out_of_turn += 1
                return True
        staged = table.bot_move(self.time.wall(), now, out_of_time=timer)
        if staged is not None:
            self.out_of_turn += staged.seat != game.turn
            self.install(staged)
            return True
        asked = table.asked(now)  # the bots asked out of turn have let it go: a person is asked
        assert asked is not None and not asked.out_of_turn
        table.apply_move(asked.seat, str(self.rng.choice(list(asked.moves))))
        return True

    def moves(self, count: int, timer_every: int = 0) -> None:
        for n in range(count):
            if not self.step(timer=bool(timer_every) and n % timer_every == 0):
                return

    def to_end(self, timer_every: int = 7) -> None:
        n = 0
        while self.step(timer=n % timer_every == 0):
            n += 1

    def next_hand(self) -> None:
        """Every player waited for asks; a table nobody is waited at is dealt by the clock."""
        table = self.table
        waited = table.waited_for(self.time())
        for seat in waited:
            if seat not in table.asks:
                table.ask_next_hand(seat, table.version)
        if not waited:
            self.install(table.stage_deal(self.time.wall()))


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    repo = open_repository(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    yield repo  # type: ignore[misc]
    repo.close()


def test_a_table_rebuilt_after_every_entry_of_a_long_session_is_the_live_table(
        repo: Repository) -> None:
    time = ManualTime()
    play = Played(repo, table_settings(seed=14), time)  # its deals give chops out of turn
    table = play.table
    # before the start: the first to sit hosts; a leave, a removal (barred), a bot
    lan, _ = table.join_seat("Lan", owner="lan", device="d-lan")
    minh, _ = table.join_seat("Minh", owner="minh", device="d-minh")
    hoa, _ = table.join_seat("Hoa", owner="hoa")
    table.leave(hoa)
    dung, _ = table.join_seat("Dung", owner="dung")
    table.remove_seat(by=lan, seat=dung)
    bot = table.add_bot(by=lan)
    table.start(by=lan)
    play.here(lan, minh)
    # hand 1: Minh leaves during it and comes back; then goes away: a bot plays for him, and
    # the host kicks him; quick match keeps the bot's seat for Rin, who gives it up, then Quang
    play.moves(8, timer_every=5)
    table.leave(minh)
    play.moves(3)
    table.come_back("minh", device="d-minh")
    play.here(minh)
    play.moves(3)
    play.away(minh)
    time.advance(61)
    play.moves(2)
    table.kick(lan, minh)
    table.reserve(bot, "rin", "Rin")
    table.release("rin")
    table.reserve(bot, "quang", "Quang", "d-quang")
    play.to_end()
    play.next_hand()  # Quang's seat is his as it is dealt
    # hand 2: Quang plays; Minh's account is deleted (his seat renamed); both players ask
    assert table.hand_no == 2 and table.seats[bot].owner == "quang"
    play.here(bot)
    play.moves(6, timer_every=3)
    table.forget("minh", "Deleted 1")
    play.to_end()
    play.next_hand()
    # hand 3: Quang's account goes too (he leaves: a bot plays his seat on); then Lan leaves,
    # and the clock deals the bots' next hand
    table.forget("quang", "Deleted 2")
    play.moves(10)
    table.leave(lan)
    play.to_end()
    play.next_hand()
    play.moves(5)
    play.check()
    kinds = Counter(e.kind for e in repo.log(table.id))
    assert set(kinds) == {"join", "leave", "remove", "bot", "start", "move", "timer", "bot_move",
                          "kick", "back", "reserve", "release", "take", "rename", "ask", "next"}
    assert play.out_of_turn > 0 and table.hand_no == 4
    assert play.checked == table.version + 1  # after every entry (and before the first)


def test_a_kicked_player_stays_barred_after_a_restart_past_the_next_deal(
        repo: Repository) -> None:
    time = ManualTime()
    play = Played(repo, table_settings(), time)
    table = play.table
    lan, _ = table.join_seat("Lan", owner="lan")
    minh, _ = table.join_seat("Minh", owner="minh")
    table.add_bot(by=lan)
    table.start(by=lan)
    play.here(lan)
    time.advance(61)  # Minh never came: a bot plays for him, and the host may kick him
    table.kick(lan, minh)
    play.to_end()
    play.next_hand()  # its snapshot holds the hand, not who is barred
    again = TableState.restore(next(t for t in repo.load_all() if t.id == table.id),
                               lambda w: None, time)
    assert again.barred == {"minh"} and again.seats_left_by("minh") == []
    with pytest.raises(Refused, match="kicked you"):
        again.come_back("minh")


# ---------------------------------------------------------------------- random sessions
OWNERS = ["a", "b", "c", "d", "e"]
COMMANDS = ["join", "join", "bot", "leave", "remove", "start", "start", "kick", "back", "reserve",
            "release", "forget", "here", "away", "wait", "moves", "moves", "moves", "next"]


@settings(max_examples=10, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(commands=st.lists(st.tuples(st.sampled_from(COMMANDS), st.integers(0, 3),
                                   st.sampled_from(OWNERS)), min_size=10, max_size=40),
       players=st.integers(2, 4), preset=st.sampled_from(["mien-nam", "pagat"]))
def test_a_table_rebuilt_after_any_commands_is_the_live_table(
        tmp_path_factory: pytest.TempPathFactory, commands: list[tuple[str, int, str]],
        players: int, preset: str) -> None:
    repo = open_repository(f"sqlite:///{tmp_path_factory.mktemp('log') / 'log.sqlite3'}")
    try:
        play = Played(repo, table_settings(players, preset=preset), ManualTime())
        for command, seat, owner in commands:
            before = play.table.version
            try:
                run(play, command, seat % players, owner)
            except Refused:
                assert play.table.version == before  # a refused command stores nothing
        play.check()
    finally:
        repo.close()


def run(play: Played, command: str, seat: int, owner: str) -> None:
    """One command of a random session, with the host acting where one must."""
    table = play.table
    host = table.host if table.host is not None else 0
    if command == "join":
        table.join_seat(owner.upper() + "an", seat, owner=owner)
    elif command == "bot":
        table.add_bot(seat, by=host)
    elif command == "leave" and table.seats[seat].kind == "human":
        table.leave(seat)
    elif command == "remove":
        table.remove_seat(host, seat)
    elif command == "start":
        while not table.started and any(s.kind == "empty" for s in table.seats):
            table.add_bot(by=host)
        table.start(by=host)
    elif command == "kick":
        table.kick(host, seat)
    elif command == "back":
        table.come_back(owner)
    elif command == "reserve":
        table.reserve(seat, owner, owner.upper() + "o")
    elif command == "release":
        table.release(owner)
    elif command == "forget":
        table.forget(owner, f"Gone {owner}")
    elif command == "here":
        play.here(seat)
    elif command == "away":
        play.away(seat)
    elif command == "wait":
        play.time.advance(61)
    elif command == "moves" and table.started:
        play.moves(30, timer_every=4)
    elif command == "next" and table.started and table.game is not None and table.game.is_over:
        play.next_hand()
