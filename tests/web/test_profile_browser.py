"""In real Chromium: two players at a rated table finish a hand, and each sees the rating it
moved on their own page (/me) and both of them on the leaderboard."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from tienlen.web.ratings import Rating

from .conftest import Server
from .test_rated_hands import owners, play


def rating_shown(page: Page, server: Server) -> str:
    page.goto(server.base + "/me")
    value = page.get_by_test_id("rating-southern").get_by_test_id("rating-value")
    expect(value).to_be_visible()
    return value.inner_text()


def test_two_players_see_their_ratings_move_on_me_and_on_the_leaderboard(
        browser: Browser, server: Server) -> None:
    host, guest = browser.new_context().new_page(), browser.new_context().new_page()
    host.goto(server.base + "/")
    made = host.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 4, rules: "mien-nam", level: "greedy"})})).json()""")
    host.goto(server.base + f"/t/{made['id']}")
    guest.goto(server.base + f"/t/{made['id']}")
    guest.get_by_test_id("join-name").fill("Minh")
    guest.get_by_test_id("join").click()
    expect(host.get_by_test_id("seats")).to_contain_text("Minh")
    host.get_by_test_id("add-bot").click()
    host.get_by_test_id("add-bot").click()
    expect(host.get_by_test_id("seats")).to_contain_text("Bot 2")
    host.get_by_test_id("start").click()
    expect(guest.get_by_test_id("card").first).to_be_visible()
    ratings = server.app.state.services.ratings
    lan, minh = owners(server, made["id"])[:2]
    for player, mu in ((lan, 27.0), (minh, 26.0)):  # 19 rated hands before this one
        ratings.put(player, "southern", Rating(mu, 1.5, 19, 5))
    before = [rating_shown(page, server) for page in (host, guest)]
    expect(host.get_by_test_id("provisional")).to_be_visible()  # 19 of 20: still provisional
    play(server, made["id"])
    after = [rating_shown(page, server) for page in (host, guest)]
    assert before[0] != after[0] and before[1] != after[1]
    expect(host.get_by_test_id("provisional")).to_have_count(0)
    expect(host.get_by_test_id("hands-played")).to_have_text("1")
    expect(host.get_by_test_id("recent-hands")).to_contain_text("Minh")
    guest.goto(server.base + "/leaderboard")
    board = guest.get_by_test_id("board")
    expect(board).to_contain_text("Lan")
    expect(board).to_contain_text("Minh")
    assert sorted(guest.get_by_test_id("board-rating").all_inner_texts()) == sorted(after)
