"""A private table's hands, chat and rating points reach only those who sat there: the records,
a hand's record, the whole table's, the replays and the reviews answer a stranger 404 (the same
whether the hand exists or not), every route that serves a hand goes through one check
(``hand_access.py``), the host may share one finished hand by a link of its own (and stop),
watchers by link do not hear the table, and a profile shows others neither the private hands
nor the points of the rating's curve after them. Public tables are as open as before."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from fastapi.routing import APIRoute
from sqlalchemy import create_engine, func, insert, select, text

from tienlen.web.accounts.rows import IdentityRow, PlayedRow
from tienlen.web.ratings.store import Point, SqlRatingStore
from tienlen.web.records.rows import ShareRow
from tienlen.web.routes.hand_access import (
    page_hand,
    shared_hand,
    shared_page_hand,
    table_access,
)
from tienlen.web.schema import open_repository

from .conftest import UNRATED, Server, Visitor, WsClient
from .test_moderation import admin
from .test_profiles import make_account
from .test_rated_hands import browser, owners, play, two_people

HAND_ROUTES = ("/records", "/records/1", "/record.toml", "/records/1/replay",
               "/records/1/review")  # under /api/tables/ID


def hands_of(who: Visitor | Server, table_id: str, hand: int = 1,
             **headers: str) -> dict[str, Any]:
    """Each route that serves the table's hands, as ``who`` asks (hand ``hand``): its answer."""
    client = who.http if isinstance(who, Visitor) else httpx.Client(base_url=who.base)
    return {route: client.get(f"/api/tables/{table_id}{route.replace('/1', f'/{hand}')}",
                              headers=headers, timeout=120)
            for route in HAND_ROUTES}


class Reviews:
    """Reviews made at once (the seat's, as JSON): what is tested here is who gets one, the
    review itself is test_review_web's."""

    making = 0

    async def review(self, key: tuple[str, int, int], text: str, seat: int,
                     address: str) -> tuple[str, None]:
        return json.dumps({"hand": key[1], "seat": seat}), None


@pytest.fixture
def server(server: Server) -> Server:
    server.app.state.services.reviews = Reviews()
    return server


def refused_as_if_none(answers: dict[str, Any]) -> None:
    for route, answer in answers.items():
        assert answer.status_code == 404, (route, answer.status_code, answer.text)
        assert "private table's hands are read only by those who played them" \
            in answer.json()["detail"], route


def stored(server: Server) -> dict[str, int]:
    repo = server.app.state.services.repo
    with repo.engine.connect() as conn:
        shares = conn.scalar(select(func.count()).select_from(ShareRow))
    return {**repo.count_rows(), "shares": int(shares or 0)}


def private_hand(server: Server) -> tuple[str, Visitor, Visitor, WsClient, WsClient]:
    """Lan (host, seat 0) and Minh (seat 1) at a private 4-seat mien-nam table, two bots, its
    first hand played out: the table's id, their browsers and pages."""
    lan, minh = browser(server), browser(server)
    table_id, host, guest = two_people(server, lan=lan, minh=minh, private=True)
    play(server, table_id)
    return table_id, lan, minh, host, guest


def close(server: Server, table_id: str, *pages: WsClient) -> None:
    """Close the table (its pages gone, idle past the limit), as the server's sweep does."""
    for ws in pages:
        ws.close()
    deadline = time.monotonic() + 20
    while table_id not in server.call(
            lambda: server.app.state.lobby.expire_idle(time.monotonic() + 10**6)):
        assert time.monotonic() < deadline, "the table never closed"
        time.sleep(0.05)


def test_a_private_tables_hands_reach_only_those_who_sat_in_them(server: Server) -> None:
    table_id, lan, minh, host, guest = private_hand(server)
    for player in (lan, minh):
        answers = hands_of(player, table_id)
        assert all(a.status_code == 200 for a in answers.values()), answers
        assert [r["hand"] for r in answers["/records"].json()] == [1]
        assert answers["/records/1/review"].json()["seat"] == (0 if player is lan else 1)
    before = stored(server)
    stranger = browser(server)
    refused_as_if_none(hands_of(stranger, table_id))  # a browser that never sat
    refused_as_if_none(hands_of(server, table_id))  # a script without cookies
    refused_as_if_none(hands_of(server, table_id, **{"X-Tienlen-Seat": "a" * 32}))  # a guess
    # the same answer for a hand that does not exist: nothing is confirmed
    assert {r: a.json() for r, a in hands_of(stranger, table_id, hand=99).items()
            if r != "/records"} == \
        {r: a.json() for r, a in hands_of(stranger, table_id).items() if r != "/records"}
    assert stored(server) == before  # a refusal leaves no trace
    # an admin reads a hand someone reported, and only then
    boss = admin(server)
    assert boss.get(f"/api/tables/{table_id}/records/1").status_code == 404
    reported = minh.post("/api/reports", {"table": table_id, "seat": 0, "reason": "abuse",
                                          "hand": 1})
    assert reported.status_code == 200, reported.text
    assert boss.get(f"/api/tables/{table_id}/records/1").status_code == 200
    close(server, table_id, host, guest)  # its hands stay Lan's and Minh's, no one else's
    assert lan.get(f"/api/tables/{table_id}/records/1/replay").status_code == 200
    assert minh.get(f"/api/tables/{table_id}/record.toml").status_code == 200
    refused_as_if_none({r: a for r, a in hands_of(stranger, table_id).items()
                        if r != "/records/1/review"})  # (a review needs the table open)


def test_a_public_tables_hands_stay_open_to_anyone(server: Server) -> None:
    table_id, _, _ = two_people(server)
    play(server, table_id)
    answers = hands_of(browser(server), table_id)
    assert {r: a.status_code for r, a in answers.items() if r != "/records/1/review"} == \
        {r: 200 for r in HAND_ROUTES if r != "/records/1/review"}
    assert answers["/records/1/review"].status_code == 400  # whose review: unsaid
    assert server.get(f"/api/tables/{table_id}/records/1/review?seat=2").status_code == 200


def test_a_seat_held_by_its_token_alone_reads_the_tables_hands_by_it(server: Server) -> None:
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 2, "rules": "mien-nam",
                                    "away_timeout": 3600, "private": True, **UNRATED}).json()
    host = lan.ws(made["id"])
    host.hello()
    script = server.ws(made["id"])  # no cookie (so an unrated table): held by its token only
    script.hello()
    script.send(type="join", name="Bot script")
    token = script.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)["token"]
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    play(server, made["id"])
    answers = hands_of(server, made["id"], **{"X-Tienlen-Seat": token})
    assert all(a.status_code == 200 for a in answers.values()), answers
    assert answers["/records/1/review"].json()["seat"] == 1
    refused_as_if_none(hands_of(server, made["id"]))


HAND_WORDS = {"hand", "hands", "record", "records", "record.toml", "replay", "replays", "review",
              "reviews", "shared"}


def _depends_on(route: APIRoute, calls: tuple[Any, ...]) -> bool:
    todo = list(route.dependant.dependencies)
    while todo:
        dep = todo.pop()
        if dep.call in calls:
            return True
        todo.extend(dep.dependencies)
    return False


def test_every_route_that_serves_a_hand_goes_through_the_one_check(server: Server) -> None:
    # a new route under a table's records, or any route naming a hand, that forgets the check
    # fails here: it must depend on hand_access, and answer a stranger 404
    table_id, _, _, _, _ = private_hand(server)
    every = {(r.path, tuple(sorted(r.methods))): r for r in server.app.state.http_routes
             if isinstance(r, APIRoute)}  # the app's and its routers' (problems.install)
    routes = [r for r in every.values()
              if "{hand_no}" in r.path or set(r.path.split("/")) & HAND_WORDS]
    assert len(routes) >= 9, sorted(r.path for r in routes)  # the 9 of today, and any new one
    stranger = browser(server)
    before = stored(server)
    for route in routes:
        # (a hand's page, /replay/… and /shared/…: its own form of the check, answering 404)
        assert _depends_on(route, (table_access, shared_hand, page_hand, shared_page_hand)), \
            route.path
        path = route.path.format(table_id=table_id, hand_no=1, secret="x" * 32)
        for method in route.methods:
            answer = stranger.http.request(method, path, json={}, timeout=120)
            assert answer.status_code == 404, (method, path, answer.text)
    assert stored(server) == before


def test_the_host_shares_one_hand_by_a_link_of_its_own_and_stops_sharing_it(
        server: Server) -> None:
    table_id, lan, minh, host, guest = private_hand(server)
    stranger = browser(server)
    share = f"/api/tables/{table_id}/records/1/share"
    before = stored(server)
    assert stranger.post(share).status_code == 404  # a stranger: as if there were no hand
    refused = minh.post(share)  # Minh sat there, but the host shares
    assert refused.status_code == 403 and refused.json()["detail"] == \
        "only the table's host shares its hands"
    assert minh.post(f"{share}/remove").status_code == 403
    assert stored(server) == before
    made = lan.post(share)
    assert made.status_code == 200, made.text
    link = made.json()
    assert table_id not in link["url"] and table_id not in link["replay"]  # it opens no table
    record = stranger.get(link["url"])
    assert record.status_code == 200
    assert record.text == lan.get(f"/api/tables/{table_id}/records/1").text
    assert table_id not in record.text
    replay = server.get(link["replay"])  # anyone with it: a script without cookies too
    assert replay.status_code == 200 and replay.json()["steps"][-1]["over"]
    refused_as_if_none(hands_of(stranger, table_id))  # the table's hands stay closed
    again = lan.post(share).json()  # a new link: the one before opens nothing
    assert stranger.get(link["url"]).status_code == 404
    assert stranger.get(again["url"]).status_code == 200
    assert lan.post(f"{share}/remove").json() == {"hand": 1, "removed": 1}
    gone = stranger.get(again["url"])
    assert gone.status_code == 404 and "stopped sharing" in gone.json()["detail"]
    assert stranger.get(again["replay"]).status_code == 404
    last = lan.post(share).json()
    close(server, table_id, host, guest)  # after the table closed: the link still opens the
    assert stranger.get(last["url"]).status_code == 200  # hand, and its maker may stop it
    assert lan.post(share).status_code == 403  # (no host any more: no new link)
    assert minh.post(f"{share}/remove").status_code == 403
    assert lan.post(f"{share}/remove").json() == {"hand": 1, "removed": 1}
    assert stranger.get(last["url"]).status_code == 404
    public, _, _ = two_people(server, lan=lan)
    play(server, public)
    assert lan.post(f"/api/tables/{public}/records/1/share").status_code == 400


def test_watchers_by_link_do_not_hear_a_private_table(server: Server) -> None:
    lan, minh = browser(server), browser(server)
    table_id, host, guest = two_people(server, lan=lan, minh=minh, rules="thirteen",
                                       private=True)
    watcher = browser(server).ws(table_id)
    watcher.hello()
    host.send(type="say", phrase="good_game")
    host.send(type="chat", text="see you at nine")
    host.send(type="react", emoji="👏")
    for _ in range(3):
        guest.until(lambda m: m["type"] == "chat")  # Minh, at the table, hears each
    ping = watcher.send(type="ping")  # its outbox holds what was sent it before the pong
    watcher.until(lambda m: m["type"] == "pong" and m["ref"] == ping)
    assert [m for m in watcher.received if m["type"] == "chat"] == []
    guest.send(type="leave")  # Minh left, a bot plays the seat: still Minh's, still heard
    guest.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
    host.send(type="say", phrase="hello")
    assert guest.until(lambda m: m["type"] == "chat")["phrase"] == "hello"


def test_a_profile_shows_others_no_private_hand_nor_the_rating_points_after_one(
        any_server: Server) -> None:
    server = any_server
    lan, minh = browser(server), browser(server)
    private, _, _ = two_people(server, lan=lan, minh=minh, private=True)
    lan_id, minh_id, *_ = owners(server, private)
    make_account(server, lan_id, "Lan")
    make_account(server, minh_id, "Minh")
    play(server, private)
    public, _, _ = two_people(server, lan=lan, minh=minh)  # "Minh" is an account's name now
    play(server, public)

    def seen(viewer: Visitor) -> tuple[int, list[int], list[str]]:
        profile = viewer.get("/api/players/Lan").json()
        [southern] = profile["ratings"]
        return (southern["hands"], [p["hands"] for p in southern["curve"]],
                [h["table"] for h in profile["recent"]])

    # anyone else: the rating as it stood after the public hand, counted in public hands
    assert seen(browser(server)) == (1, [1], [public])  # a stranger: no when, where, nor how
    assert seen(minh) == (1, [1], [public, private])  # Minh sat in that hand: listed, no points
    assert seen(lan) == (2, [1, 2], [public, private])  # Lan's own: everything
    stranger = browser(server).get("/api/players/Lan").json()
    assert stranger["hands"] == 1 and stranger["ratings"][0]["firsts"] <= 1
    assert stranger["ratings"][0]["mu"] == lan.get("/api/players/Lan").json()["ratings"][0]["mu"]
    own = lan.get("/api/me/profile").json()["ratings"][0]["curve"]
    assert [p["hands"] for p in own] == [1, 2]


def test_a_rating_curve_stored_before_private_points_has_its_private_hands_marked(
        db_url: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:  # the curve's table as an older release made it
        conn.execute(text("DROP TABLE IF EXISTS tienlen_rating_history"))
        conn.execute(text("DROP TABLE IF EXISTS tienlen_played"))
        conn.execute(text("CREATE TABLE tienlen_rating_history (player VARCHAR(64), "
                          "family VARCHAR(16), hands INTEGER, mu FLOAT, sigma FLOAT, at FLOAT, "
                          "PRIMARY KEY (player, family, hands))"))
        conn.execute(text("INSERT INTO tienlen_rating_history VALUES "
                          "('ann', 'southern', 1, 26.0, 8.0, 1000.0), "
                          "('ann', 'southern', 2, 27.0, 7.0, 2000.2)"))
    for table in (IdentityRow.__table__, PlayedRow.__table__):
        table.create(engine, checkfirst=True)  # type: ignore[attr-defined]
    with engine.begin() as conn:  # hand 2 was a private table's
        conn.execute(insert(IdentityRow), {"id": "ann", "name": "Ann", "created": 1.0})
        conn.execute(insert(PlayedRow), [
            {"identity": "ann", "table_id": "pub", "hand_no": 1, "seat": 0, "place": 1,
             "family": "southern", "private": False, "at": 1000.0},
            {"identity": "ann", "table_id": "priv", "hand_no": 1, "seat": 0, "place": 1,
             "family": "southern", "private": True, "at": 2000.0}])
    engine.dispose()
    repo = open_repository(db_url)  # adds the column, and marks the private hand's point
    try:
        store = SqlRatingStore(repo.engine)
        assert store.history("ann", "southern", private=False) == [
            Point(1, 26.0, 8.0, 1000.0, False)]
        assert [p.private for p in store.history("ann", "southern")] == [False, True]
    finally:
        repo.close()
