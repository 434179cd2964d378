"""In real headless Chromium: the table settings a player keeps in the browser (the header's ⚙):
sound off until switched on and remembered after a reload, the four-colour deck, high
contrast, and motion off by the switch as under the system's reduced motion."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over

SOUNDS = "window.tienlenSounds ? [...window.tienlenSounds] : []"
FILL = "(sel) => getComputedStyle(document.querySelector(sel)).fill"


def switch(page: Page, name: str, on: bool) -> None:
    page.get_by_test_id("prefs-open").click()
    box = page.get_by_test_id(f"pref-{name}")
    expect(box).to_be_visible()
    box.set_checked(on)
    page.get_by_test_id("prefs-close").click()
    expect(page.get_by_test_id("prefs-dialog")).to_have_count(0)


def test_sound_is_off_until_switched_on_and_stays_on_after_a_reload(page: Page,
                                                                   server: Server) -> None:
    quick_game(page, server)
    if not wait_turn_or_over(page):
        take_turn(page)  # plays were made at the table: not a sound, sound being off
    assert page.evaluate(SOUNDS) == []
    switch(page, "sound", True)
    page.reload()
    page.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view")
    page.get_by_test_id("prefs-open").click()
    expect(page.get_by_test_id("pref-sound")).to_be_checked()  # remembered by this browser
    page.get_by_test_id("prefs-close").click()
    # the bots play on and our turn comes: a play (or a pass) and "your turn" are heard
    while not wait_turn_or_over(page):
        take_turn(page)
        if "turn" in page.evaluate(SOUNDS):
            break
    heard = page.evaluate(SOUNDS)
    assert {"play", "pass"} & set(heard), heard
    switch(page, "sound", False)
    page.reload()
    page.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view")
    if not wait_turn_or_over(page):
        take_turn(page)  # plays were made at the table again: not a sound, sound being off
    assert page.evaluate(SOUNDS) == []


def test_the_four_colour_deck_and_high_contrast_are_kept(page: Page, server: Server) -> None:
    quick_game(page, server)
    page.evaluate("""() => { const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        s.innerHTML = '<text class="card-red suit-d">x</text><text class="card-black suit-c">y</text>';
        s.id = "probe"; document.body.append(s); }""")
    assert page.evaluate(FILL, "#probe .suit-d") == "rgb(204, 31, 45)"  # two colours: red
    assert page.evaluate(FILL, "#probe .suit-c") == "rgb(17, 17, 17)"
    switch(page, "deck", True)
    assert page.evaluate(FILL, "#probe .suit-d") == "rgb(20, 80, 200)"  # diamonds blue
    assert page.evaluate(FILL, "#probe .suit-c") == "rgb(16, 122, 46)"  # clubs green
    hearts = page.locator("[data-testid=card] .suit-h").first
    if hearts.count():
        assert hearts.evaluate("e => getComputedStyle(e).fill") == "rgb(204, 31, 45)"
    switch(page, "contrast", True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-deck", "four")
    expect(page.locator("html")).to_have_attribute("data-contrast", "on")
    face = page.locator("[data-testid=card] .card-face").first
    expect(face).to_be_visible()
    assert face.evaluate("e => getComputedStyle(e).stroke") == "rgb(0, 0, 0)"
    # beyond outlines: a plain felt, solid plates, and a card no play holds barred and set
    # lower at full contrast rather than darkened
    style = "(e, p) => getComputedStyle(e)[p]"
    assert page.locator("#felt").evaluate(style, "backgroundImage") == "none"
    assert page.locator(".plate").first.evaluate(style, "backgroundColor") == "rgb(0, 0, 0)"
    card = page.locator("[data-testid=card][aria-pressed=false]").first
    card.evaluate("e => e.classList.add('unusable')")
    assert card.evaluate(style, "filter") == "none"
    assert card.evaluate("e => getComputedStyle(e, '::after').backgroundImage").startswith(
        "repeating-linear-gradient")
    switch(page, "contrast", False)
    assert card.evaluate(style, "filter") != "none"  # dimmed, as without low vision in mind
    assert page.locator("#felt").evaluate(style, "backgroundImage") != "none"


def test_motion_is_off_by_the_switch_and_under_reduced_motion(browser: Browser,
                                                             server: Server) -> None:
    page = browser.new_context().new_page()
    quick_game(page, server)
    root = page.locator("html")
    expect(root).to_have_attribute("data-motion", "on")
    landing = "() => { const d = document.createElement('div'); d.className = 'landing';" \
              " document.body.append(d); return getComputedStyle(d).animationName; }"
    assert page.evaluate(landing) == "land"
    switch(page, "motion", False)
    expect(root).to_have_attribute("data-motion", "off")
    assert page.evaluate(landing) == "none"
    calm = browser.new_context(reduced_motion="reduce").new_page()
    quick_game(calm, server, "Minh")
    expect(calm.locator("html")).to_have_attribute("data-motion", "off")
    calm.get_by_test_id("prefs-open").click()  # the switch says why nothing moves
    expect(calm.get_by_test_id("prefs-dialog")).to_contain_text("reduced motion")
