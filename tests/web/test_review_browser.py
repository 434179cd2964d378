"""In real headless Chromium: at the end of a hand "Review" shows "working…" while the server's
bot pool reviews the hand, then steps forwards and back through the player's own decisions on a
felt of its own: every hand face up as it stood, the player's seat marked where it decided, the
coach's better move raised in the hand and drawn below, the figures folded in a detail."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_accessibility import AXE, Audit
from .test_browser import (
    TABLE,
    practice_hand_played_out,
    practice_table,
    take_turn,
    version,
    wait_turn_or_over,
)
from .waiting import keys_shown


def test_review_steps_through_your_decisions_after_the_hand(browser: Browser,
                                                             server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    practice_hand_played_out(page, server, 2, "pagat", seed=5)
    page.get_by_test_id("end-review").click()
    expect(page.get_by_test_id("review-status")).to_contain_text("Reviewing the hand")
    step = page.get_by_test_id("review-step")
    expect(step).to_have_text(re.compile(r"^Decision 1 of (\d+): You (played |passed)"), timeout=60_000)
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
    expect(page.get_by_test_id("review-mark")).to_be_visible()
    stage = page.get_by_test_id("stage")
    expect(stage).to_be_visible()  # the hand on a felt: both seats, the decision marked at yours
    expect(stage.get_by_test_id("stage-seat")).to_have_count(2)
    expect(stage.locator("[data-testid=stage-seat].decided")).to_contain_text("Lan")
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
    page.get_by_test_id("stage-close").click()
    expect(page.get_by_test_id("review-panel")).to_be_hidden()
    expect(page.get_by_test_id("next-hand")).to_be_visible()


def test_review_shows_the_better_move_as_cards_in_the_hand(browser: Browser,
                                                           server: Server) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    practice_table(page, server, 2, "pagat", seed=5)
    while not wait_turn_or_over(page):  # Lan passes whenever she may: some passes cost her
        passing = page.get_by_test_id("pass")
        if passing.is_enabled():
            before = version(page)
            passing.click()
            page.wait_for_function(f"() => {TABLE}.state.version > {before}")
        else:
            take_turn(page)
    page.get_by_test_id("end-review").click()
    step = page.get_by_test_id("review-step")
    expect(step).to_have_text(re.compile(r"^Decision 1 of (\d+): "), timeout=60_000)
    total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
    shown = 0
    for i in range(total):
        expect(step).to_have_text(re.compile(rf"^Decision {i + 1} of {total}: "))
        if page.get_by_test_id("review-best").count():
            better = page.get_by_test_id("review-best").locator(".card-static")
            cards = {better.nth(k).get_attribute("data-card") for k in range(better.count())}
            raised = page.locator("[data-testid=stage-seat].decided .card-static.better")
            assert {raised.nth(k).get_attribute("data-card") for k in range(raised.count())} == cards
            expect(page.get_by_test_id("review-mark")).not_to_contain_text("[")  # words first
            page.get_by_test_id("review-details").locator("summary").click()
            expect(page.get_by_test_id("review-cost")).to_contain_text("95% interval")
            shown += 1
        if i + 1 < total:
            page.get_by_test_id("review-next").click()
    assert shown, "no decision of the hand had a better move"
