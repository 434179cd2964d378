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


def test_two_strangers_look_each_other_up_and_become_friends_from_a_seats_card(
        browser: Browser, server: Server) -> None:
    lan, minh = browser.new_context().new_page(), browser.new_context().new_page()
    lan.goto(server.base + "/")
    table = post(lan, "/api/tables", {"name": "Lan", "players": 3})["id"]
    lan.goto(server.base + f"/t/{table}")
    minh.goto(server.base + f"/t/{table}")
    minh.get_by_test_id("join-name").fill("Minh")
    minh.get_by_test_id("join").click()
    expect(lan.get_by_test_id("seats")).to_contain_text("Minh")
    # two guests: neither has a page of their own, each has a card the other opens from the seat
    for page, other, button, said in (
            (lan, "Minh", "Add friend", "Minh is asked: friends once they ask you back"),
            (minh, "Lan", "Accept as a friend", "You and Lan are friends")):
        seat = page.get_by_test_id("seat").filter(has_text=other)
        seat.get_by_test_id("report-seat").click()
        page.get_by_test_id("seat-card").click()
        card = page.get_by_test_id("player-card")
        expect(card.get_by_role("heading")).to_have_text(other)
        expect(card).to_contain_text("Guest")
        expect(card).to_contain_text("0 hands played, 0 first places")
        expect(card.get_by_test_id("player-card-page")).to_have_count(0)  # a guest: no page
        expect(card.get_by_test_id("player-card-add")).to_have_text(button)  # Minh was asked
        card.get_by_test_id("player-card-add").click()
        expect(card.get_by_test_id("player-card-add")).to_have_count(0)  # not offered again
        expect(card.get_by_test_id("player-card-friend")).to_have_text(said)  # still open, says so
        card.get_by_test_id("player-card-close").click()
        expect(card).to_have_count(0)
    # opened again: what they are to each other now, and no friend action
    lan.get_by_test_id("seat").filter(has_text="Minh").get_by_test_id("report-seat").click()
    lan.get_by_test_id("seat-card").click()
    expect(lan.get_by_test_id("player-card-friend")).to_have_text("You are friends")
    expect(lan.get_by_test_id("player-card-add")).to_have_count(0)
    minh.goto(server.base + "/me")
    expect(minh.get_by_test_id("friend")).to_contain_text("Lan")


def test_an_account_is_not_asked_its_name_to_sit_and_its_card_links_its_page(
        browser: Browser, server: Server) -> None:
    lan, minh = browser.new_context().new_page(), browser.new_context().new_page()
    lan.goto(server.base + "/")
    table = post(lan, "/api/tables", {"name": "Lan", "players": 3})["id"]
    minh.goto(server.base + "/")
    claimed = post(minh, "/api/account/claim", {"name": "Minh", "password": "a long secret"})
    assert claimed["me"]["name"] == "Minh" and claimed["me"]["account"], claimed
    minh.goto(server.base + f"/t/{table}")
    join = minh.get_by_test_id("join")
    expect(join).to_have_text("Join as Minh")  # signed in: no name asked again
    expect(minh.get_by_test_id("join-name")).to_be_hidden()
    join.click()
    lan.goto(server.base + f"/t/{table}")
    seat = lan.get_by_test_id("seat").filter(has_text="Minh")
    seat.get_by_test_id("report-seat").click()
    lan.get_by_test_id("seat-card").click()
    card = lan.get_by_test_id("player-card")
    expect(card).to_contain_text("Account")
    expect(card.get_by_test_id("player-card-page")).to_have_attribute("href", "/p/Minh")
    # a bot's seat has no card: the menu is a person's only
    answer = lan.evaluate(f"fetch('/api/tables/{table}/seats/2/player').then(r => r.status)")
    assert answer == 404
