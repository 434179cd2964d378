"""In real headless Chromium: the table's moments (motion.js): your cards dealt in, a round's
cards swept to its winner, a celebration for the first player out, the hand's settlement in
chips; none of them with motion
off by the page's switch or under the system's reduced motion, where the words stay."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page

from .conftest import Server
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over
from .test_prefs_browser import switch

# every moment's element added to the felt, and each time the hand is dealt in, recorded
# (those added once the hand is over in ``window.atEnd`` too)
WATCH = """() => { window.moments = []; window.atEnd = [];
  new MutationObserver((changes) => { for (const c of changes) {
    for (const n of c.addedNodes) if (n.nodeType === 1 && n.parentElement &&
        n.parentElement.classList.contains("moments")) {
      window.moments.push(n.className);
      const words = n.querySelector(".celebrate-words");
      if (words) requestAnimationFrame(() => {  // the banner: inside the felt, whoever went out
        const w = words.getBoundingClientRect(), f = document.getElementById("felt").getBoundingClientRect();
        window.moments.push(w.top >= f.top && w.bottom <= f.bottom ? "banner-inside" : "banner-cut"); });
      const t = window.tienlenTable;
      if (t && t.state && t.state.view && t.state.view.is_over) window.atEnd.push(n.className); }
    if (c.type === "attributes" && c.target.id === "hand" && c.target.classList.contains("dealing"))
      window.moments.push("deal"); } })
  .observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] }); }"""


def play_out(page: Page) -> list[str]:
    """Play the hand to its end by hints; the moments seen on the way."""
    while not wait_turn_or_over(page):
        take_turn(page)
    return list(page.evaluate("window.moments"))


def test_a_hand_is_dealt_swept_and_its_first_place_celebrated(page: Page, server: Server) -> None:
    page.add_init_script(f"({WATCH})()")
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill("Lan")
    page.get_by_test_id("quick-rules").select_option("pagat")
    page.get_by_test_id("quick-game").click()
    page.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view")
    seen = play_out(page)
    assert seen.count("deal") >= 1  # a hand nobody had played in yet: dealt in
    assert "sweep" in seen  # a round won: its cards went to the winner
    assert seen.count("celebrate") == 1  # the first one out, once
    assert "banner-inside" in seen and "banner-cut" not in seen
    # the hand's settlement in chips, a pile for each payer and payee (every pagat hand pays)
    pairs = page.evaluate(f"""() => new Set({TABLE}.state.view.payments.filter((p) => p.kind !== "chop")
        .map((p) => `${{p.payer}}>${{p.payee}}`)).size""")
    assert pairs >= 1
    page.wait_for_function("n => window.atEnd.filter((c) => c === 'chips').length >= n", arg=pairs)
    page.evaluate("window.moments.length = 0")
    page.get_by_test_id("next-hand").click()
    page.wait_for_function("() => window.moments.includes('deal')")  # the next hand dealt


def test_no_moment_with_motion_off_by_the_switch_or_the_system(browser: Browser,
                                                                server: Server) -> None:
    page = browser.new_context().new_page()
    quick_game(page, server)
    switch(page, "motion", False)
    page.evaluate(WATCH)
    assert play_out(page) == []
    calm = browser.new_context(reduced_motion="reduce").new_page()
    calm.add_init_script(f"({WATCH})()")
    quick_game(calm, server, "Minh")
    assert play_out(calm) == []
    assert calm.get_by_test_id("status").inner_text()  # the words are still there
