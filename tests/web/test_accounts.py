"""Accounts as a player and an attacker meet them: claiming a name, signing in from another
browser, the sessions, the password and its recovery codes, deleting the account; guessing
passwords, names that look alike, and planted or forged sessions."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from sqlalchemy import func, insert, select
from websockets.exceptions import ConnectionClosed

from tienlen.web.accounts.rows import IdentityRow, PlayedRow, RecoveryCodeRow, SessionRow
from tienlen.web.limits import RateLimit

from .conftest import Server, Visitor

PASSWORD = "correct horse battery"


def count(server: Server, model: type) -> int:
    with server.app.state.services.repo.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar_one())


def browser(server: Server) -> Visitor:
    visitor = server.visitor()
    visitor.visit()
    return visitor


def claimed(server: Server, name: str = "Lan", password: str = PASSWORD) -> tuple[Visitor, Any]:
    """A new browser that claimed ``name``; the claim's answer."""
    visitor = browser(server)
    answer = visitor.post("/api/account/claim", {"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return visitor, answer.json()


def test_a_guest_claims_its_name_and_keeps_its_seat(any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    lan = browser(server)
    assert lan.get("/api/me").json() == {"id": None, "name": None, "account": False,
                                         "role": "player", "profile": None}
    made = lan.post("/api/tables", {"name": "Lan", "players": 3}).json()
    guest = lan.get("/api/me").json()
    assert guest["name"] == "Lan" and not guest["account"] and guest["profile"] is None
    before = lan.cookie
    answer = lan.post("/api/account/claim", {"name": "Lan", "password": PASSWORD}).json()
    me = answer["me"]
    assert me == {"id": guest["id"], "name": "Lan", "account": True, "role": "player",
                  "profile": "/p/Lan"}
    codes = answer["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert all(len(c) == 19 and c.count("-") == 3 for c in codes)
    assert lan.cookie != before  # a new session: the old secret signs nobody in
    assert count(server, SessionRow) == 1 and count(server, RecoveryCodeRow) == 10
    with server.app.state.services.repo.engine.connect() as conn:
        stored = conn.execute(select(RecoveryCodeRow.digest)).scalars().all()
        hashed = conn.execute(select(IdentityRow.password_hash)).scalar_one()
    assert not set(codes) & set(stored) and hashed.startswith("$argon2id$")
    tab = lan.ws(made["id"])
    tab.hello()
    assert tab.seat == 0  # the same identity: its seat follows
    assert lan.visit("/p/Lan").status_code == 200


def test_a_browser_not_known_yet_claims_a_name(server: Server) -> None:
    visitor, answer = claimed(server, "Minh")
    assert answer["me"]["name"] == "Minh" and visitor.get("/api/me").json()["account"]
    again = visitor.post("/api/account/claim", {"name": "Minh two", "password": PASSWORD})
    assert again.status_code == 400 and "already" in again.json()["detail"]


def test_sign_in_from_a_second_browser_gives_a_new_session(any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    _, answer = claimed(server)
    other = browser(server)
    planted = other.cookie  # a secret an attacker could have planted in this browser
    signed = other.post("/api/account/signin", {"name": "lan", "password": PASSWORD})
    assert signed.status_code == 200
    assert signed.json()["me"] == answer["me"]
    assert other.cookie != planted
    old = server.visitor()
    old.http.cookies.set("tienlen_sid", planted or "")
    assert old.get("/api/me").json()["id"] is None  # the planted secret signs nobody in
    sessions = other.get("/api/account/sessions").json()
    assert len(sessions) == 2 and [s["this"] for s in sessions].count(True) == 1
    assert all(len(s["id"]) == 16 for s in sessions)
    with server.app.state.services.repo.engine.connect() as conn:
        digests = conn.execute(select(SessionRow.digest)).scalars().all()
    assert not any(s["id"] in d for s in sessions for d in digests)  # no part of what is stored


def test_unknown_name_and_wrong_password_answer_alike(server: Server) -> None:
    claimed(server)
    other = browser(server)
    wrong = other.post("/api/account/signin", {"name": "Lan", "password": "not the password"})
    unknown = other.post("/api/account/signin", {"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["detail"] == "wrong name or password"
    vi = other.post("/api/account/signin", {"name": "Nobody", "password": "x" * 9},
                    **{"Accept-Language": "vi"})
    assert vi.json()["detail"] == "sai tên hoặc mật khẩu"
    assert other.get("/api/me").json()["id"] is None


def test_a_flood_on_one_name_limits_that_name_only(server: Server) -> None:
    claimed(server)
    claimed(server, "Minh")
    attacker = browser(server)
    answers = [attacker.post("/api/account/signin", {"name": "Lan", "password": f"guess {i}"})
               for i in range(11)]
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert int(answers[-1].headers["retry-after"]) >= 1
    assert "too many sign-in tries for this name" in answers[-1].json()["detail"]
    # the right password is refused now too, for this name only
    assert attacker.post("/api/account/signin",
                         {"name": "Lan", "password": PASSWORD}).status_code == 429
    minh = browser(server)  # behind the same address, another player signs in meanwhile
    assert minh.post("/api/account/signin", {"name": "Minh", "password": PASSWORD}).status_code == 200


def test_one_address_has_a_ceiling_over_every_name(server: Server) -> None:
    server.app.state.accounts.per_address = RateLimit(5, 600.0, server.clock)
    claimed(server)
    attacker = browser(server)
    tries = [attacker.post("/api/account/signin", {"name": f"Name {i}", "password": "x" * 8})
             for i in range(6)]
    assert [t.status_code for t in tries] == [401] * 5 + [429]
    assert "from this address" in tries[-1].json()["detail"]


@pytest.mark.parametrize("refused, words", [
    ("LAN", "is taken"), (" lan ", "is taken"), ("Ｌａｎ", "is taken"),
    ("Lаn", "looks too much like the account 'Lan'"),  # a Cyrillic а
    ("Ian", "looks too much like the account 'Lan'"), ("lAN", "is taken")])
def test_a_name_like_an_accounts_is_refused(server: Server, refused: str, words: str) -> None:
    claimed(server, "Lan")
    other = browser(server)
    answer = other.post("/api/account/claim", {"name": refused, "password": PASSWORD})
    assert answer.status_code == 400 and words in answer.json()["detail"]
    assert count(server, IdentityRow) == 1 and count(server, SessionRow) == 1  # nothing stored


def test_the_vietnamese_letters_are_other_names(server: Server) -> None:
    for name in ("Lan", "Lân", "Lăn"):
        assert claimed(server, name)[1]["me"]["name"] == name
    other = browser(server)
    assert other.post("/api/account/signin", {"name": "LÂN", "password": PASSWORD}) \
        .json()["me"]["name"] == "Lân"


@pytest.mark.parametrize("body, words", [
    ({"name": "Bot 3", "password": PASSWORD}, "bot"),
    ({"name": "Máy 2", "password": PASSWORD}, "bot"),
    ({"name": "Lan", "password": "short"}, "password"),
    ({"name": "Lan", "password": "x" * 129}, "password"),
    ({"name": "La\u200bn", "password": PASSWORD}, "U+200B"),
    ({"name": "Lan", "password": 12345678}, "password"),
    ({"name": "Lan", "password": PASSWORD, "role": "admin"}, "role"),
    ({"name": "L" * 200, "password": PASSWORD}, "name"),
])
def test_a_bad_claim_is_refused_and_stores_nothing(server: Server, body: dict[str, Any],
                                                   words: str) -> None:
    visitor = browser(server)
    answer = visitor.post("/api/account/claim", body)
    assert answer.status_code in (400, 422)
    assert answer.headers["content-type"] == "application/problem+json"
    assert words in answer.json()["detail"]
    assert count(server, IdentityRow) == 0 and count(server, SessionRow) == 0


def test_a_recovery_code_resets_the_password_once(any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    lan, answer = claimed(server)
    code = answer["recovery_codes"][3]
    lost = browser(server)
    body = {"name": "Lan", "code": code.upper().replace("-", " "), "new_password": "a new one!"}
    assert lost.post("/api/account/recover", body).json()["me"]["name"] == "Lan"
    assert lan.get("/api/me").json()["id"] is None  # every other browser is signed out
    again = browser(server).post("/api/account/recover", {**body, "new_password": "a third one"})
    assert again.status_code == 401 and again.json()["detail"] == "wrong name or recovery code"
    assert browser(server).post("/api/account/signin", {"name": "Lan", "password": PASSWORD}) \
        .status_code == 401
    assert browser(server).post("/api/account/signin", {"name": "Lan", "password": "a new one!"}) \
        .status_code == 200
    assert count(server, RecoveryCodeRow) == 9


def test_new_codes_replace_the_old_ones(server: Server) -> None:
    lan, answer = claimed(server)
    assert lan.post("/api/account/codes", {"password": "wrong password"}).status_code == 403
    fresh = lan.post("/api/account/codes", {"password": PASSWORD}).json()["recovery_codes"]
    assert len(fresh) == 10 and not set(fresh) & set(answer["recovery_codes"])
    old = {"name": "Lan", "code": answer["recovery_codes"][0], "new_password": "whatever it is"}
    assert browser(server).post("/api/account/recover", old).status_code == 401
    assert browser(server).post("/api/account/recover", {**old, "code": fresh[0]}).status_code == 200


def test_changing_the_password_ends_the_other_sessions(server: Server) -> None:
    lan, _ = claimed(server)
    phone = browser(server)
    phone.post("/api/account/signin", {"name": "Lan", "password": PASSWORD})
    wrong = lan.post("/api/account/password", {"password": "not it at all", "new_password": "x" * 8})
    assert wrong.status_code == 403 and wrong.json()["detail"] == "wrong password"
    done = lan.post("/api/account/password", {"password": PASSWORD, "new_password": "better one"})
    assert done.json() == {"ended": 1}
    assert phone.get("/api/me").json()["id"] is None and lan.get("/api/me").json()["account"]


def test_sign_out_here_everywhere_and_one_session(server: Server) -> None:
    lan, _ = claimed(server)
    others = [browser(server) for _ in range(3)]
    for other in others:
        assert other.post("/api/account/signin", {"name": "Lan", "password": PASSWORD}).is_success
    listed = lan.get("/api/account/sessions").json()
    this = next(s for s in listed if s["this"])
    one = next(s for s in listed if not s["this"])
    assert lan.post(f"/api/account/sessions/{one['id']}/end").json() == {"ended": 1}
    assert lan.post(f"/api/account/sessions/{one['id']}/end").status_code == 404
    assert sum(o.get("/api/me").json()["id"] is None for o in others) == 1
    assert lan.post("/api/account/signout-others").json() == {"ended": 2}
    assert all(o.get("/api/me").json()["id"] is None for o in others)
    assert [s["id"] for s in lan.get("/api/account/sessions").json()] == [this["id"]]
    out = lan.post("/api/account/signout")
    assert out.json()["me"]["id"] is None and lan.cookie is None
    assert count(server, SessionRow) == 0
    assert lan.get("/api/account/sessions").status_code == 401


def play_a_hand(server: Server, visitor: Visitor) -> str:
    """``visitor`` (signed in) plays one hand against a bot at a practice table; its id."""
    made = visitor.post("/api/tables", {"name": "Lan", "players": 2, "quick": True,
                                        "seed": 3}).json()
    ws = visitor.ws(made["id"])
    state = ws.hello()
    assert ws.seat == 0
    while not state["view"]["is_over"]:
        view = state["view"]
        if view["turn"] == ws.seat and view["legal"]:
            ws.send(type="play", version=state["version"], move=view["legal"][0])
        state = ws.until(lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v)
    if not state["info"]["records"]:
        ws.until(lambda m: m["type"] == "state" and m["info"]["records"] >= 1)
    ws.close()
    return str(made["id"])


def test_a_deleted_accounts_hands_name_a_deleted_player(any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    lan, answer = claimed(server)
    table_id = play_a_hand(server, lan)
    before = server.get(f"/api/tables/{table_id}/records/1").text
    assert tomllib.loads(before)["players"][0] == "Lan"
    with server.app.state.services.repo.engine.begin() as conn:  # the hand as a profile keeps it
        if not conn.execute(select(PlayedRow)).first():
            conn.execute(insert(PlayedRow), {"identity": answer["me"]["id"], "table_id": table_id,
                                             "hand_no": 1, "seat": 0, "place": 1, "at": 0.0})
    assert lan.post("/api/account/delete", {"password": "wrong password"}).status_code == 403
    assert lan.post("/api/account/delete", {"password": PASSWORD}).json()["me"]["id"] is None
    after = server.get(f"/api/tables/{table_id}/records/1").text
    assert after == before.replace('players = ["Lan", ', 'players = ["deleted player", ')
    assert lan.get("/api/me").json()["id"] is None
    assert server.get("/p/Lan").status_code == 404
    assert browser(server).post("/api/account/signin", {"name": "Lan", "password": PASSWORD}) \
        .status_code == 401
    assert count(server, SessionRow) == 0 and count(server, RecoveryCodeRow) == 0
    again, _ = claimed(server, "Lan", "another password")  # the name is free again
    assert again.get("/api/me").json()["id"] != answer["me"]["id"]


def test_another_site_cannot_sign_in_with_the_cookie(server: Server) -> None:
    claimed(server)
    visitor = browser(server)
    for path in ("/api/account/signin", "/api/account/signout-others", "/api/account/delete"):
        forged = visitor.post(path, {"name": "Lan", "password": PASSWORD},
                              Origin="https://evil.example", **{"Sec-Fetch-Site": "cross-site"})
        assert forged.status_code == 403 and forged.json()["code"] == "forbidden"
    assert visitor.get("/api/me").json()["id"] is None


def test_an_unknown_name_costs_one_check_of_the_same_hash_as_an_account() -> None:
    from argon2 import PasswordHasher

    from tienlen.web.accounts import passwords

    dummy = passwords._dummy_hash()
    assert dummy == passwords.DUMMY_HASH  # no hash made at the first unknown name
    assert PasswordHasher().check_needs_rehash(dummy) is False  # today's parameters
    assert passwords.verify_now(None, passwords.DUMMY) is False  # and it signs nobody in


def test_a_record_renamed_changes_only_its_players_line() -> None:
    from tienlen import Game, Rules
    from tienlen.web.accounts.accounts import renamed_record

    game = Game(Rules.preset("mien-nam"), ["3s 4s 5s", "6h 7h 8h"], names=["Lan", "Minh"])
    text = game.record()
    renamed = renamed_record(text, 1, "deleted player")
    assert renamed == text.replace('players = ["Lan", "Minh"]', 'players = ["Lan", "deleted player"]')
    broken = text.replace("dealer = 0", "dealer = 7")  # a record that no longer loads
    assert broken != text
    assert renamed_record(broken, 0, "deleted player").startswith(
        broken.split("players")[0] + 'players = ["deleted player", "Minh"]')


def test_an_account_sits_under_its_own_name_whatever_is_typed(server: Server) -> None:
    lan, _ = claimed(server, "Lan")
    made = lan.post("/api/tables", {"name": "Someone else", "players": 3}).json()
    assert made["info"]["seats"][0]["name"] == "Lan"
    host = browser(server)
    other = host.post("/api/tables", {"players": 3}).json()
    ws = lan.ws(other["id"])
    ws.hello()
    ws.send(type="join", name="Not Lan")
    ws.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
    state = ws.until(lambda m: m["type"] == "state" and m["info"]["seats"][0]["kind"] == "human")
    assert state["info"]["seats"][0]["name"] == "Lan"


def test_a_browser_signed_out_elsewhere_loses_its_seat_at_once(server: Server) -> None:
    lan, _ = claimed(server, "Lan")
    made = lan.post("/api/tables", {"name": "Lan", "players": 3}).json()
    phone = browser(server)
    assert phone.post("/api/account/signin", {"name": "Lan", "password": PASSWORD}).status_code == 200
    at_table = phone.ws(made["id"])
    at_table.hello()
    assert at_table.seat == 0  # the account's seat, on its phone
    ended = lan.post("/api/account/signout-others")
    assert ended.json()["ended"] == 1
    with pytest.raises(ConnectionClosed) as closed:  # the phone's open table is closed at once
        at_table.until(lambda m: False, timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    again = phone.ws(made["id"])  # its page connects again: signed out, it only watches
    again.hello()
    assert again.seat is None
    mine = lan.ws(made["id"])
    mine.hello()
    assert mine.seat == 0  # the browser that stayed signed in keeps the seat
