"""Friends: asked from a seat or a profile, friends once both asked; only friends see where the
other plays; a friend is invited to one's table and the invitation reaches their page."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web.accounts.session import digest

from .conftest import Server, Visitor, WsClient


def player(server: Server, name: str, **spec: Any) -> tuple[Visitor, str, WsClient]:
    """A browser that made a table under ``name`` and is at it now: the browser, the table, its
    connection."""
    visitor = server.visitor()
    visitor.visit()
    made = visitor.post("/api/tables", {"name": name, "players": 3, **spec}).json()
    ws = visitor.ws(made["id"])
    ws.hello()
    return visitor, made["id"], ws


def test_friends_are_both_asked_and_only_friends_see_where_the_other_plays(
        server: Server) -> None:
    lan, lan_table, _ = player(server, "Lan")
    minh, minh_table, _ = player(server, "Minh")
    asked = lan.post("/api/friends", {"table": minh_table, "seat": 0})  # from Minh's seat
    assert asked.status_code == 200 and asked.json()["state"] == "asked"
    [seen] = lan.get("/api/friends").json()
    assert seen["name"] == "Minh" and seen["state"] == "asked" and "tables" not in seen
    [asking] = minh.get("/api/friends").json()
    assert asking["name"] == "Lan" and asking["state"] == "asking" and "tables" not in asking
    both = minh.post("/api/friends", {"table": lan_table, "seat": 0}).json()
    assert both["state"] == "friend"
    [friend] = lan.get("/api/friends").json()
    assert friend["state"] == "friend" and friend["online"]
    assert [t["id"] for t in friend["tables"]] == [minh_table]
    # no longer friends: where Minh plays is Minh's own again
    assert lan.post(f"/api/friends/{friend['id']}/remove").status_code == 200
    assert lan.get("/api/friends").json() == [] and minh.get("/api/friends").json() == []


def test_a_private_table_is_not_shown_even_to_friends(server: Server) -> None:
    lan, lan_table, _ = player(server, "Lan")
    minh, minh_table, _ = player(server, "Minh", private=True)
    lan.post("/api/friends", {"table": minh_table, "seat": 0})
    minh.post("/api/friends", {"table": lan_table, "seat": 0})
    [friend] = lan.get("/api/friends").json()
    assert friend["state"] == "friend" and friend["online"] and friend["tables"] == []


def test_a_friend_is_invited_and_the_invitation_reaches_their_page(server: Server) -> None:
    lan, lan_table, _ = player(server, "Lan")
    minh, minh_table, _ = player(server, "Minh")
    stranger, _, _ = player(server, "Hoa")
    minh_id = lan.post("/api/friends", {"table": minh_table, "seat": 0}).json()["id"]
    # not a friend yet (Minh has not asked back): refused, and nothing reaches Minh
    refused = lan.post("/api/invitations", {"friend": minh_id, "table": lan_table})
    assert refused.status_code == 404 and "friends only" in refused.json()["detail"]
    assert minh.get("/api/invitations").json() == []
    minh.post("/api/friends", {"table": lan_table, "seat": 0})
    # from a table where one holds no seat: refused
    not_mine = lan.post("/api/invitations", {"friend": minh_id, "table": minh_table})
    assert not_mine.status_code == 403
    sent = lan.post("/api/invitations", {"friend": minh_id, "table": lan_table})
    assert sent.status_code == 200
    [invitation] = minh.get("/api/invitations").json()
    assert invitation["from"] == "Lan" and invitation["url"] == f"/t/{lan_table}"
    assert stranger.get("/api/invitations").json() == []


def test_no_friendship_with_oneself_a_bot_or_a_player_one_blocked(server: Server) -> None:
    lan, lan_table, ws = player(server, "Lan")
    minh, minh_table, _ = player(server, "Minh")
    ws.send(type="add_bot")
    ws.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")
    assert lan.post("/api/friends", {"table": lan_table, "seat": 0}).status_code == 400
    assert lan.post("/api/friends", {"table": lan_table, "seat": 1}).status_code == 400
    minh.post("/api/blocks", {"table": lan_table, "seat": 0})
    blocked = lan.post("/api/friends", {"table": minh_table, "seat": 0})
    assert blocked.status_code == 403 and "blocked" in blocked.json()["detail"]
    assert lan.get("/api/friends").json() == []
    nobody = server.visitor()
    nobody.visit()  # a browser that never sat is nobody yet
    assert nobody.post("/api/friends", {"table": lan_table, "seat": 0}).status_code == 403


def test_no_social_answer_holds_another_players_identity(server: Server) -> None:
    lan, lan_table, _ = player(server, "Lan")
    minh, minh_table, _ = player(server, "Minh")
    hoa, _, _ = player(server, "Hoa")
    ids = server.app.state.services.identities
    secret = {ids.by_session(digest(b.cookie or "")).id for b in (lan, minh, hoa)}
    answers = []

    def keep(response: Any) -> Any:
        assert response.status_code == 200, response.text
        answers.append(response.text)
        return response.json()

    mine = keep(lan.post("/api/friends", {"table": minh_table, "seat": 0}))
    keep(minh.get("/api/friends"))
    keep(minh.post("/api/friends", {"table": lan_table, "seat": 0}))
    [friend] = keep(lan.get("/api/friends"))
    assert friend["id"] == mine["id"] and friend["profile"] is None  # a guest has no profile
    keep(lan.post("/api/invitations", {"friend": friend["id"], "table": lan_table}))
    keep(minh.get("/api/invitations"))
    theirs = keep(hoa.post("/api/friends", {"table": minh_table, "seat": 0}))
    assert theirs["id"] != mine["id"]  # a handle is the asker's own: nobody can match them up
    assert hoa.post(f"/api/friends/{mine['id']}/remove").status_code == 404  # nor use Lan's
    keep(hoa.post("/api/blocks", {"table": minh_table, "seat": 0}))
    keep(hoa.get("/api/blocks"))
    keep(lan.post(f"/api/friends/{friend['id']}/remove"))
    assert not [i for i in secret if any(i in text for text in answers)]
