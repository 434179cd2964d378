"""In real Chromium: two strangers press Play now, are seated together with bots after the wait,
play a hand and each finds the other among their recent opponents on /me; a player who blocked
another is never seated with them; a page waiting says how long and may cancel; a seat kept at
a table that stops dealing is given back, and the page goes back to the wait and on."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

import re
from collections.abc import Iterator

from playwright.sync_api import Browser, Page, expect

from tienlen.web import matchmaker

from .conftest import Server
from .test_browser import TABLE
from .test_quickmatch import in_play_server
from .test_rated_hands import play

WAIT = 2.0  # the server's --match-wait: short, so that the test stays fast


@pytest.fixture
def quick(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from in_play_server(sqlite_url, monkeypatch, wait=WAIT)


def stranger(browser: Browser, server: Server, name: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill(name)
    return page


def play_now(page: Page, players: int = 4) -> None:
    page.get_by_test_id("qm-players").select_option(str(players))
    page.get_by_test_id("play-now").click()


def seated(page: Page) -> str:
    """The table the page was sent to once matched (its id), with its view drawn."""
    page.wait_for_url(re.compile(r"/t/[^/]+$"), timeout=20000)
    page.wait_for_function(f"() => {TABLE} && {TABLE}.state && {TABLE}.state.view !== null")
    return page.url.rsplit("/", 1)[1]


def test_two_strangers_play_now_sit_together_with_bots_and_meet_again_on_me(
        browser: Browser, quick: Server) -> None:
    lan, minh = stranger(browser, quick, "Lan"), stranger(browser, quick, "Minh")
    play_now(lan)
    waiting = lan.get_by_test_id("qm-waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("waiting")
    play_now(minh)
    table_id = seated(lan)
    assert seated(minh) == table_id
    seats = lan.get_by_test_id("seats")
    expect(seats).to_contain_text("Lan")
    expect(seats).to_contain_text("Minh")
    expect(lan.locator("[data-testid=seat].me")).to_contain_text("Lan")
    expect(minh.locator("[data-testid=seat].me")).to_contain_text("Minh")
    info = quick.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in info["seats"]].count("bot") == 2  # bots filled after the wait
    play(quick, table_id)  # the hand, to its end (the players' moves made as theirs are)
    expect(lan.get_by_test_id("end-panel")).to_be_visible()
    for page, other in ((lan, "Minh"), (minh, "Lan")):
        page.goto(quick.base + "/me")
        expect(page.get_by_test_id("recent-opponents")).to_contain_text(other)


def test_a_player_who_blocked_another_is_never_seated_with_them(browser: Browser,
                                                                 quick: Server) -> None:
    lan, minh = stranger(browser, quick, "Lan"), stranger(browser, quick, "Minh")
    play_now(lan, players=2)
    play_now(minh, players=2)
    table_id = seated(lan)
    assert seated(minh) == table_id
    seat = next(s["seat"] for s in quick.get(f"/api/tables/{table_id}").json()["seats"]
                if s["name"] == "Minh")
    # Lan blocks Minh from the table (the seat's "Report or block" dialog)
    lan.locator(f"[data-testid=seat][data-seat='{seat}']").get_by_test_id("report-seat").click()
    lan.get_by_test_id("seat-report").click()  # the seat's ⋯ menu
    dialog = lan.get_by_test_id("report-dialog")
    dialog.get_by_test_id("block").click()
    expect(dialog.get_by_test_id("report-done")).to_contain_text("Minh")
    for page in (lan, minh):
        page.goto(quick.base + "/")
        play_now(page, players=2)
    first, second = seated(lan), seated(minh)
    assert first != second  # each seated with a bot after the wait, never together
    for table in (first, second):
        kinds = [s["kind"] for s in quick.get(f"/api/tables/{table}").json()["seats"]]
        assert sorted(kinds) == ["bot", "human"]


def test_a_waiting_page_counts_down_to_the_bots_and_may_cancel(browser: Browser,
                                                              server: Server) -> None:
    lan = stranger(browser, server, "Lan")
    expect(lan.get_by_test_id("lobby-counts")).to_have_text("1 online · 0 playing · 0 waiting")
    play_now(lan, players=8)
    waiting = lan.get_by_test_id("qm-waiting")
    fill = re.compile(r"Miền Nam \(Southern\) · 8: only you waiting · "
                      r"bots fill the empty seats in 0:(\d\d)")
    expect(waiting).to_contain_text(fill)
    first = int(fill.search(waiting.inner_text()).group(1))  # type: ignore[union-attr]
    expect(waiting).not_to_contain_text(f"0:{first:02d}")  # counted down
    later = int(fill.search(waiting.inner_text()).group(1))  # type: ignore[union-attr]
    assert 0 < later < first <= 20
    expect(lan.get_by_test_id("qm-pools")).to_have_text("Waiting now: Miền Nam (Southern) · 8: 1")
    lan.get_by_test_id("qm-cancel").click()
    expect(waiting).to_be_hidden()
    expect(lan.get_by_test_id("play-now")).to_be_enabled()
    assert lan.evaluate("fetch('/api/quickmatch').then(r => r.json())")["state"] == "none"



def test_a_pool_that_can_fill_a_table_with_people_starts_it_at_once(browser: Browser,
                                                                      server: Server) -> None:
    # the room's wait for bots is 20 s: only people can fill this table before that
    lan, minh, hoa = (stranger(browser, server, name) for name in ("Lan", "Minh", "Hoa"))
    play_now(lan, players=3)
    expect(lan.get_by_test_id("qm-waiting")).to_contain_text("only you waiting")
    play_now(minh, players=3)
    expect(lan.get_by_test_id("qm-waiting")).to_contain_text("2 waiting, you among them")
    hoa.reload()  # the pools as a newcomer's lobby shows them
    expect(hoa.get_by_test_id("qm-pools")).to_have_text("Waiting now: Miền Nam (Southern) · 3: 2")
    hoa.get_by_test_id("name").fill("Hoa")
    play_now(hoa, players=3)
    tables = {seated(page) for page in (lan, minh, hoa)}
    assert len(tables) == 1
    (table,) = tables
    expect(lan.get_by_test_id("table-title")).to_have_text("Quick match · Miền Nam (Southern)")
    seats = server.get(f"/api/tables/{table}").json()["seats"]
    assert sorted((s["kind"], s["name"]) for s in seats) == [
        ("human", "Hoa"), ("human", "Lan"), ("human", "Minh")]  # no bot
    waited = lan.evaluate("fetch('/api/quickmatch').then(r => r.json())")["waited"]
    assert waited < server.app.state.services.limits.match_wait  # before any bot would come


def test_a_stranger_who_comes_later_plays_a_bots_seat_from_the_next_hand(browser: Browser,
                                                                         quick: Server) -> None:
    lan = stranger(browser, quick, "Lan")
    play_now(lan, players=2)
    table_id = seated(lan)  # alone: with a bot, after the wait
    hoa = stranger(browser, quick, "Hoa")
    play_now(hoa, players=2)
    assert seated(hoa) == table_id
    note = hoa.get_by_test_id("next-hand-seat")
    expect(note).to_contain_text("You play from the next hand")
    expect(hoa.locator("[data-testid=seat].me")).to_have_count(0)  # watching this hand
    play(quick, table_id)

    def deal() -> None:
        room = quick.app.state.lobby.get(table_id)
        room.act(room.table.next_hand)

    quick.call(deal)
    expect(hoa.locator("[data-testid=seat].me")).to_contain_text("Hoa")
    expect(note).to_have_count(0)
    expect(lan.get_by_test_id("seats")).to_contain_text("Hoa")


def test_a_kept_seat_given_back_sends_the_page_back_to_the_wait_and_on(
        browser: Browser, quick: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matchmaker, "STRANDED", 0.0)  # no grace for a page reloading
    lan = stranger(browser, quick, "Lan")
    play_now(lan, players=2)
    table_id = seated(lan)
    hoa = stranger(browser, quick, "Hoa")
    play_now(hoa, players=2)
    assert seated(hoa) == table_id
    expect(hoa.get_by_test_id("next-hand-seat")).to_be_visible()
    lan.close()  # the only player there goes before the next hand: it will not be dealt
    hoa.wait_for_url(re.compile(r"/t/(?!" + re.escape(table_id) + r"$)[^/]+$"), timeout=30000)
    expect(hoa.locator("[data-testid=seat].me")).to_contain_text("Hoa")  # dealt in at once
