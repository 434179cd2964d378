"""In real headless Chromium: a refusal is said where the player is looking: before the start
under the setup's buttons (the dock, where a refusal in play is said, is hidden then)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server


def test_a_refused_join_is_said_in_the_setup(browser: Browser, server: Server) -> None:
    host, guest = browser.new_context().new_page(), browser.new_context().new_page()
    host.goto(server.base + "/")
    made = host.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 4, rules: "pagat"})})).json()""")
    host.goto(server.base + f"/t/{made['id']}")
    guest.goto(server.base + f"/t/{made['id']}")
    guest.get_by_test_id("join-name").fill("LAN")  # Lan's name in other letters: refused
    guest.get_by_test_id("join").click()
    error = guest.get_by_test_id("setup-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("the name 'LAN' is taken at this table")
    expect(guest.locator("#dock")).to_be_hidden()
    guest.get_by_test_id("join-name").fill("Minh")
    guest.get_by_test_id("join").click()
    expect(host.get_by_test_id("seats")).to_contain_text("Minh")
    expect(error).to_have_text("")  # the table moved on: the refusal is gone
