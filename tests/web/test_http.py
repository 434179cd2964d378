"""The HTTP surface as a hostile client meets it: one error shape (RFC 9457 problems) everywhere,
every method said in Allow, bodies over the limit refused before they are read, the API's docs
page off unless asked for, and the OpenAPI schema listing each route's refusals."""

from __future__ import annotations

import contextlib
import socket
import time
from dataclasses import replace

import httpx
import pytest

pytest.importorskip("fastapi")

from .conftest import NO_CLIENT_LIMITS, UNRATED, Server, running
from .manual_time import ServerTime

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}


def test_every_refusal_is_a_problem_in_one_shape(server: Server) -> None:
    # before: the router's own 404 and 405 answered {"detail": …}, the app {"error": …}
    answers = {
        "no route": httpx.get(server.base + "/api/nothing-here", timeout=10),
        "no table": server.get("/api/tables/nope"),
        "bad field": server.post("/api/tables", {"players": 9}),
        "refused": server.post("/api/tables", {"rules": "no-such-preset"}),
        "method": httpx.delete(server.base + "/api/tables", timeout=10),
    }
    for what, answer in answers.items():
        assert answer.headers["content-type"] == "application/problem+json", what
        body = answer.json()
        assert set(body) == PROBLEM_KEYS, what
        assert body["status"] == answer.status_code and body["type"] == "about:blank", what
        assert body["detail"], what
    assert [answers[k].status_code for k in answers] == [404, 404, 422, 400, 405]
    assert answers["no table"].json()["code"] == "not_found"
    assert answers["no route"].json()["detail"] == "nothing is at '/api/nothing-here'"
    assert answers["method"].json()["detail"] == \
        "DELETE is not answered here; this address answers GET, OPTIONS, POST"


def test_options_and_405_name_every_method_of_a_path(server: Server) -> None:
    # before: OPTIONS /api/tables answered "Allow: GET", POST missing
    options = httpx.options(server.base + "/api/tables", timeout=10)
    assert options.status_code == 204
    assert options.headers["allow"] == "GET, OPTIONS, POST"
    assert httpx.put(server.base + "/api/tables", timeout=10).headers["allow"] == "GET, OPTIONS, POST"
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    one = httpx.options(f"{server.base}/api/tables/{made['id']}", timeout=10)
    assert one.status_code == 204 and one.headers["allow"] == "GET, OPTIONS"
    assert httpx.options(server.base + "/nothing/here", timeout=10).status_code == 404


def raw_request(server: Server, head: str, body: bytes = b"") -> tuple[bytes, float]:
    """Send ``head`` (and ``body``) on a raw socket; the answer's first bytes, and how long they
    took to come."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        start = time.monotonic()
        sock.sendall(head.encode() + body)
        answer = sock.recv(4096)
        return answer, time.monotonic() - start


def test_a_body_over_the_limit_is_refused_before_it_is_read(sqlite_url: str) -> None:
    # before: a 16 MiB body was read and parsed before it was refused
    limits = replace(NO_CLIENT_LIMITS, max_body=1000)
    with contextlib.contextmanager(running)(sqlite_url, limits=limits) as server:
        before = server.get("/healthz").json()["tables"]
        # 16 MiB announced and not one byte of it sent: the answer comes all the same
        answer, _ = raw_request(server, "POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                "Content-Type: application/json\r\n"
                                f"Content-Length: {16 * 1024 * 1024}\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 413")
        assert b"the request body is 16777216 bytes, more than the 1000 this server reads" in answer
        # a body sent in chunks, with no length said, is cut off once it passes the limit
        chunk = b"[" * 600
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(3))
        answer, _ = raw_request(server, "POST /api/tables HTTP/1.1\r\nHost: x\r\n"
                                "Content-Type: application/json\r\n"
                                "Transfer-Encoding: chunked\r\n\r\n", chunked)
        assert answer.startswith(b"HTTP/1.1 413")
        assert b"more than the 1000 bytes this server reads" in answer
        vi = httpx.post(server.base + "/api/tables", content=b"x" * 2000, timeout=10,
                        headers={"accept-language": "vi", "content-type": "application/json"})
        assert vi.status_code == 413 and vi.json()["code"] == "too_large"
        assert vi.json()["detail"] == "thân yêu cầu dài 2000 byte, nhiều hơn 1000 byte máy chủ này đọc"
        assert server.get("/healthz").json()["tables"] == before  # nothing was made
        assert server.browser().post("/api/tables", {"name": "Lan"}).status_code == 200  # small ones pass


def test_the_api_docs_page_is_off_unless_asked_for(sqlite_url: str) -> None:
    # before: /api/docs loaded its scripts from a CDN, which a room without internet cannot reach
    with contextlib.contextmanager(running)(sqlite_url) as server:
        assert server.get("/api/docs").status_code == 404
        assert server.get("/openapi.json").status_code == 200  # the schema itself stays
    server = Server(sqlite_url, api_docs=True)
    server.start()
    try:
        assert server.get("/api/docs").status_code == 200
    finally:
        server.stop()


def test_the_schema_lists_the_refusals_of_each_route(server: Server) -> None:
    schema = server.get("/openapi.json").json()
    paths = schema["paths"]
    refusals = {(path, method): sorted(int(s) for s in op["responses"] if s.startswith("4"))
                for path, ops in paths.items() for method, op in ops.items()}
    assert refusals[("/api/tables", "post")] == [400, 403, 413, 422, 429]  # 403: banned
    assert refusals[("/api/tables/{table_id}", "get")] == [404, 410, 422]
    assert refusals[("/api/tables/{table_id}/records/{hand_no}/replay", "get")] == \
        [400, 404, 422, 429]
    problem = schema["components"]["schemas"]["Problem"]
    assert set(problem["properties"]) == PROBLEM_KEYS
    answer = paths["/api/tables"]["post"]["responses"]["422"]
    assert "application/problem+json" in answer["content"]


# ---------------------------------------------------------------------- limits that fit shared addresses
def test_messages_are_counted_per_connection_with_a_ceiling_per_address(sqlite_url: str) -> None:
    # before: every connection from one address shared 20 messages a second
    limits = replace(NO_CLIENT_LIMITS, messages_per_second=3, messages_per_address=8)
    # time stands still (what is due now runs at once): every message is sent within one second
    with contextlib.contextmanager(running)(sqlite_url, limits=limits,
                                            clock=ServerTime()) as server:
        made = server.browser().post("/api/tables", {"name": "Lan"}).json()
        watchers = [server.ws(made["id"]) for _ in range(3)]
        for w in watchers:  # three watchers behind one address, each within its own limit
            w.send(type="ping")
            w.send(type="ping")
        answers = [w.until(lambda m: m["type"] in ("pong", "error")) for w in watchers
                   for _ in range(2)]
        assert [a["type"] for a in answers] == ["pong"] * 6
        first = watchers[0]
        first.send(type="ping")
        first.send(type="ping")  # its fourth in the second: this connection's limit
        assert first.until(lambda m: m["type"] == "pong")
        over = first.error()
        assert over["code"] == "rate_limited" and "on one connection" in over["reason"]
        fourth = server.ws(made["id"])  # a fresh connection: its own limit untouched
        fourth.send(type="ping")  # the address's 8th
        assert fourth.until(lambda m: m["type"] == "pong")
        fourth.send(type="ping")  # its 9th: the address's ceiling
        flood = fourth.error()
        assert flood["code"] == "rate_limited" and "from one address" in flood["reason"]
        for w in [*watchers, fourth]:
            w.close()


def test_tables_are_counted_per_player_with_a_ceiling_per_address(sqlite_url: str) -> None:
    # before: every player behind one address shared ten tables a minute and twenty open tables
    limits = replace(NO_CLIENT_LIMITS, tables_per_client=1, tables_per_address=3,
                     creates_per_minute=5, creates_per_address=100)
    with contextlib.contextmanager(running)(sqlite_url, limits=limits) as server:
        def create(player: str) -> httpx.Response:
            return httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, timeout=10,
                              headers={"X-Tienlen-Player": player})

        players = [f"player-{i}-" + "x" * 16 for i in range(4)]
        assert create(players[0]).status_code == 200
        again = create(players[0])
        assert again.status_code == 429 and "the most one player may" in again.json()["detail"]
        assert create(players[1]).status_code == 200  # another player behind the same address
        assert create(players[2]).status_code == 200
        ceiling = create(players[3])
        assert ceiling.status_code == 429 and "the most one address may" in ceiling.json()["detail"]
        bad = httpx.post(server.base + "/api/tables", json={}, timeout=10,
                         headers={"X-Tienlen-Player": "short"})
        assert bad.status_code == 422 and "x-tienlen-player" in bad.json()["detail"].lower()


def test_a_slot_frees_when_its_creator_leaves(sqlite_url: str) -> None:
    # before: leaving a table did not free its slot
    limits = replace(NO_CLIENT_LIMITS, tables_per_client=1, tables_per_address=1)
    with contextlib.contextmanager(running)(sqlite_url, limits=limits) as server:
        player = {"X-Tienlen-Player": "a-player-key-of-mine"}
        made = httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, headers=player,
                          timeout=10).json()
        refused = httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, headers=player,
                             timeout=10)
        assert refused.status_code == 429
        me = server.ws(made["id"])
        me.hello(made["token"])
        me.send(type="leave")
        me.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
        me.close()
        again = httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, headers=player,
                           timeout=10)
        assert again.status_code == 200
        server.restart()  # the freed slot stays free; the new table still counts
        refused = httpx.post(server.base + "/api/tables", json={"name": "Lan", **UNRATED}, headers=player,
                             timeout=10)
        assert refused.status_code == 429 and "the most one player may" in refused.json()["detail"]


def test_a_new_tables_numbers_are_json_numbers(server: Server) -> None:
    # before: "3", true and 3.0 were read as numbers
    before = server.get("/healthz").json()["tables"]
    for field, value in (("players", "3"), ("players", True), ("players", 3.0), ("quick", 1),
                         ("seed", "5"), ("private", "yes")):
        answer = server.post("/api/tables", {"name": "Lan", field: value})
        assert answer.status_code == 422, (field, value)
        assert answer.json()["detail"].startswith(f"{field}: "), (field, value)
    assert server.get("/healthz").json()["tables"] == before
    lan = server.browser()
    assert lan.post("/api/tables", {"name": "Lan", "players": 3, "away_timeout": 30}).status_code == 200
