"""A browser is someone: a guest identity in a cookie, whose seats are found again from any tab
or after a reload; requests from other sites cannot act with that cookie."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
import httpx
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed

from tienlen.errors import error
from tienlen.web.accounts.identity import Claim, SqlIdentityStore, new_id
from tienlen.web.accounts.names import account_key, confusable_key
from tienlen.web.accounts.rows import IdentityRow, SessionRow
from tienlen.web.accounts.session import digest
from tienlen.web.schema import open_repository
from tienlen.web.storage import StorageError

from .conftest import UNRATED, Server, Visitor


def rows(server: Server, model: type) -> int:
    repo = server.app.state.services.repo
    with repo.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar_one())


def test_a_first_visit_gets_a_secret_cookie_and_stores_nothing(server: Server) -> None:
    browser = server.visitor()
    page = browser.visit()
    cookie = page.headers["set-cookie"]
    assert cookie.startswith("tienlen_sid=") and "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower() and "Secure" not in cookie  # plain http here
    first = browser.cookie
    assert len(first or "") == 43
    assert rows(server, IdentityRow) == 0 and rows(server, SessionRow) == 0
    browser.visit("/")  # nobody yet: no value it sends is kept, it is given a new one
    assert browser.cookie not in (None, first)
    browser.post("/api/tables", {"name": "Lan", "players": 3})  # now a guest
    guest = browser.cookie
    assert "set-cookie" not in browser.visit("/").headers and browser.cookie == guest


def test_a_guest_finds_its_seat_from_another_tab_without_any_token(server: Server) -> None:
    browser = server.visitor()
    browser.visit()
    made = browser.post("/api/tables", {"name": "Lan", "players": 3}).json()
    assert rows(server, IdentityRow) == 1  # the browser became the guest Lan
    tab = browser.ws(made["id"])
    tab.hello()  # no token: the cookie's identity holds seat 0
    assert tab.seat == 0
    other = server.visitor()
    other.visit()
    stranger = other.ws(made["id"])
    stranger.hello()
    assert stranger.seat is None  # another browser is a spectator
    stranger.send(type="join", name="Minh")
    stranger.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    again = other.ws(made["id"])  # a reload of Minh's page
    again.hello()
    assert again.seat == 1
    assert rows(server, IdentityRow) == 2


def test_a_refused_join_leaves_no_guest_behind(server: Server) -> None:
    host = server.visitor()
    host.visit()
    made = host.post("/api/tables", {"name": "Lan", "players": 3}).json()
    newcomer = server.visitor()
    newcomer.visit()
    ws = newcomer.ws(made["id"])
    ws.hello()
    ws.send(type="join", name="LAN")  # taken
    assert "taken" in ws.error()["reason"]
    assert rows(server, IdentityRow) == 1 and rows(server, SessionRow) == 1


def test_one_identity_holds_one_seat_at_a_rated_table_only(server: Server) -> None:
    host = server.visitor()
    host.visit()
    browser = server.visitor()
    browser.visit()
    for options, second_seat in (("", False), ("stake = 2", True)):
        made = host.post("/api/tables", {"rules": "mien-nam", "options": options}).json()
        one, two = browser.ws(made["id"]), browser.ws(made["id"])  # two tabs, both watching
        one.hello()
        two.hello()
        one.send(type="join", name="Lan")
        one.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
        two.send(type="join", name="Lan again")
        if second_seat:  # an unrated table (its options changed): two seats, one screen
            two.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
        else:
            assert "one seat" in two.error()["reason"]
            assert [s["kind"] for s in made_seats(server, made["id"])][:2] == ["human", "empty"]


def made_seats(server: Server, table_id: str) -> list[dict[str, str]]:
    return list(server.get(f"/api/tables/{table_id}").json()["seats"])


def test_another_site_cannot_act_with_the_cookie(server: Server) -> None:
    browser = server.visitor()
    browser.visit()
    forged = browser.post("/api/tables", {"name": "Lan"}, Origin="https://evil.example",
                          **{"Sec-Fetch-Site": "cross-site"})
    assert forged.status_code == 403
    assert forged.json()["code"] == "forbidden" and "another site" in forged.json()["detail"]
    no_origin = browser.http.post("/api/tables", json={"name": "Lan"},
                                  headers={"Origin": "", "Sec-Fetch-Site": ""})
    assert no_origin.status_code == 403
    assert rows(server, IdentityRow) == 0  # nothing was made by the refused requests
    assert browser.post("/api/tables", {"name": "Lan"}).status_code == 200  # its own page
    # a script with no cookie is nobody's: it is let in, and holds its seat by its token, at an
    # unrated table (a rated one seats only an identity)
    assert server.post("/api/tables", {"name": "Bot owner", **UNRATED}).status_code == 200
    assert server.post("/api/tables", {"name": "Bot owner"}).status_code == 400


CROSS_SITE = [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")]


SPELLINGS = [
    ("tienlen_sid={}", True),
    ("tienlen_sid ={}", True),  # the spacing the routes' parser forgives
    ("tienlen_sid = {}", True),
    ("tienlen_sid\t={}", True),
    ("lang=vi;tienlen_sid={}", True),
    ("tienlen_sid=nothing; tienlen_sid={}", True),  # twice: the routes read the last
    ("tienlen_dev={}", True),  # the device cookie, and the one an account trusts
    ("tienlen_known={}", True),
    ("TIENLEN_SID={}", False),  # another name: the routes read no session from it
    ("xtienlen_sid={}", False),
]


def test_another_site_is_refused_however_the_cookie_is_spelled(server: Server) -> None:
    for cookie, refused in SPELLINGS:  # each with a browser of its own, on one server
        lan = server.visitor()
        lan.visit()
        lan.post("/api/tables", {"name": "Lan", "players": 3})
        forged = httpx.post(server.base + "/api/account/signout", timeout=10,
                            headers=[("Cookie", cookie.format(lan.cookie)), *CROSS_SITE])
        assert (forged.status_code == 403) is refused, cookie
        assert lan.get("/api/me").json()["name"] == "Lan", cookie  # still signed in


def test_the_check_and_the_routes_read_the_same_one_of_two_cookie_headers(server: Server) -> None:
    lan = server.visitor()
    lan.visit()
    lan.post("/api/tables", {"name": "Lan", "players": 3})
    for first, second in (("lang=vi", f"tienlen_sid={lan.cookie}"),
                          (f"tienlen_sid ={lan.cookie}", "lang=vi")):
        forged = httpx.post(server.base + "/api/account/signout", timeout=10,
                            headers=[("Cookie", first), ("Cookie", second), *CROSS_SITE])
        assert forged.status_code in (200, 403)
        assert lan.get("/api/me").json()["name"] == "Lan"


def test_a_websocket_from_another_site_is_refused(server: Server) -> None:
    browser = server.visitor()
    browser.visit()
    made = browser.post("/api/tables", {"name": "Lan"}).json()
    other = browser.ws(made["id"], origin="https://evil.example")
    with pytest.raises(ConnectionClosed) as refused:  # closed at once, nothing sent: 4403
        other.recv()
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4403
    assert other.wire == [] and "set-cookie" not in other.conn.response.headers  # type: ignore[union-attr]
    browser.ws(made["id"]).hello()  # its own page's is let in


def test_the_seat_stays_its_owners_across_a_restart(server: Server) -> None:
    browser = server.visitor()
    browser.visit()
    made = browser.post("/api/tables", {"name": "Lan", "players": 3}).json()
    server.restart()
    tab = browser.ws(made["id"])
    tab.hello()
    assert tab.seat == 0


def test_two_identities_of_one_browser_hold_one_seat_at_a_rated_table(server: Server) -> None:
    host = server.visitor()
    host.visit()
    made = host.post("/api/tables", {"rules": "mien-nam"}).json()
    browser = server.visitor()
    browser.visit()
    first = browser.ws(made["id"])
    first.hello()
    first.send(type="join", name="Lan")
    first.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
    # the browser is now someone else (signed in as another; here: its session cookie gone)
    browser.http.cookies.delete("tienlen_sid")
    browser.visit()
    assert browser.cookie is not None and browser.http.cookies.get("tienlen_dev") is not None
    second = browser.ws(made["id"])
    second.hello()
    assert second.seat is None  # another identity: not seated at Lan's seat
    second.send(type="join", name="Minh")
    assert "this browser already holds seat 0" in second.error()["reason"]
    other = server.visitor()  # another browser may sit
    other.visit()
    third = other.ws(made["id"])
    third.hello()
    third.send(type="join", name="Minh")
    third.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)


def test_two_look_alike_claims_at_one_moment_cannot_both_succeed(tmp_path: Path) -> None:
    # both checked free before either was written: the database refuses the second
    repo = open_repository(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    store = SqlIdentityStore(repo.engine)
    done = [store.claim(Claim(identity=new_id(), name=name, key=account_key(name),
                              look=confusable_key(name), password_hash="argon2-hash", codes=[],
                              digest=secrets.token_hex(32), new=True))
            for name in ("Lan", "Ian", "Lân")]
    assert done == [True, False, True]  # "Ian" looks like "Lan"; "Lân" is another name
    repo.close()


# ------------------------------------------------------------------ planted sessions
PLANTED = "planted" + "x" * 36  # 43 URL-safe characters: shaped as the server's are


def with_cookie(server: Server, value: str) -> Visitor:
    """A browser whose session cookie someone else chose (it visits no page after)."""
    browser = server.visitor()
    browser.http.cookies.set("tienlen_sid", value, domain="127.0.0.1")
    return browser


def become_a_guest(server: Server, browser: Visitor, way: str) -> str | None:
    """``browser`` becomes someone called Lan by ``way``; the table it sits at (if any)."""
    if way == "table":
        return str(browser.post("/api/tables", {"name": "Lan", "players": 3}).json()["id"])
    if way == "quick match":
        assert browser.post("/api/quickmatch", {"players": 2, "name": "Lan"}).is_success
        return None
    if way == "claim":
        assert browser.post("/api/account/claim", {"name": "Lan", "password": "a password!"}) \
            .is_success
        return None
    host = server.visitor()
    host.visit()
    made = str(host.post("/api/tables", {"players": 3}).json()["id"])
    if way == "table, then sit":
        made = str(browser.post("/api/tables", {"players": 3}).json()["id"])
    tab = browser.ws(made)
    tab.hello()
    tab.send(type="join", name="Lan")
    tab.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    return made


@pytest.mark.parametrize("way", ["table", "quick match", "claim", "sit", "table, then sit"])
@pytest.mark.parametrize("issued", [False, True], ids=["made up", "issued to the planter"])
def test_a_planted_cookie_signs_nobody_in(server: Server, way: str, issued: bool) -> None:
    value = PLANTED
    if issued:  # a value the server gave the planter's own browser, not used yet
        planter_page = server.visitor()
        planter_page.visit()
        value = planter_page.cookie or ""
    victim = with_cookie(server, value)
    table = become_a_guest(server, victim, way)
    me = victim.get("/api/me").json()
    assert me["name"] == "Lan" and victim.cookie not in (None, value)  # a new secret
    planter = with_cookie(server, value)
    assert planter.get("/api/me").json()["id"] is None  # the planted value signs nobody in
    assert planter.get("/api/me/tables").json() == []
    with server.app.state.services.repo.engine.connect() as conn:
        stored = conn.execute(select(SessionRow.digest)).scalars().all()
    assert digest(value) not in stored
    if table is not None:
        watching = planter.ws(table)
        watching.hello()
        assert watching.seat is None  # not seated at the victim's seat
        again = victim.ws(table)  # the victim's next page finds its seat by its new cookie
        again.hello()
        assert again.seat is not None


def test_a_page_replaces_a_cookie_it_does_not_know(server: Server) -> None:
    victim = with_cookie(server, PLANTED)
    page = victim.visit()
    assert page.headers["set-cookie"].startswith("tienlen_sid=") and victim.cookie != PLANTED
    socket = with_cookie(server, PLANTED)  # a socket too is given a new secret as it connects
    host = server.visitor()
    host.visit()
    tab = socket.ws(host.post("/api/tables", {"players": 3}).json()["id"])
    tab.hello()
    assert socket.cookie not in (None, PLANTED)
    assert rows(server, IdentityRow) == 0  # nothing stored until it sits


def test_the_page_loads_and_keeps_its_cookie_while_the_database_is_away(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    lan = server.visitor()
    lan.visit()
    assert lan.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200
    signed_in = lan.cookie

    def away(digest: str) -> None:
        raise error(StorageError, "err.storage.refused", error="the database is away")

    monkeypatch.setattr(server.app.state.services.identities, "by_session", away)
    page = lan.visit()
    assert page.status_code == 200 and "<html" in page.text
    assert lan.cookie == signed_in  # not replaced: the session is Lan's once it is back
    monkeypatch.undo()
    assert lan.get("/api/me").json()["name"] == "Lan"
