"""Safe with strangers: a name at a web table holds no hidden character, and does not look like a
name already seated or like a bot's name ("Bot 1", "Máy 2"), while Vietnamese letters keep names
apart ("Lan", "Lân" and "Lăn" sit at one table)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")

from tienlen.i18n import render
from tienlen.web.accounts import names
from tienlen.web.table.state import Seat

from .conftest import Server, WsClient, running
from .waiting import stored

VI = {"Accept-Language": "vi-VN,vi;q=0.9"}
CYRILLIC_LAN = "L\u0430n"  # "Lаn" with a Cyrillic а
HIDDEN = [  # a name with one character nobody sees, and that character's code point
    ("Lan\u200b", "U+200B"),  # zero-width space
    ("La\u200dn", "U+200D"),  # zero-width joiner
    ("\u202eLan", "U+202E"),  # right-to-left override
    ("Lan\u00ad", "U+00AD"),  # soft hyphen
    ("Lan\u3164", "U+3164"),  # Hangul filler
    ("Lan\u115f", "U+115F"),  # Hangul choseong filler
    ("Lan\u2800", "U+2800"),  # braille pattern blank
]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module: every test makes its own tables."""
    yield from running(f"sqlite:///{tmp_path_factory.mktemp('names') / 'tienlen.sqlite3'}")


def table(srv: Server, name: str = "Lan", players: int = 4) -> tuple[str, WsClient]:
    made = srv.browser().post("/api/tables", {"name": name, "players": players}).json()
    host = srv.ws(made["id"])
    host.hello(made["token"])
    return made["id"], host


def stranger(srv: Server, table_id: str, lang: str = "en") -> WsClient:
    guest = srv.browser().ws(table_id)
    guest.send(type="hello", lang=lang)
    guest.until(lambda m: m["type"] == "state")
    return guest


def refused(guest: WsClient, name: str) -> str:
    guest.send(type="join", name=name)
    reason: str = guest.error()["reason"]
    return reason


def seated(srv: Server, table_id: str) -> list[Any]:
    return [s["name"] for s in srv.get(f"/api/tables/{table_id}").json()["seats"]]


def version(srv: Server, table_id: str) -> int:
    return int(srv.call(lambda: srv.app.state.lobby.get(table_id).version))


# ---------------------------------------------------------------------- names.py
@pytest.mark.parametrize(("name", "code"), HIDDEN, ids=[code for _, code in HIDDEN])
def test_a_name_with_a_hidden_character_is_refused_naming_it(name: str, code: str) -> None:
    with pytest.raises(names.BadName) as refusal:
        names.clean_name(name)
    assert str(refusal.value) == f"a name cannot hold invisible or formatting characters ({code})"
    assert render(refusal.value.reason, "vi") == (
        f"tên không được chứa ký tự vô hình hoặc ký tự định dạng ({code})")


def test_vietnamese_names_and_marks_stay_allowed() -> None:
    assert names.clean_name("Nguyễn Thị Lăn") == "Nguyễn Thị Lăn"
    with pytest.raises(names.BadName, match="visible character"):
        names.clean_name("\u3164 \u0301")  # a filler and a mark show nothing


def test_lookalikes_have_one_key_and_vietnamese_letters_do_not() -> None:
    key = names.confusable_key
    assert {key(n) for n in ("Lan", "LAN", "lan", "Ian", CYRILLIC_LAN, "L\u0251n", "Ｌａｎ")} \
        == {key("Lan")}
    assert key("B0t 1") == key("Bot 1")
    assert len({key(n) for n in ("Lan", "Lân", "Lăn", "Lán", "Lạn", "Đức", "Dức")}) == 7


def test_bot_names_are_known_in_every_language() -> None:
    assert [names.bot_number(n) for n in ("Bot 1", "Máy 2", "B0t 1", "bot 39", "Lan", "Bot")] \
        == [1, 2, 1, 39, None, None]


# ---------------------------------------------------------------------- at a table
def test_a_lookalike_of_a_seated_name_is_refused_and_stores_nothing(srv: Server) -> None:
    table_id, _ = table(srv)
    before, rows = version(srv, table_id), stored(srv)
    en, vi = stranger(srv, table_id), stranger(srv, table_id, "vi")
    for name in (CYRILLIC_LAN, "L\u0251n", "Ian", "Ｌａｎ"):
        assert refused(en, name) == (
            f"the name {name!r} looks like 'Lan', who sits at this table: choose another name")
        assert refused(vi, name) == (
            f"tên {name!r} trông giống 'Lan', người đang ngồi ở bàn này: hãy chọn tên khác")
    assert "is taken" in refused(en, "LAN")
    assert seated(srv, table_id) == ["Lan", None, None, None]
    assert version(srv, table_id) == before and stored(srv) == rows


@pytest.mark.parametrize(("name", "code"), HIDDEN[:4], ids=[code for _, code in HIDDEN[:4]])
def test_a_hidden_character_is_refused_at_join(srv: Server, name: str, code: str) -> None:
    table_id, _ = table(srv, "Mai")
    before = version(srv, table_id)
    assert refused(stranger(srv, table_id), name) == (
        f"a name cannot hold invisible or formatting characters ({code})")
    assert refused(stranger(srv, table_id, "vi"), name) == (
        f"tên không được chứa ký tự vô hình hoặc ký tự định dạng ({code})")
    assert seated(srv, table_id) == ["Mai", None, None, None]
    assert version(srv, table_id) == before


def test_a_player_cannot_take_a_bots_name(srv: Server) -> None:
    table_id, host = table(srv, "Mai")
    host.send(type="add_bot")
    host.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")
    before = version(srv, table_id)
    en, vi = stranger(srv, table_id), stranger(srv, table_id, "vi")
    for name, n in (("Bot 1", 1), ("Máy 2", 2), ("B0t 1", 1), ("bot 7", 7)):
        assert refused(en, name) == (
            f"the name {name!r} is a bot's name or looks like one (Bot {n}): choose another name")
        assert refused(vi, name) == (
            f"tên {name!r} là tên của máy hoặc trông giống tên máy (Máy {n}): hãy chọn tên khác")
    assert seated(srv, table_id) == ["Mai", "Bot 1", None, None]
    assert version(srv, table_id) == before


def test_three_names_apart_by_a_vietnamese_mark_sit_and_play_at_one_table(srv: Server) -> None:
    table_id, host = table(srv, "Lan")
    for name in ("Lân", "Lăn"):
        guest = stranger(srv, table_id)
        guest.send(type="join", name=name)
        guest.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    assert "looks like 'Lăn'" in refused(stranger(srv, table_id), "L\u04d1n")  # a Cyrillic ӑ
    host.send(type="add_bot")
    host.send(type="start")
    state = host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    assert [s["name"] for s in state["info"]["seats"]] == ["Lan", "Lân", "Lăn", "Bot 1"]


def test_a_bot_is_not_named_like_a_player_seated_before_the_rules(srv: Server) -> None:
    """A table stored before names were compared by their looks may seat "B0t 1": the bot added
    then is "Bot 2", and a lookalike pair of players keeps the table from starting."""
    table_id, host = table(srv, "Lan", players=3)
    room = srv.app.state.lobby.get(table_id)

    def seat_before_the_rules(name: str) -> None:
        room.table.seats[1] = Seat("human", name)

    srv.call(lambda: seat_before_the_rules("B0t 1"))
    host.send(type="add_bot")
    host.until(lambda m: m["type"] == "state" and m["info"]["seats"][2]["kind"] == "bot")
    assert seated(srv, table_id) == ["Lan", "B0t 1", "Bot 2"]
    srv.call(lambda: seat_before_the_rules(CYRILLIC_LAN))
    host.send(type="start")
    assert host.error()["reason"] == "two seats have the same name"


@pytest.mark.parametrize(("body", "english", "vietnamese"), [
    ({"name": "Lan\u200b"}, "the player's name cannot hold invisible or formatting characters "
     "(U+200B)", "tên người chơi không được chứa ký tự vô hình hoặc ký tự định dạng (U+200B)"),
    ({"name": "Máy 2"}, "the name 'Máy 2' is a bot's name or looks like one (Bot 2): choose "
     "another name", "tên 'Máy 2' là tên của máy hoặc trông giống tên máy (Máy 2): hãy chọn tên khác"),
    ({"name": "Lan", "table_name": "Come\u202ein"}, "the table's name cannot hold invisible or "
     "formatting characters (U+202E)", "tên bàn không được chứa ký tự vô hình hoặc ký tự định dạng "
     "(U+202E)"),
], ids=["player", "bot", "table"])
def test_a_table_made_with_a_bad_name_is_refused(srv: Server, body: dict[str, Any], english: str,
                                                 vietnamese: str) -> None:
    rows = stored(srv)
    answer = srv.post("/api/tables", body)
    assert (answer.status_code, answer.json()["detail"]) == (400, english)
    answer = httpx.post(srv.base + "/api/tables", json=body, headers=VI, timeout=10)
    assert (answer.status_code, answer.json()["detail"]) == (400, vietnamese)
    assert stored(srv) == rows
