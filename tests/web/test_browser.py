"""End to end in real headless Chromium (the distribution's), against a real server on 127.0.0.1."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

from .conftest import Server

TABLE = "window.tienlenTable"


def version(page: Page) -> int:
    return int(page.evaluate(f"{TABLE} && {TABLE}.state ? {TABLE}.state.version : -1"))


def wait_turn_or_over(page: Page) -> bool:
    """Wait until it is this page's player's turn or the hand is over; True when over."""
    page.wait_for_function(f"""() => {{ const t = {TABLE};
        return t && t.state && t.state.view && t.ws.readyState === 1 &&
               (t.state.view.is_over || t.state.view.turn === t.seat); }}""")
    return bool(page.evaluate(f"{TABLE}.state.view.is_over"))


def take_turn(page: Page) -> None:
    """Ask for a hint, then play it (or pass) by clicks."""
    before = version(page)
    page.get_by_test_id("hint").click()
    page.wait_for_function(f"() => {TABLE}.lastHint !== null")
    if page.evaluate(f"{TABLE}.lastHint") == "pass":
        page.get_by_test_id("pass").click()
    else:
        expect(page.locator("[data-testid=card][aria-pressed=true]").first).to_be_visible()
        page.get_by_test_id("play").click()
    page.wait_for_function(f"v => {TABLE}.state.version > v", arg=before)


def hand_cards(page: Page) -> list[str]:
    return [c.get_attribute("data-card") or "" for c in page.get_by_test_id("card").all()]


def quick_game(page: Page, server: Server, name: str = "Lan", rules: str = "pagat") -> None:
    """Lan's quick game against bots from the lobby, on ``rules`` (pagat's by default: no
    instant win ends a random deal before it is played)."""
    page.goto(server.base + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("quick-rules").select_option(rules)
    page.get_by_test_id("quick-game").click()
    page.wait_for_url("**/t/*")
    expect(page.get_by_test_id("card").first).to_be_visible()


def practice_table(page: Page, server: Server, players: int, rules: str,
                   seed: int | None = None) -> None:
    """Lan at a practice table with bots, on these rules (its deals fixed by ``seed``), its
    page open."""
    page.goto(server.base + "/")
    made = page.evaluate("""async ([players, rules, seed]) => (await fetch("/api/tables", {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(
        {name: "Lan", players, rules, quick: true, seed})})).json()""", [players, rules, seed])
    page.goto(server.base + f"/t/{made['id']}")


def practice_hand_played_out(page: Page, server: Server, players: int, rules: str,
                             seed: int) -> None:
    """Lan at a practice table with bots (its deals fixed by ``seed``), its first hand played to
    the end by hints, the end panel up."""
    practice_table(page, server, players, rules, seed)
    while not wait_turn_or_over(page):
        take_turn(page)
    expect(page.get_by_test_id("end-panel")).to_be_visible()


def sit_with_bots(host: Page, guest: Page, name: str, bots: int = 0) -> None:
    """``guest`` (at the table's page) sits as ``name``; then the host adds ``bots`` bots."""
    guest.get_by_test_id("join-name").fill(name)
    guest.get_by_test_id("join").click()
    expect(host.get_by_test_id("seats")).to_contain_text(name)
    for _ in range(bots):
        host.get_by_test_id("add-bot").click()
    if bots:
        expect(host.get_by_test_id("seats")).to_contain_text(f"Bot {bots}")

def test_a_quick_game_played_to_the_end_by_clicks(page: Page, server: Server) -> None:
    quick_game(page, server)
    card = page.get_by_test_id("card").first
    expect(card).to_have_attribute("aria-pressed", "false")
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    card.click()
    expect(card).to_have_attribute("aria-pressed", "false")
    while not wait_turn_or_over(page):
        expect(page.get_by_test_id("status")).to_contain_text("Your turn")
        take_turn(page)
    expect(page.get_by_test_id("status")).to_contain_text("Hand over")
    expect(page.get_by_test_id("scores")).to_contain_text("Lan")
    expect(page.get_by_test_id("records")).to_contain_text("Hand 1")
    page.get_by_test_id("next-hand").click()
    page.wait_for_function(f"() => {TABLE}.state.info.hand_no === 2")
    expect(page.get_by_test_id("card").first).to_be_visible()


def test_two_browsers_join_one_table_by_its_link_and_play_with_two_bots(
        browser: Browser, server: Server) -> None:
    host = browser.new_context().new_page()
    host.goto(server.base + "/")
    host.get_by_test_id("name").fill("Lan")
    host.get_by_test_id("new-table").click()
    host.get_by_test_id("rules").select_option("thirteen")  # no instant win ends its deals
    host.get_by_test_id("players").fill("4")
    host.get_by_test_id("create").click()
    host.wait_for_url("**/t/*")
    invite = host.get_by_test_id("invite-link")
    expect(invite).to_have_attribute("href", re.compile(r"/t/"))  # set once the table is shown
    link = invite.get_attribute("href")
    assert link
    guest = browser.new_context().new_page()
    guest.goto(link)
    sit_with_bots(host, guest, "Minh", bots=2)
    host.get_by_test_id("start").click()
    expect(guest.get_by_test_id("card").first).to_be_visible()
    for _ in range(200):
        if host.evaluate(f"{TABLE}.state.view.is_over"):
            break
        for page in (host, guest):
            t: Any = page.evaluate(f"[{TABLE}.state.view.turn, {TABLE}.seat, {TABLE}.state.view.is_over]")
            if t[0] == t[1] and not t[2]:
                take_turn(page)
        host.wait_for_function(f"""() => {{ const v = {TABLE}.state.view;
            return v.is_over || v.turn === 0 || v.turn === 1; }}""")
        guest.wait_for_function(f"v => {TABLE}.state.version >= v", arg=version(host))
    for page in (host, guest):
        expect(page.get_by_test_id("status")).to_contain_text("Hand over")
    expect(guest.get_by_test_id("scores")).to_contain_text("Lan")


def test_a_refused_play_shows_its_reason(page: Page, server: Server) -> None:
    quick_game(page, server)
    wait_turn_or_over(page)
    before = hand_cards(page)
    page.get_by_test_id("card").first.click()
    page.get_by_test_id("card").last.click()
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("reason")).to_contain_text("is not a combination")
    expect(page.get_by_test_id("status")).to_contain_text("Not allowed")
    assert hand_cards(page) == before
    page.get_by_test_id("card").first.click()  # the refused cards stay selected: unselect them
    page.get_by_test_id("card").last.click()
    expect(page.locator("[data-testid=card][aria-pressed=true]")).to_have_count(0)
    page.get_by_test_id("play").click()
    expect(page.get_by_test_id("reason")).to_contain_text("select the cards")


def test_a_reload_and_a_server_restart_mid_hand_resume_the_same_state(page: Page,
                                                                      server: Server) -> None:
    quick_game(page, server)
    wait_turn_or_over(page)
    take_turn(page)
    wait_turn_or_over(page)
    at = version(page)
    cards = hand_cards(page)
    history = page.get_by_test_id("history").inner_text()
    page.reload()
    wait_turn_or_over(page)
    assert version(page) == at and hand_cards(page) == cards
    assert page.get_by_test_id("history").inner_text() == history
    server.restart()
    page.wait_for_function(f"v => {TABLE}.ws.readyState === 1 && {TABLE}.state.version === v", arg=at)
    wait_turn_or_over(page)
    assert version(page) == at and hand_cards(page) == cards
    take_turn(page)
    assert version(page) > at
