"""The server's own errors in the player's language: limits, protocol errors, closed tables, cards
that cannot be read and bad house rules, over the WebSocket (?lang=, hello) and REST
(Accept-Language); bots named "Bot N" in records, shown as "Máy N" in Vietnamese."""

from __future__ import annotations

import json

import httpx
import pytest

pytest.importorskip("fastapi")

from .conftest import UNRATED, Server
from .manual_time import ManualTime
from .test_limits import clock, limited
from .waiting import closed_practice_table, poll

__all__ = ["clock"]  # the fixture, used by name
VI = {"Accept-Language": "vi-VN,vi;q=0.9"}


def vi_seat(server: Server, **table: object) -> tuple[dict[str, object], object]:
    """A new table with Lan seated, and her connection in Vietnamese."""
    made = server.browser().post("/api/tables", {"name": "Lan", **table}).json()
    me = server.ws(made["id"])
    me.send(type="hello", token=made["token"], lang="vi")
    me.until(lambda m: m["type"] == "state")
    return made, me


def test_a_card_that_cannot_be_read_is_refused_in_vietnamese(server: Server) -> None:
    made, me = vi_seat(server, quick=True, seed=11)
    assert me.state is not None
    me.send(type="play", version=me.state["version"], move="7x")
    assert me.error()["reason"] == ("'7x' không phải lá bài: 'x' không phải chất "
                                    "(chất: s c d h hoặc ♠ ♣ ♦ ♥)")
    en = server.ws(made["id"])
    en.send(type="hello", token=made["token"])
    en.until(lambda m: m["type"] == "state")
    en.send(type="play", version=en.state["version"], move="7x")
    assert "is not a card" in en.error()["reason"]


def test_protocol_errors_in_vietnamese(server: Server) -> None:
    _, me = vi_seat(server)
    me.send_raw("not json")
    assert me.error()["reason"] == "tin không phải JSON"
    me.send(type="start", admin=True)
    assert me.error()["reason"] == "lệnh sai: trường thừa 'admin'"
    me.send(type="dance")
    assert me.error()["reason"].startswith("lệnh sai: không có loại lệnh này; các lệnh: hello")
    me.send_raw(json.dumps({"seq": 1, "type": "ping"}))
    assert me.error()["reason"] == "lệnh cũ hoặc bị gửi trùng: seq 1 không đứng sau 1"


def test_too_many_messages_said_in_vietnamese(sqlite_url: str, clock: ManualTime) -> None:
    with limited(sqlite_url, clock, messages_per_second=2) as server:
        _, me = vi_seat(server)
        me.send(type="ping")
        me.send(type="ping")
        error = me.error()
        assert error["code"] == "rate_limited"
        assert error["reason"] == ("quá nhiều yêu cầu: mỗi kết nối tối đa 2 tin mỗi giây; yêu cầu "
                                   "này chưa được thực hiện, thử lại sau 1 giây")


def test_too_many_connections_said_in_the_language_of_the_url(sqlite_url: str,
                                                              clock: ManualTime) -> None:
    with limited(sqlite_url, clock, connections_per_address=1) as server:
        made = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        first = server.ws(made["id"])
        first.hello()
        second = server.ws(made["id"] + "?lang=vi")  # refused before any hello
        refusal = json.loads(second.conn.recv(10))
        assert refusal["reason"] == ("quá nhiều kết nối: mỗi địa chỉ tối đa 1; hãy đóng bớt "
                                     "một thẻ trước")


def test_too_many_tables_said_in_vietnamese(sqlite_url: str, clock: ManualTime) -> None:
    with limited(sqlite_url, clock, creates_per_minute=1, tables_per_client=0) as server:
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200
        answer = httpx.post(server.base + "/api/tables", json={"name": "Lan"}, headers=VI,
                            timeout=10)
        assert answer.status_code == 429
        assert answer.json()["detail"].startswith("quá nhiều yêu cầu: mỗi người chơi tạo được tối đa "
                                                 "1 bàn mỗi phút; thử lại sau")


def test_too_many_open_tables_said_in_vietnamese(sqlite_url: str, clock: ManualTime) -> None:
    with limited(sqlite_url, clock, tables_per_client=1) as server:
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200
        answer = httpx.post(server.base + "/api/tables", json={"name": "Lan"}, headers=VI,
                            timeout=10)
        assert answer.json()["detail"].startswith("bạn đang làm chủ 1 bàn mở, tối đa cho một người chơi")


def test_a_closed_table_said_in_vietnamese(sqlite_url: str, clock: ManualTime) -> None:
    with limited(sqlite_url, clock) as server:
        table_id = closed_practice_table(server)
        gone = httpx.get(f"{server.base}/api/tables/{table_id}", headers=VI, timeout=10)
        assert gone.status_code == 410
        assert gone.json()["detail"].startswith(f"bàn '{table_id}' đã đóng (một lúc lâu không có ai)")
        error = server.ws(table_id + "?lang=vi").recv()
        assert error["code"] == "not_found" and "đã đóng" in error["reason"]
        # a watched bots-only table deals on until it closes: ask for the hand after its last
        kept = httpx.get(f"{server.base}/api/tables/{table_id}/records", timeout=10).json()
        beyond = max(r["hand"] for r in kept) + 1
        missing = httpx.get(f"{server.base}/api/tables/{table_id}/records/{beyond}", headers=VI,
                            timeout=10)
        assert missing.json()["detail"] == f"bàn '{table_id}' không có ván {beyond} đã xong"


@pytest.mark.parametrize(("options", "vietnamese"), [
    ("stake = 0", "stake phải từ 1 trở lên"),
    ('chops = ["quad > 7"]', "chops: '7' không phải kiểu chặt"),
    ("stak = 2", "không có tùy chọn 'stak' (ý bạn là 'stake'?)"),
    ('scoring = "everything"', "scoring phải là một trong"),
])
def test_bad_house_rules_in_the_options_form_in_vietnamese(server: Server, options: str,
                                                           vietnamese: str) -> None:
    answer = httpx.post(server.base + "/api/tables", json={"name": "Lan", "options": options},
                        headers=VI, timeout=10)
    assert answer.status_code == 400 and vietnamese in answer.json()["detail"]
    english = server.post("/api/tables", {"name": "Lan", "options": options}).json()["detail"]
    assert english != answer.json()["detail"]


def test_an_unknown_preset_in_vietnamese(server: Server) -> None:
    answer = server.get("/api/presets/mien-nan?lang=vi")
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("không có bộ luật 'mien-nan' (ý bạn là 'mien-nam'?)")


def test_bots_are_bot_n_in_the_record_whatever_the_language(server: Server) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 2, "seed": 3}).json()
    _, me = made, server.ws(made["id"] + "?lang=vi")
    me.send(type="hello", lang="vi")
    state = me.until(lambda m: m["type"] == "state")
    assert [s["name"] for s in state["info"]["seats"]] == ["Bot 1", "Bot 2"]
    poll(lambda: server.get(f"/api/tables/{made['id']}").json(), lambda t: t["records"] >= 1)
    record = server.get(f"/api/tables/{made['id']}/records/1").text
    assert 'players = ["Bot 1", "Bot 2"]' in record


def test_a_player_cannot_take_a_bots_name_in_either_language(server: Server) -> None:
    made, host = vi_seat(server, players=4)
    host.send(type="add_bot")
    host.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")
    guest = server.browser().ws(made["id"] + "?lang=vi")
    guest.hello()
    guest.send(type="join", name="máy 1")
    assert guest.error()["reason"] == ("tên 'máy 1' là tên của máy hoặc trông giống tên máy "
                                       "(Máy 1): hãy chọn tên khác")
    guest.send(type="join", name="Máy 2")  # no bot is Máy 2 yet: still a bot's name
    assert "là tên của máy" in guest.error()["reason"]
    guest.send(type="join", name="Mây")
    guest.until(lambda m: m["type"] == "welcome" and m["seat"] == 2)
    host.send(type="add_bot")
    state = host.until(lambda m: m["type"] == "state" and m["info"]["seats"][3]["kind"] == "bot")
    assert state["info"]["seats"][3]["name"] == "Bot 2"
