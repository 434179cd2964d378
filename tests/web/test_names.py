"""Safe with strangers: a name at a web table holds no hidden character."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from tienlen.i18n import render
from tienlen.web import names

from .conftest import Server, WsClient, running
from .waiting import stored

VI = {"Accept-Language": "vi-VN,vi;q=0.9"}
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
    made = srv.post("/api/tables", {"name": name, "players": players}).json()
    host = srv.ws(made["id"])
    host.hello(made["token"])
    return made["id"], host


def stranger(srv: Server, table_id: str, lang: str = "en") -> WsClient:
    guest = srv.ws(table_id)
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


@pytest.mark.parametrize(("body", "english", "vietnamese"), [
    ({"name": "Lan\u200b"}, "the player's name cannot hold invisible or formatting characters "
     "(U+200B)", "tên người chơi không được chứa ký tự vô hình hoặc ký tự định dạng (U+200B)"),
    ({"name": "Lan", "table_name": "Come\u202ein"}, "the table's name cannot hold invisible or "
     "formatting characters (U+202E)", "tên bàn không được chứa ký tự vô hình hoặc ký tự định dạng "
     "(U+202E)"),
], ids=["player", "table"])
def test_a_table_made_with_a_bad_name_is_refused(srv: Server, body: dict[str, Any], english: str,
                                                 vietnamese: str) -> None:
    rows = stored(srv)
    answer = srv.post("/api/tables", body)
    assert (answer.status_code, answer.json()["error"]) == (400, english)
    answer = httpx.post(srv.base + "/api/tables", json=body, headers=VI, timeout=10)
    assert (answer.status_code, answer.json()["error"]) == (400, vietnamese)
    assert stored(srv) == rows
