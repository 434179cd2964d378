"""In real headless Chromium: the seats tell an account from a guest at a glance (the word under
the name, a ring round the avatar), and an account's name links to its profile (axe-core finds
nothing serious there)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from .conftest import Server
from .test_accessibility import AXE, Audit

PASSWORD = "correct horse battery"


def test_an_accounts_seat_is_marked_and_links_to_its_profile(page: Page, server: Server) -> None:
    page.goto(server.base + "/")
    claimed = page.request.post(server.base + "/api/account/claim",
                                data={"name": "Lan", "password": PASSWORD},
                                headers={"Origin": server.base})
    assert claimed.ok, claimed.text()
    made = page.request.post(server.base + "/api/tables", data={"name": "Lan", "players": 3},
                             headers={"Origin": server.base}).json()
    guest = server.visitor()
    guest.visit()
    tab = guest.ws(made["id"])
    tab.hello()
    tab.send(type="join", name="Minh")
    tab.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    page.goto(server.base + f"/t/{made['id']}")
    lan = page.locator("[data-testid=seat][data-seat='0']")
    minh = page.locator("[data-testid=seat][data-seat='1']")
    expect(minh).to_contain_text("guest")
    expect(lan).to_contain_text("account")
    link = lan.get_by_test_id("seat-profile")
    expect(link).to_have_attribute("href", "/p/Lan")
    expect(link).to_have_attribute("target", "_blank")
    expect(minh.get_by_test_id("seat-profile")).to_have_count(0)
    expect(minh).to_have_attribute("aria-label", "Minh, guest, here")
    if AXE.is_file():  # the link and the marks: no serious or critical finding
        audit = Audit()
        audit.check(page, "account seat")
        audit.assert_clean()
    shot = os.environ.get("TIENLEN_SHOT")  # a look at it: TIENLEN_SHOT=/tmp/seats.png
    if shot:
        page.screenshot(path=shot)
    tab.close()
