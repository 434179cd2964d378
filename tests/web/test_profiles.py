"""Profiles and the leaderboard: a player's ratings with their curves, hands and first places,
the last hands (a private table's shown only to those who sat there), one's own profile as a
guest, and the leaderboard of the players with 20 rated hands or more."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import update

from tienlen.web.accounts.names import account_key, confusable_key
from tienlen.web.accounts.rows import IdentityRow
from tienlen.web.ratings.ratings import Rating, shown, shown_spread

from .conftest import Server, Visitor
from .test_rated_hands import IN_PLAY, browser, owners, play, sat_down, two_people


def make_account(server: Server, identity: str | None, name: str, deleted: bool = False) -> None:
    """Make a guest an account called ``name`` (as claiming one does), or a deleted one."""
    with server.app.state.services.repo.engine.begin() as conn:
        conn.execute(update(IdentityRow).where(IdentityRow.id == identity).values(
            name=name, account_key=account_key(name), look_key=confusable_key(name),
            deleted=1.0 if deleted else None))


def people_at(server: Server, **spec: Any) -> tuple[str, Visitor, Visitor, list[str | None]]:
    """Lan and Minh (accounts of those names) at a started 4-seat southern table (thirteen: no
    instant win ends its first hand as it is dealt, before a test sets the ratings); its id."""
    lan, minh = browser(server), browser(server)
    table_id, _, _ = two_people(server, lan=lan, minh=minh, **{"rules": IN_PLAY, **spec})
    seated = owners(server, table_id)
    make_account(server, seated[0], "Lan")
    make_account(server, seated[1], "Minh")
    return table_id, lan, minh, seated


def test_a_profile_shows_ratings_curve_totals_and_the_last_hands(server: Server) -> None:
    table_id, lan, _, _ = people_at(server)
    play(server, table_id)
    seen = server.visitor().get("/api/players/lan").json()  # account names: any case
    assert seen["name"] == "Lan" and seen["account"] and seen["profile"] == "/p/Lan"
    [southern] = seen["ratings"]
    assert southern["family"] == "southern" and southern["hands"] == 1
    assert southern["provisional"] and southern["sigma"] < 25 / 3
    assert southern["conservative"] == pytest.approx(southern["mu"] - 3 * southern["sigma"])
    assert [p["hands"] for p in southern["curve"]] == [1]
    assert seen["hands"] == 1 and seen["firsts"] == southern["firsts"]
    [hand] = seen["recent"]
    assert hand["table"] == table_id and hand["hand"] == 1 and hand["family"] == "southern"
    assert hand["players"][:2] == ["Lan", "Minh"] and len(hand["players"]) == 4
    assert server.get(hand["record"]).status_code == 200
    assert hand["replay"] == f"/replay/{table_id}/1"
    assert server.get(hand["replay"]).status_code == 200  # a page of its own
    own = lan.get("/api/me/profile").json()  # the player's own profile: the same, and with
    assert own["opponents"] == [{"name": "Minh", "account": True, "profile": "/p/Minh",
                                 "hands": 1, "at": hand["at"]}]  # whom Lan played with,
    assert seen["opponents"] == [] and own == {**seen, "opponents": own["opponents"]}
    # once the table has closed, its page is gone: the hand keeps its record and its replay
    server.app.state.services.repo.close_table(table_id, 1.0)
    [closed] = server.visitor().get("/api/players/lan").json()["recent"]
    assert closed["replay"] == f"/replay/{table_id}/1"
    assert server.get(closed["record"]).status_code == 200
    assert server.get(f"/api/tables/{table_id}/records/1/replay").json()["steps"]


def test_the_end_of_a_rated_hand_says_how_it_moved_each_players_rating(server: Server) -> None:
    table_id, lan, minh, seated = people_at(server)
    ratings = server.app.state.services.ratings
    ratings.put(seated[0], "southern", Rating(27.0, 3.0, 4, 1))  # 1596 after 4 rated hands
    path = f"/api/tables/{table_id}/hands/1"
    assert lan.get(f"/api/me{path.removeprefix('/api/tables')}/rating").status_code == 404
    play(server, table_id)
    for who, before, player in ((lan, 1596, seated[0]), (minh, 1500, seated[1])):
        answer = who.get(f"/api/me/hands/{table_id}/1/rating")
        assert answer.status_code == 200, answer.text
        now = ratings.get(player, "southern")
        assert now is not None
        assert answer.json() == {"family": "southern", "before": before, "after": now.shown,
                                 "change": now.shown - before, "hands": now.hands,
                                 "provisional": True}
    # a stranger has no rated hand there, nor anyone a hand not played; a bad number is a 422
    assert browser(server).get(f"/api/me/hands/{table_id}/1/rating").status_code == 404
    assert lan.get(f"/api/me/hands/{table_id}/2/rating").status_code == 404
    refused = lan.get(f"/api/me/hands/{table_id}/0/rating")
    assert refused.status_code == 422 and refused.headers["content-type"].startswith(
        "application/problem+json")


def test_a_private_tables_hands_are_listed_only_to_those_who_sat_there(server: Server) -> None:
    private, lan, minh, _ = people_at(server, private=True)
    play(server, private)
    stranger = browser(server)
    theirs = stranger.get("/api/players/Lan").json()
    assert theirs["recent"] == [] and theirs["hands"] == 0  # not there for a stranger
    assert theirs["ratings"] == []  # no public rated hand: no rating to show others
    assert lan.get("/api/players/Lan").json()["hands"] == 1  # her own: counted
    for viewer in (lan, minh):  # Lan, and Minh who sat at that table
        assert [h["table"] for h in viewer.get("/api/players/Lan").json()["recent"]] == [private]
    assert [h["table"] for h in lan.get("/api/me/profile").json()["recent"]] == [private]


def test_ones_own_profile_as_a_guest_and_as_nobody(server: Server) -> None:
    nobody = browser(server)
    assert nobody.get("/api/me/profile").json() == {
        "name": None, "account": False, "profile": None, "ratings": [], "hands": 0,
        "firsts": 0, "recent": [], "opponents": []}
    guest = browser(server)
    practice = guest.post("/api/tables", {"name": "Hoa", "players": 4, "rules": "mien-nam",
                                          "quick": True, "seed": 3}).json()
    play(server, practice["id"])
    mine = guest.get("/api/me/profile").json()
    assert mine["name"] == "Hoa" and not mine["account"] and mine["profile"] is None
    assert mine["ratings"] == []  # a practice table is not rated, its hand still listed
    assert [(h["table"], h["family"]) for h in mine["recent"]] == [(practice["id"], None)]
    assert server.get("/api/players/Hoa").status_code == 404  # a guest has no public profile


def test_recent_opponents_are_the_people_one_sat_with_latest_first(server: Server) -> None:
    first, lan, minh, _ = people_at(server, private=True)
    play(server, first)
    assert [o["name"] for o in lan.get("/api/me/profile").json()["opponents"]] == ["Minh"]
    hoa = browser(server)  # a guest at Lan's next table: named, with no profile to link
    second, host, _ = sat_down(server, lan, hoa, "Hoa", players=2, rules="mien-nam")
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    play(server, second)
    mine = lan.get("/api/me/profile").json()["opponents"]
    assert [(o["name"], o["hands"], o["profile"]) for o in mine] == [
        ("Hoa", 1, None), ("Minh", 1, "/p/Minh")]  # the latest first; bots are nobody
    assert [o["name"] for o in minh.get("/api/me/profile").json()["opponents"]] == ["Lan"]
    make_account(server, owners(server, first)[1], "Minh", deleted=True)
    assert [o["name"] for o in lan.get("/api/me/profile").json()["opponents"]] == ["Hoa"]


def test_an_unknown_player_is_a_404_problem(server: Server) -> None:
    answer = server.get("/api/players/Nobody")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
    assert answer.json()["detail"] == "no player has the account name 'Nobody'"


def test_the_leaderboard_ranks_by_the_rating_shown_from_20_rated_hands(server: Server) -> None:
    table_id, _, _, seated = people_at(server)
    lan, minh = seated[0], seated[1]
    ratings = server.app.state.services.ratings
    ratings.put(lan, "southern", Rating(30.0, 2.0, 19, 6))  # 19 hands of history each
    ratings.put(minh, "southern", Rating(28.0, 1.0, 19, 4))
    board = server.get("/api/leaderboard").json()
    assert board["family"] == "southern" and board["rows"] == []
    assert board["families"] == ["southern", "northern", "published"]
    play(server, table_id)  # the 20th
    rows = server.get("/api/leaderboard?family=southern").json()["rows"]
    assert sorted(r["name"] for r in rows) == ["Lan", "Minh"]
    assert [r["rank"] for r in rows] == [1, 2]
    assert rows[0]["rating"] > rows[1]["rating"]
    for row in rows:
        assert row["hands"] == 20 and row["profile"] == f"/p/{row['name']}"
        assert row["conservative"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert (row["rating"], row["spread"]) == (shown(row["mu"]), shown_spread(row["sigma"]))
    assert server.get("/api/leaderboard?family=northern").json()["rows"] == []


def test_the_leaderboard_names_a_deleted_account_and_refuses_an_unknown_family(
        server: Server) -> None:
    gone = browser(server)
    made = gone.post("/api/tables", {"name": "Tuan", "players": 2, "rules": "mien-nam",
                                     "quick": True}).json()
    owner = owners(server, made["id"])[0]
    server.app.state.services.ratings.put(owner, "southern", Rating(25.0, 2.0, 30, 10))
    make_account(server, owner, "Tuan", deleted=True)
    for lang, words in (("en", "deleted player"), ("vi", "người chơi đã xoá")):
        answer = gone.http.get("/api/leaderboard", headers={"Accept-Language": lang}).json()
        assert [(r["name"], r["profile"]) for r in answer["rows"]] == [(words, None)]
    refused = server.get("/api/leaderboard?family=western")
    assert refused.status_code == 422 and refused.json()["code"] == "invalid"
