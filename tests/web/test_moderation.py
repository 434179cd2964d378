"""Moderation: players report and block one another; admins (made from the command line) read
the reports, ban players and addresses, rename offensive names; every act is in the audit log;
old reports go."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import func, insert, select, update

from tienlen.web import matchmaker
from tienlen.web.accounts.identity import Identity
from tienlen.web.accounts.names import account_key, confusable_key
from tienlen.web.accounts.rows import IdentityRow
from tienlen.web.accounts.session import digest
from tienlen.web.admin import set_admin
from tienlen.web.limits import Limits
from tienlen.web.moderation.rows import AuditRow, ReportRow

from .conftest import NO_CLIENT_LIMITS, Server, Visitor, running
from .manual_time import ServerTime


def rows(server: Server, model: type) -> int:
    with server.app.state.services.repo.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar_one())


def identity(server: Server, browser: Visitor) -> Identity:
    who = server.app.state.services.identities.by_session(digest(browser.cookie or ""))
    assert who is not None
    return who


def host(server: Server, name: str, **spec: Any) -> tuple[Visitor, str]:
    """A browser that made a table and sat at seat 0 as ``name`` (a guest now)."""
    browser = server.visitor()
    browser.visit()
    made = browser.post("/api/tables", {"name": name, "players": 3, **spec})
    assert made.status_code == 200, made.text
    return browser, made.json()["id"]


def joins(server: Server, table: str, name: str) -> Visitor:
    browser = server.visitor()
    browser.visit()
    ws = browser.ws(table)
    ws.hello()
    ws.send(type="join", name=name)
    ws.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    ws.close()
    return browser


def claim(server: Server, browser: Visitor, name: str) -> Identity:
    """Make the browser's guest the account ``name`` (as the accounts' claim does)."""
    who = identity(server, browser)
    with server.app.state.services.repo.engine.begin() as conn:
        conn.execute(update(IdentityRow).where(IdentityRow.id == who.id)
                     .values(name=name, account_key=account_key(name),
                             look_key=confusable_key(name)))
    return identity(server, browser)


def admin(server: Server, name: str = "Boss") -> Visitor:
    """An account made admin by the command line's function."""
    browser, _ = host(server, name)
    claim(server, browser, name)
    set_admin(server.db_url, name)
    return browser


def detail(response: Any) -> str:
    assert response.headers["content-type"].startswith("application/problem+json")
    return str(response.json()["detail"])


# ---------------------------------------------------------------------- reports
def test_a_player_reports_another_from_the_table_and_an_admin_reads_it(any_server: Server) -> None:
    server = any_server
    lan, table = host(server, "Lan")
    minh = joins(server, table, "Minh")
    words = "<b>rude</b> in chat\x07"
    sent = minh.post("/api/reports", {"table": table, "seat": 0, "reason": "abuse",
                                      "text": words, "hand": 1})
    assert sent.status_code == 200, sent.text
    assert sent.json()["reported"] == "Lan"
    boss = admin(server)
    reports = boss.get("/api/admin/reports").json()
    assert len(reports) == 1
    (r,) = reports
    assert (r["reported"], r["reporter"], r["reason"]) == ("Lan", "Minh", "abuse")
    assert r["text"] == "<b>rude</b> in chat"  # kept as typed (the page shows it as text)
    assert (r["table"], r["hand"], r["record"]) == (table, 1, f"/api/tables/{table}/records/1")
    assert r["reported_id"] == identity(server, lan).id
    done = boss.post(f"/api/admin/reports/{r['id']}/handled")
    assert done.status_code == 200
    assert boss.get("/api/admin/reports").json() == []
    assert len(boss.get("/api/admin/reports?handled=true").json()) == 1
    assert boss.post(f"/api/admin/reports/{r['id']}/handled").status_code == 404
    assert [e["action"] for e in boss.get("/api/admin/audit").json()][:2] == ["handled", "grant"]


def test_an_account_is_reported_by_its_name_and_oneself_bots_and_strangers_are_not(
        server: Server) -> None:
    lan, table = host(server, "Lan")
    claim(server, lan, "Lan")
    ws = lan.ws(table)
    ws.hello()
    ws.send(type="add_bot")
    ws.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")
    minh = joins(server, table, "Minh")
    newcomer = server.visitor()
    newcomer.visit()
    refusals = [
        (lan, {"table": table, "seat": 0, "reason": "abuse"}, 400, "cannot report yourself"),
        (lan, {"player": "LAN", "reason": "abuse"}, 400, "cannot report yourself"),
        (minh, {"table": table, "seat": 1, "reason": "cheating"}, 400, "bot cannot be reported"),
        (minh, {"player": "Bot 1", "reason": "cheating"}, 400, "bot cannot be reported"),
        (minh, {"table": table, "seat": 2 + 1, "reason": "other"}, 404, "seat 4 is empty"),
        (minh, {"player": "Nobody", "reason": "other"}, 404, "no player called Nobody"),
        (minh, {"player": "Lan", "reason": "spam"}, 422, "cheating, abuse, offensive_name"),
        (minh, {"reason": "abuse"}, 422, "say whom"),
        (newcomer, {"player": "Lan", "reason": "abuse"}, 403, "sit at a table first"),
    ]
    for who, body, status, words in refusals:
        answer = who.post("/api/reports", body)
        assert answer.status_code == status, (body, answer.text)
        assert words in detail(answer), body
    assert rows(server, ReportRow) == 0
    fine = minh.post("/api/reports", {"player": "ｌａｎ", "reason": "offensive_name"})
    assert fine.status_code == 200 and fine.json()["reported"] == "Lan"


REPORTS_PER_HOUR = Limits().rates.report.player


def test_reports_are_limited_per_player(server: Server) -> None:
    _, table = host(server, "Lan")
    minh = joins(server, table, "Minh")
    for _ in range(REPORTS_PER_HOUR):
        assert minh.post("/api/reports", {"table": table, "seat": 0,
                                          "reason": "stalling"}).status_code == 200
    refused = minh.post("/api/reports", {"table": table, "seat": 0, "reason": "stalling"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "too many reports" in detail(refused)
    assert rows(server, ReportRow) == REPORTS_PER_HOUR


def test_reports_older_than_the_retention_are_swept(sqlite_url: str) -> None:
    kept = Limits(**{**NO_CLIENT_LIMITS.__dict__, "keep_reports": 1.0})
    for server in running(sqlite_url, limits=kept, clock=ServerTime()):
        lan, table = host(server, "Lan")
        minh = joins(server, table, "Minh")
        a, b = identity(server, minh).id, identity(server, lan).id
        with server.app.state.services.repo.engine.begin() as conn:
            conn.execute(insert(ReportRow), [
                {"reporter": a, "reported": b, "reason": "abuse", "at": time.time() - 2 * 86400},
                {"reporter": a, "reported": b, "reason": "other", "at": time.time() - 3600}])
            conn.execute(insert(AuditRow), {"at": time.time() - 400 * 86400, "actor": a,
                                            "action": "ban", "target": b})
        server.advance(server.limits.sweep_every)  # the next sweep
        with server.app.state.services.repo.engine.connect() as conn:
            assert list(conn.execute(select(ReportRow.reason)).scalars()) == ["other"]
        assert rows(server, AuditRow) == 1  # the audit log is kept


# ---------------------------------------------------------------------- blocks
def test_a_player_blocks_and_unblocks_another(server: Server) -> None:
    lan, table = host(server, "Lan")
    minh = joins(server, table, "Minh")
    a, b = identity(server, lan), identity(server, minh)
    made = minh.post("/api/blocks", {"table": table, "seat": 0})
    assert made.status_code == 200 and made.json()["name"] == "Lan"
    handle = made.json()["id"]  # Minh's own handle for Lan, never Lan's identity
    again = minh.post("/api/blocks", {"table": table, "seat": 0})
    assert again.status_code == 200 and again.json()["id"] == handle
    listed = minh.get("/api/blocks").json()
    assert [(x["id"], x["name"]) for x in listed] == [(handle, "Lan")]
    assert a.id not in made.text + str(listed) and handle != a.id
    assert lan.get("/api/blocks").json() == []
    store = server.app.state.services.moderation.store
    assert store.blocked_between(a.id, b.id) and store.blocked_between(b.id, a.id)
    assert store.blocked_by(b.id) == {a.id} and store.blocked_by(a.id) == set()
    assert minh.post("/api/blocks", {"table": table, "seat": 1}).status_code == 400  # oneself
    assert minh.post(f"/api/blocks/{a.id}/remove").status_code == 404  # an id is no handle
    assert lan.post(f"/api/blocks/{handle}/remove").status_code == 404  # nor another's handle
    assert store.blocked_between(a.id, b.id)
    removed = minh.post(f"/api/blocks/{handle}/remove")
    assert removed.status_code == 200 and removed.json()["name"] == "Lan"
    assert minh.get("/api/blocks").json() == []
    assert not store.blocked_between(a.id, b.id)
    gone = minh.post(f"/api/blocks/{handle}/remove")
    assert gone.status_code == 404 and "not blocked" in detail(gone)


# ---------------------------------------------------------------------- admins
ADMIN_ROUTES = [("get", "/api/admin/reports"), ("get", "/api/admin/bans"),
                ("get", "/api/admin/audit"), ("post", "/api/admin/reports/1/handled"),
                ("post", "/api/admin/bans"), ("post", "/api/admin/bans/1/lift"),
                ("post", "/api/admin/rename")]


def test_the_admin_routes_are_refused_to_everyone_else(server: Server) -> None:
    guest, _ = host(server, "Lan")
    claimed, _ = host(server, "Hoa")
    claim(server, claimed, "Hoa")
    stranger = server.visitor()
    stranger.visit()
    bodies = {"/api/admin/bans": {"player": "Lan", "hours": 1, "reason": "x"},
              "/api/admin/rename": {"player": "Lan", "name": "Minh"}}
    for browser in (guest, claimed, stranger):
        for method, path in ADMIN_ROUTES:
            answer = browser.get(path) if method == "get" else browser.post(path, bodies.get(path))
            assert answer.status_code == 403, (method, path)
            assert answer.json()["code"] == "forbidden" and "admins" in detail(answer)
    assert rows(server, AuditRow) == 0
    set_admin(server.db_url, "Hoa")  # the command line makes Hoa an admin: now it may
    assert claimed.get("/api/admin/audit").status_code == 200
    set_admin(server.db_url, "Hoa", admin=False)
    assert claimed.get("/api/admin/audit").status_code == 403


def test_a_banned_player_only_watches_until_the_ban_is_lifted(any_server: Server) -> None:
    server = any_server
    lan, table = host(server, "Lan")
    boss = admin(server)
    seated = lan.ws(table)  # connected and seated when the ban comes
    seated.hello()
    assert seated.seat == 0
    made = boss.post("/api/admin/bans", {"identity": identity(server, lan).id, "hours": 2,
                                         "reason": "abusive chat"})
    assert made.status_code == 200, made.text
    ban = made.json()
    assert ban["name"] == "Lan" and not ban["address"]
    seated.send(type="add_bot")  # its next command: refused, and its seat is left
    assert seated.error()["code"] == "banned"
    assert seated.seat is None
    seated.close()
    refused = lan.post("/api/tables", {"name": "Lan"})
    assert refused.status_code == 403
    assert "banned until" in detail(refused) and "abusive chat" in detail(refused)
    vi = lan.post("/api/tables", {"name": "Lan"}, **{"Accept-Language": "vi"})
    assert "bạn bị cấm đến" in detail(vi)
    ws = lan.ws(table)
    ws.hello()  # its own seat is not given back: it watches
    assert ws.seat is None
    assert "banned until" in ws.until(lambda m: m["type"] == "error")["reason"]
    ws.send(type="join", name="Lan 2")
    error = ws.error()
    assert error["code"] == "banned" and "abusive chat" in error["reason"]
    ws.close()
    vi = lan.ws(table)
    vi.send(type="hello", lang="vi")
    assert "bạn bị cấm đến" in vi.error()["reason"]  # in the client's language
    vi.close()
    host(server, "Minh")  # others are not touched (host checks the table is made)
    assert boss.post(f"/api/admin/bans/{ban['id']}/lift").status_code == 200
    assert boss.post(f"/api/admin/bans/{ban['id']}/lift").status_code == 404
    assert lan.post("/api/tables", {"name": "Lan"}).status_code == 200
    again = lan.ws(table)
    again.hello()
    assert again.seat == 0
    actions = [e["action"] for e in boss.get("/api/admin/audit").json()]
    assert actions[:2] == ["unban", "ban"]


def test_an_address_ban_holds_across_a_restart(server: Server) -> None:
    lan, table = host(server, "Lan")
    boss = admin(server)
    made = boss.post("/api/admin/bans", {"player": "Boss", "address": True, "days": 1,
                                         "reason": "flood"})  # no address known for a name...
    assert made.status_code == 200  # ...Boss sat: its address is known (everyone's is 127.0.0.1)
    lift = made.json()["id"]
    assert boss.post(f"/api/admin/bans/{lift}/lift").status_code == 200
    made = boss.post("/api/admin/bans", {"identity": identity(server, lan).id, "address": True,
                                         "days": 1, "reason": "flood"})
    assert made.status_code == 200 and made.json()["address"]
    server.restart()  # a new process: the address's hash is under the key in the database
    newcomer = server.visitor()  # never seen, from the banned address
    newcomer.visit()
    refused = newcomer.post("/api/tables", {"name": "Hoa"})
    assert refused.status_code == 403 and "flood" in detail(refused)
    ws = newcomer.ws(table)
    ws.hello()
    ws.send(type="join", name="Hoa")
    assert ws.error()["code"] == "banned"
    ws.close()
    assert boss.post(f"/api/admin/bans/{made.json()['id']}/lift").status_code == 200
    assert newcomer.post("/api/tables", {"name": "Hoa"}).status_code == 200


def test_an_address_is_banned_only_once_it_was_seen(server: Server) -> None:
    boss = admin(server)
    stranger = server.visitor()
    stranger.visit()
    stranger.post("/api/tables", {"players": 3})  # made a table but never sat: no identity
    lan, _ = host(server, "Lan")
    server.restart()  # the addresses seen are this process's
    lan_id = identity(server, lan).id
    answer = boss.post("/api/admin/bans", {"identity": lan_id, "address": True, "hours": 1,
                                           "reason": "flood"})
    assert answer.status_code == 404 and "no address is known for Lan" in detail(answer)
    for body in ({"identity": lan_id, "hours": 0, "reason": "x"},
                 {"identity": lan_id, "days": 4000, "reason": "x"}):
        assert boss.post("/api/admin/bans", body).status_code == 400
    assert boss.post("/api/admin/bans", {"player": "Nobody", "hours": 1,
                                         "reason": "x"}).status_code == 404


def test_an_admin_renames_an_offensive_name_as_a_claim_is_checked(server: Server) -> None:
    rude, _ = host(server, "Rude")
    claim(server, rude, "Rude")
    hoa, _ = host(server, "Hoa")
    claim(server, hoa, "Hoa")
    guest, _ = host(server, "Nasty")
    boss = admin(server)
    for name, status, words in (("HOA", 409, "taken"), ("H0a", 409, "taken"),
                                ("Ｈｏａ", 409, "taken"), ("Bot 3", 400, "bot's name"),
                                ("Máy 2", 400, "bot's name"), ("a\u200bb", 400, "U+200B")):
        answer = boss.post("/api/admin/rename", {"player": "Rude", "name": name})
        assert answer.status_code == status, name
        assert words in detail(answer), name
    assert identity(server, rude).name == "Rude"
    done = boss.post("/api/admin/rename", {"player": "rude", "name": "Kind Lan"})
    assert done.status_code == 200 and done.json()["profile"] == "/p/Kind%20Lan"
    assert identity(server, rude).name == "Kind Lan"
    ids = server.app.state.services.identities
    assert ids.by_account(account_key("Kind Lan")).id == identity(server, rude).id
    assert ids.by_account(account_key("Rude")) is None  # the old name is free again
    assert boss.post("/api/admin/rename", {"identity": identity(server, guest).id,
                                           "name": "Guest"}).status_code == 200
    assert identity(server, guest).name == "Guest"
    log = boss.get("/api/admin/audit").json()
    assert [(e["action"], e["target_name"], e["detail"]) for e in log[:2]] == [
        ("rename", "Guest", "Nasty -> Guest"), ("rename", "Kind Lan", "Rude -> Kind Lan")]
    assert log[0]["actor_name"] == "Boss"
    assert log[-1]["actor_name"] == "command line" and log[-1]["action"] == "grant"


# What a banned player may still do besides watching, and why: signing out, leaving quick
# match's queue, its own account's safety (sessions, password, recovery codes, deleting it),
# blocking and unblocking, ending a friendship, stopping a hand's share (none of it reaches
# another person: each cuts contact); the admins' routes are refused
# to all but admins (an admin must be able to lift a ban on its own address).
BANNED_MAY = {"/api/account/signout", "/api/account/signout-others",
              "/api/account/sessions/{session_id}/end", "/api/account/password",
              "/api/account/codes", "/api/account/delete", "/api/quickmatch/cancel",
              "/api/blocks", "/api/blocks/{blocked}/remove", "/api/friends/{friend}/remove",
              "/api/tables/{table_id}/records/{hand_no}/share/remove"}
ACTING_READS = {"/api/tables/{table_id}/records/{hand_no}/review"}  # a review costs the server


def acting_routes(server: Server) -> list[tuple[str, str]]:
    """Every (method, path) of the app that acts: all but GET, and the reads that cost."""
    found = set()
    for route in server.app.state.http_routes:
        for method in (getattr(route, "methods", None) or set()) - {"HEAD", "OPTIONS"}:
            if method != "GET" or route.path in ACTING_READS:
                found.add((method, route.path))
    return sorted(found)


def test_a_banned_player_is_refused_every_act_and_may_watch(server: Server) -> None:
    lan, lan_table = host(server, "Lan")
    minh, minh_table = host(server, "Minh")
    handle = lan.post("/api/friends", {"table": minh_table, "seat": 0}).json()["id"]
    minh.post("/api/friends", {"table": lan_table, "seat": 0})
    assert lan.post("/api/invitations", {"friend": handle, "table": lan_table}).status_code == 200
    assert len(minh.get("/api/invitations").json()) == 1
    hoa = joins(server, lan_table, "Hoa")
    hoa.post("/api/friends", {"table": minh_table, "seat": 0})  # Hoa asks Minh too
    boss = admin(server)
    for who in (lan, hoa):
        made = boss.post("/api/admin/bans", {"identity": identity(server, who).id, "hours": 1,
                                             "reason": "harassment"})
        assert made.status_code == 200  # and it bites at once, in this process
    # the harassment seen: a report, a friend request, an invitation, from the banned player
    tries = [("/api/reports", {"table": minh_table, "seat": 0, "reason": "abuse"}),
             ("/api/friends", {"table": minh_table, "seat": 0}),
             ("/api/invitations", {"friend": handle, "table": lan_table})]
    for path, body in tries:
        answer = lan.post(path, body)
        assert answer.status_code == 403 and "banned until" in detail(answer), path
    assert rows(server, ReportRow) == 0
    # what it sent before the ban no longer reaches Minh: Hoa's request, Lan's invitation
    assert minh.get("/api/invitations").json() == []
    assert [f["name"] for f in minh.get("/api/friends").json()] == ["Lan"]  # a friend already
    # watching is still open: the lobby, a table's state, its records
    assert lan.get("/api/tables").status_code == 200
    assert lan.get(f"/api/tables/{lan_table}").status_code == 200
    ws = lan.ws(lan_table)
    ws.hello()
    assert ws.seat is None and ws.state is not None
    ws.send(type="say", phrase="hello")
    assert ws.error()["code"] == "banned"
    ws.close()
    # cutting contact is open: Lan ends her friendship with Minh
    friend = next(f["id"] for f in lan.get("/api/friends").json() if f["name"] == "Minh")
    assert lan.post(f"/api/friends/{friend}/remove").status_code == 200
    assert minh.get("/api/friends").json() == []
    # every acting route of the app, called as the banned player, is refused by the ban
    routes = acting_routes(server)
    assert ("POST", "/api/friends") in routes and ("POST", "/api/tables") in routes
    assert {p for _, p in routes} >= BANNED_MAY | ACTING_READS
    may = {(m, p) for m, p in routes if p in BANNED_MAY or p.startswith("/api/admin/")}
    for method, path in sorted(routes, key=lambda r: (r in may, "signout" in r[1])):
        url = path.replace("{table_id}", lan_table).replace("{hand_no}", "1")
        for name in ("{session_id}", "{blocked}", "{friend}", "{report_id}", "{ban_id}"):
            url = url.replace(name, "1")
        answer = lan.http.request(method, url, json={})
        banned = answer.status_code == 403 and "banned until" in answer.json()["detail"]
        assert banned == ((method, path) not in may), (
            method, path, answer.status_code, answer.text)


def test_a_player_banned_while_waiting_in_quick_match_is_not_seated(server: Server) -> None:
    lan, minh, hoa = (server.visitor() for _ in range(3))
    for who, name in ((lan, "Lan"), (minh, "Minh")):
        who.visit()
        assert who.post("/api/quickmatch", {"name": name, "players": 3}).status_code == 200
    boss = admin(server)
    assert boss.post("/api/admin/bans", {"identity": identity(server, lan).id, "hours": 1,
                                         "reason": "abuse"}).status_code == 200
    hoa.visit()
    assert hoa.post("/api/quickmatch", {"name": "Hoa", "players": 3}).status_code == 200
    services = server.app.state.services
    server.call(lambda: matchmaker.match_once(services, time.time()))  # a look at the queue
    assert [who.get("/api/quickmatch").json()["state"] for who in (lan, minh, hoa)] == \
        ["waiting"] * 3  # three for a table of three, but one is banned: nobody is seated
