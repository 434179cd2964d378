"""In real headless Chromium: a spectator's dock shows who sits where with their cards and
units and the table's settings, not an empty hand; a seated player's dock is their hand."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_browser import TABLE, quick_game


def test_a_spectators_dock_shows_the_seats_and_the_settings(browser: Browser,
                                                             server: Server) -> None:
    lan, guest = browser.new_context().new_page(), browser.new_context().new_page()
    quick_game(lan, server)
    guest.goto(lan.url)
    guest.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view")
    dock = guest.get_by_test_id("watch-dock")
    expect(dock).to_be_visible()
    expect(dock).to_contain_text("You are watching")
    expect(dock).to_contain_text("pagat.com · 4 players · bots: Normal")
    seats = dock.get_by_test_id("watch-seat")
    expect(seats).to_have_count(4)
    expect(seats.first).to_contain_text("Lan")
    expect(seats.first).to_contain_text("cards")
    expect(guest.get_by_test_id("hand")).to_be_hidden()
    expect(guest.get_by_test_id("play")).to_be_hidden()
    # only what applies to a spectator: no alert at a turn they do not have, no inviting
    expect(lan.get_by_test_id("notify")).to_be_visible()
    expect(guest.get_by_test_id("notify")).to_be_hidden()
    expect(guest.get_by_test_id("invite-friend")).to_be_hidden()
    expect(lan.get_by_test_id("watch-dock")).to_be_hidden()  # Lan plays: her hand
    expect(lan.get_by_test_id("hand")).to_be_visible()
