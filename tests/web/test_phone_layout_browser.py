"""In real headless Chromium at a phone's size (390x844): with eight seats nothing covers Start
or Add a bot (the setup sits below the felt), and in play your own seat's plate and its timer
sit above the hand's dock instead of under it."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .test_browser import TABLE, quick_game, take_turn, wait_turn_or_over

PHONE = {"width": 390, "height": 844}
# whether the element at the middle of ``el`` is ``el`` or inside it: nothing covers it
UNCOVERED = """(el) => { const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && (top === el || el.contains(top)); }"""


def uncovered(page: Page, testid: str) -> bool:
    target = page.get_by_test_id(testid).first
    target.scroll_into_view_if_needed()
    return bool(target.evaluate(UNCOVERED))


def test_eight_seats_on_a_phone_cover_neither_start_nor_add_a_bot(browser: Browser,
                                                                   server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.base + "/")
    made = page.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(
        {name: "Lan", players: 8, rules: "pagat", turn_timer: 60})})).json()""")
    page.goto(server.base + f"/t/{made['id']}")
    for bots in range(1, 8):
        expect(page.get_by_test_id("add-bot")).to_be_visible()
        for testid in ("add-bot", "start", "add-level"):
            assert uncovered(page, testid), (testid, bots)
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("seats")).to_contain_text(f"Bot {bots}")
    assert uncovered(page, "start")
    page.get_by_test_id("start").click()
    page.wait_for_function(f"() => {TABLE}.state && {TABLE}.state.view && "
                           f"{TABLE}.state.view.turn === {TABLE}.seat", timeout=30_000)
    page.evaluate("window.scrollTo(0, 0)")
    # the felt is fitted as the dock settles (the last moves' strip fills in): then
    page.wait_for_function(f"""() => {{ const p = document.querySelector("[data-testid=seat].me .plate");
        const c = p.querySelector("[data-testid=countdown]");
        return p.getBoundingClientRect().bottom <= document.getElementById("dock").getBoundingClientRect().top
            && ({UNCOVERED})(p) && ({UNCOVERED})(c); }}""")  # above the dock, its timer too
    expect(page.get_by_test_id("dock-timer")).to_be_visible()


def test_a_phone_shows_the_last_moves_above_the_hand(browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    quick_game(page, server)
    if not wait_turn_or_over(page):
        take_turn(page)
    page.wait_for_function(f"() => {TABLE}.state.view.events.length >= 2")
    strip = page.get_by_test_id("last-moves")
    expect(strip).to_be_visible()
    moves = strip.get_by_test_id("strip-move")
    assert 1 <= moves.count() <= 3
    newest = page.evaluate(f"{TABLE}.state.view.events.at(-1).seat")
    names = page.evaluate(f"{TABLE}.names()")
    expect(moves.first.locator("b")).to_have_text(names[newest])  # the newest first
    desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    desk.goto(page.url)
    desk.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view")
    expect(desk.get_by_test_id("last-moves")).to_be_hidden()  # the history is in sight there


INSIDE = """(el) => { const r = el.getBoundingClientRect();
    return r.left >= 0 && r.right <= document.documentElement.clientWidth; }"""


def test_a_side_seats_menu_and_bubble_stay_inside_a_phones_screen(browser: Browser,
                                                                  server: Server) -> None:
    lan = browser.new_context(viewport=PHONE).new_page()
    minh = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table = lan.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 3, private: true})})).json()""")["id"]
    lan.goto(server.base + f"/t/{table}")
    minh.goto(server.base + f"/t/{table}")
    minh.get_by_test_id("join-name").fill("Minh")
    minh.get_by_test_id("join").click()
    seat = lan.get_by_test_id("seat").filter(has_text="Minh")  # at Lan's side of the felt
    seat.get_by_test_id("report-seat").click()
    menu = lan.get_by_test_id("seat-menu")
    expect(menu).to_be_visible()
    lan.wait_for_function(f"(el) => ({INSIDE})(el)", arg=menu.element_handle())
    assert menu.evaluate(INSIDE)
    minh.locator("[data-testid=chat-phrase][data-phrase=hurry_up]").click()  # long words
    bubble = lan.locator("[data-testid=chat-bubble]").first
    expect(bubble).to_be_visible()
    lan.wait_for_function(f"(el) => ({INSIDE})(el)", arg=bubble.element_handle())


def test_a_phone_keeps_the_tables_actions_in_one_menu_and_the_chat_in_a_sheet(
        browser: Browser, server: Server) -> None:
    lan = browser.new_context(viewport=PHONE).new_page()
    minh = browser.new_context().new_page()
    lan.goto(server.base + "/")
    table = lan.evaluate("""async () => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: "Lan", players: 3})})).json()""")["id"]
    lan.goto(server.base + f"/t/{table}")
    minh.goto(server.base + f"/t/{table}")
    minh.get_by_test_id("join-name").fill("Minh")
    minh.get_by_test_id("join").click()
    expect(lan.get_by_test_id("seats")).to_contain_text("Minh")
    # the table's actions: one ⋯ menu, closed once one is chosen
    menu = lan.get_by_test_id("table-menu")
    expect(lan.get_by_test_id("leave")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(lan.get_by_test_id("leave")).to_be_visible()
    lan.locator("#copy").click()
    expect(lan.get_by_test_id("leave")).to_be_hidden()
    expect(menu).to_have_attribute("aria-expanded", "false")
    # the chat: a button on the felt counting what was said, and a sheet over the table
    talk = lan.get_by_test_id("chat-open")
    expect(talk).to_be_visible()
    expect(lan.get_by_test_id("chat")).not_to_be_in_viewport()  # far below, as before
    minh.locator("[data-testid=chat-phrase][data-phrase=hello]").click()
    expect(lan.get_by_test_id("chat-unread")).to_have_text("1")
    talk.click()
    sheet = lan.get_by_test_id("chat")
    expect(sheet).to_be_in_viewport()
    expect(sheet.get_by_test_id("chat-line")).to_contain_text("Hello!")
    expect(lan.get_by_test_id("chat-unread")).to_be_hidden()
    sheet.locator("[data-testid=chat-phrase][data-phrase=thanks]").click()  # said from the sheet
    expect(minh.get_by_test_id("chat-log")).to_contain_text("Thanks")
    lan.get_by_test_id("chat-close").click()
    expect(sheet).not_to_be_in_viewport()
    # on a desktop, none of it: the actions in the bar, the chat beside the table
    expect(minh.get_by_test_id("table-menu")).to_be_hidden()
    expect(minh.get_by_test_id("chat-open")).to_be_hidden()


def test_a_phone_on_its_side_shows_every_seat_the_hand_and_play_at_once(
        browser: Browser, server: Server) -> None:
    page = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True).new_page()
    quick_game(page, server)
    expect(page.get_by_test_id("play")).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("card").first).to_be_in_viewport(ratio=1)
    dock_top = page.locator("#dock").bounding_box()["y"]  # type: ignore[index]
    plates = page.locator("[data-testid=seat]:not(.me) .plate")
    expect(plates).to_have_count(3)
    for plate in plates.all():  # every other seat above the dock, nothing scrolled
        box = plate.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= dock_top, box
