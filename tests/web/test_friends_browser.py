"""In real Chromium: two players become friends, one invites the other to a table from the
table's page, and the invitation on the friend's page takes them there to sit."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server

POST = """async ([path, body]) => { const res = await fetch(path, {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    return res.json(); }"""


def post(page: Page, path: str, body: dict[str, Any]) -> Any:
    return page.evaluate(POST, [path, body])


def test_a_friend_is_invited_from_the_table_and_joins_it(browser: Browser, server: Server) -> None:
    lan, minh = browser.new_context().new_page(), browser.new_context().new_page()
    lan.goto(server.base + "/")
    minh.goto(server.base + "/")
    table = post(lan, "/api/tables", {"name": "Lan", "players": 3, "table_name": "Friday"})["id"]
    own = post(minh, "/api/tables", {"name": "Minh", "players": 3})["id"]
    assert post(lan, "/api/friends", {"table": own, "seat": 0})["state"] == "asked"
    assert post(minh, "/api/friends", {"table": table, "seat": 0})["state"] == "friend"
    lan.goto(server.base + f"/t/{table}")
    expect(lan.get_by_test_id("seats")).to_contain_text("Lan (you)")
    minh.goto(server.base + "/me")  # Minh sees Lan at the table
    friend = minh.get_by_test_id("friend")
    expect(friend).to_contain_text("Lan")
    expect(friend).to_contain_text("playing at Friday")
    minh.goto(server.base + "/")
    lan.get_by_test_id("invite-friend").click()
    dialog = lan.get_by_test_id("invite-dialog")
    expect(dialog).to_contain_text("Minh")
    dialog.get_by_test_id("invite").click()
    expect(dialog.get_by_test_id("invite-status")).to_have_text("Minh is invited")
    invitation = minh.get_by_test_id("invitation")  # the lobby looks every 10 seconds
    expect(invitation).to_contain_text("Lan invites you to Friday", timeout=25_000)
    invitation.get_by_role("link", name="Join").click()
    minh.wait_for_url(f"**/t/{table}")
    minh.get_by_test_id("join").click()
    expect(lan.get_by_test_id("seats")).to_contain_text("Minh")


def test_two_players_at_one_table_become_friends_from_the_seats_menu(browser: Browser,
                                                                      server: Server) -> None:
    lan, minh = browser.new_context().new_page(), browser.new_context().new_page()
    lan.goto(server.base + "/")
    table = post(lan, "/api/tables", {"name": "Lan", "players": 3})["id"]
    lan.goto(server.base + f"/t/{table}")
    minh.goto(server.base + f"/t/{table}")
    minh.get_by_test_id("join-name").fill("Minh")
    minh.get_by_test_id("join").click()
    expect(lan.get_by_test_id("seats")).to_contain_text("Minh")
    for page, other, said in ((lan, "Minh", "Minh is asked: friends once they ask you back"),
                              (minh, "Lan", "You and Lan are friends")):
        seat = page.get_by_test_id("seat").filter(has_text=other)
        seat.get_by_test_id("report-seat").click()
        page.get_by_test_id("seat-friend").click()
        expect(page.get_by_test_id("toast")).to_contain_text(said)
    minh.goto(server.base + "/me")
    expect(minh.get_by_test_id("friend")).to_contain_text("Lan")
