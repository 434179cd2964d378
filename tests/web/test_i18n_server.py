"""The server says its refusals in the connection's language (hello's lang; Accept-Language for
REST), English by default; it serves the catalogues and tells the page the browser's language."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from .conftest import Server


def test_refusals_in_the_language_said_in_hello(server: Server) -> None:
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 11}).json()
    vi = server.ws(made["id"])
    vi.send(type="hello", token=made["token"], lang="vi")
    vi.until(lambda m: m["type"] == "welcome")
    vi.until(lambda m: m["type"] == "state")
    vi.send(type="join", name="Minh")
    assert vi.error()["reason"] == "bạn đã ngồi ghế 0 rồi"
    vi.send(type="play", version=10**6, move="pass")
    err = vi.error()
    assert err["code"] == "stale" and err["reason"].startswith("đã cũ")
    en = server.ws(made["id"])
    en.hello()  # no lang: English, as before
    en.send(type="start")
    assert en.error()["reason"] == "spectators cannot act: join a seat first"
    vi.close()
    en.close()


def test_a_refused_table_in_the_language_of_accept_language(server: Server) -> None:
    import httpx

    body = {"name": "Lan", "options": "not toml ="}
    vi = httpx.post(server.base + "/api/tables", json=body, headers={"Accept-Language": "vi"},
                    timeout=10)
    assert vi.status_code == 400 and "không phải TOML hợp lệ" in vi.json()["detail"]
    en = server.post("/api/tables", body)
    assert en.status_code == 400 and "not valid TOML" in en.json()["detail"]
    bad = httpx.post(server.base + "/api/tables", json={"name": "   "},
                     headers={"Accept-Language": "vi-VN,vi;q=0.9"}, timeout=10)
    assert "tên người chơi cần ít nhất một ký tự nhìn thấy được" in bad.json()["detail"]


def test_the_catalogues_and_the_browser_language(server: Server) -> None:
    vi = server.get("/i18n/vi.json")
    assert vi.status_code == 200 and vi.json()["web.room.pass"] == "Bỏ lượt"
    assert server.get("/i18n/fr.json").status_code == 404
    import httpx

    page = httpx.get(server.base + "/", headers={"Accept-Language": "vi-VN,vi;q=0.9"}, timeout=10)
    assert '<html lang="vi" data-accept-lang="vi">' in page.text
    plain = httpx.get(server.base + "/", headers={"Accept-Language": "de"}, timeout=10)
    assert '<html lang="en" data-accept-lang="">' in plain.text
    preset = server.get("/api/presets/mien-nam?lang=vi").json()
    assert preset["explain"].startswith("Tiến Lên: luật mien-nam")
    assert server.get("/api/presets/mien-nam").json()["explain"].startswith("Tiến Lên: the")


def test_the_details_of_a_bad_request_in_vietnamese(server: Server) -> None:
    """pydantic's and the TOML parser's words inside a translated sentence (REST and WebSocket)."""
    import httpx

    vi = {"Accept-Language": "vi"}
    bad = httpx.post(server.base + "/api/tables", json={"players": 9}, headers=vi, timeout=10)
    assert bad.status_code == 422 and bad.json()["detail"] == "players: phải nhỏ hơn hoặc bằng 8"
    en = server.post("/api/tables", {"players": 9})
    assert en.json()["detail"] == "players: Input should be less than or equal to 8"
    toml = httpx.post(server.base + "/api/tables", json={"options": "stake = \nx = 1"}, headers=vi,
                      timeout=10)
    assert toml.json()["detail"].endswith("giá trị không hợp lệ (ở dòng 1, cột 9)"), toml.json()
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 11}).json()
    ws = server.ws(made["id"])
    ws.send(type="hello", token=made["token"], lang="vi")
    ws.until(lambda m: m["type"] == "state")
    ws.send(type="play", version="x", move="pass")
    reason = ws.error()["reason"]
    assert reason == "lệnh sai: version: phải là một số nguyên"  # strict: no string is read as one
    ws.close()


def test_a_record_that_cannot_be_replayed_is_said_in_vietnamese() -> None:
    from tienlen.web.records.replays import replay_steps
    from tienlen.web.room.room import Refused

    with pytest.raises(Refused) as info:
        replay_steps('format = "tienlen/1"\nrules = "pagat"\nplayers = ["A", "B"]\n')
    assert info.value.say("vi") == "không xem lại được biên bản: biên bản không có ván nào " \
        "([[hands]])"
    assert info.value.say("en") == "the record cannot be replayed: the record has no [[hands]]"
