"""In real Chromium: a player leaves mid-hand and takes the seat back (another browser sees it),
and the turn timer's move is told and marked in the history."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from collections.abc import Iterator

from playwright.sync_api import Browser, expect

from .conftest import Server, running
from .test_browser import TABLE
from .test_players_browser import made
from .test_rated_hands import IN_PLAY, play


@pytest.fixture
def slow_server(sqlite_url: str) -> Iterator[Server]:
    """Bots that take a second a move: once Lan leaves, the table is bots' alone and plays on
    while watched; at the tests' usual no-delay bots the page would be redrawn without a pause."""
    yield from running(sqlite_url, bot_delay=1.0)


def test_leaving_mid_hand_and_taking_the_seat_back(browser: Browser, slow_server: Server) -> None:
    server = slow_server
    lan = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table_id = made(lan, name="Lan", rules=IN_PLAY)
    lan.goto(server.base + f"/t/{table_id}")
    lan.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")
    minh = browser.new_context().new_page()
    minh.goto(server.base + f"/t/{table_id}")
    lan_seat = minh.locator("[data-testid=seat][data-seat='0']")
    expect(lan_seat).to_contain_text("here")
    play(server, table_id, moves=3)
    lan.once("dialog", lambda dialog: dialog.accept())  # "leave the table?" yes
    lan.get_by_test_id("leave").click()
    expect(lan.get_by_test_id("leave")).to_be_hidden()
    expect(lan_seat).to_contain_text("bot")  # Minh sees a bot play Lan's seat
    # a reload does not seat a player who left: the page offers the seat back
    lan.reload()
    back = lan.get_by_role("button", name="Take your seat back from the bot: seat 1")
    expect(back).to_be_visible()
    expect(lan.get_by_test_id("leave")).to_be_hidden()
    back.click()
    expect(lan.get_by_test_id("leave")).to_be_visible()
    expect(lan.get_by_test_id("take-back")).to_have_count(0)
    expect(lan.locator("[data-testid=seat].me")).to_contain_text("Lan")
    expect(lan.get_by_test_id("hand").locator("button, [role=option], .card").first).to_be_visible()
    expect(lan_seat).to_contain_text("here")  # Minh sees Lan back
    expect(lan_seat).not_to_contain_text("bot")


def test_the_timer_says_what_it_played_and_the_history_marks_it(browser: Browser,
                                                               server: Server) -> None:
    lan = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table_id = made(lan, name="Lan", rules=IN_PLAY, turn_timer=1)
    lan.goto(server.base + f"/t/{table_id}")
    expect(lan.get_by_test_id("toast")).to_contain_text("Time ran out: the timer", timeout=15000)
    mark = lan.get_by_role("img", name="made by the turn timer").first
    expect(mark).to_be_attached()
    item = lan.locator("li.move.timed-out").first
    assert "(made by the turn timer)" in (item.get_attribute("aria-label") or "")
