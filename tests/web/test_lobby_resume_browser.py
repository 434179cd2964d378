"""In real headless Chromium: the lobby offers "Resume" on the player's own tables (a private
one too, which is listed to nobody else), above the others' tables, where another browser
sees the same table as one to watch."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_browser import quick_game


def test_the_lobby_offers_resume_on_ones_own_tables(browser: Browser, server: Server) -> None:
    lan, other = browser.new_context().new_page(), browser.new_context().new_page()
    quick_game(lan, server)
    played = lan.url.rsplit("/", 1)[1]
    private = lan.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(
        {name: "Lan", players: 4, rules: "pagat", private: true})})).json()""")["id"]
    lan.goto(server.base + "/")
    mine = lan.get_by_test_id("my-tables").get_by_test_id("table-row")
    expect(mine).to_have_count(2)
    assert sorted(mine.evaluate_all("rs => rs.map((r) => r.dataset.id)")) == sorted([played, private])
    for row in mine.all():
        expect(row.locator(".table-go")).to_have_text("Resume")
    expect(lan.get_by_test_id("tables").locator(f"[data-id='{played}']")).to_have_count(0)
    mine.filter(has_text="Resume").locator(f"xpath=//a[@href='/t/{played}']").click()
    lan.wait_for_url(f"**/t/{played}")
    expect(lan.get_by_test_id("card").first).to_be_visible()  # back at the seat
    other.goto(server.base + "/")
    expect(other.get_by_test_id("my-tables")).to_be_hidden()
    row = other.get_by_test_id("tables").locator(f"[data-id='{played}']")
    expect(row.locator(".table-go")).to_have_text("Watch")
    expect(other.locator(f"[data-id='{private}']")).to_have_count(0)
    assert server.visitor().get("/api/me/tables").json() == []  # a browser nobody knows
