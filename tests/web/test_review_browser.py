"""In real headless Chromium: at the end of a hand "Review" shows "working…" while the server's
bot pool reviews the hand, then steps forwards and back through the player's own decisions, each
with its estimate, the coach's best and the grade, every hand shown as the record holds it."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_accessibility import AXE, Audit
from .test_browser import practice_hand_played_out
from .waiting import keys_shown


def test_review_steps_through_your_decisions_after_the_hand(browser: Browser,
                                                             server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    practice_hand_played_out(page, server, 2, "pagat", seed=5)
    page.get_by_test_id("end-review").click()
    expect(page.get_by_test_id("review-status")).to_contain_text("Reviewing the hand")
    step = page.get_by_test_id("review-step")
    expect(step).to_have_text(re.compile(r"^Decision 1 of (\d+): You played "), timeout=60_000)
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
    expect(page.get_by_test_id("review-mark")).to_be_visible()
    expect(page.get_by_test_id("review-body").locator(".replay-row")).to_have_count(2)
    expect(page.get_by_test_id("review-prev")).to_be_disabled()
    if total > 1:
        page.get_by_test_id("review-next").click()
        expect(step).to_have_text(re.compile(rf"^Decision 2 of {total}: "))
        page.keyboard.press("ArrowLeft")
        expect(step).to_have_text(re.compile(rf"^Decision 1 of {total}: "))
    mark = page.get_by_test_id("review-mark").inner_text()
    assert mark.startswith(("★ The hint's move", "✓ Good: ", "?! An inaccuracy: ", "✗ A mistake: ",
                            "✗✗ A blunder: ", "Forced", "Not appraised")), mark
    summary = page.get_by_test_id("review-summary").inner_text()
    # the grades a player had, good always
    assert re.fullmatch(r"(1 decision|\d+ decisions) appraised: \d+ good(, [1-9]\d* inaccurac(y|ies))?"
                        r"(, [1-9]\d* mistakes?)?(, [1-9]\d* blunders?)? · \d+ the hint's moves?",
                        summary), summary
    assert keys_shown(page) == []  # every word of the review sent to the page
    if AXE.exists():  # axe-core judges the open review
        audit = Audit()
        audit.check(page, "review")
        audit.assert_clean()
    page.get_by_test_id("review-close").click()
    expect(page.get_by_test_id("review-panel")).to_be_hidden()
    expect(page.get_by_test_id("next-hand")).to_be_visible()
