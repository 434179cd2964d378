"""What the page is told about a table: its name, host, bot level, turn deadline and rounds."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from .conftest import Server
from .test_persistence import wait_turn
from .test_rated_hands import IN_PLAY  # no instant win ends its deals: the player's turn comes


def test_a_new_tables_info_names_it_and_its_host(server: Server) -> None:
    hosted = server.browser().post("/api/tables", {"name": "Lan"}).json()["info"]
    assert hosted["name"] == "Lan's table" and hosted["host_seat"] == 0
    assert hosted["bot_level"] == "heuristic" and hosted["seed"] is None
    assert not hosted["private"] and not hosted["paused"] and hosted["turn_deadline"] is None
    nobody = server.post("/api/tables", {"quick": True, "players": 2}).json()
    assert nobody["info"]["name"] == f"Table {nobody['id']}" and nobody["info"]["host_seat"] is None


def test_the_turn_deadline_is_the_timers_end_for_the_player_on_turn(server: Server) -> None:
    made = server.browser().post("/api/tables", {"quick": True, "name": "Lan", "turn_timer": 600,
                                                 "rules": IN_PLAY}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    state = wait_turn(me)
    assert not state["view"]["is_over"]
    deadline = state["info"]["turn_deadline"]
    assert deadline is not None and state["at"] < deadline <= state["at"] + 600 + 1


def test_round_starts_mark_where_each_round_begins(server: Server) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 3}).json()
    watcher = server.ws(made["id"])
    state = watcher.hello()
    if not state["view"]["is_over"]:
        state = watcher.until(lambda m: m["type"] == "state" and m["view"]["is_over"])
    view = state["view"]
    starts = view["round_starts"]
    events = view["events"]
    assert starts and starts == sorted(set(starts)) and starts[-1] < len(events)
    # every round opens with cards on an empty table, and the one before it ended in passes
    for start in starts[1:]:
        assert events[start]["kind"] != "pass"
        assert events[start - 1]["kind"] == "pass" or events[start - 1]["seat"] == \
            events[start]["seat"]
