"""In real headless Chromium: at the end of an eight-player hand every payment is in sight on a
desktop (the places beside the payments), and on a phone the panel says there is more below
until it is scrolled to its end."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import practice_hand_played_out
from .waiting import settled

# the payments whose middle is on the screen and not covered by anything
SEEN = """() => [...document.querySelectorAll('#end-payments li')].filter((li) => {
  const r = li.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) return false;
  const top = document.elementFromPoint(r.left + 12, r.top + r.height / 2);
  return top !== null && li.contains(top); }).length"""


def played_to_the_end(page: Page, server: Server) -> int:
    practice_hand_played_out(page, server, 8, "mien-nam", seed=11)
    settled(page)  # its entrance
    return int(page.evaluate("document.querySelectorAll('#end-payments li').length"))


def test_every_payment_is_in_sight_at_the_end_on_a_desktop(browser: Browser,
                                                           server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    payments = played_to_the_end(page, server)
    assert payments >= 3
    page.get_by_test_id("end-panel").scroll_into_view_if_needed()
    assert page.evaluate(SEEN) == payments
    expect(page.locator(".end-more")).to_be_hidden()


def test_on_a_phone_the_end_says_there_is_more_below(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 700}).new_page()
    payments = played_to_the_end(page, server)
    scroll = page.locator(".end-scroll")
    if page.evaluate(SEEN) == payments:
        pytest.skip("every payment fits on this phone")
    expect(page.locator(".end-more")).to_be_visible()
    scroll.evaluate("(s) => s.scrollTo(0, s.scrollHeight)")
    expect(page.locator(".end-more")).to_be_hidden()  # the end reached: no more below
