"""In real Chromium, what a player sees on their own page after hands that are not rated and a
hand they left, and blocking a player from their profile."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE
from .test_rated_hands import IN_PLAY, play


def made(page: Page, **spec: Any) -> str:
    """A quick table of bots made from ``page`` (its browser sits at seat 0); its id."""
    answer: dict[str, Any] = page.evaluate("""async (spec) => (await fetch("/api/tables", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({quick: true, away_timeout: 3600, level: "greedy", ...spec})})).json()""",
        spec)
    assert "id" in answer, answer
    return str(answer["id"])


def rows_on_me(page: Page, server: Server) -> list[str]:
    page.goto(server.base + "/me")
    expect(page.get_by_test_id("profile-name")).to_be_visible()
    return page.get_by_test_id("recent-hands").locator("tbody tr").all_inner_texts()


def test_unrated_hands_a_hand_left_and_a_block_as_the_pages_show_them(
        browser: Browser, server: Server) -> None:
    lan = browser.new_context().new_page()
    lan.goto(server.base + "/")
    # a practice table (a fixed deal) and a table whose rules changed: listed, rated nowhere
    for spec in ({"seed": 11}, {"options": "stake = 2"}):
        play(server, made(lan, name="Lan", rules=IN_PLAY, **spec))
    rows = rows_on_me(lan, server)
    assert len(rows) == 2 and all("unrated" in row for row in rows)
    expect(lan.get_by_test_id("rating-southern")).to_have_count(0)
    expect(lan.get_by_test_id("hands-played")).to_have_text("2")
    # a rated table, left in the middle of its hand: rated last in it
    rated = made(lan, name="Lan", rules=IN_PLAY)
    lan.goto(server.base + f"/t/{rated}")
    lan.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")
    play(server, rated, moves=3)
    lan.once("dialog", lambda dialog: dialog.accept())  # "leave the hand?" yes
    lan.get_by_test_id("leave").click()
    expect(lan.get_by_test_id("leave")).to_be_hidden()
    play(server, rated)
    rows = rows_on_me(lan, server)
    assert "4 of 4" in rows[0] and "Southern" in rows[0]
    expect(lan.get_by_test_id("rating-southern")).to_contain_text("1 rated hand")
    # Lan claims the name; Minh, who has played too, blocks Lan from Lan's profile
    claimed = lan.evaluate("""async () => (await fetch("/api/account/claim", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", password: "a long secret"})})).status""")
    assert claimed == 200
    minh = browser.new_context().new_page()
    minh.goto(server.base + "/")
    play(server, made(minh, name="Minh", rules=IN_PLAY))
    minh.goto(server.base + "/p/Lan")
    expect(minh.get_by_test_id("profile-name")).to_have_text("Lan")
    minh.get_by_test_id("block").click()
    expect(minh.get_by_test_id("block-done")).to_contain_text("You blocked Lan")
    blocks = minh.evaluate("""async () => (await fetch("/api/blocks")).json()""")
    assert [b["name"] for b in blocks] == ["Lan"], blocks
    lan.goto(server.base + "/p/Lan")  # one's own profile offers neither
    expect(lan.get_by_test_id("profile-name")).to_have_text("Lan")
    expect(lan.get_by_test_id("block")).to_have_count(0)
