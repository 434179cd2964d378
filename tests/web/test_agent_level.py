"""A trained agent at the tables (``tienlen serve --agent NAME=py:MODULE:ATTR@PRESET/PLAYERS``):
offered as the level "Trained agent" at the tables of its rules and number of players only,
refused elsewhere by name, playing a whole hand; a spec that is malformed or does not load
stops the start with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("numpy")

from tienlen import TienLenError
from tienlen.rl.policy import PolicyBot
from tienlen.web.room.ladder import levels_for
from tienlen.web.table.agent import STAND_IN, bot_of, load_agent, serve_agent, served

from .conftest import Server
from .test_cluster import play_out

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "policy_agent.py"
AGENT = f"lowest=py:{EXAMPLE}:bot@pagat/2"


@pytest.fixture
def agent() -> Iterator[None]:
    serve_agent(load_agent(AGENT))
    try:
        yield
    finally:
        serve_agent(None)


def test_the_agent_is_offered_only_at_the_tables_it_was_trained_for(agent: None) -> None:
    assert levels_for("pagat", 2)[-1] == "agent" and levels_for("pagat")[-1] == "agent"
    assert "agent" not in levels_for("pagat", 4)
    assert "agent" not in levels_for("mien-nam", 2)
    assert isinstance(bot_of("agent", 1), PolicyBot)
    serve_agent(None)
    assert "agent" not in levels_for("pagat", 2)
    # a table made where the agent was offered, served where it is not: the stand-in plays
    assert bot_of("agent", 1).name == STAND_IN


@pytest.mark.parametrize(("text", "words"), [
    ("lowest=examples/policy_agent.py:bot@pagat/2", "is not NAME=py:MODULE:ATTR@PRESET/PLAYERS"),
    (f"lowest=py:{EXAMPLE}:bot@pagat/9", "is not NAME=py:MODULE:ATTR@PRESET/PLAYERS"),
    (f"lowest=py:{EXAMPLE}:bot@pagot/2", "names no preset 'pagot'"),
    ("lowest=py:no/such/file.py:bot@pagat/2", "could not be loaded: no file no/such/file.py"),
    (f"lowest=py:{EXAMPLE}:nothing@pagat/2", "could not be loaded"),
])
def test_a_bad_agent_is_refused_by_name_at_the_start(text: str, words: str) -> None:
    with pytest.raises(TienLenError, match=words.replace("(", r"\(").replace(")", r"\)")):
        load_agent(text)
    assert served() is None  # nothing offered


def test_a_table_with_the_agent_plays_a_whole_hand(agent: None, server: Server) -> None:
    presets = server.get("/api/presets").json()
    assert presets["agent"] == {"name": "lowest", "rules": "pagat", "players": 2}
    assert presets["levels"]["pagat"][-1] == "agent" and "agent" not in presets["levels"]["thirteen"]
    refused = server.post("/api/tables", {"name": "Lan", "rules": "pagat", "players": 4,
                                          "level": "agent"})
    assert refused.status_code == 400 and "agent" in refused.json()["detail"]
    lan = server.browser()
    made = lan.post("/api/tables", {"name": "Lan", "rules": "pagat", "players": 2,
                                    "level": "agent", "away_timeout": 3600})
    assert made.status_code == 200, made.text
    table = made.json()
    host = lan.ws(table["id"])
    host.hello(table["token"])
    host.send(type="add_bot", level="agent")
    host.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")
    host.send(type="start")
    state = host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    end = play_out(host, state)
    bot = server.call(lambda: server.app.state.lobby.get(table["id"]).table._bots[1])
    assert isinstance(bot, PolicyBot) and bot.name == "lowest play"  # made by the example
    assert end["view"]["is_over"] and bot.illegal == 0
    played = [e for e in end["view"]["events"] if e["seat"] == 1 and e.get("cards")]
    assert played  # the agent played cards, not only passes
