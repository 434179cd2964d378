"""In real Chromium: a player whose tab is hidden is told it is their turn, by the tab's flashing
title and, once they allowed it, by one notification a turn; coming back stops the flashing."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import practice_table, take_turn, wait_turn_or_over
from .test_rated_hands import IN_PLAY

# the page's tab hidden or shown at will, and the browser's notifications recorded (allowed)
HIDDEN_TAB = """
window.shown = [];
window.tabHidden = false;
Object.defineProperty(document, "hidden", { get: () => window.tabHidden, configurable: true });
class RecordedNotification {
  static permission = "default";
  static async requestPermission() { RecordedNotification.permission = "granted"; return "granted"; }
  constructor(title, options) { window.shown.push({ title, body: options.body }); }
  close() {}
}
window.Notification = RecordedNotification;
"""

TITLES = """async () => { const seen = new Set();
  for (let i = 0; i < 12; i++) { seen.add(document.title); await new Promise((r) => setTimeout(r, 200)); }
  return [...seen]; }"""


def tab_hidden(page: Page, hidden: bool) -> None:
    """The player looks at another tab (``hidden``) or comes back to this one."""
    page.evaluate("""(hidden) => { window.tabHidden = hidden;
        document.dispatchEvent(new Event("visibilitychange")); }""", hidden)


def test_a_hidden_tab_flashes_and_notifies_at_the_players_turn(browser: Browser,
                                                              server: Server) -> None:
    context = browser.new_context()
    context.add_init_script(HIDDEN_TAB)
    page = context.new_page()
    practice_table(page, server, 4, IN_PLAY)  # a deal no instant win ends: the player's turn comes
    bell = page.get_by_test_id("notify")
    expect(bell).to_have_text("Alert me at my turn")
    bell.click()  # the browser asks; the player allows
    expect(bell).to_have_attribute("aria-pressed", "true")
    assert not wait_turn_or_over(page)
    # the player makes a play and looks at another tab; the bots play on to the player's turn
    tab_hidden(page, True)
    take_turn(page)
    assert not wait_turn_or_over(page)  # nobody sheds 13 cards in one round
    titles = page.evaluate(TITLES)
    assert "▶▶ YOUR TURN ◀◀" in titles and any(t.startswith("● Your turn") for t in titles)
    shown = page.evaluate("window.shown")
    assert len(shown) == 1 and shown[0]["title"] == "Your turn"
    assert shown[0]["body"].startswith("It is your turn at Tiến Lên")
    # back at the tab: the title stays "your turn", and nothing more is notified for this turn
    tab_hidden(page, False)
    titles = page.evaluate(TITLES)
    assert len(titles) == 1 and titles[0].startswith("● Your turn")
    assert len(page.evaluate("window.shown")) == 1
