"""The table page as a player sees it, in real headless Chromium against a real server: the turn
timer, the end of a hand, the selection, the cards' text alternatives, the keyboard, a phone."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tienlen import Game

from .conftest import UNRATED, Server
from .test_browser import TABLE, hand_cards, quick_game, take_turn, version, wait_turn_or_over
from .test_next_hand import play_out, two_players
from .waiting import settled

RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUITS = {"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"}
CARD_NAME = re.compile(r"^(\d+|jack|queen|king|ace) of (spades|clubs|diamonds|hearts)$")
PHONE: ViewportSize = {"width": 390, "height": 844}


def label(card: str) -> str:
    return f"{RANKS.get(card[:-1], card[:-1])} of {SUITS[card[-1]]}"


@pytest.fixture
def slow_bots(sqlite_url: str) -> Iterator[Server]:
    """A server whose bots wait half a second before each move (time to act between them)."""
    srv = Server(sqlite_url, bot_delay=0.5)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def table_id(page: Page) -> str:
    return page.url.rstrip("/").rsplit("/", 1)[1]


def new_table(page: Page, server: Server, name: str = "Lan", players: int = 4, private: bool = False,
              **fields: str) -> None:
    """Open the lobby's New table form, fill it (by data-testid) and create the table (on
    pagat's rules unless ``rules`` says otherwise: no instant win ends a random deal at once)."""
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("new-table").click()
    page.get_by_test_id("players").fill(str(players))
    if "rules" not in fields:
        page.get_by_test_id("rules").select_option("pagat")
    for testid, value in fields.items():
        field = page.get_by_test_id(testid.replace("_", "-"))
        if testid in ("level", "rules"):
            field.select_option(value)
        else:
            field.fill(value)
    if private:
        page.get_by_test_id("private").check()
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("seats")).to_contain_text(f"{name} (you)")


def fill_with_bots_and_start(page: Page, players: int = 4) -> None:
    for k in range(1, players):
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("seats")).to_contain_text(f"Bot {k}")
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("card").first).to_be_visible()


def play_to_the_end(page: Page) -> None:
    while not wait_turn_or_over(page):
        take_turn(page)


def remaining_cards(server: Server, tid: str, hand: int = 1) -> list[list[str]]:
    """What each seat still held when the hand ended, from the server's record of it."""
    text = server.get(f"/api/tables/{tid}/records/{hand}").text
    game = Game.from_record(text)
    return [[str(c) for c in game.hand(s)] for s in range(game.players)]


def test_the_turn_timer_counts_down_on_the_seat_whose_turn_it_is(page: Page, server: Server) -> None:
    new_table(page, server, turn_timer="30")
    fill_with_bots_and_start(page)
    wait_turn_or_over(page)
    mine = page.locator("[data-testid=seat].me [data-testid=countdown]")
    expect(mine).to_be_visible()
    expect(mine).to_have_text(re.compile(r"^0:(2\d|30)$"))
    expect(page.locator("[data-testid=countdown]:visible")).to_have_count(1)
    shown = mine.inner_text()
    expect(mine).not_to_have_text(shown)  # it counts down
    assert int(mine.inner_text().split(":")[1]) < int(shown.split(":")[1])


def test_a_table_without_a_timer_shows_no_countdown(page: Page, server: Server) -> None:
    quick_game(page, server)
    wait_turn_or_over(page)
    expect(page.locator("[data-testid=seat].turn")).to_have_count(1)
    expect(page.locator("[data-testid=countdown]:visible")).to_have_count(0)


def test_the_end_panel_shows_every_card_still_held_only_once_the_hand_is_over(
        page: Page, server: Server) -> None:
    quick_game(page, server)
    tid = table_id(page)
    wait_turn_or_over(page)
    take_turn(page)
    wait_turn_or_over(page)
    # during the hand: no panel, and no card of another player anywhere on the page
    expect(page.get_by_test_id("end-panel")).to_be_hidden()
    assert page.locator("[data-testid=seats] [data-card]").count() == 0
    assert page.get_by_test_id("end-cards").count() == 0 or not page.get_by_test_id("end-panel").is_visible()
    for fan in page.locator("[data-testid=seat]:not(.me) .fan").all():
        expect(fan).to_have_attribute("aria-label", re.compile(r"^\d+ cards? in hand$"))
    play_to_the_end(page)
    panel = page.get_by_test_id("end-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text(re.compile(r"wins? the hand"))
    left = remaining_cards(server, tid)
    names = page.evaluate(f"{TABLE}.names()")
    scores = page.evaluate(f"{TABLE}.state.view.scores")
    rows = panel.get_by_test_id("end-row")
    expect(rows).to_have_count(len(left))
    assert sum(1 for cards in left if cards) >= 1
    for row in rows.all():
        seat = int(row.get_attribute("data-seat") or "-1")
        expect(row).to_contain_text(names[seat])
        shown = [c.get_attribute("data-card") for c in row.locator("[data-card]").all()]
        assert shown == left[seat], (seat, shown, left[seat])
        for card in left[seat]:
            expect(row.get_by_role("img", name=label(card), exact=True).first).to_be_visible()
        units = scores[seat]
        expect(row.get_by_test_id("end-units")).to_have_text(f"{'+' if units > 0 else ''}{units}")
    expect(page.get_by_test_id("next-hand")).to_be_visible()
    page.get_by_test_id("next-hand").click()
    expect(page.get_by_test_id("end-panel")).to_be_hidden()
    expect(page.get_by_test_id("card").first).to_be_visible()


def test_the_selection_and_the_focus_survive_a_bots_move(page: Page, slow_bots: Server) -> None:
    quick_game(page, slow_bots)
    wait_turn_or_over(page)
    take_turn(page)  # now the bots play, half a second each
    page.keyboard.press("/")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    chosen = page.locator("[data-testid=card][aria-pressed=true]")
    expect(chosen).to_have_count(1)
    card = chosen.get_attribute("data-card")
    at = version(page)
    page.wait_for_function(f"v => {TABLE}.state.version > v", arg=at)  # a bot moved
    kept = page.locator(f"[data-testid=card][data-card='{card}']").first
    expect(kept).to_have_attribute("aria-pressed", "true")
    expect(kept).to_be_focused()
    expect(page.locator("[data-testid=card][aria-pressed=true]")).to_have_count(1)


def test_play_and_pass_are_disabled_with_a_reason_when_it_is_not_your_turn(
        page: Page, slow_bots: Server) -> None:
    quick_game(page, slow_bots)
    wait_turn_or_over(page)
    if page.evaluate(f"{TABLE}.state.view.legal.includes('pass')"):
        expect(page.get_by_test_id("pass")).to_be_enabled()
    take_turn(page)
    page.wait_for_function(f"() => {TABLE}.state.view.turn !== {TABLE}.seat")
    if page.evaluate(f"{TABLE}.state.view.legal.length") == 0:  # no chop open to us
        expect(page.get_by_test_id("play")).to_be_disabled()
        expect(page.get_by_test_id("play")).to_have_attribute("title", re.compile("not your turn"))
    expect(page.get_by_test_id("pass")).to_be_disabled()
    expect(page.get_by_test_id("pass")).to_have_accessible_description(re.compile("not your turn"))


def test_every_card_shown_has_a_text_alternative(page: Page, server: Server) -> None:
    quick_game(page, server)
    for _ in range(30):  # until a play lies on the table at our turn
        if wait_turn_or_over(page) or page.evaluate(f"{TABLE}.state.view.table") is not None:
            break
        take_turn(page)
    assert not page.evaluate(f"{TABLE}.state.view.is_over")
    # the hand: buttons named by their card
    for card in hand_cards(page):
        expect(page.get_by_role("button", name=label(card), exact=True).first).to_be_visible()
    hand = page.get_by_test_id("hand").aria_snapshot()
    assert re.search(r'button "(\d+|jack|queen|king|ace) of (spades|clubs|diamonds|hearts)"', hand), hand
    # the play to beat, and the history: images named by their card
    on_table = str(page.evaluate(f"{TABLE}.state.view.table")).split()
    for card in on_table:
        expect(page.get_by_test_id("table-play").get_by_role("img", name=label(card), exact=True)
               .first).to_be_visible()
    history = page.get_by_test_id("history").get_by_role("img")
    assert history.count() >= len(on_table)
    for img in history.all():
        name = img.get_attribute("aria-label") or ""
        assert CARD_NAME.match(name), name
        assert name == label(img.get_attribute("data-card") or "")
    assert "img" in page.get_by_test_id("history").aria_snapshot()
    # the others' hands: a fan of backs named by its count
    counts = page.evaluate(f"{TABLE}.state.view.counts")
    for seat in (1, 2, 3):
        fan = page.locator(f"[data-testid=seat][data-seat='{seat}'] .fan")
        n = counts[seat]
        expect(fan).to_have_attribute("aria-label", f"{n} card{'' if n == 1 else 's'} in hand")


def test_no_motion_when_the_player_prefers_reduced_motion(browser: Browser, server: Server) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    try:
        quick_game(page, server)
        wait_turn_or_over(page)
        take_turn(page)
        wait_turn_or_over(page)
        expect(page.locator("[data-testid=seat].turn")).to_have_count(1)  # it pulses, unless…
        assert page.locator(".landing").count() == 0
        assert page.evaluate("""() => [...document.querySelectorAll('#felt *')]
            .every((e) => getComputedStyle(e).animationName === 'none')""")
    finally:
        context.close()


def test_an_unknown_table_shows_a_page_with_the_way_back(page: Page, server: Server) -> None:
    answer = page.goto(server.base + "/t/nosuchtable")
    assert answer is not None and answer.status == 404
    missing = page.get_by_test_id("no-such-table")
    expect(missing).to_be_visible()
    expect(missing).to_contain_text("No such table")
    expect(page.get_by_test_id("connection")).not_to_contain_text("connecting")
    expect(page.get_by_test_id("seats")).to_be_hidden()
    page.get_by_test_id("back-to-lobby").click()
    page.wait_for_url(server.base + "/")
    expect(page.get_by_test_id("quick-game")).to_be_visible()


def test_a_page_the_server_refuses_says_why_and_stops_knocking(page: Page, server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    page.clock.install()  # the page's timers run when the test says: a retry would be due
    page.route_web_socket("**/ws/*", lambda ws: ws.close(code=4403, reason="another site's page"))
    page.goto(f"{server.base}/t/{made['id']}")
    expect(page.get_by_test_id("connection")).to_contain_text("refused this page's connection")
    page.evaluate(f"() => {{ window.refused = {TABLE}.conn.ws; }}")
    page.clock.run_for(30_000)  # far past every retry the page would make
    assert page.evaluate(f"() => {TABLE}.conn.ws === window.refused")  # no other socket made
    expect(page.get_by_test_id("connection")).to_contain_text("refused this page's connection")


def test_the_page_applies_deltas_as_the_server_does_and_asks_again_when_lost(
        page: Page, server: Server) -> None:
    """The page's applyDelta (static/lib/net.js) makes, from every delta of a whole 8-player hand,
    the state deltas.py's apply_delta makes; a delta for a version the page does not hold
    makes it ask for the whole state (sync), and it is sent it."""
    from tienlen import Rules, Session
    from tienlen.web.room.deltas import apply_delta, update
    from tienlen.web.room.views import PlayTexts

    from .test_deltas import states, wire

    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    page.goto(f"{server.base}/t/{made['id']}")
    expect(page.get_by_test_id("seats")).to_contain_text("Lan")
    hand = states(Session(Rules.preset("mien-nam"), 8, seed=5).game, 2, PlayTexts())
    first = wire(hand[0], 1)
    deltas = [wire(update(a, b), n) for n, (a, b) in enumerate(pairwise(hand), 2)]
    by_page = page.evaluate("""async ([first, deltas]) => {
        const { applyDelta } = await import("/static/lib/net.js");
        const held = [first];
        for (const d of deltas) held.push(applyDelta(held[held.length - 1], d));
        return held; }""", [first, deltas])
    held = [first]
    for delta in deltas:
        held.append(apply_delta(held[-1], delta))  # type: ignore[arg-type]
    assert by_page == held
    # the state held, marked (a delta keeps the mark, a whole state does not), then a delta
    # for a version it does not hold: the page asks, and the server sends the whole state
    version = page.evaluate(f"""() => {{ const t = {TABLE}; t.state = {{ ...t.state, mark: 1 }};
        return t.state.version; }}""")
    page.evaluate(f"""() => {TABLE}.receive({{ type: "delta", seq: 0, version: {version + 5},
        base: {version + 4}, at: 0, view: {{ set: {{ turn: 3 }} }} }})""")
    page.wait_for_function(f"() => !('mark' in {TABLE}.state) && {TABLE}.state.version === {version}")


def test_the_records_list_draws_the_latest_answer_only(page: Page, server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    table = made["id"]
    page.goto(f"{server.base}/t/{table}")
    expect(page.get_by_test_id("seats")).to_contain_text("Lan")
    held: list[Any] = []

    def answer(route: Any) -> None:  # the first ask is answered after the second, and older
        if not held:
            held.append(route)
        else:
            route.fulfill(json=[{"hand": n, "url": f"/api/tables/{table}/records/{n}"}
                                for n in (1, 2)])

    page.route(f"**/api/tables/{table}/records", answer)
    page.evaluate(f"""() => {{ const t = {TABLE};
        t.state.info.records = 1; window.first = t.renderRecords();
        t.state.info.records = 2; window.second = t.renderRecords(); }}""")
    page.evaluate("() => window.second")
    expect(page.get_by_test_id("record")).to_have_count(2)
    held[0].fulfill(json=[{"hand": 1, "url": f"/api/tables/{table}/records/1"}])
    page.evaluate("() => window.first")
    expect(page.get_by_test_id("record")).to_have_count(2)


def test_the_bot_level_chosen_for_a_table_is_the_level_of_every_bot_added(
        page: Page, server: Server) -> None:
    new_table(page, server, players=3, level="random")
    for k in (1, 2):
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("seats")).to_contain_text(f"Bot {k}")
    expect(page.locator("[data-testid=seat]", has_text="bot · Beginner")).to_have_count(2)
    info = server.get(f"/api/tables/{table_id(page)}").json()
    assert [s["level"] for s in info["seats"] if s["kind"] == "bot"] == ["random", "random"]


def test_a_whole_hand_on_a_phone(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    try:
        quick_game(page, server)
        first = True
        while not wait_turn_or_over(page):
            for testid in ("play", "pass", "hint"):
                expect(page.get_by_test_id(testid)).to_be_in_viewport()
            if first:  # the hand stays at the bottom of the screen when the page scrolls
                page.mouse.wheel(0, 2000)
                expect(page.get_by_test_id("card").last).to_be_in_viewport()
                box = page.get_by_test_id("hand").bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
                first = False
            take_turn(page)
        expect(page.get_by_test_id("end-panel")).to_be_visible()
        expect(page.get_by_test_id("status")).to_contain_text("Hand over")
        page.get_by_test_id("next-hand").click()
        page.wait_for_function(f"() => {TABLE}.state.info.hand_no === 2")
    finally:
        context.close()


def test_a_hand_played_by_keyboard_alone(page: Page, server: Server) -> None:
    quick_game(page, server)
    wait_turn_or_over(page)
    page.keyboard.press("/")
    cards = page.get_by_test_id("card")
    expect(cards.first).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(cards.nth(1)).to_be_focused()
    page.keyboard.press("Space")
    expect(cards.nth(1)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(cards.nth(1)).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("End")
    expect(cards.last).to_be_focused()
    while not wait_turn_or_over(page):
        before = version(page)
        page.keyboard.press("h")
        page.wait_for_function(f"() => {TABLE}.lastHint !== null")
        if page.evaluate(f"{TABLE}.lastHint") == "pass":
            page.keyboard.press("x")
        else:
            expect(page.locator("[data-testid=card][aria-pressed=true]").first).to_be_visible()
            page.keyboard.press("p")
        page.wait_for_function(f"v => {TABLE}.state.version > v", arg=before)
    expect(page.get_by_test_id("end-panel")).to_be_visible()
    page.keyboard.press("n")
    page.wait_for_function(f"() => {TABLE}.state.info.hand_no === 2")


def test_the_host_removes_a_seat_before_the_start_and_a_player_leaves(
        browser: Browser, server: Server) -> None:
    host = browser.new_context().new_page()
    new_table(host, server, players=3)
    for k in (1, 2):
        host.get_by_test_id("add-bot").click()
        expect(host.get_by_test_id("seats")).to_contain_text(f"Bot {k}")
    expect(host.get_by_test_id("start")).to_be_enabled()
    guest = browser.new_context().new_page()
    guest.goto(host.url)
    expect(guest.get_by_test_id("seats")).to_contain_text("Bot 2")
    expect(guest.get_by_test_id("remove-seat")).to_have_count(0)  # only the host removes seats
    expect(host.get_by_test_id("remove-seat")).to_have_count(2)
    host.locator("[data-testid=seat]", has_text="Bot 1").get_by_test_id("remove-seat").click()
    expect(host.get_by_test_id("seats")).not_to_contain_text("Bot 1")
    expect(host.get_by_test_id("seats")).to_contain_text("Empty seat")
    expect(host.get_by_test_id("start")).to_be_disabled()
    expect(host.get_by_test_id("start")).to_have_accessible_description("1 seat still empty")
    # a watcher is told how to play, not to seat bots it cannot seat (before: "add bots, then start")
    expect(guest.get_by_test_id("setup")).to_contain_text(
        "1 seat free: take it to play. Lan (the host) seats the bots and starts the table.")
    guest.get_by_test_id("join-name").fill("Minh")
    guest.locator("[data-testid=seat][data-seat='1']").get_by_test_id("sit-here").click()
    expect(host.locator("[data-testid=seat][data-seat='1']")).to_contain_text("Minh")
    expect(guest.get_by_test_id("sit-here")).to_have_count(0)  # seated: no more seats to take
    # only the host seats bots and starts: the guest is told who does
    expect(guest.get_by_test_id("add-bot")).to_be_hidden()
    expect(guest.get_by_test_id("start")).to_be_hidden()
    expect(guest.get_by_text("Every seat is taken: Lan (the host) starts the table.")).to_be_visible()
    expect(host.get_by_test_id("start")).to_be_visible()
    guest.get_by_test_id("leave").click()
    expect(guest.get_by_test_id("join")).to_be_visible()
    expect(host.get_by_test_id("seats")).not_to_contain_text("Minh")
    host.get_by_test_id("leave").click()
    expect(host.get_by_test_id("join")).to_be_visible()
    expect(guest.get_by_test_id("seats")).not_to_contain_text("Lan")


def seated_page(browser: Browser, server: Server, table: str, token: str | None,
                viewport: ViewportSize | None = None) -> Page:
    """A new browser at the table, holding the seat of ``token`` (None: watching)."""
    page = browser.new_context(viewport=viewport).new_page() if viewport else \
        browser.new_context().new_page()
    if token is not None:
        page.goto(server.base + "/")
        page.evaluate("([id, token]) => localStorage.setItem(`tienlen-seat-${id}`, token)",
                      [table, token])
    page.goto(f"{server.base}/t/{table}")
    return page


def test_the_results_stay_for_each_player_until_both_ask_for_the_next_hand(
        browser: Browser, server: Server) -> None:
    # new browsers take the seats by their tokens: an unrated table (at a rated one a seat is
    # played from its own browser only)
    table, lan, minh = two_players(server, next_hand_after=600, **UNRATED)
    play_out(lan, minh)
    lan_page, minh_page = (seated_page(browser, server, table, c.token) for c in (lan, minh))
    for page in (lan_page, minh_page):
        expect(page.get_by_test_id("end-panel")).to_be_visible()
        expect(page.get_by_test_id("end-wait")).to_have_text(
            "The next hand is dealt when everyone is ready, or 600 s after the first.")
    lan_page.get_by_test_id("next-hand").click()
    button = lan_page.get_by_test_id("next-hand")
    expect(button).to_have_text("Waiting for Minh…")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(lan_page.get_by_test_id("next-hand-countdown")).to_have_text(
        re.compile(r"^Next hand in (10:00|9:5\d)$"))
    # Minh still reads the results, and sees that Lan is ready and the countdown
    expect(minh_page.get_by_test_id("end-panel")).to_be_visible()
    expect(minh_page.get_by_test_id("next-hand")).to_have_text("Next hand")
    expect(minh_page.get_by_test_id("end-wait")).to_contain_text("Lan is ready for the next hand.")
    expect(minh_page.get_by_test_id("next-hand-countdown")).to_contain_text("Next hand in")
    expect(minh_page.locator("[data-testid=seat][data-seat='0']").get_by_test_id("seat-ready")) \
        .to_have_text("ready")
    lan_page.keyboard.press("n")  # asked already: the shortcut sends nothing
    expect(lan_page.get_by_test_id("reason")).to_have_text("")
    minh_page.get_by_test_id("next-hand").click()
    for page in (lan_page, minh_page):
        expect(page.get_by_test_id("end-panel")).to_be_hidden()
        page.wait_for_function(f"() => {TABLE}.state.info.hand_no === 2")
        expect(page.get_by_test_id("card").first).to_be_visible()


def _server_has_private_tables(server: Server) -> bool:
    probe = server.post("/api/tables", {"private": True, "table_name": "probe"})
    return probe.status_code == 200


def test_a_private_table_is_not_in_the_lobby_but_its_link_works(browser: Browser, server: Server) -> None:
    if not _server_has_private_tables(server):
        pytest.skip("this server has no private tables yet")
    host = browser.new_context().new_page()
    new_table(host, server, private=True, table_name="Secret room")
    link = host.get_by_test_id("invite-link").get_attribute("href")
    assert link
    public = browser.new_context().new_page()
    new_table(public, server, name="Hoa", table_name="Open room")
    lobby = browser.new_context().new_page()
    lobby.goto(server.base + "/")
    expect(lobby.get_by_test_id("tables")).to_contain_text("Open room")
    expect(lobby.get_by_test_id("tables")).not_to_contain_text("Secret room")
    lobby.goto(link)
    expect(lobby.get_by_test_id("seats")).to_contain_text("Lan")
    expect(lobby.get_by_test_id("table-title")).to_have_text("Secret room")


def test_screenshots_for_a_person_to_judge(browser: Browser, server: Server) -> None:
    """With TIENLEN_SCREENSHOTS=/some/folder: the lobby, a table mid-hand and the end of a hand at
    1280x800 and 390x844, written there (never into the repository) to be looked at."""
    folder = os.environ.get("TIENLEN_SCREENSHOTS")
    if not folder:
        pytest.skip("set TIENLEN_SCREENSHOTS to a folder to write the screenshots")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for rules, name in (("pagat", "Friday night"), ("viet-cong", "Sài Gòn rules")):
        server.browser().post("/api/tables", {"rules": rules, "name": "Hoa", "table_name": name})
    desktop: ViewportSize = {"width": 1280, "height": 800}
    for size, viewport in (("1280x800", desktop), ("390x844", PHONE)):
        context = browser.new_context(viewport=viewport)
        page: Any = context.new_page()
        page.goto(server.base + "/")
        expect(page.get_by_test_id("tables")).to_contain_text("pagat")
        page.screenshot(path=out / f"lobby-{size}.png", full_page=True)
        new_table(page, server, table_name=f"Table at {size}", turn_timer="20")
        page.get_by_test_id("add-bot").click()
        expect(page.get_by_test_id("seats")).to_contain_text("Bot 1")
        page.screenshot(path=out / f"setup-{size}.png")
        quick_game(page, server)
        for _ in range(3):
            if wait_turn_or_over(page):
                break
            take_turn(page)
        wait_turn_or_over(page)
        page.get_by_test_id("card").nth(1).click()
        page.screenshot(path=out / f"table-{size}.png")
        play_to_the_end(page)
        expect(page.get_by_test_id("end-panel")).to_be_visible()
        settled(page)  # the panel's short entrance, for the picture only
        page.screenshot(path=out / f"end-{size}.png")
        context.close()
        # a guest at a table someone else hosts: no bots to add, no start
        made = server.browser().post("/api/tables", {"name": "Hoa",
                                                     "table_name": f"Hoa's at {size}"}).json()
        guest = seated_page(browser, server, made["id"], None, viewport)
        guest.get_by_test_id("join-name").fill("Minh")
        guest.get_by_test_id("join").click()
        expect(guest.get_by_test_id("leave")).to_be_visible()
        guest.screenshot(path=out / f"setup-guest-{size}.png")
        guest.context.close()
        # the end of a hand at a table of two players: one has asked for the next hand
        # new browsers take the seats by their tokens: an unrated table (at a rated one a seat
        # is played from its own browser only)
        table, lan, minh = two_players(server, next_hand_after=30, **UNRATED)
        play_out(lan, minh)
        pages = [seated_page(browser, server, table, c.token, viewport) for c in (lan, minh)]
        for seated in pages:
            expect(seated.get_by_test_id("end-panel")).to_be_visible()
        pages[0].get_by_test_id("next-hand").click()
        expect(pages[0].get_by_test_id("next-hand")).to_have_text("Waiting for Minh…")
        expect(pages[1].get_by_test_id("end-wait")).to_contain_text("Lan is ready")
        for seated, who in zip(pages, ("asked", "other"), strict=True):
            settled(seated)
            seated.screenshot(path=out / f"waiting-{who}-{size}.png")
            seated.context.close()
