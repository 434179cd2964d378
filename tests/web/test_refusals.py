"""Every refusal says what is wrong, with a 4xx, and leaves nothing behind."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx

from .conftest import Server
from .waiting import in_a_thread, stored


def tables_held(server: Server) -> int:
    return int(server.get("/healthz").json()["tables"])


REFUSED_CREATES: list[tuple[dict[str, Any], int, str]] = [
    ({"name": "   "}, 400, "visible character"),
    ({"name": "\u0301" * 24}, 400, "visible character"),
    ({"name": "Lan\u0007"}, 400, "control"),
    ({"name": "x" * 25}, 400, "at most 24"),
    ({"name": "Lan", "table_name": " \u200b "}, 400, "visible character"),
    ({"name": "Lan", "table_name": "t" * 41}, 400, "at most 40"),
    ({"name": "Lan", "rules": "nonsense"}, 400, "unknown preset"),
    ({"name": "Lan", "options": "stake = 100000000000000000000"}, 400, "out of range"),
    ({"name": "Lan", "options": "stake = 'lots'"}, 400, "stake"),
    ({"name": "Lan", "options": "not toml ="}, 400, "TOML"),
    ({"name": "Lan", "options": "a = " + "[" * 500 + "]" * 500}, 400,
     "not valid TOML: Nested too deeply (more than 32 levels) (at line 1, column 37)"),
    ({"name": "Lan", "options": "a = " + "{b = " * 500 + "1" + "}" * 500}, 400,
     "not valid TOML: Nested too deeply (more than 32 levels) (at line 1, column 165)"),
    ({"name": "Lan", "options": ".".join(["a"] * 1990) + " = 1"}, 400,
     "not valid TOML: Nested too deeply (more than 32 levels)"),
    ({"name": "Lan", "seed": 12345}, 400, "practice table"),
    ({"name": "Lan", "players": 9}, 422, "players"),
    ({"name": "Lan", "players": 10**30}, 422, "players"),
    ({"name": "Lan", "seed": 10**20, "quick": True}, 422, "seed"),
    ({"name": "Lan", "turn_timer": 1e300}, 422, "turn_timer"),
    ({"name": "Lan", "level": "godlike"}, 422, "level"),
    ({"name": "Lan", "host": 0}, 422, "host"),
]


def test_a_refused_create_stores_nothing(any_server: Server) -> None:
    # every refused create, one after another on one server: none leaves a trace for the next
    before, held = stored(any_server), tables_held(any_server)
    for body, status, words in REFUSED_CREATES:
        answer = any_server.post("/api/tables", body)
        assert answer.status_code == status, body
        assert words in answer.json()["detail"], (body, answer.json())
        assert stored(any_server) == before and tables_held(any_server) == held, body
        assert any_server.get("/api/tables").json() == [], body




def test_an_option_out_of_range_names_the_limit_the_readers_way(server: Server) -> None:
    body = {"name": "Lan", "options": "stake = 100000000000000000000"}
    for lang, words in (("en", "at most 1,000,000 either way"), ("vi", "tối đa 1.000.000 mỗi chiều")):
        answer = httpx.post(server.base + "/api/tables", json=body, timeout=10,
                            headers={"accept-language": lang})
        assert answer.status_code == 400
        assert words in answer.json()["detail"]


def test_a_request_body_nested_too_deeply_is_refused_in_the_usual_shape(server: Server) -> None:
    before, held = stored(server), tables_held(server)
    body = '{"name": "Lan", "options": ' + "[" * 10_000 + "]" * 10_000 + "}"
    for lang, words in (("en", "the request body is nested too deeply to be read"),
                        ("vi", "nội dung yêu cầu lồng nhau quá sâu, không đọc được")):
        answer = httpx.post(server.base + "/api/tables", content=body, timeout=10,
                            headers={"content-type": "application/json", "accept-language": lang})
        assert answer.status_code == 400
        assert answer.json() == {"type": "about:blank", "title": "Bad Request", "status": 400,
                                 "detail": words, "code": "refused"}
    assert stored(server) == before and tables_held(server) == held
def test_a_good_create_stores_its_table_seat_and_log_at_once(any_server: Server) -> None:
    before = stored(any_server)
    made = any_server.browser().post("/api/tables", {"name": "Lan", "quick": True, "players": 3})
    assert made.status_code == 200
    after = stored(any_server)
    assert after["tienlen_tables"] == before["tienlen_tables"] + 1
    assert after["tienlen_seats"] == before["tienlen_seats"] + 3
    assert after["tienlen_snapshots"] == before["tienlen_snapshots"] + 1
    assert after["tienlen_log"] >= before["tienlen_log"] + 4  # join, two bots, start


def test_names_are_normalised_and_compared_without_case(server: Server) -> None:
    decomposed = unicodedata.normalize("NFD", "Nguyễn  Thị")
    made = server.browser().post("/api/tables", {"name": decomposed, "players": 3}).json()
    assert made["info"]["seats"][0]["name"] == "Nguyễn Thị"
    assert made["info"]["name"] == "Nguyễn Thị's table"
    guest = server.browser().ws(made["id"])
    guest.hello()
    guest.send(type="join", name="NGUYỄN THỊ")
    assert "taken" in guest.error()["reason"]
    guest.send(type="join", name="\u0300" * 24)
    assert "visible character" in guest.error()["reason"]
    assert server.get(f"/api/tables/{made['id']}").json()["seats"][1]["kind"] == "empty"


@pytest.mark.parametrize("path", [
    "/api/tables/{id}/records/" + "9" * 25,
    "/api/tables/{id}/records/0",
    "/api/tables/{id}/records/-3",
    "/api/tables/{id}/records/" + "9" * 25 + "/replay",
    "/api/tables/" + "x" * 65,
])
def test_out_of_range_numbers_in_a_url_are_refused_with_the_reason(server: Server,
                                                                   path: str) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    answer = server.get(path.format(id=made["id"]))
    assert 400 <= answer.status_code < 500
    assert answer.json()["detail"]


def test_head_of_the_page_answers_like_get(server: Server) -> None:
    import httpx

    head = httpx.head(server.base + "/", timeout=10)
    get = server.get("/")
    assert head.status_code == get.status_code == 200
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.content == b""


def test_an_unknown_table_page_is_404_and_still_the_page(server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    known = server.get(f"/t/{made['id']}")
    unknown = server.get("/t/no-such-table")
    assert known.status_code == 200
    assert unknown.status_code == 404 and unknown.text == known.text
    assert server.get("/api/tables/no-such-table").status_code == 404
    socket = server.ws("no-such-table")
    error = socket.recv()
    assert error["type"] == "error" and error["code"] == "not_found"


def test_refused_commands_store_nothing(any_server: Server) -> None:
    made = any_server.browser().post("/api/tables", {"name": "Lan", "players": 2}).json()
    lan = any_server.ws(made["id"])
    lan.hello(made["token"])
    guest = any_server.browser().ws(made["id"])
    guest.hello()
    before = stored(any_server)
    guest.send(type="join", name="LAN")
    assert "taken" in guest.error()["reason"]
    guest.send(type="join", name="\u200b")
    assert "visible" in guest.error()["reason"]
    lan.send(type="start")
    assert "empty" in lan.error()["reason"]
    lan.send(type="remove_seat", seat=1)
    assert "already empty" in lan.error()["reason"]
    lan.send(type="add_bot", seat=5)
    assert "seats 0 to 1" in lan.error()["reason"]
    guest.send(type="leave")
    assert "join a seat first" in guest.error()["reason"]
    assert stored(any_server) == before


def test_one_refusal_is_answered_alike_over_http_and_the_websocket() -> None:
    """A :class:`Refused` raised in any route, a plain or an async one, is answered by the
    app's one handler (its status, its kind, its reason in the request's language, how long to
    wait), and by the WebSocket as one error event."""
    from fastapi import APIRouter, FastAPI

    from tienlen.i18n import msg, t
    from tienlen.web.http import problems
    from tienlen.web.refusal import Refused
    from tienlen.web.room.room import error_of

    router = APIRouter()

    @router.get("/busy")
    def busy() -> None:
        raise Refused.too_many(msg("err.web.busy", n=4), retry_after=1.6)

    @router.get("/gone")
    async def gone() -> None:
        raise Refused(msg("err.web.no_table", id="'x'"), status=404)

    app = FastAPI()
    problems.install(app, (router,))

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                     base_url="http://test") as client:
            return (await client.get("/busy", headers={"Accept-Language": "vi"}),
                    await client.get("/gone"))

    refused, gone_ = in_a_thread(ask())
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "2"
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json() == {"type": "about:blank", "title": "Too Many Requests", "status": 429,
                              "detail": t("err.web.busy", "vi", n=4), "code": "rate_limited"}
    assert gone_.status_code == 404 and "Retry-After" not in gone_.headers
    assert gone_.json()["code"] == "not_found" and "'x'" in gone_.json()["detail"]
    event = error_of(Refused(msg("err.web.busy", n=4), "stale"), "vi", ref=3)
    assert (event.type, event.ref, event.code, event.reason) == (
        "error", 3, "stale", t("err.web.busy", "vi", n=4))
