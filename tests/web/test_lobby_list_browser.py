"""In real headless Chromium: a busy lobby lists the tables one can sit at first, shows ten
and a button for the rest (the list stays opened through the lobby's refreshes)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server


def test_a_busy_lobby_shows_open_seats_first_and_the_rest_on_asking(browser: Browser,
                                                                    server: Server) -> None:
    players = []
    for n in range(9):  # tables being played (quick games: bots in every other seat), each
        made = server.browser().post("/api/tables", {"quick": True, "name": f"Bot fan {n}",
                                                     "rules": "pagat"}).json()
        players.append(server.ws(made["id"]))  # with its player there
        players[-1].hello(made["token"])
    for n in range(4):  # tables waiting for players
        server.browser().post("/api/tables", {"name": f"Host {n}", "players": 4, "table_name": f"Open {n}"})
    page = browser.new_context().new_page()
    page.clock.install()  # the lobby's 10 s refresh, run on demand
    page.goto(server.base + "/")
    rows = page.get_by_test_id("tables").get_by_test_id("table-row")
    expect(rows).to_have_count(10)
    names = rows.locator(".table-name").all_inner_texts()
    assert sorted(names[:4]) == ["Open 0", "Open 1", "Open 2", "Open 3"]  # a free seat: first
    more = page.get_by_test_id("tables-more")
    expect(more).to_have_text("Show 3 more tables")
    more.click()
    expect(rows).to_have_count(13)
    expect(more).to_be_hidden()
    server.browser().post("/api/tables", {"name": "Late", "players": 4, "table_name": "Open late"})
    page.clock.run_for(10_500)  # the lobby refreshes: the new table is listed, all still shown
    expect(rows).to_have_count(14)
    expect(rows.first.locator(".table-name")).to_have_text("Open 0")
    for player in players:
        player.close()
